import CueKit

/// The diagnostics of the WebVTT reader: every way a file departs from the authoring rules of a
/// valid WebVTT file (W3C WebVTT, section 4), beside the recovery the parser algorithm (section 6)
/// performs. The codes of cue text (tags, character references) are declared in `CueKit`, next to
/// the cue text parser.
///
/// Severity follows one rule: an error marks something the author wrote that a browser drops or
/// changes (a cue, a block, a setting, a character); a warning marks something that breaks the
/// rules but that every browser reads as the author meant.
extension DiagnosticCode {
    /// The input does not start with `WEBVTT` (after an optional byte order mark) followed by a
    /// space, a tab or a line break: not a WebVTT file. Thrown as a ``ReadError``.
    public static let vttNoSignature: DiagnosticCode = "vtt-no-signature"
    /// A line longer than the configured limit. Thrown as a ``ReadError``.
    public static let vttLineTooLong: DiagnosticCode = WebVTTLineDecoder.lineTooLongCode
    /// A block longer than the configured limit. Thrown as a ``ReadError``.
    public static let vttBlockTooLong: DiagnosticCode = "vtt-block-too-long"
    /// The STYLE blocks together are longer than ``WebVTTReader/Options/Limits/maximumStyleLength``.
    public static let vttStylesTooLong: DiagnosticCode = "vtt-styles-too-long"
    /// Bytes that are not valid UTF-8, read as U+FFFD.
    public static let vttInvalidUTF8: DiagnosticCode = "vtt-invalid-utf8"
    /// U+0000 NULL characters, read as U+FFFD.
    public static let vttNullCharacter: DiagnosticCode = "vtt-null-character"
    /// Lines directly after the `WEBVTT` line, without a blank line between (legacy headers such
    /// as `Kind: captions`): browsers ignore them.
    public static let vttHeaderText: DiagnosticCode = "vtt-header-text"
    /// A cue whose timing line does not follow the preceding block after a blank line.
    public static let vttMissingBlankLine: DiagnosticCode = "vtt-missing-blank-line"
    /// A timing line (a line with `-->`) that is not `start --> end [settings]`: the block is dropped.
    public static let vttBadTimings: DiagnosticCode = "vtt-bad-timings"
    /// Timings that the parser reads but whose white space is not as the syntax says (spaces or
    /// tabs around `-->` and before the settings, none before the start time).
    public static let vttTimingWhitespace: DiagnosticCode = "vtt-timing-whitespace"
    /// A timestamp with a single digit of hours (`1:00:00.000`).
    public static let vttTimestampHours: DiagnosticCode = "vtt-timestamp-hours"
    /// A cue that does not end after it starts: it is never shown.
    public static let vttEndNotAfterStart: DiagnosticCode = "vtt-end-not-after-start"
    /// A cue that starts before the cue before it (cues must be in order of start time).
    public static let vttStartBeforePrevious: DiagnosticCode = "vtt-start-before-previous"
    /// A cue identifier used by an earlier cue.
    public static let vttDuplicateCueIdentifier: DiagnosticCode = "vtt-duplicate-cue-identifier"
    /// A line with `-->` inside a cue's text: it ends the cue, and what follows up to the next
    /// blank line is dropped.
    public static let vttArrowInPayload: DiagnosticCode = "vtt-arrow-in-payload"
    /// A `NOTE`, `STYLE`, `REGION` or header block containing `-->`: it ends there.
    public static let vttArrowInBlock: DiagnosticCode = "vtt-arrow-in-block"
    /// A cue identifier containing `-->`: it is read as a failed timing line and the cue loses it.
    public static let vttArrowInIdentifier: DiagnosticCode = "vtt-arrow-in-identifier"
    /// A cue setting that is not `name:value`: ignored.
    public static let vttBadSetting: DiagnosticCode = "vtt-bad-setting"
    /// A cue setting WebVTT does not define: ignored.
    public static let vttUnknownSetting: DiagnosticCode = "vtt-unknown-setting"
    /// A cue setting with a value WebVTT does not allow for it: ignored.
    public static let vttBadSettingValue: DiagnosticCode = "vtt-bad-setting-value"
    /// A cue setting given twice in one cue: the last wins.
    public static let vttDuplicateSetting: DiagnosticCode = "vtt-duplicate-setting"
    /// A `line` number with a fraction (`line:1.5`): read, but the syntax allows integers only.
    public static let vttLineNotInteger: DiagnosticCode = "vtt-line-not-integer"
    /// `region:` naming no region defined before the first cue: the cue has no region.
    public static let vttUnknownRegion: DiagnosticCode = "vtt-unknown-region"
    /// `region:` on a cue that also sets `vertical`, `line` or `size`, which take it out of the region.
    public static let vttRegionIgnored: DiagnosticCode = "vtt-region-ignored"
    /// A cue with `size` other than 100% and `align:start` or `align:end` but no `position`.
    public static let vttAutoPositionWithSize: DiagnosticCode = "vtt-auto-position-with-size"
    /// A region setting that is not `name:value`, or has a value WebVTT does not allow: ignored.
    public static let vttBadRegionSetting: DiagnosticCode = "vtt-bad-region-setting"
    /// A region setting WebVTT does not define: ignored.
    public static let vttUnknownRegionSetting: DiagnosticCode = "vtt-unknown-region-setting"
    /// A `REGION` block without `id:`: no cue can refer to it.
    public static let vttRegionWithoutIdentifier: DiagnosticCode = "vtt-region-without-identifier"
    /// A second `REGION` with an identifier already used: it replaces the earlier one.
    public static let vttDuplicateRegionIdentifier: DiagnosticCode = "vtt-duplicate-region-identifier"
    /// A number larger than a browser keeps (region `lines` beyond 4294967295): clamped.
    public static let vttNumberOutOfRange: DiagnosticCode = "vtt-number-out-of-range"
    /// A `STYLE` block after the first cue: ignored.
    public static let vttStyleAfterCue: DiagnosticCode = "vtt-style-after-cue"
    /// A `REGION` block after the first cue: ignored.
    public static let vttRegionAfterCue: DiagnosticCode = "vtt-region-after-cue"
    /// A block that is neither a cue, a comment, a style sheet nor a region: ignored.
    public static let vttUnknownBlock: DiagnosticCode = "vtt-unknown-block"
    /// The identifier check gave up after ``WebVTTReader/Options/Limits/maximumTrackedIdentifiers``
    /// distinct identifiers, to keep memory bounded.
    public static let vttIdentifierCheckStopped: DiagnosticCode = "vtt-identifier-check-stopped"
}
