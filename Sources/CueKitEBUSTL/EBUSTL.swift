// CueKitEBUSTL owns EBU-STL (EBU Tech 3264, .stl): its reader (the binary GSI and TTI blocks, on
// bytes, streaming), and the stl- diagnostic codes.

import CueKit

/// EBU-STL, the EBU subtitling data exchange format (EBU Tech 3264): the names shared by the
/// reader and its users.
///
/// A file is one 1,024-byte General Subtitle Information (GSI) block, then 128-byte Text and Timing
/// Information (TTI) blocks: each holds a subtitle's number, its in and out timecodes, its vertical
/// position and justification, and up to 112 bytes of text with teletext or open-subtitle control
/// codes; longer subtitles continue in extension blocks.
public enum EBUSTL {
    /// The media type EBU-STL files are served with (``TrackFormat/mediaType``).
    public static let mediaType = TrackFormat.ebuSTL.mediaType

    /// The file extension of EBU-STL files, without the dot.
    public static let fileExtension = TrackFormat.ebuSTL.preferredFileExtension

    /// The size of the GSI block.
    public static let gsiBlockSize = 1024
    /// The size of a TTI block.
    public static let ttiBlockSize = 128
}

extension DiagnosticCode {
    /// The input is shorter than a GSI block, or its disk format code is not `STLxx.01`: it is not
    /// an EBU-STL file; reading fails.
    public static let stlNotSTL: DiagnosticCode = "stl-not-stl"
    /// A GSI field that cannot be read (frame rate, character code table, a number); the message
    /// says what is used instead.
    public static let stlGSIField: DiagnosticCode = "stl-gsi-field"
    /// The input ends inside a TTI block: the cut block is left out.
    public static let stlTruncatedBlock: DiagnosticCode = "stl-truncated-block"
    /// More TTI blocks than the GSI declares (TNB): read to the end of the file.
    public static let stlMoreBlocksThanDeclared: DiagnosticCode = "stl-more-blocks-than-declared"
    /// A subtitle continues in more extension blocks than ``EBUSTLReader/Options/Limits/maximumExtensionBlocks``,
    /// or an extension block of another subtitle number; the subtitle is cut there.
    public static let stlExtension: DiagnosticCode = "stl-extension"
    /// A timecode that cannot be read (minutes, seconds or frames out of range): the subtitle is skipped.
    public static let stlBadTimecode: DiagnosticCode = "stl-bad-timecode"
    /// A subtitle ends before it starts, or when it starts: it is never shown, and skipped.
    public static let stlEndBeforeStart: DiagnosticCode = "stl-end-before-start"
    /// A subtitle starts while an earlier one is still shown: it replaces it (reported once).
    public static let stlReplaced: DiagnosticCode = "stl-replaced"
    /// A subtitle starts before the start of the programme (TCP): it is skipped.
    public static let stlBeforeProgramme: DiagnosticCode = "stl-before-programme"
    /// Comment blocks (CF 1) are not shown: skipped.
    public static let stlComment: DiagnosticCode = "stl-comment"
    /// A text field byte no character table has a character for: read as U+FFFD.
    public static let stlUnknownCharacter: DiagnosticCode = "stl-unknown-character"
    /// What WebVTT cannot carry (double height, boxing, flash, backgrounds, mosaics): reported once
    /// per kind, the text kept.
    public static let stlUnsupported: DiagnosticCode = "stl-unsupported"
    /// More diagnostics of one code than the reader reports; the rest are counted.
    public static let stlDiagnosticsLimited: DiagnosticCode = "stl-diagnostics-limited"
}
