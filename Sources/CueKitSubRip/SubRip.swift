// CueKitSubRip owns SubRip (.srt): its reader (the way players read files in the wild, on bytes,
// streaming) and its writer, and the srt- diagnostic codes.

import CueKit

/// SubRip (`.srt`): the names shared by its reader and writer.
///
/// SubRip has no formal specification. CueKit reads it as the de facto format that SubRip, VLC,
/// ffmpeg and most players accept: blocks of a sequence number, a timing line
/// `00:00:01,000 --> 00:00:02,500`, and one or more lines of text with a few HTML-like tags
/// (`<i>`, `<b>`, `<u>`, `<font color>`), separated by blank lines.
public enum SubRip {
    /// The media type SubRip files are served with (``TrackFormat/mediaType``).
    public static let mediaType = TrackFormat.subRip.mediaType

    /// The file extension of SubRip files, without the dot.
    public static let fileExtension = TrackFormat.subRip.preferredFileExtension
}

extension DiagnosticCode {
    // Reading: structure.

    /// A cue has no sequence number line before its timing line.
    public static let srtMissingSequenceNumber: DiagnosticCode = "srt-missing-sequence-number"
    /// A cue's sequence number is not one more than the previous cue's.
    public static let srtSequenceNumber: DiagnosticCode = "srt-sequence-number"
    /// A sequence number is not followed by a timing line; the block is skipped.
    public static let srtMissingTiming: DiagnosticCode = "srt-missing-timing"
    /// A line has `-->` but is not a timing line that can be read; the block is skipped.
    public static let srtBadTiming: DiagnosticCode = "srt-bad-timing"
    /// Text outside any cue (before the first, or between cues without a timing line); skipped.
    public static let srtStrayText: DiagnosticCode = "srt-stray-text"
    /// A timing line follows cue text with no blank line between them.
    public static let srtMissingBlankLine: DiagnosticCode = "srt-missing-blank-line"
    /// A blank line inside a cue's text (followed by more text, not by a new cue): it is left out.
    public static let srtBlankLineInText: DiagnosticCode = "srt-blank-line-in-text"
    /// An ASS line break (`\N` or `\n`) in the text, read as a line break.
    public static let srtASSLineBreak: DiagnosticCode = "srt-ass-line-break"
    /// The input ends with a sequence number and no timing line: that cue is dropped.
    public static let srtIncompleteCue: DiagnosticCode = "srt-incomplete-cue"
    /// The input holds lines but no cue at all: it is not a SubRip track, and reading fails.
    public static let srtNoCues: DiagnosticCode = "srt-no-cues"
    /// The input is empty, or holds only blank lines: reading fails, as for an empty WebVTT or
    /// TTML file.
    public static let srtEmpty: DiagnosticCode = "srt-empty"
    /// A line or a cue's text is longer than the reader's limit; the rest is dropped.
    public static let srtTooLong: DiagnosticCode = "srt-too-long"
    /// More distinct font colours than ``SubRipReader/Options/Limits/maximumColors``.
    public static let srtTooManyColors: DiagnosticCode = "srt-too-many-colors"

    // Reading: timing.

    /// Milliseconds are separated by `.` (or `:`) instead of SubRip's `,`.
    public static let srtTimestampSeparator: DiagnosticCode = "srt-timestamp-separator"
    /// A timestamp's hours, minutes or seconds do not have two digits, or the hours are missing.
    public static let srtTimestampDigits: DiagnosticCode = "srt-timestamp-digits"
    /// A timestamp has no milliseconds, or fewer or more than three digits of them.
    public static let srtTimestampMilliseconds: DiagnosticCode = "srt-timestamp-milliseconds"
    /// A timestamp's minutes or seconds are over 59.
    public static let srtTimestampRange: DiagnosticCode = "srt-timestamp-range"
    /// A cue ends before it starts, or when it starts: it is never shown.
    public static let srtEndBeforeStart: DiagnosticCode = "srt-end-before-start"
    /// `X1:… X2:… Y1:… Y2:…` pixel coordinates after the timing line are ignored.
    public static let srtCoordinatesIgnored: DiagnosticCode = "srt-coordinates-ignored"
    /// Text after the timing line's end time that is not coordinates; ignored.
    public static let srtTimingTrailingText: DiagnosticCode = "srt-timing-trailing-text"

    // Reading: text encoding.

    /// Bytes that are not UTF-8 were read as U+FFFD.
    public static let srtInvalidUTF8: DiagnosticCode = "srt-invalid-utf8"
    /// A NUL character, read as U+FFFD (as WebVTT reads it).
    public static let srtNullCharacter: DiagnosticCode = "srt-null-character"
    /// UTF-16 input without a byte order mark, or with an unpaired surrogate or a dangling byte.
    public static let srtUTF16: DiagnosticCode = "srt-utf16"

    // Reading: markup.

    /// A tag other than `<i>`, `<b>`, `<u>`, `<font>`, `<br>`: kept as text.
    public static let srtUnknownTag: DiagnosticCode = "srt-unknown-tag"
    /// An end tag with no open tag of its kind: ignored.
    public static let srtUnmatchedEndTag: DiagnosticCode = "srt-unmatched-end-tag"
    /// A tag still open at the end of the cue: closed there.
    public static let srtUnclosedTag: DiagnosticCode = "srt-unclosed-tag"
    /// A `<font>` attribute other than `color` (`face`, `size`), or a `color` that is not a colour.
    public static let srtFontAttributeIgnored: DiagnosticCode = "srt-font-attribute-ignored"
    /// A tag the model has no equivalent for (`<s>`): left out, its text kept.
    public static let srtTagIgnored: DiagnosticCode = "srt-tag-ignored"
    /// An ASS override (`{\i1}`, `{\pos(…)}`) other than `{\anN}`: left out.
    public static let srtOverrideIgnored: DiagnosticCode = "srt-override-ignored"

    // Writing.

    /// Something the model holds that SubRip cannot carry; the message says what was written instead.
    public static let srtWriteUnsupported: DiagnosticCode = "srt-write-unsupported"
    /// A cue time is negative; written as zero.
    public static let srtWriteNegativeTime: DiagnosticCode = "srt-write-negative-time"
    /// Cue text that a SubRip reader would misread (a line like a timing line, a literal tag, an
    /// empty line), written as close to the original as SubRip allows.
    public static let srtWriteCueText: DiagnosticCode = "srt-write-cue-text"
    /// More diagnostics of one code than the reader reports; the rest are counted.
    public static let srtDiagnosticsLimited: DiagnosticCode = "srt-diagnostics-limited"
}
