/// Bytes in any encoding a text format comes in, as lines of UTF-8: the ``TextTranscoder`` and the
/// ``LineSplitter`` a line-based reader (SubRip, ASS) runs its input through, one after the other.
///
/// A reader hands each chunk to ``feed(_:_:)`` and takes the pieces: once, the encoding the
/// transcoder settled on; then each complete line, valid only during the call.
package struct TextLineFeed {
    /// What the feed hands on.
    package enum Piece {
        /// The encoding, and whether a byte order mark said so: first, once.
        case encoding(TextEncoding, marked: Bool)
        /// A line, its end cut off.
        case line(LineSplitter.Line)
    }

    /// The transcoder: the encoding it settled on and the code units it could not decode.
    package private(set) var transcoder: TextTranscoder
    private var splitter: LineSplitter

    /// A feed of text in `declared` (nil: told from the bytes), its lines cut past
    /// `maximumLineLength` bytes (the rest of such a line is dropped and the line marked cut).
    package init(declared: TextEncoding?, maximumLineLength: Int) {
        transcoder = TextTranscoder(declared: declared)
        splitter = LineSplitter(maximumLineLength: maximumLineLength, overflow: .cut)
    }

    /// A feed holding nothing, to put in a reader's place while its own feed calls back into it.
    package static var placeholder: TextLineFeed { TextLineFeed(declared: nil, maximumLineLength: 0) }

    /// Takes the next bytes, in chunks of any size, and hands on the pieces they complete.
    package mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Piece) throws -> Void) throws {
        var transcoder = self.transcoder
        self.transcoder = TextTranscoder(declared: nil)
        defer { self.transcoder = transcoder }
        try transcoder.decode(chunk) { output in try hand(output, body) }
    }

    /// Takes the next bytes as ``feed(_:_:)`` does, and first offers `takeWhole` the decoded bytes
    /// wherever a line starts with none open: at the start of the bytes and after each empty line
    /// (LF, or CR LF, after a line's end). It returns the offset where it stopped, having read the
    /// whole lines before it itself (a reader's fast path); the lines from there up to the next
    /// empty line are handed to `body`, and then `takeWhole` is offered the rest.
    package mutating func feed(
        _ chunk: UnsafeRawBufferPointer, takingWhole takeWhole: (UnsafeRawBufferPointer, Int) throws -> Int, _ body: (Piece) throws -> Void
    ) throws {
        var transcoder = self.transcoder
        self.transcoder = TextTranscoder(declared: nil)
        defer { self.transcoder = transcoder }
        try transcoder.decode(chunk) { output in
            switch output {
            case .encoding(let encoding, let marked): try body(.encoding(encoding, marked: marked))
            case .utf8(let bytes): try split(bytes, takingWhole: takeWhole, body)
            }
        }
    }

    /// Marks the end: hands on what the transcoder held back, then the last line.
    package mutating func finish(_ body: (Piece) throws -> Void) throws {
        var transcoder = self.transcoder
        self.transcoder = TextTranscoder(declared: nil)
        defer { self.transcoder = transcoder }
        try transcoder.finish { output in try hand(output, body) }
        try splitter.finish { line in try body(.line(line)) }
    }

    private mutating func split(
        _ bytes: UnsafeRawBufferPointer, takingWhole takeWhole: (UnsafeRawBufferPointer, Int) throws -> Int, _ body: (Piece) throws -> Void
    ) throws {
        var offset = 0
        while offset < bytes.count {
            if splitter.isAtLineStart {
                offset = try takeWhole(bytes, offset)
                guard offset < bytes.count else { return }
            }
            let stop = Self.endOfEmptyLine(in: bytes, from: offset)
            try splitter.split(UnsafeRawBufferPointer(rebasing: bytes[offset..<stop])) { line in try body(.line(line)) }
            offset = stop
        }
    }

    /// The offset just after the next empty line in `bytes[from...]` (an LF, or a CR LF, right
    /// after an LF), or the end.
    private static func endOfEmptyLine(in bytes: UnsafeRawBufferPointer, from: Int) -> Int {
        var index = from
        let count = bytes.count
        while true {
            let lineEnd = ByteScanning.firstIndex(of: 0x0A, in: bytes, from: index, to: count)
            guard lineEnd + 1 < count else { return count }
            if bytes[lineEnd + 1] == 0x0A { return lineEnd + 2 }
            if bytes[lineEnd + 1] == 0x0D, lineEnd + 2 < count, bytes[lineEnd + 2] == 0x0A { return lineEnd + 3 }
            index = lineEnd + 1
        }
    }

    private mutating func hand(_ output: TextTranscoder.Output, _ body: (Piece) throws -> Void) throws {
        switch output {
        case .encoding(let encoding, let marked): try body(.encoding(encoding, marked: marked))
        case .utf8(let bytes): try splitter.split(bytes) { line in try body(.line(line)) }
        }
    }
}
