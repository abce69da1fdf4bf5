import CueKit

/// Turns the input's bytes into UTF-8, chunk by chunk: the first stage of ``SubRipReader``.
///
/// SubRip files carry no encoding declaration. The decoder looks at the first bytes: a UTF-8 byte
/// order mark is skipped; a UTF-16 one (`FF FE` or `FE FF`) switches to UTF-16, which is transcoded;
/// without a mark, a NUL byte beside an ASCII one in the first two bytes means UTF-16 without a mark.
/// Everything else is passed through untouched (UTF-8 is validated later, line by line, where a
/// diagnostic can name its line and column), or transcoded from Windows-1252 when the reader was
/// told that is the encoding.
///
/// UTF-8 input is handed on without a copy; only transcoded input goes through a reused buffer.
struct SubRipInputDecoder {
    /// What the bytes turned out to be.
    enum Encoding: Equatable {
        case undetermined
        case utf8
        case utf16(bigEndian: Bool)
        case windows1252
    }

    /// What the decoder hands on: first, once, the encoding it found; then UTF-8 bytes.
    enum Output {
        /// The encoding, and whether a byte order mark said so.
        case encoding(Encoding, marked: Bool)
        /// UTF-8 bytes, valid only during the call.
        case utf8(UnsafeRawBufferPointer)
    }

    private(set) var encoding: Encoding = .undetermined
    /// UTF-16 code units that could not be decoded (unpaired surrogates, a last odd byte).
    private(set) var utf16Errors = 0

    private let fallback: SubRipReader.Options.Encoding
    /// The first bytes, held until the byte order mark is known.
    private var head: [UInt8] = []
    /// A UTF-16 code unit's first byte, when a chunk ended between its two bytes.
    private var pendingByte: UInt8?
    /// A high surrogate waiting for its low surrogate.
    private var pendingHighSurrogate: UInt16?
    private var output: [UInt8] = []

    init(encoding: SubRipReader.Options.Encoding) {
        fallback = encoding
    }

    /// Decodes a chunk, handing the encoding (once it is known) and UTF-8 to `emit`.
    mutating func decode(_ chunk: UnsafeRawBufferPointer, emit: (Output) throws -> Void) rethrows {
        if encoding == .undetermined {
            head.append(contentsOf: chunk)
            guard let decided = Self.sniff(head, final: false) else { return }
            let held = head
            head = []
            try start(decided, with: held, emit: emit)
            return
        }
        try pass(chunk, emit: emit)
    }

    /// Decodes what is still held at the end of input.
    mutating func finish(emit: (Output) throws -> Void) rethrows {
        if encoding == .undetermined {
            let held = head
            head = []
            try start(Self.sniff(held, final: true) ?? .init(encoding: .utf8, markLength: 0, marked: true), with: held, emit: emit)
        }
        if case .utf16 = encoding {
            if pendingByte != nil {
                pendingByte = nil
                utf16Errors += 1
                try emitReplacement(emit: emit)
            }
            if pendingHighSurrogate != nil {
                pendingHighSurrogate = nil
                utf16Errors += 1
                try emitReplacement(emit: emit)
            }
        }
    }

    private struct Sniffed {
        var encoding: Encoding
        var markLength: Int
        var marked: Bool
    }

    private mutating func start(_ sniffed: Sniffed, with held: [UInt8], emit: (Output) throws -> Void) rethrows {
        var decided = sniffed.encoding
        if decided == .utf8, sniffed.markLength == 0, fallback == .windows1252 { decided = .windows1252 }
        encoding = decided
        try emit(.encoding(decided, marked: sniffed.marked))
        try held.withUnsafeBytes { bytes in
            try pass(UnsafeRawBufferPointer(rebasing: bytes[sniffed.markLength...]), emit: emit)
        }
    }

    /// What the first bytes say, or nil when more bytes are needed to know.
    private static func sniff(_ head: [UInt8], final: Bool) -> Sniffed? {
        let utf8Mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF {
            return Sniffed(encoding: .utf8, markLength: 3, marked: true)
        }
        if head.count >= 2 {
            if head[0] == 0xFF, head[1] == 0xFE { return Sniffed(encoding: .utf16(bigEndian: false), markLength: 2, marked: true) }
            if head[0] == 0xFE, head[1] == 0xFF { return Sniffed(encoding: .utf16(bigEndian: true), markLength: 2, marked: true) }
        }
        if !final, head.count < 3, utf8Mark.starts(with: head) { return nil }
        if head.count >= 2 {
            if head[0] != 0, head[0] < 0x80, head[1] == 0 {
                return Sniffed(encoding: .utf16(bigEndian: false), markLength: 0, marked: false)
            }
            if head[0] == 0, head[1] != 0, head[1] < 0x80 {
                return Sniffed(encoding: .utf16(bigEndian: true), markLength: 0, marked: false)
            }
        } else if !final {
            return nil
        }
        return Sniffed(encoding: .utf8, markLength: 0, marked: false)
    }

