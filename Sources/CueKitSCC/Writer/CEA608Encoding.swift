/// What the writer sends for a character: a basic character (two a pair), a special character, or
/// an extended one after its basic fallback (CEA-608-E, the character sets the reader decodes:
/// ``CEA608Characters``).
enum CEA608Encoding: Equatable {
    case basic(UInt8)
    case special(UInt8)
    case extended(table: UInt8, code: UInt8, fallback: UInt8)

    /// The encoding of `scalar`, or of its 608 equivalent (typographic quotes and dashes, a few
    /// letters 608 lacks as the bare letter); nil when 608 has nothing for it.
    static func encode(_ scalar: Unicode.Scalar) -> CEA608Encoding? {
        if let known = table[scalar] { return known }
        if let equivalent = equivalents[scalar] { return table[equivalent] }
        return nil
    }

    /// Every character 608 has, from the reader's tables: where a character is in more than one
    /// set, the basic set wins.
    static let table: [Unicode.Scalar: CEA608Encoding] = {
        var table: [Unicode.Scalar: CEA608Encoding] = [:]
        for (index, scalar) in CEA608Characters.extendedSpanishFrench.enumerated() {
            table[scalar] = .extended(table: 0x12, code: 0x20 + UInt8(index), fallback: fallbacks[0][index])
        }
        for (index, scalar) in CEA608Characters.extendedPortugueseGerman.enumerated() {
            table[scalar] = .extended(table: 0x13, code: 0x20 + UInt8(index), fallback: fallbacks[1][index])
        }
        for (index, scalar) in CEA608Characters.special.enumerated() where index != 9 {
            table[scalar] = .special(0x30 + UInt8(index))
        }
        for byte in UInt8(0x20)...0x7F {
            table[CEA608Characters.basic(byte)] = .basic(byte)
        }
        return table
    }()

    /// The basic character an older decoder shows for each extended one (the letter without its
    /// mark, or a look-alike), in the order of the two extended tables.
    static let fallbacks: [[UInt8]] = [
        Array("AEOUUu'!-'-cs.\"\"AACEEEeIIiOUuU\"\"".utf8),
        Array("AaIIiOoOo()/'---AaOosY$!AaOo++++".utf8),
    ]

    /// Characters 608 lacks, and the 608 character shown for each.
    static let equivalents: [Unicode.Scalar: Unicode.Scalar] = [
        "\u{2019}": "'", "\u{2032}": "'", "\u{201A}": ",", "\u{2013}": "-", "\u{2212}": "-", "\u{00A0}": " ", "\u{00AD}": "-",
        "\u{00B7}": "\u{2022}", "\u{266B}": "\u{266A}", "\u{FD}": "y", "\u{FF}": "y", "\u{DD}": "Y", "\u{E6}": "a", "\u{C6}": "A",
        "\u{153}": "o", "\u{152}": "O", "\u{F0}": "d", "\u{D0}": "D", "\u{09}": " ",
    ]
}
