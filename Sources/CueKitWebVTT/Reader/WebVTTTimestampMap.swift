import CueKit

/// The `X-TIMESTAMP-MAP` header line of an HLS WebVTT segment (RFC 8216, section 3.5): which
/// MPEG-2 presentation time (90 kHz ticks) a cue time of the segment (`LOCAL`) falls on.
///
/// `X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000` says that cue time 0 is shown with the video
/// frame whose PTS is 900000 (10 s). Browsers ignore the line; HLS players need it to place the cues.
/// The reader accepts it under `WEBVTT` without the `vtt-header-text` warning, and reports one it
/// cannot read (`vtt-timestamp-map`).
public struct WebVTTTimestampMap: Sendable, Hashable {
    /// The MPEG-2 presentation time, in 90 kHz ticks, below 2^33.
    public var mpegTimestamp: UInt64
    /// The cue time it maps to, in milliseconds.
    public var local: Int

    /// The largest PTS plus one: MPEG-2 presentation times are 33-bit counters (ISO/IEC 13818-1).
    public static let mpegTimestampModulus: UInt64 = 1 << 33

    /// Ticks of the MPEG-2 clock in one second.
    public static let mpegTicksPerSecond = 90_000

    /// The line's name, before `=`.
    public static let name = "X-TIMESTAMP-MAP"

    /// A map; `mpegTimestamp` is wrapped modulo 2^33, as the 33-bit clock wraps.
    public init(mpegTimestamp: UInt64, local: Int = 0) {
        self.mpegTimestamp = mpegTimestamp % Self.mpegTimestampModulus
        self.local = local
    }

    /// The header line: `X-TIMESTAMP-MAP=MPEGTS:<ticks>,LOCAL:<hh:mm:ss.ttt>`.
    public var headerLine: String {
        "\(Self.name)=MPEGTS:\(mpegTimestamp),LOCAL:\(CueTimestamp.format(local))"
    }

    /// What is wrong with a line that names `X-TIMESTAMP-MAP` but cannot be read: the column (from
    /// 1) where it goes wrong, and why.
    public struct Malformation: Error, Sendable, Hashable {
        public var column: Int
        public var reason: String
    }

    /// `X-TIMESTAMP-MAP=`, as bytes.
    private static let linePrefix = Array((name + "=").utf8)

    /// True when `line` is an `X-TIMESTAMP-MAP` line, well-formed or not.
    public static func names(_ line: some Collection<UInt8>) -> Bool {
        line.starts(with: linePrefix)
    }

    /// Reads a header line `X-TIMESTAMP-MAP=MPEGTS:<digits>,LOCAL:<timestamp>` (the two in either
    /// order, each once). Throws a ``Malformation`` located in the line.
    public static func parse(_ line: some Collection<UInt8>) throws(Malformation) -> WebVTTTimestampMap {
        let bytes = Array(line)
        let prefix = linePrefix
        guard bytes.starts(with: prefix) else { throw Malformation(column: 1, reason: "the line does not start with 'X-TIMESTAMP-MAP='") }
        var mpeg: UInt64?
        var local: Int?
        var offset = prefix.count
        while true {
            let end = bytes[offset...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.endIndex
            let field = bytes[offset..<end]
            let column = offset + 1
            if field.starts(with: "MPEGTS:".utf8) {
                guard mpeg == nil else { throw Malformation(column: column, reason: "MPEGTS is given twice") }
                let digits = field.dropFirst(7)
                guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
                    throw Malformation(column: column + 7, reason: "MPEGTS must be a whole number of 90 kHz ticks")
                }
                mpeg = digits.reduce(0) { $0 * 10 + UInt64($1 - 0x30) }
            } else if field.starts(with: "LOCAL:".utf8) {
                guard local == nil else { throw Malformation(column: column, reason: "LOCAL is given twice") }
                guard let time = parseTimestamp(field.dropFirst(6)) else {
                    throw Malformation(column: column + 6, reason: "LOCAL must be a WebVTT timestamp such as 00:00:00.000")
                }
                local = time
            } else {
                throw Malformation(column: column, reason: "expected MPEGTS:<ticks> or LOCAL:<timestamp>")
            }
            if end == bytes.endIndex { break }
            offset = end + 1
        }
        guard let mpeg else { throw Malformation(column: prefix.count + 1, reason: "MPEGTS is missing") }
        guard let local else { throw Malformation(column: prefix.count + 1, reason: "LOCAL is missing") }
        return WebVTTTimestampMap(mpegTimestamp: mpeg, local: local)
    }

    /// A WebVTT timestamp (section 4.2): `[hh+:]mm:ss.ttt`, in milliseconds; hours of 2 to 10
    /// digits, minutes and seconds of 2 and under 60, 3 digits of milliseconds, and nothing after.
    /// Collected as cue times are (``CueTimestamp``), whose common forms are read in one step.
    static func parseTimestamp(_ text: ArraySlice<UInt8>) -> Int? {
        text.withUnsafeBytes { bytes in
            var position = 0
            guard case .success(let time) = CueTimestamp.collect(from: bytes, at: &position), position == bytes.count,
                time.hourDigits != 1, time.hourDigits <= 10
            else { return nil }
            return time.milliseconds
        }
    }
}

extension DiagnosticCode {
    /// An `X-TIMESTAMP-MAP` header line (HLS, RFC 8216 section 3.5) that cannot be read: an HLS
    /// player cannot place the segment's cues.
    public static let vttTimestampMap: DiagnosticCode = "vtt-timestamp-map"
}
