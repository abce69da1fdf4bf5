// CueKitSCC owns Scenarist SCC files (.scc): CEA-608 caption data as hexadecimal byte pairs
// timed by SMPTE timecodes. Its reader decodes them as a 608 decoder displays them.

import CueKit

/// Scenarist SCC, the exchange file of CEA-608 line 21 captions: the names shared by the reader
/// and its users.
///
/// A file is the header line `Scenarist_SCC V1.0`, then lines of a timecode (`hh:mm:ss:ff`
/// non-drop, `hh:mm:ss;ff` drop-frame) and the byte pairs sent from that frame on, one pair a
/// frame, written as four hexadecimal digits with odd parity in each byte's top bit.
public enum SCC {
    /// The media type SCC files are served with (``TrackFormat/mediaType``).
    public static let mediaType = TrackFormat.scc.mediaType

    /// The file extension of SCC files, without the dot.
    public static let fileExtension = TrackFormat.scc.preferredFileExtension

    /// The first line of every SCC file.
    public static let header = "Scenarist_SCC V1.0"

    /// The rows of the CEA-608 caption grid.
    public static let rows = 15
    /// The columns of the CEA-608 caption grid.
    public static let columns = 32
}

extension DiagnosticCode {
    /// The first line is not `Scenarist_SCC V1.0`: it is not an SCC file; reading fails.
    public static let sccNotSCC: DiagnosticCode = "scc-not-scc"
    /// A line's timecode cannot be read (not `hh:mm:ss:ff` or `hh:mm:ss;ff`, or a field out of
    /// range for the frame rate): the line is skipped.
    public static let sccBadTimecode: DiagnosticCode = "scc-bad-timecode"
    /// A line starts at a frame before the previous line's last byte pair: its pairs are sent
    /// right after those (a decoder receives one pair a frame, in order).
    public static let sccTimeBackwards: DiagnosticCode = "scc-time-backwards"
    /// A word that is not four hexadecimal digits: skipped.
    public static let sccBadWord: DiagnosticCode = "scc-bad-word"
    /// A byte with even parity (CEA-608-E section 4.1 asks for odd): the byte is dropped, and with
    /// it a control code it was part of.
    public static let sccParity: DiagnosticCode = "scc-parity"
    /// Text past the grid's 32nd column: dropped, as a decoder drops it.
    public static let sccPastLastColumn: DiagnosticCode = "scc-past-last-column"
    /// A byte pair that is no CEA-608 code: ignored.
    public static let sccUnknownCode: DiagnosticCode = "scc-unknown-code"
    /// What WebVTT cannot carry (flash, background and foreground attributes, text mode): reported
    /// once per kind, the captions kept.
    public static let sccUnsupported: DiagnosticCode = "scc-unsupported"
    /// A pop-on caption loaded into non-displayed memory and never displayed (no End of Caption
    /// before the end of the file): left out.
    public static let sccNeverShown: DiagnosticCode = "scc-never-shown"
    /// A caption still displayed at the end of the file: it ends ten seconds after it was last changed.
    public static let sccShownAtEnd: DiagnosticCode = "scc-shown-at-end"
    /// The channels the file carries captions on, when they are not the one decoded alone (a
    /// note), or when the one decoded carries none (a warning): `--channel` picks another.
    public static let sccChannels: DiagnosticCode = "scc-channels"
    /// More diagnostics of one code than the reader reports; the rest are counted.
    public static let sccDiagnosticsLimited: DiagnosticCode = "scc-diagnostics-limited"
}
