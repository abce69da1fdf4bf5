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
        /// A ruby text with no container, written in parentheses.
        var parenthesized = false
        /// The `set` children that change this element's styles for a while.
        var animations: [Animation] = []
        /// The node's active interval once ``TTMLParagraphRenderer`` has resolved it.
        var interval = TTMLInterval(begin: .zero, end: .zero)
    }

    /// What a node is.
    enum Kind: Sendable, Equatable {
        /// The `p`, a `span`, or a ruby element (TTML2 section 10.2.35): all may hold children.
        case element(Role)
        /// Text: an anonymous span (TTML2 section 12.4); where its characters are in
        /// ``TTMLParagraph/textBytes``.
        case text(Range<Int>)
        /// A `br`.
        case lineBreak
    }

    /// The part an element plays.
    enum Role: Sendable, Hashable {
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
        /// For the `p`: the number of ``wrappers`` (as ``TTMLParagraph/blockChain`` is of its own).
        var chain = TTMLValueTable.Number.unnumbered
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
    /// The characters of the text nodes, one after the other, as UTF-8 (kept apart so that text
    /// arriving in pieces is appended in place, and no string is made for any of it).
    var textBytes: [UInt8] = []
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
    /// The number of ``blockWrappers`` in ``TTMLValueTable``.
    var blockChain: TTMLValueTable.Number
    /// The computed `tts:textAlign` and `tts:direction` of the `p` without its region's, and
    /// whether direction was specified anywhere.
    var textAlign: String?
    var direction: String?
    /// Text bytes held, to bound a paragraph's memory.
    var textSize = 0
    /// True when some element hides its content or is animated: the renderer then checks each
    /// element of a chain at each interval.
    var hasDynamicStyles = false

    /// What was mended so that the ruby markup is one WebVTT (and Chromium) can draw; the reader
    /// reports each kind once.
    struct RubyRepairs: Sendable, Equatable {
        /// Text directly inside a ruby container, outside its base and text: moved after the ruby.
        var textMovedOutOfContainer = false
        /// A ruby text before its base: moved after it.
        var textPutAfterBase = false
        /// A ruby text with no container: written in parentheses.
        var textWithoutContainer = false
    }
    var rubyRepairs = RubyRepairs()
    /// Text met directly inside an open ruby container, by the container's node: it is shown
    /// after the container once that closes.
    private var textAfterContainer: [Int: String] = [:]

    /// The node being filled: the innermost open element.
    var current: Int = 0
    /// Open elements, innermost last.
    var open: [Int] = []

    /// A paragraph with nothing in it yet. The reader keeps one and restarts it for each `p`
    /// (``restart(identifier:location:syncBase:limit:timing:region:preservesSpace:blockWrappers:blockChain:)``),
    /// so that its arrays keep their capacity from paragraph to paragraph.
    init() {
        nodes = []
        identifier = ""
        location = .start
        syncBase = .zero
        limit = .zero
        blockWrappers = []
        blockChain = .unnumbered
    }

    /// Empties the paragraph, keeping its arrays' capacity, and starts it again with its `p`
    /// element: every field is set here as ``init()`` sets it. (Done in place: building a new
    /// paragraph and storing it copied the whole value, then destroyed the original.)
    mutating func restart(
        identifier: String, location: SourceLocation, syncBase: TTMLTime, limit: TTMLTime, timing: TTMLTiming,
        region: RegionSelection, preservesSpace: Bool, blockWrappers: [Wrapper], blockChain: TTMLValueTable.Number
    ) {
        nodes.removeAll(keepingCapacity: true)
        textBytes.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
        self.identifier = identifier
        self.location = location
        self.syncBase = syncBase
        self.limit = limit
        self.blockWrappers = blockWrappers
        self.blockChain = blockChain
        textAlign = nil
        direction = nil
        textSize = 0
        hasDynamicStyles = false
        rubyRepairs = RubyRepairs()
        if !textAfterContainer.isEmpty { textAfterContainer.removeAll() }
        current = 0
        // Made where it is stored: a node made, then appended, was copied.
        nodes.append(
            Node(kind: .element(.paragraph), parent: -1, timing: timing, region: region, preservesSpace: preservesSpace))
        open.append(0)
    }

    /// Opens a child element of the current one.
    mutating func openElement(_ role: Role, timing: TTMLTiming, region: String?, preservesSpace: Bool, wrappers: [Wrapper]) {
        var role = role
        var wrappers = wrappers
        var parenthesized = false
        if role == .rubyText, !open.contains(where: { nodes[$0].kind == .element(.rubyContainer) }) {
            // WebVTT's <rt> means something only inside <ruby>: with no container, the annotation is
            // written as ruby is written where ruby cannot be drawn, in parentheses.
            role = .span
            wrappers = wrappers.map { $0.kind == .rubyText ? Wrapper(kind: .class, classes: $0.classes) : $0 }.filter {
                $0.kind != .class || !$0.classes.isEmpty
            }
            rubyRepairs.textWithoutContainer = true
            parenthesized = true
        }
        let parent = current
        let selection = nodes[parent].region.adding(region)
        nodes.append(
            Node(
                kind: .element(role), parent: parent, timing: timing, wrappers: wrappers, region: selection,
                preservesSpace: preservesSpace))
        let index = nodes.count - 1
        link(index, to: parent)
        open.append(index)
        current = index
        if parenthesized {
            nodes[index].parenthesized = true
            appendText("(")
        }
    }

    /// Closes the current element.
    mutating func closeElement() {
        guard open.count > 1 else { return }
        let closing = current
        if nodes[closing].parenthesized { appendText(")") }
        if nodes[closing].kind == .element(.rubyContainer) { putBasesFirst(in: closing) }
        open.removeLast()
        current = open[open.count - 1]
        if let text = textAfterContainer.removeValue(forKey: closing) { appendText(text) }
    }

    /// Orders a ruby container's children base first: WebVTT (and Chromium) draw `<ruby>B<rt>r</rt>`
    /// over its base, and an annotation written before its base over nothing.
    ///
    /// Nodes are kept in document order, which is the order the renderer writes them in, so the
    /// children's subtrees (the last nodes of the array, as the container is the element closing)
    /// are moved, and every index into them renumbered.
    private mutating func putBasesFirst(in container: Int) {
        var bases: [Range<Int>] = []
        var annotations: [Range<Int>] = []
        var outOfOrder = false
        var child = nodes[container].firstChild
        while child >= 0 {
            let next = nodes[child].nextSibling
            let subtree = child..<(next >= 0 ? next : nodes.count)
            switch nodes[child].kind {
            case .element(.rubyText), .element(.rubyTextContainer): annotations.append(subtree)
            default:
                bases.append(subtree)
                if !annotations.isEmpty { outOfOrder = true }
            }
            child = next
        }
        guard outOfOrder else { return }
        rubyRepairs.textPutAfterBase = true
        let first = container + 1
        let ordered = bases + annotations
        var newIndex = Array(0..<nodes.count)
        var position = first
        for range in ordered {
            for old in range {
                newIndex[old] = position
                position += 1
            }
        }
        func renumbered(_ index: Int) -> Int { index >= first ? newIndex[index] : index }
        var moved = nodes[first...]
        for old in moved.indices {
            var node = nodes[old]
            node.parent = renumbered(node.parent)
            if node.firstChild >= 0 { node.firstChild = renumbered(node.firstChild) }
            if node.lastChild >= 0 { node.lastChild = renumbered(node.lastChild) }
            if node.nextSibling >= 0 { node.nextSibling = renumbered(node.nextSibling) }
            moved[newIndex[old]] = node
        }
        nodes.replaceSubrange(first..., with: moved)
        // The container's children, linked in their new order.
        let children = ordered.map { newIndex[$0.lowerBound] }
        nodes[container].firstChild = children[0]
        nodes[container].lastChild = children[children.count - 1]
        for (offset, node) in children.enumerated() {
            nodes[node].nextSibling = offset + 1 < children.count ? children[offset + 1] : -1
        }
    }

    /// Adds text to the current element (joined to text just before it).
    mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { appendText($0) }
    }

    /// Adds text (valid UTF-8) to the current element (joined to text just before it).
    mutating func appendText(_ text: UnsafeBufferPointer<UInt8>) {
        textSize += text.count
        if case .element(let role) = nodes[current].kind, role.ignoresText {
            // Ruby containers hold only ruby elements (TTML2 section 10.2.35): white space between
            // them is layout; other text is kept, after the ruby, rather than lost.
            if text.contains(where: { !TTMLStyleValues.isXMLWhiteSpace($0) }) || textAfterContainer[current] != nil {
                textAfterContainer[current, default: ""].append(String(decoding: text, as: UTF8.self))
                rubyRepairs.textMovedOutOfContainer = true
            }
            return
        }
        let last = nodes[current].lastChild
        if last >= 0, case .text(let range) = nodes[last].kind {
            if range.upperBound == textBytes.count {
                textBytes.append(contentsOf: text)
                nodes[last].kind = .text(range.lowerBound..<textBytes.count)
            } else {
                // Text was kept for another node since: this node's characters move to the end.
                let start = textBytes.count
                textBytes.append(contentsOf: textBytes[range])
                textBytes.append(contentsOf: text)
                nodes[last].kind = .text(start..<textBytes.count)
            }
            return
        }
        let start = textBytes.count
        textBytes.append(contentsOf: text)
        let node = Node(
            kind: .text(start..<textBytes.count), parent: current, region: nodes[current].region,
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
        let selection = nodes[current].region.adding(region)
        let preserves = nodes[current].preservesSpace
        nodes.append(Node(kind: .lineBreak, parent: current, timing: timing, region: selection, preservesSpace: preserves))
        link(nodes.count - 1, to: current)
    }

    /// Sets the preserved-space flag of the current element (for `xml:space` on elements that
    /// inherit it).
    var currentPreservesSpace: Bool { nodes[current].preservesSpace }
    var currentRegion: RegionSelection { nodes[current].region }
}
