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

        /// Creates a report.
        public init(nullCharacters: Int, invalidSequences: Int, firstNullColumn: Int, firstInvalidColumn: Int) {
            self.nullCharacters = nullCharacters
            self.invalidSequences = invalidSequences
            self.firstNullColumn = firstNullColumn
            self.firstInvalidColumn = firstInvalidColumn
        }

        /// Nothing replaced.
        public static let none = Repairs(nullCharacters: 0, invalidSequences: 0, firstNullColumn: 0, firstInvalidColumn: 0)

        /// True when nothing was replaced.
        public var isEmpty: Bool { nullCharacters == 0 && invalidSequences == 0 }
    }

    /// The longest line accepted, in bytes (after the terminator is removed).
    public let maximumLineLength: Int

    /// How many lines have been handed out.
    public private(set) var lineCount = 0

    private var splitter: LineSplitter
    private var repaired: [UInt8] = []
    /// Leading bytes that may still turn out to be a byte order mark.
    private var byteOrderMarkProbe: [UInt8] = []
    private var byteOrderMarkDecided = false

    /// The default ``maximumLineLength``: 16 MiB.
    public static let defaultMaximumLineLength = 16 << 20

    /// The code of the error thrown for a line longer than ``maximumLineLength``.
    public static let lineTooLongCode: DiagnosticCode = "vtt-line-too-long"

    /// Creates a decoder.
    public init(maximumLineLength: Int = WebVTTLineDecoder.defaultMaximumLineLength) {
        self.maximumLineLength = maximumLineLength
        splitter = LineSplitter(maximumLineLength: maximumLineLength, overflow: .stop)
    }

    /// Decodes the next chunk, handing each line it completes to `body`.
    public mutating func decode(_ chunk: UnsafeRawBufferPointer, _ body: (Line) throws -> Void) throws {
        var start = 0
        guard chunk.count > 0 else { return }
        if !byteOrderMarkDecided {
            start = try probeByteOrderMark(chunk)
            guard start < chunk.count else { return }
        }
        try split(UnsafeRawBufferPointer(rebasing: chunk[start...]), body)
    }

    /// True when the next byte starts a line: no line is open, no CR waits for its LF, and the
    /// byte order mark is settled. Whole lines may then be read without the decoder, which is
    /// told how many with ``skip(lines:)``.
    var isAtLineStart: Bool { byteOrderMarkDecided && splitter.isAtLineStart }

    /// Counts `lines` lines read past the decoder, each ended by LF and needing no repair.
    mutating func skip(lines: Int) {
        lineCount += lines
    }

    /// Marks the end of input: hands a last line without terminator to `body`.
    public mutating func finish(_ body: (Line) throws -> Void) throws {
        if !byteOrderMarkDecided {
            byteOrderMarkDecided = true
            let probe = byteOrderMarkProbe
            byteOrderMarkProbe = []
            try probe.withUnsafeBytes { try split($0, body) }
        }
        // The splitter is moved out while it calls back into the decoder.
        var splitter = self.splitter
        self.splitter = LineSplitter(maximumLineLength: 0, overflow: .stop)
        defer { self.splitter = splitter }
        do {
            try splitter.finish { line in try emit(line.bytes, isPlainASCII: line.isPlainASCII, body) }
        } catch is LineSplitter.TooLong {
            throw lineTooLong()
        }
    }

    private mutating func split(_ bytes: UnsafeRawBufferPointer, _ body: (Line) throws -> Void) throws {
        var splitter = self.splitter
        self.splitter = LineSplitter(maximumLineLength: 0, overflow: .stop)
        defer { self.splitter = splitter }
        do {
            try splitter.split(bytes) { line in try emit(line.bytes, isPlainASCII: line.isPlainASCII, body) }
        } catch is LineSplitter.TooLong {
            throw lineTooLong()
        }
    }

    /// Consumes the leading bytes that may be a byte order mark; returns where the rest starts.
    private mutating func probeByteOrderMark(_ chunk: UnsafeRawBufferPointer) throws -> Int {
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
                let probe = byteOrderMarkProbe
                byteOrderMarkProbe = []
                try probe.withUnsafeBytes { try split($0) { _ in } }
                return index
            }
        }
        return index
    }

    private mutating func emit(_ bytes: UnsafeRawBufferPointer, isPlainASCII: Bool, _ body: (Line) throws -> Void) throws {
        lineCount += 1
        if isPlainASCII || UTF8Repair.isClean(bytes) {
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
