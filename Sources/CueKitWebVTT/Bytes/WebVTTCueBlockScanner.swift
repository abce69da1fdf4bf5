import CCueKitBytes
import CueKit

/// One ordinary cue block lying whole in memory: an optional identifier line, a timing line,
/// and text lines up to an empty line. Its parts borrow the bytes it was found in.
struct WebVTTCueBlock {
    /// The identifier line, or empty when the timing line is the block's first.
    var identifier: UnsafeRawBufferPointer
    /// The line with `-->`.
    var timingLine: UnsafeRawBufferPointer
    /// The text lines joined by their LFs (what the line-by-line path buffers), maybe empty.
    var text: UnsafeRawBufferPointer
    /// False when the text has neither `<` nor `&`: one text node, which no cue text rule can fault.
    var textHasMarkup: Bool
    /// What the scan proved of the block's bytes: valid UTF-8 always, ASCII maybe.
    var encoding: ProvenEncoding
    /// How many lines the block has.
    var lineCount: Int
    /// The offset just after the block's last line: the LF of the empty line that ends it.
    var end: Int
}

/// What a scan proved of a cue's bytes before strings are made of them.
enum ProvenEncoding {
    /// Nothing: the bytes are to be validated as UTF-8 (and repaired) by whoever decodes them.
    case unknown
    /// Valid UTF-8.
    case validUTF8
    /// ASCII.
    case ascii

    /// `bytes` as a `String`, validated and repaired only when nothing was proved: text proved
    /// valid is copied as it is (`String(decoding:as:)` would check every byte again, which for
    /// text beyond ASCII costs more than the rest of reading the cue).
    @inline(__always)
    func string(_ bytes: UnsafeRawBufferPointer) -> String {
        switch self {
        case .unknown:
            return String(decoding: bytes, as: UTF8.self)
        case .validUTF8, .ascii:
            let span = bytes.assumingMemoryBound(to: UInt8.self).span
            return String(copying: unsafe UTF8Span(unchecked: span, isKnownASCII: self == .ascii))
        }
    }
}

/// Finds whole cue blocks for the WebVTT reader's fast path (``WebVTTBlockParser/consumeCueBlocks``).
///
/// The line-by-line path splits every line, checks its UTF-8, looks for `-->` in it and copies it
/// into the block's buffer. Where a chunk holds a whole block and has neither CR nor NUL (the
/// caller's `limit` stops before the first), lines end at LF alone and need no repair but UTF-8's;
/// such a block is found by one pass of vector instructions over its bytes (`cuekit_scan_block`,
/// in CCueKitBytes), which finds its line ends, the lines with `-->`, and whether it has markup or
/// bytes beyond ASCII (validated as UTF-8 only then), and is read from the chunk without a copy.
/// It must also be a plain cue: `-->` on its first line, or on its second after an identifier,
/// none in its text, every line within the reader's limits.
///
/// Any other block (a NOTE, STYLE or REGION block, a cue with `-->` in its text, a block with
/// invalid UTF-8, one that `limit` cuts) is left to the line-by-line path, which gives the events
/// the spec's algorithm gives; for the blocks taken here both paths give the same events, which
/// tests check on random tracks.
enum WebVTTCueBlockScanner {
    /// The cue block starting at `start` (the start of a non-empty line) in `bytes[..<limit]`, or
    /// nil when there is none to take whole.
    static func cueBlock(
        in bytes: UnsafeRawBufferPointer, from start: Int, limit: Int, maximumLineLength: Int, maximumBlockLength: Int
    ) -> WebVTTCueBlock? {
        guard let base = bytes.baseAddress else { return nil }
        var shape = CueKitBlockShape()
        // No line is longer than the block: most blocks need no line measured.
        guard cuekit_scan_block(base.assumingMemoryBound(to: UInt8.self), start, limit, &shape), shape.firstArrow != 0,
            shape.lastLineEnd - start <= maximumLineLength
        else { return nil }
        // The pass's offsets all lie in `bytes[start..<limit]`: the parts are made without the
        // bounds checks of slicing.
        @inline(__always) func part(_ from: Int, _ to: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base + from, count: to - from) }
        var identifier = UnsafeRawBufferPointer(start: nil, count: 0)
        let timingLine: UnsafeRawBufferPointer
        let textStart: Int
        if shape.firstArrow < shape.firstLineEnd {
            // `-->` on the first line: no identifier, and none in the text (the lines after it).
            guard shape.lastArrow < shape.firstLineEnd else { return nil }
            timingLine = part(start, shape.firstLineEnd)
            textStart = shape.firstLineEnd + 1
        } else {
            // A cue only when the second line has one, and the text (the lines after it) none.
            guard shape.lineCount >= 2, shape.lastArrow < shape.secondLineEnd, shape.firstLineEnd - start <= maximumBlockLength else {
                return nil
            }
            identifier = part(start, shape.firstLineEnd)
            timingLine = part(shape.firstLineEnd + 1, shape.secondLineEnd)
            textStart = shape.secondLineEnd + 1
        }
        let textEnd = max(textStart, shape.lastLineEnd)
        guard textEnd - textStart <= maximumBlockLength else { return nil }
        if shape.hasNonASCII != 0 {
            guard cuekit_utf8_is_valid(base.assumingMemoryBound(to: UInt8.self) + start, textEnd - start) else { return nil }
        }
        return WebVTTCueBlock(
            identifier: identifier, timingLine: timingLine, text: part(textStart, textEnd),
            textHasMarkup: shape.hasMarkup != 0, encoding: shape.hasNonASCII != 0 ? .validUTF8 : .ascii, lineCount: shape.lineCount, end: shape.lastLineEnd + 1)
    }

    /// Where the fast path must stop in `bytes[from...]`: the first CR or NUL, after which lines
    /// may end otherwise than at LF, or need repair.
    static func limit(in bytes: UnsafeRawBufferPointer, from: Int) -> Int {
        let carriageReturn = ByteScanning.firstIndex(of: 0x0D, in: bytes, from: from, to: bytes.count)
        return ByteScanning.firstIndex(of: 0, in: bytes, from: from, to: carriageReturn)
    }

    /// The offset just after the next empty line in `bytes[from...]` (an LF after an LF), or the
    /// end: where the block at `from` is sure to have ended, so that the line-by-line path, given
    /// the bytes up to there, leaves the reader between blocks.
    static func endOfBlock(in bytes: UnsafeRawBufferPointer, from: Int) -> Int {
        var index = from
        let count = bytes.count
        while true {
            let lineEnd = ByteScanning.firstIndex(of: lineFeed, in: bytes, from: index, to: count)
            guard lineEnd + 1 < count else { return count }
            if bytes[lineEnd + 1] == lineFeed { return lineEnd + 2 }
            index = lineEnd + 1
        }
    }
}

private let lineFeed = UInt8(ascii: "\n")
