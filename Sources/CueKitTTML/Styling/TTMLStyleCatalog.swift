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
/// Keys hash all they hold: styles, references, agent, language, role and level. (Keys hashed by
/// the lengths of their values made every `#rrggbb` colour collide, and a document of spans of
/// distinct colours took time as the square of its spans.) Each table compares the keys used last
/// before it hashes one: caption documents repeat a few styles from element to element.
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
    private var paragraphChains = RecentAnswers<ParagraphChainKey, [TTMLParagraph.Wrapper]>(capacity: paragraphChainCapacity)

    // MARK: Head styles

    /// The layer of the head's style `identifier`; nil when the head defines none.
    func headLayer(_ identifier: String) -> Layer? { headLayers[identifier] }

    /// Keeps the layer of a head style (once the head is read).
    mutating func keepHeadLayer(_ layer: Layer, for identifier: String) { headLayers[identifier] = layer }

    // MARK: Inline layers

    /// An element's own style attributes, at its level: what makes its inline layer.
    struct InlineLayerKey: Hashable, RecentAnswerKey {
        var styles: TTMLStyleSet
        var level: TTMLStyleMapper.Level

        var fingerprint: Int {
            let levelNumber: Int
            switch level {
            case .region: levelNumber = 0
            case .block: levelNumber = 1
            case .paragraph: levelNumber = 2
            case .inline: levelNumber = 3
            }
            return styles.fingerprint &* 4 &+ levelNumber
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
        var agent: String?
        /// The span's language where it is not its parent's (and not empty).
        var language: String?
        var styleReferences: [String]
        var styles: TTMLStyleSet
        var role: TTMLParagraph.Role

        /// The role and the lengths of what the key holds, compared before the keys themselves.
        var fingerprint: Int {
            var mixed = (agent?.utf8.count ?? -1) &* 31 &+ (language?.utf8.count ?? -1)
            for index in styleReferences.indices { mixed = mixed &* 31 &+ styleReferences[index].utf8.count }
            return (mixed &* 31 &+ styles.fingerprint) &* 31 &+ role.ordinal
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
    struct ParagraphChainKey: Equatable, RecentAnswerKey {
        /// The container's serial number (a container's wrappers are fixed once it is opened).
        var container: Int
        var own: SpanWrapperKey

        var fingerprint: Int { container &* 31 &+ own.fingerprint }
    }

    /// The outer chain kept for `key`, if it is one of the last ones made.
    func paragraphChain(for key: ParagraphChainKey) -> [TTMLParagraph.Wrapper]? { paragraphChains.answer(for: key) }

    /// Keeps a paragraph's outer chain, in place of the oldest one.
    mutating func keepParagraphChain(_ wrappers: [TTMLParagraph.Wrapper], for key: ParagraphChainKey) {
        paragraphChains.remember(key, wrappers)
    }
}
