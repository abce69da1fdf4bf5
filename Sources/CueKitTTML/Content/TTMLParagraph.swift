import CueKit

/// One `p` element and everything in it, held from its start tag to its end tag: the only part of
/// a document's body the reader keeps in memory.
///
/// Nodes are kept in document order in one array; node 0 is the `p` itself.
struct TTMLParagraph: Sendable {
    /// An element or text inside the paragraph.
    struct Node: Sendable {
        var kind: Kind
        var parent: Int
        /// The first and last child, and the next sibling: children as a list, so that a node
        /// costs no allocation of its own. -1 for none.
        var firstChild = -1
        var lastChild = -1
        var nextSibling = -1
        var timing: TTMLTiming = .none
        /// The cue text spans that carry this element's styles, outermost first.
        var wrappers: [Wrapper] = []
        /// The regions named on this element and its ancestors.
        var region: RegionSelection
        /// `xml:space="preserve"` is in effect.
        var preservesSpace: Bool
        /// Unicode controls that open and close this element's bidirectional embedding.
        var bidiControls: (open: String, close: String)?
        /// `tts:display="none"`: the element and its content are not shown (unless a `set` shows
        /// them).
        var displayNone = false
        /// The `set` children that change this element's styles for a while.
        var animations: [Animation] = []
        /// The node's active interval once ``TTMLParagraphRenderer`` has resolved it.
        var interval = TTMLInterval(begin: .zero, end: .zero)
    }

    /// What a node is.
    enum Kind: Sendable, Equatable {
        /// The `p`, a `span`, or a ruby element (TTML2 section 10.2.35): all may hold children.
        case element(Role)
        /// Text: an anonymous span (TTML2 section 12.4); the index of its characters in
        /// ``TTMLParagraph/texts``.
        case text(Int)
        /// A `br`.
        case lineBreak
    }

    /// The part an element plays.
    enum Role: Sendable, Equatable {
        case paragraph, span
        case rubyContainer, rubyBaseContainer, rubyTextContainer, rubyBase, rubyText, rubyDelimiter

        /// True for elements whose own text children TTML ignores: ruby containers hold only
        /// ruby elements.
        var ignoresText: Bool {
            self == .rubyContainer || self == .rubyBaseContainer || self == .rubyTextContainer
        }
    }

    /// A `set` element (TTML2 section 13.1.2): for its interval, its parent's styles are the set's.
    struct Animation: Sendable {
        var timing: TTMLTiming
        /// The `tts:display` it sets: true for `auto`, false for `none`; nil when it leaves it.
        var display: Bool?
        /// The parent's wrappers with the set's styles (for the `p`: its whole outer chain); nil
        /// when it changes no style WebVTT shows.
        var wrappers: [Wrapper]?
        var interval = TTMLInterval(begin: .zero, end: .zero)
    }

    /// A span of WebVTT cue text standing for a style or a structure.
    struct Wrapper: Sendable, Hashable {
        var kind: CueSpan.Kind
        var classes: [String] = []
    }

    /// The regions named along a chain of elements (TTML2 section 11.3.1.3, region association):
    /// content is shown in a region only if every element on its chain that names a region names
    /// that one.
    enum RegionSelection: Sendable, Hashable {
        /// No element of the chain names a region.
        case unspecified
        /// All that name one name this region.
        case region(String)
        /// Two elements of the chain name different regions: the content is shown in none.
        case conflicting

        func adding(_ identifier: String?) -> RegionSelection {
            guard let identifier else { return self }
            switch self {
            case .unspecified: return .region(identifier)
            case .region(let current): return current == identifier ? self : .conflicting
            case .conflicting: return self
            }
        }
    }

    var nodes: [Node]
    /// The characters of the text nodes (kept apart so that text arriving in pieces is appended in
    /// place).
    var texts: [String] = []
    /// The `p`'s `xml:id`, for the cue identifier.
    var identifier: String
    /// Where the `p` starts, for diagnostics.
    var location: SourceLocation
    /// The `p`'s sync base: its parent's begin (`par`) or the previous sibling's end (`seq`).
    var syncBase: TTMLTime
    /// The end of the parent's active interval: nothing inside shows after it.
    var limit: TTMLTime
    /// The cue text spans of the `body`, `div`s and `p` that hold the paragraph, outermost first.
    var blockWrappers: [Wrapper]
    /// The computed `tts:textAlign` and `tts:direction` of the `p` without its region's, and
    /// whether direction was specified anywhere.
    var textAlign: String?
    var direction: String?
    /// Text bytes held, to bound a paragraph's memory.
    var textSize = 0
    /// True when some element hides its content or is animated: the renderer then checks each
    /// element of a chain at each interval.
    var hasDynamicStyles = false

