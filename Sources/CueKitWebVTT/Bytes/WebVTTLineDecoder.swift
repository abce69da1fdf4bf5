import CueKit

/// Cuts WebVTT input into decoded lines: chunks of bytes of any size in, lines out as soon as each
/// is complete (W3C WebVTT, section 6.1, step 1 of the parser algorithm).
///
/// Exactly as the spec's preprocessing says:
/// - a line ends at CR, LF or CRLF, also when the CR ends one chunk and the LF starts the next;
/// - one leading U+FEFF BYTE ORDER MARK is skipped (a second one is text, and fails the signature);
/// - the bytes are decoded as UTF-8, each invalid sequence becoming U+FFFD, and U+0000 becomes
///   U+FFFD; ``Line/repairs`` says what was replaced, so the reader can report it.
///
/// Lines are numbered from 1. A line that lies whole in a chunk and needs no repair is handed out
/// without copying; only a line cut by a chunk boundary is buffered, and a line longer than
/// ``maximumLineLength`` stops decoding with a ``ReadError`` instead of growing the buffer without
/// end.
///
/// ```swift
/// var decoder = WebVTTLineDecoder()
/// try decoder.decode(chunk) { line in print(line.number, line.bytes.count) }
/// try decoder.finish { line in ... }
/// ```
public struct WebVTTLineDecoder: Sendable {
    /// One decoded line, without its terminator. Its bytes are valid only during the call that
    /// receives the line.
    public struct Line {
        /// The line's bytes: valid UTF-8 without NUL.
        public let bytes: UnsafeRawBufferPointer
        /// The line number, from 1.
        public let number: Int
        /// What decoding replaced in the line; empty for almost every line.
        public let repairs: Repairs
    }

    /// What decoding replaced by U+FFFD in one line.
    public struct Repairs: Sendable, Hashable {
        /// How many U+0000 characters.
        public var nullCharacters: Int
        /// How many invalid UTF-8 sequences.
        public var invalidSequences: Int
        /// The column of the first U+0000, or 0.
        public var firstNullColumn: Int
        /// The column of the first invalid sequence, or 0.
        public var firstInvalidColumn: Int

        /// Nothing replaced.
        public static let none = Repairs(nullCharacters: 0, invalidSequences: 0, firstNullColumn: 0, firstInvalidColumn: 0)

        /// True when nothing was replaced.
        public var isEmpty: Bool { nullCharacters == 0 && invalidSequences == 0 }
    }

    /// The longest line accepted, in bytes (after the terminator is removed).
    public var maximumLineLength: Int

    /// How many lines have been handed out.
    public private(set) var lineCount = 0

    private var pending: [UInt8] = []
    private var repaired: [UInt8] = []
    /// Leading bytes that may still turn out to be a byte order mark.
    private var byteOrderMarkProbe: [UInt8] = []
    private var byteOrderMarkDecided = false
    /// A CR ended the last chunk: an LF starting the next one belongs to it.
    private var skipsLineFeed = false
    /// Bytes have arrived since the last line ended.
    private var hasPartialLine = false

    /// The default ``maximumLineLength``: 16 MiB.
    public static let defaultMaximumLineLength = 16 << 20

    /// The code of the error thrown for a line longer than ``maximumLineLength``.
    public static let lineTooLongCode: DiagnosticCode = "vtt-line-too-long"

    /// Creates a decoder.
    public init(maximumLineLength: Int = WebVTTLineDecoder.defaultMaximumLineLength) {
        self.maximumLineLength = maximumLineLength
    }

