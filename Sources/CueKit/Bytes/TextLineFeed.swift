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

    /// Marks the end: hands on what the transcoder held back, then the last line.
    package mutating func finish(_ body: (Piece) throws -> Void) throws {
        var transcoder = self.transcoder
        self.transcoder = TextTranscoder(declared: nil)
        defer { self.transcoder = transcoder }
        try transcoder.finish { output in try hand(output, body) }
        try splitter.finish { line in try body(.line(line)) }
    }

    private mutating func hand(_ output: TextTranscoder.Output, _ body: (Piece) throws -> Void) throws {
        switch output {
        case .encoding(let encoding, let marked): try body(.encoding(encoding, marked: marked))
        case .utf8(let bytes): try splitter.split(bytes) { line in try body(.line(line)) }
        }
    }
}
