import CCueKitBytes
import CueKit

/// Rewrites CR LF and lone CR line endings as LF, so that a track written with them reads on the
/// reader's fast path (``WebVTTCueBlockScanner`` takes blocks whose lines end at LF alone).
///
/// WebVTT's parser treats the three endings alike (WebVTT section 6.1): a CR LF pair ends one line,
/// as do a CR and an LF, so rewriting keeps every line, its number and its columns. A CR that ends
/// one piece of input may be the first half of a pair whose LF starts the next: it is written as
/// an LF at once, and that LF is then skipped (``skipLineFeed(_:)``).
///
/// Pieces are rewritten ``sliceLength`` bytes at a time into one buffer that is made once and
/// reused, by one vector pass (`cuekit_rewrite_line_endings`, in CCueKitBytes, a line of a CR LF
/// file a step; a search for each CR and a copy per line cost some 300 instructions a cue), so
/// memory stays bounded whatever the size of the input handed to the reader at once.
struct WebVTTLineEndingNormalizer: Sendable {
    /// The most bytes rewritten at once.
    static let sliceLength = 1 << 16

    private var rewritten: [UInt8] = []
    /// True when the last byte rewritten was a CR: an LF that comes next belongs to it.
    private(set) var skipsLineFeed = false

    /// `bytes` without its first byte when that is the LF of a CR already rewritten.
    mutating func skipLineFeed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard skipsLineFeed else { return bytes }
        skipsLineFeed = false
        guard let first = bytes.first, first == 0x0A else { return bytes }
        return UnsafeRawBufferPointer(rebasing: bytes[1...])
    }

    /// Hands `body` each slice of `bytes` with its line endings rewritten as LF.
    mutating func rewrite(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        // Made once, as long as a slice: a slice rewritten is never longer.
        if rewritten.count < Self.sliceLength { rewritten = [UInt8](repeating: 0, count: Self.sliceLength) }
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + Self.sliceLength, bytes.count)
            let slice = skipLineFeed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            let written = rewritten.withUnsafeMutableBytes { room in Self.rewrite(slice, into: room, skipsLineFeed: &skipsLineFeed) }
            try rewritten.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<written])) }
            offset = end
        }
    }

    /// Copies `slice` into `room` (at least as long) with each CR LF and lone CR as one LF;
    /// returns how many bytes were written. `skipsLineFeed` is set when the slice ends with a CR.
    private static func rewrite(
        _ slice: UnsafeRawBufferPointer, into room: UnsafeMutableRawBufferPointer, skipsLineFeed: inout Bool
    ) -> Int {
        guard let source = slice.baseAddress, let target = room.baseAddress else { return 0 }
        precondition(room.count >= slice.count, "line endings rewritten into too little room")
        if slice.last == 0x0D { skipsLineFeed = true }
        return cuekit_rewrite_line_endings(
            source.assumingMemoryBound(to: UInt8.self), slice.count, target.assumingMemoryBound(to: UInt8.self))
    }
}