    /// Decodes the next chunk, handing each line it completes to `body`.
    public mutating func decode(_ chunk: UnsafeRawBufferPointer, _ body: (Line) throws -> Void) throws {
        var start = 0
        let count = chunk.count
        guard count > 0 else { return }
        if !byteOrderMarkDecided {
            start = probeByteOrderMark(chunk)
            guard start < count else { return }
        }
        if skipsLineFeed {
            skipsLineFeed = false
            if chunk[start] == lineFeed {
                start += 1
            }
        }
        // The next CR and LF at or after `start` (`count` when there is none), searched lazily.
        var nextLineFeed = -1
        var nextCarriageReturn = -1
        while start < count {
            if nextLineFeed < start { nextLineFeed = ByteScanning.firstIndex(of: lineFeed, in: chunk, from: start, to: count) }
            if nextCarriageReturn < start {
                nextCarriageReturn = ByteScanning.firstIndex(of: carriageReturn, in: chunk, from: start, to: count)
            }
            let end = min(nextLineFeed, nextCarriageReturn)
            if end == count {
                try appendPending(UnsafeRawBufferPointer(rebasing: chunk[start..<count]))
                return
            }
            if pending.isEmpty && !hasPartialLine {
                try emit(UnsafeRawBufferPointer(rebasing: chunk[start..<end]), body)
            } else {
                try appendPending(UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
                try emitPending(body)
            }
            if chunk[end] == carriageReturn {
                if end + 1 < count {
                    start = chunk[end + 1] == lineFeed ? end + 2 : end + 1
                } else {
                    start = end + 1
                    skipsLineFeed = true
                }
            } else {
                start = end + 1
            }
        }
    }

    /// Marks the end of input: hands a last line without terminator to `body`.
    public mutating func finish(_ body: (Line) throws -> Void) throws {
        if !byteOrderMarkDecided {
            byteOrderMarkDecided = true
            if !byteOrderMarkProbe.isEmpty {
                pending = byteOrderMarkProbe
                hasPartialLine = true
            }
            byteOrderMarkProbe = []
        }
        if hasPartialLine {
            try emitPending(body)
        }
        skipsLineFeed = false
    }

    /// Consumes the leading bytes that may be a byte order mark; returns where the rest starts.
    private mutating func probeByteOrderMark(_ chunk: UnsafeRawBufferPointer) -> Int {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        var index = 0
        while index < chunk.count {
            let byte = chunk[index]
            if byte == mark[byteOrderMarkProbe.count] {
                byteOrderMarkProbe.append(byte)
                index += 1
                if byteOrderMarkProbe.count == mark.count {
                    byteOrderMarkProbe = []
                    byteOrderMarkDecided = true
                    return index
                }
            } else {
                // Not a mark: the bytes taken so far are the start of the first line.
                byteOrderMarkDecided = true
                if !byteOrderMarkProbe.isEmpty {
                    pending = byteOrderMarkProbe
                    hasPartialLine = true
                    byteOrderMarkProbe = []
                }
                return index
            }
        }
        return index
    }

    private mutating func appendPending(_ bytes: UnsafeRawBufferPointer) throws {
        guard pending.count + bytes.count <= maximumLineLength else { throw lineTooLong() }
        pending.append(contentsOf: bytes)
        hasPartialLine = true
    }

    private mutating func emitPending(_ body: (Line) throws -> Void) throws {
        let line = pending
        pending = []
        hasPartialLine = false
        try line.withUnsafeBytes { try emit($0, body) }
        // Keep a buffer of ordinary size for the next cut line; let a huge one go.
        if line.capacity <= 1 << 16 {
            pending = line
            pending.removeAll(keepingCapacity: true)
        }
    }

    private mutating func emit(_ bytes: UnsafeRawBufferPointer, _ body: (Line) throws -> Void) throws {
        guard bytes.count <= maximumLineLength else { throw lineTooLong() }
        lineCount += 1
        if ByteScanning.isPlainASCII(bytes) || UTF8Repair.isClean(bytes) {
            try body(Line(bytes: bytes, number: lineCount, repairs: .none))
            return
        }
        var output = repaired
        repaired = []
        output.removeAll(keepingCapacity: true)
        let report = UTF8Repair.repair(bytes, into: &output)
        let repairs = Repairs(
            nullCharacters: report.nullCharacters,
            invalidSequences: report.invalidSequences,
            firstNullColumn: report.firstNullColumn,
            firstInvalidColumn: report.firstInvalidColumn
        )
        try output.withUnsafeBytes { try body(Line(bytes: $0, number: lineCount, repairs: repairs)) }
        if output.capacity <= 1 << 16 { repaired = output }
    }

    private func lineTooLong() -> ReadError {
        ReadError(
            Self.lineTooLongCode,
            at: SourceLocation(line: lineCount + 1, column: 1),
            "line \(lineCount + 1) is longer than \(maximumLineLength) bytes, the limit for one line"
        )
    }
}

private let lineFeed = UInt8(ascii: "\n")
private let carriageReturn = UInt8(ascii: "\r")
