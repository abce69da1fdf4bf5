import CueKit

/// Finds the `<font color>` colours of SubRip text without reading its structure: the fast first
/// pass of ``SubRipReader`` (its prescan, ``SubRipReader/prescan(fileAtPath:options:)``).
///
/// It looks only at tags: from each `<` to the next `>` on the same line, read as
/// ``SubRipMarkupConverter`` reads a tag. Colours come out in the order they first appear, which is
/// the order in which the full reader emits their rules. It may find more than the reader (a colour
/// used only in a block the reader skips, such as stray text), never fewer: an extra rule styles
/// nothing. A tag cut by a chunk boundary is held until its end arrives, so the result does not
/// depend on how the input is cut.
struct SubRipColorScanner {
    let maximumTagLength: Int
    /// The start of a tag whose `>` has not arrived yet.
    private var carry: [UInt8] = []
    private var carrying = false

    init(maximumTagLength: Int) {
        self.maximumTagLength = maximumTagLength
    }

    /// Scans UTF-8 bytes, calling `found` with the colour of each `<font color>` start tag.
    mutating func scan(_ raw: UnsafeRawBufferPointer, found: (SubRipColor) throws -> Void) rethrows {
        let bytes = raw.bindMemory(to: UInt8.self)
        var index = 0
        if carrying {
            // Extend the held tag up to its end, or give it up at a line break or another `<`.
            while index < bytes.count, !Self.endsTag(bytes[index]) { index += 1 }
            if index == bytes.count {
                hold(UnsafeBufferPointer(rebasing: bytes[0..<index]))
                return
            }
            if bytes[index] == UInt8(ascii: ">") {
                hold(UnsafeBufferPointer(rebasing: bytes[0...index]))
                if carrying, let color = carry.withUnsafeBufferPointer(SubRipMarkupConverter.fontColor(ofTag:)) { try found(color) }
                index += 1
            }
            carry.removeAll(keepingCapacity: true)
            carrying = false
        }
        while index < bytes.count {
            guard let open = Self.nextOpen(in: bytes, from: index) else { return }
            var close = open + 1
            while close < bytes.count, !Self.endsTag(bytes[close]) { close += 1 }
            if close == bytes.count {
                carrying = true
                hold(UnsafeBufferPointer(rebasing: bytes[open..<close]))
                return
            }
            if bytes[close] == UInt8(ascii: ">") {
                if close - open + 1 <= maximumTagLength,
                    let color = SubRipMarkupConverter.fontColor(ofTag: UnsafeBufferPointer(rebasing: bytes[open...close]))
                {
                    try found(color)
                }
                index = close + 1
            } else {
                index = close
            }
        }
    }

    /// Drops a tag still held at the end of input: it never closed.
    mutating func finish() {
        carry.removeAll()
        carrying = false
    }

    private mutating func hold(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard carrying else { return }
        if carry.count + bytes.count > maximumTagLength {
            carry.removeAll(keepingCapacity: true)
            carrying = false
            return
        }
        carry.append(contentsOf: bytes)
    }

    /// The bytes at which a tag ends: `>`, or where the reader gives it up (a line break, a `<`).
    @inline(__always)
    private static func endsTag(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ">") || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "<")
    }

    /// The index of the next `<` at or after `start`: the C library's `memchr`, vectorised.
    private static func nextOpen(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let found = ByteScanning.firstIndex(of: UInt8(ascii: "<"), in: UnsafeRawBufferPointer(bytes), from: start, to: bytes.count)
        return found < bytes.count ? found : nil
    }
}
