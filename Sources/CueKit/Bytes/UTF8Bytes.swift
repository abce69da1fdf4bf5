

/// UTF-8 encoding and validation on bytes.
package enum UTF8Bytes {
    /// Appends the UTF-8 encoding of a Unicode scalar value.
    @inline(__always)
    package static func append(_ scalar: UInt32, to bytes: inout [UInt8]) {
        TextTranscoder.appendUTF8(scalar, to: &bytes)
    }

    /// The length of the valid UTF-8 sequence at `index`, or 0 when the bytes there are not one
    /// (overlong forms, surrogates and values over U+10FFFF are not valid).
    @inline(__always)
    package static func sequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let first = bytes[index]
        if first < 0x80 { return 1 }
        let remaining = bytes.count - index
        @inline(__always) func continuation(_ offset: Int) -> Bool {
            offset < remaining && bytes[index + offset] & 0xC0 == 0x80
        }
        switch first {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0...0xEF:
            guard continuation(1), continuation(2) else { return 0 }
            let second = bytes[index + 1]
            if first == 0xE0, second < 0xA0 { return 0 }
            if first == 0xED, second >= 0xA0 { return 0 }
            return 3
        case 0xF0...0xF4:
            guard continuation(1), continuation(2), continuation(3) else { return 0 }
            let second = bytes[index + 1]
            if first == 0xF0, second < 0x90 { return 0 }
            if first == 0xF4, second >= 0x90 { return 0 }
            return 4
        default:
            return 0
        }
    }

    /// How many bytes an invalid sequence at `index` spans before the next possible start: the
    /// maximal subpart rule of Unicode (section 3.9, U+FFFD substitution), so that one bad lead
    /// byte and its valid-looking continuation become one U+FFFD.
    package static func invalidLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let first = bytes[index]
        var expected: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch first {
        case 0xC2...0xDF: expected = 2
        case 0xE0: expected = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: expected = 3
        case 0xED: expected = 3; high = 0x9F
        case 0xF0: expected = 4; low = 0x90
        case 0xF1...0xF3: expected = 4
        case 0xF4: expected = 4; high = 0x8F
        default: return 1
        }
        var length = 1
        while length < expected, index + length < bytes.count {
            let byte = bytes[index + length]
            if byte < low || byte > high { break }
            low = 0x80
            high = 0xBF
            length += 1
        }
        return length
    }

    /// The number of Unicode scalars in valid UTF-8 bytes: bytes that are not continuation bytes
    /// (`10xxxxxx`), counted eight at a time.
    package static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count - ByteScanning.continuationByteCount(in: UnsafeRawBufferPointer(bytes))
    }

    /// The scalar value of the sequence starting at `index` in valid UTF-8, and its length; a
    /// sequence cut short by the end of `bytes` gives nil.
    @inline(__always)
    package static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (value: UInt32, length: Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard index + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return (value, length)
    }
}
