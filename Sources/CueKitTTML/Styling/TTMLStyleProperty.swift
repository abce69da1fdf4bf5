/// A TTML style property: a `tts:` attribute (TTML2 section 10.2), or one of the EBU-TT-D and
/// IMSC extensions the reader knows.
///
/// Raw values are the attributes' local names. Whether a property is inherited follows the
/// "Inherited" line of each attribute's definition in TTML2 section 10.2.
enum TTMLStyleProperty: String, CaseIterable, Sendable, Hashable, Comparable {
    case backgroundClip, backgroundColor, backgroundExtent, backgroundImage, backgroundOrigin, backgroundPosition
    case backgroundRepeat, border, bpd, color, direction, disparity, display, displayAlign, extent, fontFamily
    case fontKerning, fontSelectionStrategy, fontShear, fontSize, fontStyle, fontVariant, fontWeight, ipd
    case letterSpacing, lineHeight, lineShear, luminanceGain, opacity, origin, overflow, padding, position, ruby
    case rubyAlign, rubyPosition, rubyReserve, shear, showBackground, textAlign, textCombine, textDecoration
    case textEmphasis, textOrientation, textOutline, textShadow, unicodeBidi, visibility, wrapOption, writingMode
    case zIndex
    /// `ebutts:multiRowAlign` (EBU-TT-D).
    case multiRowAlign
    /// `ebutts:linePadding` (EBU-TT-D).
    case linePadding
    /// `itts:fillLineGap` (IMSC 1.1).
    case fillLineGap
    /// `itts:forcedDisplay` (IMSC).
    case forcedDisplay

    /// The property for a `tts:` attribute's local name.
    static let byStylingName: [String: TTMLStyleProperty] = {
        var table: [String: TTMLStyleProperty] = [:]
        for property in allCases where ![.multiRowAlign, .linePadding, .fillLineGap, .forcedDisplay].contains(property) {
            table[property.rawValue] = property
        }
        return table
    }()

    /// The attribute as written in documents, with its conventional prefix (`tts:color`).
    var qualifiedName: String {
        switch self {
        case .multiRowAlign, .linePadding: "ebutts:" + rawValue
        case .fillLineGap, .forcedDisplay: "itts:" + rawValue
        default: "tts:" + rawValue
        }
    }

    /// True when the computed value passes from an element to its children (TTML2 section 10.2,
    /// each property's "Inherited" entry; EBU-TT-D and IMSC for their extensions).
    var isInherited: Bool {
        switch self {
        case .color, .direction, .fontFamily, .fontKerning, .fontSelectionStrategy, .fontShear, .fontSize, .fontStyle,
            .fontVariant, .fontWeight, .letterSpacing, .lineHeight, .lineShear, .multiRowAlign, .linePadding, .rubyAlign,
            .rubyPosition, .rubyReserve, .textAlign, .textCombine, .textDecoration, .textEmphasis, .textOrientation,
            .textOutline, .textShadow, .visibility, .wrapOption, .fillLineGap, .forcedDisplay, .luminanceGain:
            true
        default:
            false
        }
    }

    static func < (lhs: TTMLStyleProperty, rhs: TTMLStyleProperty) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Specified style values: what a `style` element, a region or a content element sets, each
/// property at most once, as the attribute text (parsed when mapped, once per distinct set).
///
/// Sets are small (a handful of properties), so they are kept as arrays sorted by property:
/// comparing and hashing them is cheap, and equal sets are equal whatever order they were written.
struct TTMLStyleSet: Sendable, Hashable {
    /// The values, sorted by property, each property once.
    private(set) var entries: [Entry] = []

    /// One property and its specified value.
    struct Entry: Sendable, Hashable {
        var property: TTMLStyleProperty
        var value: String
    }

    static let empty = TTMLStyleSet()

    /// Equal sets: the same properties with the same values.
    static func == (lhs: TTMLStyleSet, rhs: TTMLStyleSet) -> Bool {
        sameEntries(lhs.entries, rhs.entries)
    }

    /// True when two lists of entries are equal, in order. (By index: comparing the arrays
    /// element by element copied each entry, retaining its value, to compare it.)
    static func sameEntries(_ lhs: [Entry], _ rhs: [Entry]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in lhs.indices where lhs[index].property != rhs[index].property || lhs[index].value != rhs[index].value {
            return false
        }
        return true
    }

    /// The number of entries and the lengths of their values, mixed: a number that equal lists
    /// share, which ``RecentAnswers`` compares before the entries themselves. Never a hash: values
    /// of one length share it (every `#rrggbb` colour does); a set hashes all its entries.
    static func fingerprint(of entries: [Entry]) -> Int {
        var mixed = entries.count
        for index in entries.indices { mixed = mixed &* 31 &+ entries[index].value.utf8.count }
        return mixed
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The value of a property, if set.
    subscript(property: TTMLStyleProperty) -> String? {
        get {
            // By index: iterating copied each entry (retaining its value) to look at its property.
            for index in entries.indices where entries[index].property == property { return entries[index].value }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { $0.property == property }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                let index = entries.firstIndex { $0.property > property } ?? entries.endIndex
                entries.insert(Entry(property: property, value: newValue), at: index)
            }
        }
    }

    /// This set with every value of `other` written over it (later specification wins, TTML2
    /// section 10.4.4.2).
    func overridden(by other: TTMLStyleSet) -> TTMLStyleSet {
        if other.isEmpty { return self }
        if isEmpty { return other }
        var result = self
        for entry in other.entries { result[entry.property] = entry.value }
        return result
    }

    /// Only the properties that are inherited.
    var inheritedOnly: TTMLStyleSet {
        var result = TTMLStyleSet()
        result.entries = entries.filter { $0.property.isInherited }
        return result
    }

    /// True when a property is set.
    func contains(_ property: TTMLStyleProperty) -> Bool { self[property] != nil }
}
