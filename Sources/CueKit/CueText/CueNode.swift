/// A node of a cue text tree: WebVTT's cue text model (WebVTT section 3.5), which every reader
/// maps its markup into.
public enum CueNode: Sendable, Hashable {
    /// Text, with character references already decoded and line breaks as `"\n"`.
    case text(String)
    /// An inner timestamp (`<00:00:01.500>`), in milliseconds from the start of the media.
    case timestamp(Int)
    /// A span with children: `<c>`, `<i>`, `<b>`, `<u>`, `<ruby>`, `<rt>`, `<v>` or `<lang>`.
    case span(CueSpan)
}

/// An internal node of the cue text tree: a tag, its classes, and its children.
public struct CueSpan: Sendable, Hashable {
    /// Which WebVTT tag the span comes from, with that tag's annotation.
    public var kind: Kind
    /// The classes written after the tag name (`<c.yellow.loud>` has `["yellow", "loud"]`).
    public var classes: [String]
    /// The span's content.
    public var children: [CueNode]

    /// Creates a span.
    public init(_ kind: Kind, classes: [String] = [], children: [CueNode] = []) {
        self.kind = kind
        self.classes = classes
        self.children = children
    }

    /// The WebVTT tags a span can come from.
    public enum Kind: Sendable, Hashable {
        /// `<c>`: a class span.
        case `class`
        /// `<i>`: italics.
        case italic
        /// `<b>`: bold.
        case bold
        /// `<u>`: underline.
        case underline
        /// `<ruby>`: a ruby container.
        case ruby
        /// `<rt>`: ruby text, only meaningful inside ``ruby``.
        case rubyText
        /// `<v Name>`: a voice, with its annotation (the speaker's name).
        case voice(String)
        /// `<lang en>`: a language, with its BCP 47 tag.
        case language(String)

        /// The tag name as WebVTT writes it (`c`, `i`, `b`, `u`, `ruby`, `rt`, `v`, `lang`).
        public var tagName: String {
            switch self {
            case .class: "c"
            case .italic: "i"
            case .bold: "b"
            case .underline: "u"
            case .ruby: "ruby"
            case .rubyText: "rt"
            case .voice: "v"
            case .language: "lang"
            }
        }

        /// The annotation written after the tag name: a voice name or a language tag.
        public var annotation: String? {
            switch self {
            case .voice(let name): name
            case .language(let tag): tag
            default: nil
            }
        }
    }
}

extension Array where Element == CueNode {
    /// The text of the tree with all markup removed; timestamps contribute nothing and ruby text
    /// is kept after its base.
    public var plainText: String {
        var result = ""
        func walk(_ nodes: [CueNode]) {
            for node in nodes {
                switch node {
                case .text(let text): result += text
                case .timestamp: break
                case .span(let span): walk(span.children)
                }
            }
        }
        walk(self)
        return result
    }
}
