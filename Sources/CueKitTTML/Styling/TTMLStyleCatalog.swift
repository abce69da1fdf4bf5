import CueKit

/// What a TTML read makes of styles, kept so that each is made once: the classes and tags of the
/// head's styles, of inline style sets, of spans, and the outer chains of paragraphs.
///
/// The reader makes each answer (``TTMLDocumentReader``'s `+Styles` and `+Paragraphs`); the
/// catalog keeps them, in tables bounded whatever the document holds:
///
/// - the head's styles, one layer a style: as many as the head defines
///   (``TTMLReader/Options/Limits/maximumStyles``);
/// - inline layers and span wrappers, up to ``inlineLayerCapacity`` and ``spanWrapperCapacity``:
///   past that, the table starts over (``KeptAnswers``);
/// - paragraph chains, the last ``paragraphChainCapacity`` (``RecentAnswers``).
///
/// An answer made again is the same answer (the class registry names a set of declarations once,
/// and diagnostics are reported once), so starting over costs time, never different output.
///
/// Keys are small structs of the numbers the read gives the values they stand for
/// (``TTMLValueTable``): styles, references, agent and language, with the role and level. They
/// compare and hash as integers, so that keys of distinct values (every `#rrggbb` colour) hash
/// apart at the cost of a few integers. An element with a value the table did not number has no
/// key: its answers are made each time. Each table compares the keys used last before it hashes
/// one: caption documents repeat a few styles from element to element.
struct TTMLStyleCatalog {
    /// A style contribution of one element or style: its class and tags.
    struct Layer: Sendable {
        var className: String?
        var presentation: TTMLPresentation
    }

    /// How many inline layers are kept before their table starts over: far more than the distinct
    /// inline style sets of a caption document.
    static let inlineLayerCapacity = 4096
    /// How many sets of span wrappers are kept before their table starts over.
    static let spanWrapperCapacity = 1024
    /// How many paragraph chains are kept (the last ones).
    static let paragraphChainCapacity = 16
    /// How many of the answers used last each hashed table compares before it hashes a key.
    static let recentCapacity = 16

    /// The layers of the head's styles, by `xml:id`.
    private var headLayers: [String: Layer] = [:]
    private var inlineLayers = KeptAnswers<InlineLayerKey, Layer>(recent: recentCapacity, capacity: inlineLayerCapacity)
    private var spanWrappers = KeptAnswers<SpanWrapperKey, [TTMLParagraph.Wrapper]>(
        recent: recentCapacity, capacity: spanWrapperCapacity)
    private var paragraphChains = RecentAnswers<ParagraphChainKey, (wrappers: [TTMLParagraph.Wrapper], number: TTMLValueTable.Number)>(
        capacity: paragraphChainCapacity)

    // MARK: Head styles

    /// The layer of the head's style `identifier`; nil when the head defines none.
    func headLayer(_ identifier: String) -> Layer? { headLayers[identifier] }

    /// Keeps the layer of a head style (once the head is read).
    mutating func keepHeadLayer(_ layer: Layer, for identifier: String) { headLayers[identifier] = layer }

    // MARK: Inline layers

    /// An element's own style attributes, at its level: what makes its inline layer.
    struct InlineLayerKey: Hashable, RecentAnswerKey {
        /// The number of the element's style set.
        var styles: TTMLValueTable.Number
        var level: TTMLStyleMapper.Level

        /// The key of an element's own styles at `level`; nil when they have no number.
        init?(_ attributes: TTMLElementAttributes, level: TTMLStyleMapper.Level) {
            guard attributes.numbers.styles != .unnumbered else { return nil }
            self.init(styles: attributes.numbers.styles, level: level)
        }

        init(styles: TTMLValueTable.Number, level: TTMLStyleMapper.Level) {
            self.styles = styles
            self.level = level
        }
    }

    /// The inline layer kept for `key`, if any.
    mutating func inlineLayer(for key: InlineLayerKey) -> Layer? { inlineLayers.answer(for: key) }

    /// Keeps an inline layer.
    mutating func keepInlineLayer(_ layer: Layer, for key: InlineLayerKey) { inlineLayers.keep(key, layer) }

    // MARK: Span wrappers

    /// What a span's wrappers are made from (given the head, read before the body).
    struct SpanWrapperKey: Hashable, RecentAnswerKey {
        /// `ttm:agent`: the first agent named.
        var agent: TTMLValueTable.Number
        /// The span's language where it is not its parent's (and not empty); ``TTMLValueTable/Number/absent``
        /// where it is.
        var language: TTMLValueTable.Number
        /// The `style` attribute as written.
        var styleReferences: TTMLValueTable.Number
        /// The element's style set.
        var styles: TTMLValueTable.Number
        var role: TTMLParagraph.Role

        /// The key of an element's attributes in `role`, its language counted when it
        /// `changesLanguage`; nil when one of its values has no number.
        init?(_ attributes: TTMLElementAttributes, changesLanguage: Bool, role: TTMLParagraph.Role) {
            let numbers = attributes.numbers
            let language = changesLanguage ? numbers.language : .absent
            guard numbers.agent != .unnumbered, language != .unnumbered, numbers.styleReferences != .unnumbered,
                numbers.styles != .unnumbered
            else { return nil }
            self.init(
                agent: numbers.agent, language: language, styleReferences: numbers.styleReferences, styles: numbers.styles, role: role)
        }

        init(
            agent: TTMLValueTable.Number, language: TTMLValueTable.Number, styleReferences: TTMLValueTable.Number,
            styles: TTMLValueTable.Number, role: TTMLParagraph.Role
        ) {
            self.agent = agent
            self.language = language
            self.styleReferences = styleReferences
            self.styles = styles
            self.role = role
        }
    }

    /// The span wrappers kept for `key`, if any.
    mutating func spanWrappers(for key: SpanWrapperKey) -> [TTMLParagraph.Wrapper]? { spanWrappers.answer(for: key) }

    /// Keeps a span's wrappers.
    mutating func keepSpanWrappers(_ wrappers: [TTMLParagraph.Wrapper], for key: SpanWrapperKey) {
        spanWrappers.keep(key, wrappers)
    }

    // MARK: Paragraph chains

    /// What a paragraph's outer chain is made from: its container, and what the `p` adds.
    struct ParagraphChainKey: Hashable, RecentAnswerKey {
        /// The number of the container's wrappers (fixed once it is opened).
        var container: TTMLValueTable.Number
        var own: SpanWrapperKey
    }

    /// The outer chain kept for `key`, with its number, if it is one of the last ones made.
    func paragraphChain(for key: ParagraphChainKey) -> ([TTMLParagraph.Wrapper], TTMLValueTable.Number)? {
        paragraphChains.answer(for: key)
    }

    /// Keeps a paragraph's outer chain and its number, in place of the oldest one.
    mutating func keepParagraphChain(_ wrappers: [TTMLParagraph.Wrapper], number: TTMLValueTable.Number, for key: ParagraphChainKey) {
        paragraphChains.remember(key, (wrappers, number))
    }
}
