/// Cuts bytes into lines, chunk by chunk, for every reader of a line-based format (WebVTT, SubRip).
///
/// A line ends at LF, at CRLF, or at a CR not followed by LF (W3C WebVTT, section 6.1; old Mac
/// files), also when the CR ends one chunk and the LF starts the next. A line that lies wholly in a
/// chunk is handed on from the chunk's own memory, checked for plain ASCII in the same pass (eight
/// bytes at a time, ``ByteScanning/lineEnd(in:from:to:)``); only a line cut by a chunk boundary is
/// copied, into one reused buffer.
///
/// A line longer than ``maximumLineLength`` is either cut at the limit (``Overflow/cut``: the rest,
/// up to the line break, is dropped and the line is marked) or stops the splitting
/// (``Overflow/stop``: ``TooLong`` is thrown), so memory stays bounded whatever the input.
package struct LineSplitter: Sendable {
    /// What happens to a line over the limit.
    package enum Overflow: Sendable {
        /// It is handed on cut at the limit, marked ``Line/isCut``.
        case cut
        /// Splitting stops: ``TooLong`` is thrown.
        case stop
    }

    /// Thrown for a line over the limit with ``Overflow/stop``.
    package struct TooLong: Error {}

    /// One line, without its terminator. Its bytes are valid only during the call that receives it.
    package struct Line {
        /// The line's bytes.
        package let bytes: UnsafeRawBufferPointer
        /// True when the bytes are known to be ASCII without NUL (false means "not checked" too).
        package let isPlainASCII: Bool
        /// True when the line was longer than the limit and is cut.
        package let isCut: Bool
    }

    /// The longest line handed on whole, in bytes.
    package let maximumLineLength: Int
    /// What happens to a longer one.
    package let overflow: Overflow

    private var carry: [UInt8] = []
    private var carryCut = false
    /// Bytes have arrived since the last line ended.
    private var openLine = false
    /// The previous chunk ended with CR: an LF at the start of this one belongs to it.
    private var afterCarriageReturn = false

    /// A splitter with a limit.
    package init(maximumLineLength: Int, overflow: Overflow) {
        self.maximumLineLength = maximumLineLength
        self.overflow = overflow
    }

    /// True when no line is open and no CR waits for an LF: the next byte starts a line.
    package var isAtLineStart: Bool { !openLine && !afterCarriageReturn }

    /// Splits the next chunk, handing each line it completes to `body`.
    package mutating func split(_ chunk: UnsafeRawBufferPointer, _ body: (Line) throws -> Void) throws {
        let count = chunk.count
        guard count > 0 else { return }
        var start = 0
        if afterCarriageReturn {
            afterCarriageReturn = false
            if chunk[0] == lineFeed { start = 1 }
        }
        while start < count {
            let (end, isPlainASCII) = ByteScanning.lineEnd(in: chunk, from: start, to: count)
            if end == count {
                try keep(UnsafeRawBufferPointer(rebasing: chunk[start..<count]))
                return
            }
            if !openLine {
                let length = end - start
                if length > maximumLineLength {
                    if overflow == .stop { throw TooLong() }
                    try body(Line(bytes: UnsafeRawBufferPointer(rebasing: chunk[start..<(start + maximumLineLength)]), isPlainASCII: false, isCut: true))
                } else {
                    try body(Line(bytes: UnsafeRawBufferPointer(rebasing: chunk[start..<end]), isPlainASCII: isPlainASCII, isCut: false))
                }
            } else {
                try keep(UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
                try handOnCarry(body)
            }
            if chunk[end] == carriageReturn {
                if end + 1 < count {
                    start = chunk[end + 1] == lineFeed ? end + 2 : end + 1
                } else {
                    start = end + 1
                    afterCarriageReturn = true
                }
            } else {
                start = end + 1
            }
        }
    }

    /// Marks the end of input: hands on a last line without a terminator.
    package mutating func finish(_ body: (Line) throws -> Void) throws {
        afterCarriageReturn = false
        if openLine { try handOnCarry(body) }
    }

    /// Keeps bytes of a line the chunk does not finish.
    private mutating func keep(_ bytes: UnsafeRawBufferPointer) throws {
        openLine = true
        let room = maximumLineLength - carry.count
        guard bytes.count > room else {
            carry.append(contentsOf: bytes)
            return
        }
        if overflow == .stop { throw TooLong() }
        carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<max(0, room)]))
        carryCut = true
    }

    private mutating func handOnCarry(_ body: (Line) throws -> Void) throws {
        let line = carry
        let cut = carryCut
        carry = []
        carryCut = false
        openLine = false
        try line.withUnsafeBytes { try body(Line(bytes: $0, isPlainASCII: false, isCut: cut)) }
        // Keep a buffer of ordinary size for the next cut line; let a huge one go.
        if line.capacity <= 1 << 16 {
            carry = line
            carry.removeAll(keepingCapacity: true)
        }
    }
}

private let lineFeed = UInt8(ascii: "\n")
private let carriageReturn = UInt8(ascii: "\r")
