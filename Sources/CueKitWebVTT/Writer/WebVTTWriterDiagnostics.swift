import CueKit

/// The codes of the diagnostics ``WebVTTWriter`` reports: every change it had to make so that its
/// output is a valid WebVTT file that reads back as the track it was given.
///
/// Severity follows one rule. `error`: the output says something other than the model (a block,
/// setting or region reference left out; a time, number, identifier or text changed). `warning`:
/// the output differs only in a way every WebVTT reader reads the same (line breaks normalised, a
/// NUL written as U+FFFD as the parser would replace it, `-->` in cue text written as `--&gt;`).
extension DiagnosticCode {
    /// A header event came after other events; it was not written.
    public static let vttWriteLateHeader: DiagnosticCode = "vtt-write-late-header"
    /// The header text held line breaks, empty lines or `-->` that would end the header early.
    public static let vttWriteHeaderText: DiagnosticCode = "vtt-write-header-text"
    /// A `REGION` definition came after the first cue, where WebVTT ignores it; it was left out.
    public static let vttWriteLateRegion: DiagnosticCode = "vtt-write-late-region"
    /// A `STYLE` sheet came after the first cue, where WebVTT ignores it; it was left out.
    public static let vttWriteLateStylesheet: DiagnosticCode = "vtt-write-late-stylesheet"
    /// A region identifier holds white space or `-->`, which the region syntax cannot carry; the
    /// region was left out.
    public static let vttWriteRegionIdentifier: DiagnosticCode = "vtt-write-region-identifier"
    /// A second region with the same identifier: it replaces the earlier one, as in WebVTT readers,
    /// and only the later is written.
    public static let vttWriteDuplicateRegion: DiagnosticCode = "vtt-write-duplicate-region"
    /// A region setting outside what WebVTT can express (a percentage outside 0–100, NaN, negative
    /// lines); it was clamped or left at its default.
    public static let vttWriteRegionSetting: DiagnosticCode = "vtt-write-region-setting"
    /// A style sheet held `-->`, empty lines or line breaks that would end the block early; it was
    /// made safe (or, when empty, left out).
    public static let vttWriteStylesheetText: DiagnosticCode = "vtt-write-stylesheet-text"
    /// A comment held `-->`, empty lines or carriage returns that would end it early.
    public static let vttWriteNoteText: DiagnosticCode = "vtt-write-note-text"
    /// A cue identifier held a line break or `-->`, which would end or misplace it.
    public static let vttWriteCueIdentifier: DiagnosticCode = "vtt-write-cue-identifier"
    /// A cue time is negative, which no timestamp can express; it was written as zero.
    public static let vttWriteNegativeTime: DiagnosticCode = "vtt-write-negative-time"
    /// A cue does not end after it starts; written as it is, since browsers keep such a cue (and
    /// never show it), and reading the output reports it again (`vtt-end-not-after-start`).
    public static let vttWriteEndNotAfterStart: DiagnosticCode = "vtt-write-end-not-after-start"
    /// A cue setting outside what WebVTT can express (NaN, a percentage outside 0–100, an
    /// alignment without the position it aligns); it was clamped or left out.
    public static let vttWriteCueSetting: DiagnosticCode = "vtt-write-cue-setting"
    /// A cue names a region the track does not define (or that could not be written); the
    /// `region:` setting was left out, as a WebVTT reader would ignore it.
    public static let vttWriteUndefinedRegion: DiagnosticCode = "vtt-write-undefined-region"
    /// Cue text held an empty line, a line break at its start or end, a carriage return, a NUL or
    /// `-->`, which would end the cue early or read differently.
    public static let vttWriteCueText: DiagnosticCode = "vtt-write-cue-text"
}
