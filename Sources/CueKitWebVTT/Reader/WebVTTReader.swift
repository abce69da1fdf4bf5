import CueKit

/// Reads WebVTT exactly as a browser does: the W3C WebVTT parser algorithm (section 6), step by
/// step, on bytes, streaming.
///
/// Feed it chunks of any size; it hands out the header, style sheets, comments and each cue as
/// soon as the block is complete, holding only the block it is in. Beside the browser's recovery it
/// reports every departure from the authoring rules of a valid file (section 4) as a
/// ``Diagnostic`` at its line and column; a file without the `WEBVTT` signature throws a
/// ``ReadError`` with code ``DiagnosticCode/vttNoSignature``.
///
/// ```swift
/// // A whole document:
/// let result = try WebVTTReader.read("WEBVTT\n\n00:01.000 --> 00:02.000\nHello")
/// // A file of any size, in 64 KiB chunks:
/// var reader = WebVTTReader()
/// try reader.stream(fileAtPath: "captions.vtt") { event in ... }
/// // Bytes as they arrive:
/// try reader.feed(chunk) { event in ... }
/// try reader.finish { event in ... }
/// ```
///
/// Events come in file order, with one exception: `REGION` definitions are handed out together
/// just before the first cue (or at the end), after the spec's rule that a region with an
/// identifier already used replaces the earlier one. The result does not depend on how the input
/// is cut into chunks.
public struct WebVTTReader: TrackReader, Sendable {
    /// The options this reader was made with.
    public let options: Options

    private var signature = WebVTTSignature()
    private var decoder: WebVTTLineDecoder
    private var parser: WebVTTBlockParser
    private var lineEndings = WebVTTLineEndingNormalizer()

    /// Creates a reader.
    public init(options: Options = Options()) {
        self.options = options
        decoder = WebVTTLineDecoder(maximumLineLength: options.limits.maximumLineLength)
        parser = WebVTTBlockParser(options: options)
    }

    /// Takes the next bytes and hands out each event they complete.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, to handler: (TrackEvent) throws -> Void) throws {
        try feed(chunk, hooks: WebVTTReaderHooks(), to: handler)
    }

    /// Marks the end of input and hands out what remains.
    public mutating func finish(to handler: (TrackEvent) throws -> Void) throws {
        try finish(hooks: WebVTTReaderHooks(), to: handler)
    }

    /// ``feed(_:to:)`` with a consumer's hooks (``WebVTTReaderHooks``), held during this call only.
    package mutating func feed(_ chunk: UnsafeRawBufferPointer, hooks: WebVTTReaderHooks, to handler: (TrackEvent) throws -> Void) throws {
        try signature.check(chunk)
        parser.hold(hooks)
        defer { parser.hold(WebVTTReaderHooks()) }
        let chunk = lineEndings.skipsLineFeed ? lineEndings.skipLineFeed(chunk) : chunk
        try Self.decode(chunk, &decoder, &parser, &lineEndings, readsWholeBlocks, handler)
    }

    /// ``finish(to:)`` with a consumer's hooks, held during this call only.
    package mutating func finish(hooks: WebVTTReaderHooks, to handler: (TrackEvent) throws -> Void) throws {
        try signature.finish()
        parser.hold(hooks)
        defer { parser.hold(WebVTTReaderHooks()) }
        try decoder.finish { line in try parser.consume(line, handler) }
        try parser.finish(handler)
    }

    /// Whether ordinary cue blocks lying whole in a chunk are read straight from it
    /// (``WebVTTBlockParser/consumeCueBlocks``) rather than line by line. Both give the same
    /// events; tests turn it off to compare them.
    package var readsWholeBlocks = true

    /// One chunk: whole cue blocks on the fast path while the reader is between blocks, and the
    /// rest line by line, up to the next empty line (after which the reader is between blocks
    /// again) or the end of the chunk. From a CR on, the rest of the chunk has its line endings
    /// rewritten as LF (``WebVTTLineEndingNormalizer``) and is read the same way.
    private static func decode(
        _ chunk: UnsafeRawBufferPointer,
        _ decoder: inout WebVTTLineDecoder,
        _ parser: inout WebVTTBlockParser,
        _ lineEndings: inout WebVTTLineEndingNormalizer,
        _ wholeBlocks: Bool,
        _ handler: (TrackEvent) throws -> Void
    ) throws {
        guard wholeBlocks else {
            try decoder.decode(chunk) { line in try parser.consume(line, handler) }
            return
        }
        let count = chunk.count
        var offset = 0
        var limit = -1
        while offset < count {
            if limit < offset {
                limit = WebVTTCueBlockScanner.limit(in: chunk, from: offset)
                if limit < count, chunk[limit] == 0x0D {
                    // A line ending in CR: the bytes before it as they are, the rest rewritten
                    // (then holding no CR).
                    var unused = WebVTTLineEndingNormalizer()
                    if limit > offset {
                        try decode(UnsafeRawBufferPointer(rebasing: chunk[offset..<limit]), &decoder, &parser, &unused, wholeBlocks, handler)
                    }
                    try lineEndings.rewrite(UnsafeRawBufferPointer(rebasing: chunk[limit...])) { rewritten in
                        try decode(rewritten, &decoder, &parser, &unused, wholeBlocks, handler)
                    }
                    return
                }
            }
            if decoder.isAtLineStart, parser.isBetweenBlocks {
                let (end, lines) = try parser.consumeCueBlocks(chunk, from: offset, limit: limit, firstLine: decoder.lineCount + 1, handler)
                decoder.skip(lines: lines)
                offset = end
                guard offset < count else { return }
            }
            let end = WebVTTCueBlockScanner.endOfBlock(in: chunk, from: offset)
            try decoder.decode(UnsafeRawBufferPointer(rebasing: chunk[offset..<end])) { line in try parser.consume(line, handler) }
            offset = end
        }
    }
}

extension WebVTTReader {
    /// Reads a whole WebVTT document held in a string.
    public static func read(_ text: String, options: Options = Options()) throws -> ReadResult {
        var reader = WebVTTReader(options: options)
        return try reader.read(Array(text.utf8))
    }

    /// Reads a whole WebVTT document held in memory as bytes.
    public static func read(bytes: some Collection<UInt8>, options: Options = Options()) throws -> ReadResult {
        var reader = WebVTTReader(options: options)
        return try reader.read(bytes)
    }

    /// Reads a WebVTT file (`-` for standard input) in 64 KiB chunks; memory is bounded by the
    /// largest block, not by the file.
    public static func read(fileAtPath path: String, options: Options = Options()) throws -> ReadResult {
        var reader = WebVTTReader(options: options)
        return try reader.read(fileAtPath: path)
    }
}