    private mutating func pass(_ chunk: UnsafeRawBufferPointer, emit: (Output) throws -> Void) rethrows {
        switch encoding {
        case .undetermined, .utf8:
            if !chunk.isEmpty { try emit(.utf8(chunk)) }
        case .windows1252:
            output.removeAll(keepingCapacity: true)
            for byte in chunk {
                if byte < 0x80 {
                    output.append(byte)
                } else {
                    UTF8Bytes.append(Self.windows1252[Int(byte - 0x80)], to: &output)
                }
            }
            try flushOutput(emit: emit)
        case .utf16(let bigEndian):
            output.removeAll(keepingCapacity: true)
            var index = 0
            while index < chunk.count {
                let first: UInt8, second: UInt8
                if let pending = pendingByte {
                    first = pending
                    second = chunk[index]
                    pendingByte = nil
                    index += 1
                } else if index + 1 < chunk.count {
                    first = chunk[index]
                    second = chunk[index + 1]
                    index += 2
                } else {
                    pendingByte = chunk[index]
                    break
                }
                let unit = bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first)
                decodeUnit(unit)
            }
            try flushOutput(emit: emit)
        }
    }

    private mutating func decodeUnit(_ unit: UInt16) {
        if let high = pendingHighSurrogate {
            pendingHighSurrogate = nil
            if (0xDC00...0xDFFF).contains(unit) {
                let scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(unit) - 0xDC00)
                UTF8Bytes.append(scalar, to: &output)
                return
            }
            utf16Errors += 1
            UTF8Bytes.append(0xFFFD, to: &output)
        }
        switch unit {
        case 0xD800...0xDBFF:
            pendingHighSurrogate = unit
        case 0xDC00...0xDFFF:
            utf16Errors += 1
            UTF8Bytes.append(0xFFFD, to: &output)
        default:
            UTF8Bytes.append(UInt32(unit), to: &output)
        }
    }

    private mutating func flushOutput(emit: (Output) throws -> Void) rethrows {
        guard !output.isEmpty else { return }
        try output.withUnsafeBytes { try emit(.utf8($0)) }
    }

    private mutating func emitReplacement(emit: (Output) throws -> Void) rethrows {
        output.removeAll(keepingCapacity: true)
        UTF8Bytes.append(0xFFFD, to: &output)
        try flushOutput(emit: emit)
    }

    /// Windows-1252's bytes 0x80–0xFF as Unicode scalars; the five unassigned bytes map to the C1
    /// controls of the same value, as the WHATWG Encoding Standard does.
    static let windows1252: [UInt32] =
        [
            0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
            0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
        ] + (0xA0...0xFF).map { UInt32($0) }
}

/// UTF-8 encoding and validation on bytes.
enum UTF8Bytes {
    /// Appends the UTF-8 encoding of a Unicode scalar value.
    @inline(__always)
    static func append(_ scalar: UInt32, to bytes: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            bytes.append(UInt8(scalar))
        case 0x80..<0x800:
            bytes.append(0xC0 | UInt8(scalar >> 6))
            bytes.append(0x80 | UInt8(scalar & 0x3F))
        case 0x800..<0x10000:
            bytes.append(0xE0 | UInt8(scalar >> 12))
            bytes.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            bytes.append(0x80 | UInt8(scalar & 0x3F))
        default:
            bytes.append(0xF0 | UInt8(scalar >> 18))
            bytes.append(0x80 | UInt8((scalar >> 12) & 0x3F))
            bytes.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            bytes.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    /// The length of the valid UTF-8 sequence at `index`, or 0 when the bytes there are not one
    /// (overlong forms, surrogates and values over U+10FFFF are not valid).
    @inline(__always)
    static func sequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
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
    static func invalidLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
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

    /// The number of Unicode scalars in valid UTF-8 bytes: bytes that are not continuation bytes.
    @inline(__always)
    static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }
}
