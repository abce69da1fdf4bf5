import CueKit

extension TrackGenerator {
    // MARK: ASS

    mutating func writeASSHeader() {
        append("[Script Info]\n; cuekit generate: seed \(options.seed), \(options.cues) cues\nScriptType: v4.00+\nPlayResX: 1920\nPlayResY: 1080\nWrapStyle: 0\n\n")
        append("[V4+ Styles]\n")
        append(
            "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n"
        )
        append("Style: Default,Arial,54,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,2,1,2,96,96,54,1\n")
        append("Style: Sign,Georgia,48,&H0000FFFF,&H000000FF,&H00202020,&H00000000,0,0,0,0,100,100,0,0,3,2,0,8,96,96,54,1\n\n")
        append("[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n")
    }

    /// One `Dialogue:` line (a `Comment:` line before it where WebVTT has a NOTE): the cue's
    /// styles as override tags, its placement as `{\anN}` or a style.
    mutating func writeASSCue() {
        if let note = cue.note {
            append("Comment: 0,")
            appendASSTime(cue.start)
            append(",")
            appendASSTime(cue.start)
            append(",Default,,0,0,0,,")
            output.append(contentsOf: GeneratorVocabulary.notes[note].map { $0 == 0x0A ? 0x20 : $0 })
            append("\n")
        }
        append("Dialogue: 0,")
        appendASSTime(cue.start)
        append(",")
        appendASSTime(cue.end)
        append(cue.placement == .regionTop ? ",Sign," : ",Default,")
        if let speaker = cue.speaker { append(GeneratorVocabulary.speakers[speaker].name) }
        append(",0,0,0,,")
        switch cue.placement {
        case .top: append("{\\an8}")
        case .topLeft: append("{\\an7}")
        case .middle: append("{\\an5}")
        case .bottomLeft: append("{\\an1}")
        case .bottomRight: append("{\\an3}")
        case .vertical: append("{\\pos(1700,540)}")
        default: break
        }
        appendSegments(spelled: .ass)
        append("\n")
    }

    /// `H:MM:SS.CC`.
    mutating func appendASSTime(_ milliseconds: Int) {
        let centiseconds = milliseconds / 10
        appendDecimal(centiseconds / 360_000)
        for (value, separator) in [(centiseconds / 6000 % 60, ":"), (centiseconds / 100 % 60, ":"), (centiseconds % 100, ".")] {
            append(separator)
            if value < 10 { append("0") }
            appendDecimal(value)
        }
    }

    /// `#rrggbb` as ASS's `BBGGRR`.
    static func assColor(_ hex: String) -> String {
        let digits = Array(hex.utf8.dropFirst())
        return String(decoding: digits[4..<6] + digits[2..<4] + digits[0..<2], as: UTF8.self).uppercased()
    }
}
