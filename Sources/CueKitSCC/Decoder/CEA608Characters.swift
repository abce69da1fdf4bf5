/// The CEA-608 character sets (CEA-608-E section 6.4 and Annex A): the basic set, sent two a
/// byte pair, and the special and extended sets, sent one a control-code-shaped pair.
enum CEA608Characters {
    /// The character of a basic-set byte (0x20–0x7F): ASCII, except ten places 608 gives other
    /// letters (0x2A á, 0x5C é, 0x5E í, 0x5F ó, 0x60 ú, 0x7B ç, 0x7C ÷, 0x7D Ñ, 0x7E ñ, 0x7F a solid block).
    static func basic(_ byte: UInt8) -> Unicode.Scalar {
        switch byte {
        case 0x2A: "\u{E1}"
        case 0x5C: "\u{E9}"
        case 0x5E: "\u{ED}"
        case 0x5F: "\u{F3}"
        case 0x60: "\u{FA}"
        case 0x7B: "\u{E7}"
        case 0x7C: "\u{F7}"
        case 0x7D: "\u{D1}"
        case 0x7E: "\u{F1}"
        case 0x7F: "\u{2588}"
        default: Unicode.Scalar(byte)
        }
    }

    /// The special characters, second byte 0x30–0x3F after 0x11 (0x19 on data channel 2).
    /// 0x39 is the transparent space, kept as a space.
    static let special: [Unicode.Scalar] = [
        "\u{AE}", "\u{B0}", "\u{BD}", "\u{BF}", "\u{2122}", "\u{A2}", "\u{A3}", "\u{266A}",
        "\u{E0}", " ", "\u{E8}", "\u{E2}", "\u{EA}", "\u{EE}", "\u{F4}", "\u{FB}",
    ]

    /// The extended Spanish, French and miscellaneous characters, second byte 0x20–0x3F after
    /// 0x12 (0x1A).
    static let extendedSpanishFrench: [Unicode.Scalar] = [
        "\u{C1}", "\u{C9}", "\u{D3}", "\u{DA}", "\u{DC}", "\u{FC}", "\u{2018}", "\u{A1}",
        "*", "'", "\u{2014}", "\u{A9}", "\u{2120}", "\u{2022}", "\u{201C}", "\u{201D}",
        "\u{C0}", "\u{C2}", "\u{C7}", "\u{C8}", "\u{CA}", "\u{CB}", "\u{EB}", "\u{CE}",
        "\u{CF}", "\u{EF}", "\u{D4}", "\u{D9}", "\u{F9}", "\u{DB}", "\u{AB}", "\u{BB}",
    ]

    /// The extended Portuguese, German and Danish characters, second byte 0x20–0x3F after 0x13 (0x1B).
    static let extendedPortugueseGerman: [Unicode.Scalar] = [
        "\u{C3}", "\u{E3}", "\u{CD}", "\u{CC}", "\u{EC}", "\u{D2}", "\u{F2}", "\u{D5}",
        "\u{F5}", "{", "}", "\\", "^", "_", "|", "~",
        "\u{C4}", "\u{E4}", "\u{D6}", "\u{F6}", "\u{DF}", "\u{A5}", "\u{A4}", "\u{2502}",
        "\u{C5}", "\u{E5}", "\u{D8}", "\u{F8}", "\u{250C}", "\u{2510}", "\u{2514}", "\u{2518}",
    ]
}
