// CueKitASS owns Advanced SubStation Alpha (.ass) and SubStation Alpha (.ssa): its reader (the way
// libass and the players built on it read files, on bytes, streaming), and the ass- diagnostic codes.

import CueKit

/// Advanced SubStation Alpha (`.ass`, v4.00+) and SubStation Alpha (`.ssa`, v4.00): the names
/// shared by the reader and its users.
///
/// An ASS script is an INI-like text file: `[Script Info]` (the coordinate space, PlayResX and
/// PlayResY), a styles section (`[V4+ Styles]`, SSA's `[V4 Styles]`) whose `Format:` line names the
/// fields of each `Style:` line, and `[Events]`, whose `Dialogue:` lines are the subtitles
/// (`Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text`, the text taking the
/// rest of the line, commas included) and `Comment:` lines the author's notes.
public enum ASS {
    /// The media type ASS scripts are served with (``TrackFormat/mediaType``).
    public static let mediaType = TrackFormat.ass.mediaType

    /// The file extension of ASS scripts, without the dot.
    public static let fileExtension = TrackFormat.ass.preferredFileExtension
}

extension DiagnosticCode {
    // Structure.

    /// The input has no `[Script Info]` and no `[Events]`: it is not an ASS script; reading fails.
    public static let assNotScript: DiagnosticCode = "ass-not-script"
    /// The script has no `[Events]` section, or no `Dialogue:` line in it.
    public static let assNoEvents: DiagnosticCode = "ass-no-events"
    /// A section header with no closing `]`: read up to the end of its line.
    public static let assSectionHeader: DiagnosticCode = "ass-section-header"
    /// A line that is not `Key: value` in a section that needs one, or text before the first
    /// section; skipped.
    public static let assStrayLine: DiagnosticCode = "ass-stray-line"
    /// A line longer than the reader's limit; the rest of it is dropped.
    public static let assTooLong: DiagnosticCode = "ass-too-long"
    /// More styles than ``ASSReader/Options/Limits/maximumStyles``, more colours than
    /// ``ASSReader/Options/Limits/maximumColors``, or a `Format:` line of more fields than
    /// ``ASSReader/Options/Limits/maximumFields``: the rest are left out.
    public static let assLimit: DiagnosticCode = "ass-limit"
    /// A `Style:` line comes after the first event: its rule is handed out late.
    public static let assLateStyle: DiagnosticCode = "ass-late-style"
    /// An event line (`Picture:`, `Sound:`, `Movie:`, `Command:`) the model has no place for.
    public static let assEventIgnored: DiagnosticCode = "ass-event-ignored"

    // Fields.

    /// A `Style:` or `Dialogue:` line with fewer fields than its `Format:` line names; skipped.
    public static let assMissingFields: DiagnosticCode = "ass-missing-fields"
    /// A style field that cannot be read (a colour, a number): its default is used.
    public static let assBadStyleField: DiagnosticCode = "ass-bad-style-field"
    /// An event names a style the script does not define: it is shown in `Default`, as libass does.
    public static let assUnknownStyle: DiagnosticCode = "ass-unknown-style"
    /// A time that cannot be read (`H:MM:SS.CC`); the event is skipped.
    public static let assBadTime: DiagnosticCode = "ass-bad-time"
    /// A time whose fraction has other than two digits: read as a decimal fraction of a second.
    public static let assTimeFraction: DiagnosticCode = "ass-time-fraction"
    /// An event ends before it starts, or when it starts: it is never shown.
    public static let assEndBeforeStart: DiagnosticCode = "ass-end-before-start"
    /// An event that shows no text (only tags, a drawing, white space): no cue is made of it.
    public static let assEmptyEvent: DiagnosticCode = "ass-empty-event"

    // Overrides and styles WebVTT cannot carry.

    /// An override tag (karaoke, drawing, transform, `\move`, fades, rotation…), an `Effect`, or a
    /// style property WebVTT cannot carry; reported once per kind.
    public static let assUnsupported: DiagnosticCode = "ass-unsupported"

    // Encoding.

    /// Bytes that are not UTF-8 were read as U+FFFD.
    public static let assInvalidUTF8: DiagnosticCode = "ass-invalid-utf8"
    /// More diagnostics of one code than the reader reports; the rest are counted.
    public static let assDiagnosticsLimited: DiagnosticCode = "ass-diagnostics-limited"
}
