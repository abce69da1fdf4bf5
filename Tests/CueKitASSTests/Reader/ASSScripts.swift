import CueKit
import CueKitASS

/// Scripts the tests make, from a header with one style and the events given.
enum ASSScripts {
    static let styleFormat =
        "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding"
    static let eventFormat = "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text"

    /// A script of 640 × 480 with style `Default` (and any `styles` lines) and `events` lines.
    static func script(styles: [String] = [], events: [String], info: [String] = []) -> String {
        (["[Script Info]", "ScriptType: v4.00+", "PlayResX: 640", "PlayResY: 480"] + info + ["", "[V4+ Styles]", styleFormat,
            "Style: Default,Arial,48,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,2,2,2,20,20,24,1"]
            + styles + ["", "[Events]", eventFormat] + events).joined(separator: "\n") + "\n"
    }

    /// A `Dialogue:` line from 1 s to 2 s in `Default`.
    static func dialogue(_ text: String, start: String = "0:00:01.00", end: String = "0:00:02.00", style: String = "Default") -> String {
        "Dialogue: 0,\(start),\(end),\(style),,0,0,0,,\(text)"
    }

    static func read(_ text: String, options: ASSReader.Options = .init()) throws -> ReadResult {
        try ASSReader.read(text, options: options)
    }

    /// The one cue of a script of one event.
    static func cue(_ text: String, styles: [String] = [], info: [String] = []) throws -> Cue? {
        try read(script(styles: styles, events: [dialogue(text)], info: info)).track.cues.first
    }
}
