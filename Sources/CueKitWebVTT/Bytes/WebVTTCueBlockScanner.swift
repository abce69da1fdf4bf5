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
    /// How many lines the block has.
    var lineCount: Int
    /// The offset just after the block's last line: the LF of the empty line that ends it.
    var end: Int
}

/// Finds whole cue blocks for the WebVTT reader's fast path (``WebVTTBlockParser/consumeCueBlocks``).
///
/// The line-by-line path splits every line, checks its UTF-8, looks for `-->` in it and copies it
/// into the block's buffer. Where a chunk holds a whole block and has neither CR nor NUL (the
/// caller's `limit` stops before the first), lines end at LF alone and need no repair but UTF-8's;
/// such a block is found with one search for each line's LF, one look for `-->` in the timing line
/// and one in all of the text, one ASCII test for the whole block, and is read from the chunk
/// without a copy. It must also be a plain cue: `-->` on its first line, or on its second after an
/// identifier, none in its text, every line within the reader's limits.
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
        let firstEnd = ByteScanning.firstIndex(of: lineFeed, in: bytes, from: start, to: limit)
        guard firstEnd < limit, firstEnd - start <= maximumLineLength else { return nil }
        let first = UnsafeRawBufferPointer(rebasing: bytes[start..<firstEnd])
        var identifier = UnsafeRawBufferPointer(start: nil, count: 0)
        let timingLine: UnsafeRawBufferPointer
        var next = firstEnd + 1
        var lineCount = 1
        if ByteScanning.firstArrow(in: first) != nil {
            timingLine = first
        } else {
            // No `-->` on the first line: a cue only when the second line has one.
            guard next < limit, bytes[next] != lineFeed else { return nil }
            let secondEnd = ByteScanning.firstIndex(of: lineFeed, in: bytes, from: next, to: limit)
            guard secondEnd < limit, secondEnd - next <= maximumLineLength, firstEnd - start <= maximumBlockLength else { return nil }
            let second = UnsafeRawBufferPointer(rebasing: bytes[next..<secondEnd])
            guard ByteScanning.firstArrow(in: second) != nil else { return nil }
            identifier = first
            timingLine = second
            next = secondEnd + 1
            lineCount = 2
        }
        // The text: every line up to the empty line that ends the block.
        let textStart = next
        var textEnd = next
        while true {
            guard next < limit else { return nil }
            if bytes[next] == lineFeed { break }
            let end = ByteScanning.firstIndex(of: lineFeed, in: bytes, from: next, to: limit)
            guard end < limit, end - next <= maximumLineLength else { return nil }
            lineCount += 1
            textEnd = end
            next = end + 1
        }
        let text = UnsafeRawBufferPointer(rebasing: bytes[textStart..<textEnd])
        guard text.count <= maximumBlockLength, ByteScanning.firstArrow(in: text) == nil else { return nil }
        let block = UnsafeRawBufferPointer(rebasing: bytes[start..<textEnd])
        guard ByteScanning.isASCII(block) || UTF8Repair.isClean(block) else { return nil }
        return WebVTTCueBlock(identifier: identifier, timingLine: timingLine, text: text, lineCount: lineCount, end: next)
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
