/// An SCC file made by a test: lines of a timecode and byte pairs, each byte given its odd
/// parity bit as CEA-608 sends it.
struct SCCFile {
    var lines: [String] = []

    /// Adds a line sending `pairs` from `timecode` on.
    mutating func add(_ timecode: String, _ pairs: [UInt16]) {
        lines.append(timecode + "\t" + pairs.map(Self.word).joined(separator: " "))
    }

    /// The file's text: the header, then each line after a blank line.
    var text: String { (["Scenarist_SCC V1.0"] + lines).joined(separator: "\n\n") + "\n" }
    var bytes: [UInt8] { Array(text.utf8) }

    /// A byte with its odd parity bit.
    static func parity(_ byte: UInt8) -> UInt8 {
        let value = byte & 0x7F
        return value.nonzeroBitCount % 2 == 0 ? value | 0x80 : value
    }

    /// A pair of bytes with parity.
    static func pair(_ first: UInt8, _ second: UInt8) -> UInt16 {
        UInt16(parity(first)) << 8 | UInt16(parity(second))
    }

    static func word(_ pair: UInt16) -> String {
        let digits = Array("0123456789abcdef")
        return String([12, 8, 4, 0].map { digits[Int(pair >> $0) & 15] })
    }

    /// Basic characters, two a pair, the last pair padded with a null.
    static func text(_ string: String) -> [UInt16] {
        var bytes = Array(string.utf8)
        if bytes.count % 2 == 1 { bytes.append(0) }
        return stride(from: 0, to: bytes.count, by: 2).map { pair(bytes[$0], bytes[$0 + 1]) }
    }

    /// A control code sent twice, as encoders send them; channel 2 sets the channel bit.
    static func code(_ first: UInt8, _ second: UInt8, channel: Int = 1, doubled: Bool = true) -> [UInt16] {
        let code = pair(channel == 2 ? first | 0x08 : first, second)
        return doubled ? [code, code] : [code]
    }

    static let rcl = code(0x14, 0x20), bs = code(0x14, 0x21), der = code(0x14, 0x24)
    static let ru2 = code(0x14, 0x25), ru3 = code(0x14, 0x26), ru4 = code(0x14, 0x27), rdc = code(0x14, 0x29)
    static let edm = code(0x14, 0x2C), cr = code(0x14, 0x2D), enm = code(0x14, 0x2E), eoc = code(0x14, 0x2F)
    static let to1 = code(0x17, 0x21), to2 = code(0x17, 0x22), to3 = code(0x17, 0x23)

    /// A preamble address code: `row` 1 to 15, with an indent (0, 4 … 28) or a colour (0 white …
    /// 6 magenta, 7 white italics), and underline.
    static func pac(row: Int, indent: Int? = nil, color: Int = 0, underline: Bool = false) -> [UInt16] {
        let firsts: [UInt8] = [0x11, 0x11, 0x12, 0x12, 0x15, 0x15, 0x16, 0x16, 0x17, 0x17, 0x10, 0x13, 0x13, 0x14, 0x14]
        var second: UInt8 = row != 11 && row % 2 == 0 && row < 11 || row > 11 && row % 2 == 1 ? 0x60 : 0x40
        if let indent { second |= 0x10 | UInt8(indent / 4) << 1 } else { second |= UInt8(color) << 1 }
        if underline { second |= 1 }
        return code(firsts[row - 1], second)
    }

    /// A mid-row code: a colour (0 white … 6 magenta) or italics (7), and underline.
    static func midRow(_ color: Int, underline: Bool = false) -> [UInt16] {
        code(0x11, 0x20 | UInt8(color) << 1 | (underline ? 1 : 0))
    }

    /// A special character (second byte 0x30-0x3F).
    static func special(_ second: UInt8) -> [UInt16] { code(0x11, second) }

    /// An extended character after its fallback (table 0x12 or 0x13, second byte 0x20-0x3F).
    static func extended(_ table: UInt8, _ second: UInt8, fallback: Character) -> [UInt16] {
        text(String(fallback)) + code(table, second)
    }
}
