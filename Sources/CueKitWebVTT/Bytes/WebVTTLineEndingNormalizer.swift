import CueKit

/// Rewrites CR LF and lone CR line endings as LF, so that a track written with them reads on the
/// reader's fast path (``WebVTTCueBlockScanner`` takes blocks whose lines end at LF alone).
///
/// WebVTT's parser treats the three endings alike (WebVTT section 6.1): a CR LF pair ends one line,
/// as do a CR and an LF, so rewriting keeps every line, its number and its columns. A CR that ends
/// one piece of input may be the first half of a pair whose LF starts the next: it is written as
/// an LF at once, and that LF is then skipped (``skipLineFeed(_:)``).
///
/// Pieces are rewritten ``sliceLength`` bytes at a time into one buffer that is reused, so memory
/// stays bounded whatever the size of the input handed to the reader at once.
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
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + Self.sliceLength, bytes.count)
            let slice = skipLineFeed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            rewritten.removeAll(keepingCapacity: true)
            var index = 0
            while index < slice.count {
                let carriageReturn = ByteScanning.firstIndex(of: 0x0D, in: slice, from: index, to: slice.count)
                rewritten.append(contentsOf: UnsafeRawBufferPointer(rebasing: slice[index..<carriageReturn]))
                guard carriageReturn < slice.count else { break }
                rewritten.append(0x0A)
                index = carriageReturn + 1
                if index == slice.count {
                    skipsLineFeed = true
                } else if slice[index] == 0x0A {
                    index += 1
                }
            }
            try rewritten.withUnsafeBytes { try body($0) }
            offset = end
        }
    }
}
