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

/// Sees each cue's identifier and text as a ``WebVTTReader`` holds them (valid UTF-8, the
/// reader's repairs made), with its times, just before the cue's event (if the reader hands out
/// cues: see ``WebVTTReader/Options/CueContent/diagnosticsOnly``): a borrowed view, valid only
/// during the call, that costs the reader no string.
package protocol WebVTTCueBytesObserver: AnyObject {
    /// One cue's identifier (empty when it has none), text, and start and end in milliseconds;
    /// `textHasMarkup` is false when the text is known to hold neither `<` nor `&`; `timingLine`
    /// is the line number of the cue's timing line (its text starts on the next line).
    func observe(identifier: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer, textHasMarkup: Bool, start: Int, end: Int, timingLine: Int)
}

/// Takes cue blocks whole, as the bytes the reader read them from, in place of their cue events:
/// a consumer that would only write each cue again (a WebVTT to WebVTT conversion with no edit)
/// copies its block instead of having a ``Cue`` built and formatted again.
///
/// Blocks are offered as ``WebVTTCueBlockBytes``, byte for byte what ``WebVTTWriter`` writes for
/// their cue with its default options: an identifier line or none, the timing line as the writer
/// writes it (the block's own when it is already so: `hh:mm:ss.ttt --> hh:mm:ss.ttt` with two-digit
/// hours and no settings; else written again from the settings read), then the text lines, each
/// ending in LF, all valid UTF-8 and read on the fast path (so free of CR, NUL, `-->` in the text
/// and empty lines). Only cues that end after they start and whose settings the writer writes as
/// they are (no region, which it names only once it has written its definition) are offered. The
/// writer writes an empty line, then these bytes. Tests hold both to this.
package protocol WebVTTCueBlockTaker: AnyObject {
    /// Offered one cue block (valid only during the call) with its start and end in milliseconds,
    /// after the diagnostics about it were handed out. Returns true when it took the block: then
    /// no event is made for the cue; false, and the cue's event follows as usual.
    func take(_ block: WebVTTCueBlockBytes, start: Int, end: Int) throws -> Bool
}

/// What a consumer in this package hands the reader for one ``WebVTTReader/feed(_:hooks:to:)`` or
/// ``WebVTTReader/finish(hooks:to:)`` call: something that takes cue blocks whole, something that
/// sees each cue's bytes, and where the checker leaves its cue text parses (for a TTML writer).
///
/// Unchecked `Sendable`: the hooks are references the consumer owns, and the reader holds them only
/// during the call they are handed to, on the calling thread, and forgets them before it returns;
/// a reader between calls holds none, so no reader that crosses a thread carries one.
package struct WebVTTReaderHooks: @unchecked Sendable {
    package var cueBlockTaker: (any WebVTTCueBlockTaker)?
    package var cueBytesObserver: (any WebVTTCueBytesObserver)?
    package var cueTextParseCache: CueTextParseCache?
    /// The cache the checker fills: ``cueTextParseCache``, unless blocks are taken whole.
    var checkerParseCache: CueTextParseCache?

    package init(
        cueBlockTaker: (any WebVTTCueBlockTaker)? = nil, cueBytesObserver: (any WebVTTCueBytesObserver)? = nil,
        cueTextParseCache: CueTextParseCache? = nil
    ) {
        self.cueBlockTaker = cueBlockTaker
        self.cueBytesObserver = cueBytesObserver
        self.cueTextParseCache = cueTextParseCache
    }
}

/// A cue block's bytes (``WebVTTCueBlockTaker``) in up to three pieces, to be joined in order: a
/// block read as it is lies in one; one whose timing line was written again in three, the bytes
/// before that line, the line, and the bytes after it. Borrowed: valid only while offered.
package struct WebVTTCueBlockBytes {
    package var head: UnsafeRawBufferPointer
    package var middle: UnsafeRawBufferPointer
    package var tail: UnsafeRawBufferPointer

    package init(
        head: UnsafeRawBufferPointer, middle: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
        tail: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)
    ) {
        self.head = head
        self.middle = middle
        self.tail = tail
    }

    /// How many bytes the block has.
    package var count: Int { head.count + middle.count + tail.count }

    /// The pieces joined, as an array.
    package var joined: [UInt8] { Array(head) + Array(middle) + Array(tail) }
}
