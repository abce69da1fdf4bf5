/// A named set of characters a profile allows in cue text (``QCRules/Characters``).
public enum QCCharacterSet: String, Sendable, Hashable, Codable, CaseIterable {
    /// The characters a CEA-608 (line 21) decoder can draw: the basic set (printable ASCII, with
    /// `á é í ó ú ç ÷ Ñ ñ` in place of some symbols and 0x7F the solid block `█`, U+2588, as
    /// CueKit's SCC reader draws it), the special characters and the extended Western European
    /// sets (47 CFR 79.101(j), CTA-608-E section 6.4). A track that will become 608 captions can
    /// hold nothing else; the no-break space stands for 608's transparent space.
    case cea608 = "cea608"
    /// Printable ASCII (U+0020 to U+007E).
    case printableASCII = "printable-ascii"

    /// True when `scalar` (a Unicode scalar value) is in the set.
    public func contains(_ scalar: UInt32) -> Bool {
        switch self {
        case .printableASCII:
            return scalar >= 0x20 && scalar <= 0x7E
        case .cea608:
            if scalar < 0x80 { return scalar >= 0x20 && scalar != 0x60 && scalar != 0x7F }
            return Self.cea608Extra.contains(scalar)
        }
    }

    /// The non-ASCII scalars of the 608 sets: the basic set's replacements, the special
    /// characters, and the Spanish, French, Portuguese, German and Danish extended sets.
    private static let cea608Extra: Set<UInt32> = Set(
        ("áéíóúç÷Ññ█" + "®°½¿™¢£♪àèâêîôû\u{00A0}" + "ÁÉÓÚÜü‘¡’—©℠•“”" + "ÀÂÇÈÊËëÎÏïÔÙùÛ«»"
            + "ÃãÍÌìÒòÕõ" + "ÄäÖößÜ¥¤¦│" + "ÅåØø┌┐└┘").unicodeScalars.map(\.value))
}