    /// The node being filled: the innermost open element.
    var current: Int = 0
    /// Open elements, innermost last.
    var open: [Int] = []

    init(
        identifier: String, location: SourceLocation, syncBase: TTMLTime, limit: TTMLTime, timing: TTMLTiming,
        region: RegionSelection, preservesSpace: Bool, blockWrappers: [Wrapper], storage: Storage = Storage()
    ) {
        self.identifier = identifier
        self.location = location
        self.syncBase = syncBase
        self.limit = limit
        self.blockWrappers = blockWrappers
        var root = Node(kind: .element(.paragraph), parent: -1, region: region, preservesSpace: preservesSpace)
        root.timing = timing
        nodes = storage.nodes
        texts = storage.texts
        open = storage.open
        nodes.append(root)
        open.append(0)
    }

    /// The arrays of a finished paragraph, emptied, for the next one to fill without allocating.
    struct Storage {
        var nodes: [Node] = []
        var texts: [String] = []
        var open: [Int] = []
    }

    /// Empties the paragraph and hands out its arrays, keeping their capacity.
    mutating func recycle() -> Storage {
        var storage = Storage()
        swap(&storage.nodes, &nodes)
        swap(&storage.texts, &texts)
        swap(&storage.open, &open)
        storage.nodes.removeAll(keepingCapacity: true)
        storage.texts.removeAll(keepingCapacity: true)
        storage.open.removeAll(keepingCapacity: true)
        return storage
    }

    /// Opens a child element of the current one.
    mutating func openElement(_ role: Role, timing: TTMLTiming, region: String?, preservesSpace: Bool, wrappers: [Wrapper]) {
        let parent = current
        var node = Node(
            kind: .element(role), parent: parent, region: nodes[parent].region.adding(region), preservesSpace: preservesSpace)
        node.timing = timing
        node.wrappers = wrappers
        nodes.append(node)
        let index = nodes.count - 1
        link(index, to: parent)
        open.append(index)
        current = index
    }

    /// Closes the current element.
    mutating func closeElement() {
        guard open.count > 1 else { return }
        open.removeLast()
        current = open[open.count - 1]
    }

    /// Adds text to the current element (joined to text just before it).
    mutating func appendText(_ text: String) {
        textSize += text.utf8.count
        if case .element(let role) = nodes[current].kind, role.ignoresText { return }
        if nodes[current].lastChild >= 0, case .text(let textIndex) = nodes[nodes[current].lastChild].kind {
            texts[textIndex].append(text)
            return
        }
        texts.append(text)
        let node = Node(
            kind: .text(texts.count - 1), parent: current, region: nodes[current].region,
            preservesSpace: nodes[current].preservesSpace)
        nodes.append(node)
        link(nodes.count - 1, to: current)
    }

    /// Makes `child` the last child of `parent`.
    private mutating func link(_ child: Int, to parent: Int) {
        if nodes[parent].lastChild >= 0 {
            nodes[nodes[parent].lastChild].nextSibling = child
        } else {
            nodes[parent].firstChild = child
        }
        nodes[parent].lastChild = child
    }

    /// Adds a line break, with its own timing, to the current element.
    mutating func appendLineBreak(timing: TTMLTiming, region: String?) {
        var node = Node(
            kind: .lineBreak, parent: current, region: nodes[current].region.adding(region),
            preservesSpace: nodes[current].preservesSpace)
        node.timing = timing
        nodes.append(node)
        link(nodes.count - 1, to: current)
    }

    /// Sets the preserved-space flag of the current element (for `xml:space` on elements that
    /// inherit it).
    var currentPreservesSpace: Bool { nodes[current].preservesSpace }
    var currentRegion: RegionSelection { nodes[current].region }
}
