/// A text encoding a caption file may come in: what `--encoding` names and what readers of
/// formats with no encoding declaration (SubRip) can be told.
///
/// WebVTT is always UTF-8 and TTML declares its own encoding, but files in the wild are saved by
/// editors in whatever their user's system used; these are the encodings seen in practice.
public enum TextEncoding: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case utf8 = "utf-8"
    case utf16LittleEndian = "utf-16le"
    case utf16BigEndian = "utf-16be"
    case utf32LittleEndian = "utf-32le"
    case utf32BigEndian = "utf-32be"
    /// The Western European code page of older Windows tools.
    case windows1252 = "windows-1252"
    /// ISO 8859-1: each byte is the Unicode scalar of the same value.
    case latin1

    /// The name as `--encoding` takes it.
    public var description: String { rawValue }

    /// The number of bytes of one code unit.
    var unitLength: Int {
        switch self {
        case .utf8, .windows1252, .latin1: 1
        case .utf16LittleEndian, .utf16BigEndian: 2
        case .utf32LittleEndian, .utf32BigEndian: 4
        }
    }
}

/// Turns bytes in any ``TextEncoding`` into UTF-8, chunk by chunk, with byte order marks.
///
/// A byte order mark always wins (as browsers do): UTF-8 `EF BB BF`, UTF-16 `FF FE` / `FE FF`, UTF-32
/// `FF FE 00 00` / `00 00 FE FF`; it is skipped. Without one, the declared encoding is used, or,
/// when none was declared, UTF-16 is recognised by a NUL byte beside an ASCII one in the first two
/// bytes and everything else is taken for UTF-8. UTF-8 passes through untouched and without a
/// copy (readers validate it line by line, where a diagnostic can name a line and column); other
/// encodings are transcoded through a reused buffer, and code units that cannot be decoded
/// (unpaired surrogates, values over U+10FFFF, a cut-off last unit) become U+FFFD and are counted.
package struct TextTranscoder {
    /// What the transcoder hands on: first, once, the encoding it settled on; then UTF-8 bytes.
    package enum Output {
        /// The encoding, and whether a byte order mark said so.
        case encoding(TextEncoding, marked: Bool)
        /// UTF-8 bytes, valid only during the call.
        case utf8(UnsafeRawBufferPointer)
    }

    /// The encoding settled on, once the first bytes are known.
    package private(set) var encoding: TextEncoding?
    /// Code units that could not be decoded and became U+FFFD.
    package private(set) var undecodableUnits = 0

    private let declared: TextEncoding?
    /// The first bytes, held until the byte order mark is known.
    private var head: [UInt8] = []
    /// The bytes of a code unit cut by the end of a chunk.
    private var partialUnit: [UInt8] = []
    /// A UTF-16 high surrogate waiting for its low surrogate.
    private var pendingHighSurrogate: UInt32?
    private var output: [UInt8] = []

    /// A transcoder for input in `declared` (nil: told from the bytes).
    package init(declared: TextEncoding?) {
        self.declared = declared
    }

    /// Transcodes a chunk, handing the encoding (once it is known) and UTF-8 to `emit`.
    package mutating func decode(_ chunk: UnsafeRawBufferPointer, emit: (Output) throws -> Void) rethrows {
        guard encoding != nil else {
            head.append(contentsOf: chunk)
            guard let sniffed = sniff(final: false) else { return }
            try start(sniffed, emit: emit)
            return
        }
        try pass(chunk, emit: emit)
    }

    /// Transcodes what is still held at the end of input.
    package mutating func finish(emit: (Output) throws -> Void) rethrows {
        if encoding == nil, let sniffed = sniff(final: true) { try start(sniffed, emit: emit) }
        output.removeAll(keepingCapacity: true)
        if !partialUnit.isEmpty {
            partialUnit.removeAll()
            replace()
        }
        if pendingHighSurrogate != nil {
            pendingHighSurrogate = nil
            replace()
        }
        try flush(emit: emit)
    }

    private struct Sniffed {
        var encoding: TextEncoding
        var markLength: Int
    }

    /// What the first bytes say, or nil when more bytes are needed to know.
    private func sniff(final: Bool) -> Sniffed? {
        let marks: [(bytes: [UInt8], encoding: TextEncoding)] = [
            ([0xFF, 0xFE, 0x00, 0x00], .utf32LittleEndian), ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian),
            ([0xEF, 0xBB, 0xBF], .utf8), ([0xFF, 0xFE], .utf16LittleEndian), ([0xFE, 0xFF], .utf16BigEndian),
        ]
        for mark in marks {
            if head.starts(with: mark.bytes) {
                // FF FE could still become FF FE 00 00 (UTF-32).
                if !final, mark.encoding == .utf16LittleEndian, head.count < 4, [0xFF, 0xFE, 0x00, 0x00].starts(with: head) { return nil }
                return Sniffed(encoding: mark.encoding, markLength: mark.bytes.count)
            }
            if !final, head.count < mark.bytes.count, mark.bytes.starts(with: head) { return nil }
        }
        if let declared { return Sniffed(encoding: declared, markLength: 0) }
        if head.count < 2, !final { return nil }
        if head.count >= 2 {
            if head[0] != 0, head[0] < 0x80, head[1] == 0 { return Sniffed(encoding: .utf16LittleEndian, markLength: 0) }
            if head[0] == 0, head[1] != 0, head[1] < 0x80 { return Sniffed(encoding: .utf16BigEndian, markLength: 0) }
        }
        return Sniffed(encoding: .utf8, markLength: 0)
    }

    private mutating func start(_ sniffed: Sniffed, emit: (Output) throws -> Void) rethrows {
        encoding = sniffed.encoding
        try emit(.encoding(sniffed.encoding, marked: sniffed.markLength > 0))
        let held = head
        head = []
        try held.withUnsafeBytes { bytes in
            try pass(UnsafeRawBufferPointer(rebasing: bytes[sniffed.markLength...]), emit: emit)
        }
    }

    private mutating func pass(_ chunk: UnsafeRawBufferPointer, emit: (Output) throws -> Void) rethrows {
        guard let encoding, !chunk.isEmpty else { return }
        output.removeAll(keepingCapacity: true)
        switch encoding {
        case .utf8:
            try emit(.utf8(chunk))
            return
        case .latin1:
            for byte in chunk { Self.appendUTF8(UInt32(byte), to: &output) }
        case .windows1252:
            for byte in chunk {
                Self.appendUTF8(byte < 0x80 ? UInt32(byte) : Self.windows1252[Int(byte - 0x80)], to: &output)
            }
        case .utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian:
            let length = encoding.unitLength
            var index = 0
            if !partialUnit.isEmpty {
                while partialUnit.count < length, index < chunk.count {
                    partialUnit.append(chunk[index])
                    index += 1
                }
                guard partialUnit.count == length else { return }
                let unit = partialUnit.withUnsafeBytes { Self.unit($0, at: 0, encoding) }
                partialUnit.removeAll(keepingCapacity: true)
                decodeUnit(unit, encoding)
            }
            while index + length <= chunk.count {
                decodeUnit(Self.unit(chunk, at: index, encoding), encoding)
                index += length
            }
            partialUnit.append(contentsOf: chunk[index...])
        }
        try flush(emit: emit)
    }

    @inline(__always)
    private static func unit(_ bytes: UnsafeRawBufferPointer, at index: Int, _ encoding: TextEncoding) -> UInt32 {
        switch encoding {
        case .utf16LittleEndian: UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
        case .utf16BigEndian: UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1])
        case .utf32LittleEndian:
            UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
        default:
            UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
        }
    }

    private mutating func decodeUnit(_ unit: UInt32, _ encoding: TextEncoding) {
        if encoding == .utf32LittleEndian || encoding == .utf32BigEndian {
            if unit > 0x10FFFF || (0xD800...0xDFFF).contains(unit) { replace() } else { Self.appendUTF8(unit, to: &output) }
            return
        }
        if let high = pendingHighSurrogate {
            pendingHighSurrogate = nil
            if (0xDC00...0xDFFF).contains(unit) {
                Self.appendUTF8(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00), to: &output)
                return
            }
            replace()
        }
        switch unit {
        case 0xD800...0xDBFF: pendingHighSurrogate = unit
        case 0xDC00...0xDFFF: replace()
        default: Self.appendUTF8(unit, to: &output)
        }
    }

    private mutating func replace() {
        undecodableUnits += 1
        Self.appendUTF8(0xFFFD, to: &output)
    }

    private mutating func flush(emit: (Output) throws -> Void) rethrows {
        guard !output.isEmpty else { return }
        try output.withUnsafeBytes { try emit(.utf8($0)) }
    }

    /// Appends the UTF-8 encoding of a Unicode scalar value.
    @inline(__always)
    package static func appendUTF8(_ scalar: UInt32, to bytes: inout [UInt8]) {
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

    /// Windows-1252's bytes 0x80–0xFF as Unicode scalars; the five unassigned bytes map to the C1
    /// controls of the same value, as the WHATWG Encoding Standard does.
    package static let windows1252: [UInt32] =
        [
            0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
            0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
        ] + (0xA0...0xFF).map { UInt32($0) }
}
