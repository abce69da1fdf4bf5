import CCueKitBytes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte searches the reader's hot loops use: the C library's `memchr` (vectorised on every platform
/// CueKit runs on) and word-at-a-time checks, so that no loop looks at one byte at a time where
/// whole words will do.
package enum ByteScanning {
    /// The offset of the first `byte` in `bytes[from..<to]`, or `to`.
    @inline(__always)
    package static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int {
        guard from < to, let base = bytes.baseAddress else { return to }
        guard let found = memchr(base + from, Int32(byte), to - from) else { return to }
        return base.distance(to: UnsafeRawPointer(found))
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` that is zero; the lowest one marked is exact (higher
    /// marks may be false after a true one, which callers never look at).
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highBits
    }

    /// The end of the line starting at `from`: the offset of the first CR or LF in
    /// `bytes[from..<to]` (or `to`), and whether the bytes before it are plain ASCII without NUL.
    ///
    /// One pass, eight bytes at a time: a line is found and checked for decoding in the same loop.
    @inline(__always)
    package static func lineEnd(in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> (end: Int, isPlainASCII: Bool) {
        guard let base = bytes.baseAddress else { return (to, true) }
        var index = from
        var plain = true
        let lineFeeds = ones &* 0x0A, carriageReturns = ones &* 0x0D
        while index + 8 <= to {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            var marks = zeroBytes(word ^ lineFeeds) | zeroBytes(word ^ carriageReturns)
            if plain { marks |= (word & highBits) | zeroBytes(word) }
            if marks == 0 {
                index += 8
                continue
            }
            let hit = index + marks.trailingZeroBitCount / 8
            let byte = base.load(fromByteOffset: hit, as: UInt8.self)
            if byte == 0x0A || byte == 0x0D { return (hit, plain) }
            plain = false
            index = hit + 1
        }
        while index < to {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0x0A || byte == 0x0D { return (index, plain) }
            if byte == 0 || byte >= 0x80 { plain = false }
            index += 1
        }
        return (to, plain)
    }

    /// True when `bytes` are exactly the bytes of `literal` (a keyword, a tag name): a length test
    /// and one comparison, where `elementsEqual` walks the literal's UTF-8 view byte by byte.
    @inline(__always)
    package static func equals(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        guard let base = bytes.baseAddress else { return true }
        return memcmp(base, literal.utf8Start, bytes.count) == 0
    }

    /// The offset of the first `-->` in `bytes`, or `nil`: eight bytes at a time, looking for `>`.
    @inline(__always)
    package static func firstArrow(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        let greaterThans = ones &* UInt64(UInt8(ascii: ">"))
        var index = 2
        @inline(__always) func isArrowEnd(_ offset: Int) -> Bool {
            base.load(fromByteOffset: offset - 1, as: UInt8.self) == UInt8(ascii: "-")
                && base.load(fromByteOffset: offset - 2, as: UInt8.self) == UInt8(ascii: "-")
        }
        while index + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            var marks = zeroBytes(word ^ greaterThans)
            if marks == 0 {
                index += 8
                continue
            }
            // Look at each `>` of the word in turn (marks above a true one may be false).
            while marks != 0 {
                let hit = index + marks.trailingZeroBitCount / 8
                if base.load(fromByteOffset: hit, as: UInt8.self) == UInt8(ascii: ">"), isArrowEnd(hit) { return hit - 2 }
                marks &= marks &- 1
            }
            index += 8
        }
        while index < count {
            if base.load(fromByteOffset: index, as: UInt8.self) == UInt8(ascii: ">"), isArrowEnd(index) { return index - 2 }
            index += 1
        }
        return nil
    }

    /// The high bit of each byte of `word` that is zero, exactly (no false marks).
    @inline(__always)
    private static func exactZeroBytes(_ word: UInt64) -> UInt64 {
        let lowBits = ~highBits
        return ~(((word & lowBits) &+ lowBits) | word) & highBits
    }

    /// How many of `bytes` are `byte`: eight bytes a step.
    package static func count(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int {
        let pattern = ones &* UInt64(byte)
        return countMarkedBytes(in: bytes) { word in exactZeroBytes(word ^ pattern) } tail: { $0 == byte }
    }

    /// How many of `bytes` start a character: bytes other than UTF-8 continuation bytes
    /// (`10xxxxxx`) and NUL (which UTF-16's ASCII characters carry), eight bytes a step.
    package static func characterStartCount(in bytes: UnsafeRawBufferPointer) -> Int {
        // A continuation byte has its high bit set and the next one clear.
        let skipped = countMarkedBytes(in: bytes) { word in (word & ~(word << 1) & highBits) | exactZeroBytes(word) } tail: { $0 & 0xC0 == 0x80 || $0 == 0 }
        return bytes.count - skipped
    }

    /// How many of `bytes` are UTF-8 continuation bytes (`10xxxxxx`), eight bytes a step: what
    /// separates a count of bytes from a count of Unicode scalars.
    package static func continuationByteCount(in bytes: UnsafeRawBufferPointer) -> Int {
        countMarkedBytes(in: bytes) { word in word & ~(word << 1) & highBits } tail: { $0 & 0xC0 == 0x80 }
    }

    /// How many bytes `marks` marks (the high bit of each byte, per word) and, past the last whole
    /// word, `tail` accepts.
    @inline(__always)
    private static func countMarkedBytes(in bytes: UnsafeRawBufferPointer, marks: (UInt64) -> UInt64, tail: (UInt8) -> Bool) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var index = 0
        var found = 0
        while index + 8 <= bytes.count {
            found &+= markCount(marks(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        while index < bytes.count {
            if tail(base.load(fromByteOffset: index, as: UInt8.self)) { found &+= 1 }
            index += 1
        }
        return found
    }

    /// How many bytes of a word have their high bit marked (and nothing else): the marks moved to
    /// each byte's low bit and summed into the top byte by one multiplication, where a population
    /// count is a dozen instructions on baseline x86-64.
    @inline(__always)
    private static func markCount(_ marks: UInt64) -> Int {
        Int(((marks >> 7) &* ones) >> 56)
    }

    /// The Unicode scalars of valid UTF-8 `bytes` from `from` up to the first LF (or the end), and
    /// where that LF is (or `bytes.count`): one pass, eight bytes at a time, the last word
    /// included, so that no branch depends on a single byte (runs of text are short, and a
    /// byte-by-byte tail mispredicted on every other one).
    @inline(__always)
    package static func scalarsToLineEnd(in bytes: UnsafeRawBufferPointer, from: Int) -> (scalars: Int, end: Int) {
        guard let base = bytes.baseAddress else { return (0, from) }
        let count = bytes.count
        if count &- from >= 32 {
            // Long runs: 32 bytes a step, with a hardware population count.
            var scalars = 0
            let end = cuekit_scalars_to_line_end(base.assumingMemoryBound(to: UInt8.self), count, from, &scalars)
            return (scalars, end)
        }
        let lineFeeds = ones &* 0x0A
        var index = from
        var scalars = 0
        while index < count {
            let remaining = count - index
            var word: UInt64
            if remaining >= 8 {
                word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            } else if count >= 8 {
                // The last eight bytes, shifted so that the ones already counted fall off.
                word = base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> UInt64((8 - remaining) * 8)
            } else {
                word = 0
                withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base + index, count: remaining)) }
            }
            let taken = min(remaining, 8)
            // Bytes past the end are zero: not continuation bytes, and not LFs (0 ^ 0x0A).
            let continuations = word & ~(word << 1) & highBits
            let feeds = zeroBytes(word ^ lineFeeds)
            if feeds == 0 {
                scalars &+= taken &- markCount(continuations)
                index += taken
                continue
            }
            // The lowest mark is exact: an LF, or, past the end, a marked padding byte.
            let before = feeds.trailingZeroBitCount / 8
            if before >= taken {
                return (scalars &+ taken &- markCount(continuations), count)
            }
            let below: UInt64 = (1 << UInt64(before * 8)) &- 1
            return (scalars &+ before &- markCount(continuations & below), index + before)
        }
        return (scalars, index)
    }

    /// The column (1-based, counting Unicode scalars) of byte `offset` of a valid UTF-8 line.
    package static func column(of offset: Int, in line: UnsafeRawBufferPointer) -> Int {
        var column = 1
        for index in 0..<min(offset, line.count) where line[index] & 0xC0 != 0x80 {
            column += 1
        }
        return column
    }

    /// A byte count as the command line writes it: `4G`, `16M`, `512K`, or the number.
    package static func describe(byteCount bytes: Int) -> String {
        for (shift, suffix) in [(30, "G"), (20, "M"), (10, "K")] where bytes != 0 && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(suffix)"
        }
        return "\(bytes)"
    }
}
