/// The character code table of a file's text fields (GSI field CCT, EBU Tech 3264 section 3.2 and
/// Appendix 2): bytes 0x20 to 0x7E are ASCII in each, 0xA0 to 0xFF differ.
public enum EBUSTLCharacterTable: String, Sendable, Hashable, CaseIterable {
    /// `00`: Latin, ISO 6937, with its non-spacing diacritics written before the letter.
    case latin = "00"
    /// `01`: Latin/Cyrillic, ISO 8859-5.
    case cyrillic = "01"
    /// `02`: Latin/Arabic, ISO 8859-6.
    case arabic = "02"
    /// `03`: Latin/Greek, ISO 8859-7.
    case greek = "03"
    /// `04`: Latin/Hebrew, ISO 8859-8.
    case hebrew = "04"

    /// The character of a byte from 0xA0 to 0xFF; nil where the table has none.
    func character(_ byte: UInt8) -> Unicode.Scalar? {
        let table: [UInt16]
        switch self {
        case .latin: table = Self.iso6937
        case .cyrillic: table = Self.iso8859_5
        case .arabic: table = Self.iso8859_6
        case .greek: table = Self.iso8859_7
        case .hebrew: table = Self.iso8859_8
        }
        let value = table[Int(byte) - 0xA0]
        return value == 0 ? nil : Unicode.Scalar(value)
    }

    /// True for ISO 6937's non-spacing diacritics (0xC1 to 0xCF), which modify the next letter.
    func isDiacritic(_ byte: UInt8) -> Bool {
        self == .latin && byte >= 0xC1 && byte <= 0xCF && byte != 0xC9 && byte != 0xCC
    }

    /// ISO 6937's letter with a diacritic, precomposed; the spacing diacritic and the letter
    /// when they do not compose.
    static func compose(_ diacritic: UInt8, _ base: UInt8) -> Unicode.Scalar? {
        let key = UInt16(diacritic) << 8 | UInt16(base)
        return compositions[key].flatMap { Unicode.Scalar($0) }
    }

    private static let compositions: [UInt16: UInt16] = {
        var table: [UInt16: UInt16] = [:]
        for entry in diacriticCompositions { table[UInt16(entry.diacritic) << 8 | UInt16(entry.base)] = entry.composed }
        return table
    }()
}
