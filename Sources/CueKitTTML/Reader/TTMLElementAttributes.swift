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

    init() {}

    /// Reads an element's attributes. At most `styleReferenceLimit` + 1 style references are kept:
    /// enough to tell that ``TTMLReader/Options/Limits/maximumStyleReferencesPerElement`` is passed, without
    /// holding a list of millions.
    init(_ attributes: [XMLAttribute], vocabulary: inout TTMLVocabularyCache, styleReferenceLimit: Int = 100) {
        self.init()
        read(attributes, vocabulary: &vocabulary, styleReferenceLimit: styleReferenceLimit)
    }

    private mutating func read(_ attributes: [XMLAttribute], vocabulary: inout TTMLVocabularyCache, styleReferenceLimit: Int) {
        for attribute in attributes {
            switch vocabulary.attribute(attribute.name) {
            case .identifier(let legacy):
                if identifier == nil || !legacy {
                    identifier = attribute.value
                    identifierIsLegacy = legacy
                }
            case .style:
                styleReferences = TTMLStyleValues.components(Substring(attribute.value), atMost: styleReferenceLimit == .max ? .max : styleReferenceLimit + 1)
                    .map(String.init)
            case .region: region = String(TTMLStyleValues.trimmed(Substring(attribute.value)))
            case .begin: begin = attribute.value
            case .end: end = attribute.value
            case .dur: duration = attribute.value
            case .timeContainer: timeContainer = attribute.value
            case .space: space = attribute.value
            case .lang: lang = attribute.value
            case .agent: agent = TTMLStyleValues.components(Substring(attribute.value), atMost: 1).first.map(String.init)
            case .styleProperty(let property): styles[property] = attribute.value
            case .parameter(let name): parameters.append((name, attribute.value))
            case .backgroundImage: hasBackgroundImage = true
            case .unknownStyling(let name): unknownStyling.append(name)
            case .ignored: break
            }
        }
    }

    /// True when the element has timing attributes.
    var hasTiming: Bool { begin != nil || end != nil || duration != nil || timeContainer != nil }
}
