import CueKit

/// The attributes of one element that the reader acts on, read from the XML attributes once.
struct TTMLElementAttributes: Sendable {
    var identifier: String?
    var identifierIsLegacy = false
    var styleReferences: [String] = []
    var region: String?
    var begin: String?
    var end: String?
    var duration: String?
    var timeContainer: String?
    var space: String?
    var lang: String?
    /// `ttm:agent`: the first agent named.
    var agent: String?
    /// The style properties written on the element.
    var styles = TTMLStyleSet()
    /// `ttp:` parameters, by local name.
    var parameters: [(name: String, value: String)] = []
    /// `smpte:backgroundImage` is present.
    var hasBackgroundImage = false
    /// Attributes in the styling namespace that TTML does not define.
    var unknownStyling: [String] = []
    /// The numbers of the values the style tables are keyed by.
    var numbers = ValueNumbers()

    /// The numbers the read's ``TTMLValueTable`` gives an element's `style` attribute, agent,
    /// language and style set: ``TTMLValueTable/Number/absent`` for those it does not write.
    struct ValueNumbers: Sendable {
        var styleReferences = TTMLValueTable.Number.absent
        var agent = TTMLValueTable.Number.absent
        var language = TTMLValueTable.Number.absent
        var styles = TTMLValueTable.Number.absent
    }

    init() {}

    /// Reads an element's attributes. At most `styleReferenceLimit` + 1 style references are kept:
    /// enough to tell that ``TTMLReader/Options/Limits/maximumStyleReferencesPerElement`` is passed, without
    /// holding a list of millions.
    init(_ attributes: XMLAttributes, vocabulary: inout TTMLVocabularyCache, styleReferenceLimit: Int = 100) {
        self.init()
        read(attributes, vocabulary: &vocabulary, styleReferenceLimit: styleReferenceLimit)
    }

    private mutating func read(_ attributes: XMLAttributes, vocabulary: inout TTMLVocabularyCache, styleReferenceLimit: Int) {
        // By index: each attribute's fields are read in the array, where binding each attribute
        // copied it (its name's strings and its value retained, then released).
        vocabulary.values.beginStyles()
        for index in attributes.indices {
            switch vocabulary.attribute(attributes[index].name) {
            case .identifier(let legacy):
                if identifier == nil || !legacy {
                    identifier = attributes[index].value
                    identifierIsLegacy = legacy
                }
            case .style:
                let limit = styleReferenceLimit == .max ? .max : styleReferenceLimit + 1
                if limit > 0, TTMLStyleValues.isSingleComponent(attributes[index].value) {
                    (styleReferences, numbers.styleReferences) = vocabulary.values.singleReference(attributes[index].value)
                } else {
                    styleReferences = TTMLStyleValues.components(of: attributes[index].value, atMost: limit)
                    numbers.styleReferences = vocabulary.values.table.number(of: attributes[index].value)
                }
            case .region: region = TTMLStyleValues.trimmed(attributes[index].value)
            case .begin: begin = attributes[index].value
            case .end: end = attributes[index].value
            case .dur: duration = attributes[index].value
            case .timeContainer: timeContainer = attributes[index].value
            case .space: space = attributes[index].value
            case .lang:
                lang = attributes[index].value
                numbers.language = vocabulary.values.table.number(of: attributes[index].value)
            case .agent:
                agent = TTMLStyleValues.firstComponent(of: attributes[index].value)
                numbers.agent = agent.map { vocabulary.values.table.number(of: $0) } ?? .absent
            case .styleProperty(let property): vocabulary.values.appendStyle(property, attributes[index].value)
            case .parameter(let name): parameters.append((name, attributes[index].value))
            case .backgroundImage: hasBackgroundImage = true
            case .unknownStyling(let name): unknownStyling.append(name)
            case .ignored: break
            }
        }
        if !vocabulary.values.pendingStyles.isEmpty { (styles, numbers.styles) = vocabulary.values.collectedStyles() }
    }

    /// True when the element has timing attributes.
    var hasTiming: Bool { begin != nil || end != nil || duration != nil || timeContainer != nil }
}
