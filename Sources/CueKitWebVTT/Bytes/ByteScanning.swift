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
enum ByteScanning {
    /// The offset of the first `byte` in `bytes[from..<to]`, or `to`.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int {
        guard from < to, let base = bytes.baseAddress else { return to }
        guard let found = memchr(base + from, Int32(byte), to - from) else { return to }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// True when every byte of `bytes` is ASCII and none is NUL: such a line needs no decoding.
    @inline(__always)
    static func isPlainASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        while index + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // A high bit set anywhere, or a zero byte (the classic "has zero byte" test).
            if (word | ((word &- ones) & ~word)) & high != 0 { return false }
            index += 8
        }
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0 || byte >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// The offset of the first `-->` in `bytes[from..<to]`, or `nil`.
    @inline(__always)
    static func firstArrow(in bytes: UnsafeRawBufferPointer, from: Int = 0, to: Int? = nil) -> Int? {
        let end = to ?? bytes.count
        var index = from + 2
        while index < end {
            index = firstIndex(of: UInt8(ascii: ">"), in: bytes, from: index, to: end)
            guard index < end else { return nil }
            if bytes[index - 1] == UInt8(ascii: "-"), bytes[index - 2] == UInt8(ascii: "-") { return index - 2 }
            index += 1
        }
        return nil
    }

    /// The column (1-based, counting Unicode scalars) of byte `offset` of a valid UTF-8 line.
    static func column(of offset: Int, in line: UnsafeRawBufferPointer) -> Int {
        var column = 1
        for index in 0..<min(offset, line.count) where line[index] & 0xC0 != 0x80 {
            column += 1
        }
        return column
    }
}
