import CueKit

/// Builds one cue's WebVTT text from the text and line breaks shown, in document order, applying
/// XML white-space handling as TTML2 section 8.2.10 (`xml:space`) defines it, in one pass:
///
/// - `default`: each run of XML white space (space, tab, line feed, carriage return), across
///   element boundaries, becomes one space, and spaces at the start and end of a line vanish
///   (XSL's `white-space-collapse`, `linefeed-treatment="treat-as-space"` and
///   `suppress-at-line-break`);
/// - `preserve`: spaces stay, and a line feed breaks the line.
///
/// A collapsed space, and a line break, are written only once text follows them on the next
/// content, at the place they were found (inside the element that held them), so that a line
/// never ends with a space and the cue never ends with a break. WebVTT cue text cannot hold an
/// empty line (it would end the cue): a break that would make one is left out, and reported.
/// Elements are opened only when text arrives inside them, so empty elements write nothing.
struct TTMLCueTextBuilder {
    private var writer: CueTextMarkupBuilder
    /// The markup that opens and closes the cue's outer chain (region, body, divs, `p`).
    private let rootOpening: [UInt8]
    private let rootClosing: [UInt8]
    /// An element of a paragraph with what it writes around its content.
    typealias Element = (node: Int, wrappers: [TTMLParagraph.Wrapper], bidi: (open: String, close: String)?)

    /// Elements open in the output, outermost first.
    private var open: [Element] = []
    /// Elements the next text goes into.
    private var target: [Element] = []
    private var wroteContent = false
    private var lastWasSpace = true
    private var lineHasContent = false
    private var pendingSpace: Int?
    private var pendingBreak: Int?
    /// True once a break was left out because it would have made an empty line.
    private(set) var droppedEmptyLines = false

    /// The builder's arrays, passed from one cue's builder to the next
    /// (``init(rootOpening:rootClosing:reusing:)``, ``finish(returning:)``): emptied and written
    /// again, so that building a cue allocates only its text.
    struct Storage {
        fileprivate var bytes: [UInt8] = []
        fileprivate var open: [Element] = []
        fileprivate var target: [Element] = []
    }

    /// A builder for one cue, writing in the memory that `storage` holds (taken out of it: swapped,
    /// so that each array is the only reference to its memory and is emptied in place).
    init(rootOpening: [UInt8], rootClosing: [UInt8], reusing storage: inout Storage) {
        self.rootOpening = rootOpening
        self.rootClosing = rootClosing
        var bytes: [UInt8] = []
        swap(&bytes, &storage.bytes)
        writer = CueTextMarkupBuilder(reusing: consume bytes)
        swap(&open, &storage.open)
        open.removeAll(keepingCapacity: true)
        swap(&target, &storage.target)
        target.removeAll(keepingCapacity: true)
    }

    /// Sets the elements that hold what comes next (outermost first, below the paragraph), from
    /// `node` up: `element(node)` gives a node's wrappers and bidi controls, and its parent; the
    /// paragraph (node 0) ends the chain. The chain is written in the builder's own array, where a
    /// chain made apart was copied on its next change.
    mutating func target(from node: Int, _ element: (Int) -> (element: Element, parent: Int)) {
        target.removeAll(keepingCapacity: true)
        var node = node
        while node > 0 {
            let (made, parent) = element(node)
            target.append(made)
            node = parent
        }
        target.reverse()
    }

    /// Text under `xml:space="default"` (valid UTF-8).
    mutating func collapsibleText(_ buffer: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < buffer.count {
            if TTMLStyleValues.isXMLWhiteSpace(buffer[index]) {
                if !lastWasSpace {
                    prepareContent()
                    pendingSpace = writer.bytes.count
                    lastWasSpace = true
                }
                index += 1
                continue
            }
            // Words joined by single spaces are written at once: collapsing each of those
            // spaces to itself writes the same bytes, and most text is nothing else.
            var end = index + 1
            while end < buffer.count {
                if !TTMLStyleValues.isXMLWhiteSpace(buffer[end]) {
                    end += 1
                } else if buffer[end] == 0x20, end + 1 < buffer.count, !TTMLStyleValues.isXMLWhiteSpace(buffer[end + 1]) {
                    end += 2
                } else {
                    break
                }
            }
            writeContent(UnsafeBufferPointer(rebasing: buffer[index..<end]))
            index = end
        }
    }

    /// Text under `xml:space="preserve"` (valid UTF-8): spaces kept, line feeds (and carriage
    /// returns) break.
    mutating func preservedText(_ buffer: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < buffer.count {
            var end = index
            while end < buffer.count, buffer[end] != 0x0A, buffer[end] != 0x0D { end += 1 }
            if end > index {
                writeContent(UnsafeBufferPointer(rebasing: buffer[index..<end]))
                lastWasSpace = buffer[end - 1] == 0x20
            }
            guard end < buffer.count else { break }
            var next = end + 1
            if buffer[end] == 0x0D, next < buffer.count, buffer[next] == 0x0A { next += 1 }
            lineBreak()
            index = next
        }
    }

    /// A `br`, or a line feed of preserved text.
    mutating func lineBreak() {
        pendingSpace = nil
        if lineHasContent {
            prepareContent()
            pendingBreak = writer.bytes.count
        } else {
            droppedEmptyLines = true
        }
        lineHasContent = false
        lastWasSpace = true
    }

    /// The cue text, or nil when nothing but white space was shown.
    mutating func finish() -> String? {
        guard wroteContent else { return nil }
        while let last = open.popLast() { close(last) }
        writer.raw(rootClosing)
        return writer.string
    }

    /// ``finish()``, handing the builder's arrays back to `storage` for the next cue's builder. (A
    /// `consuming` method would finish a copy of the builder, its bytes shared and copied again.)
    mutating func finish(returning storage: inout Storage) -> String? {
        let text = finish()
        storage.bytes = writer.takeStorage()
        swap(&storage.open, &open)
        swap(&storage.target, &target)
        return text
    }

    // MARK: Writing

    private mutating func writeContent(_ bytes: UnsafeBufferPointer<UInt8>) {
        prepareContent()
        if let offset = pendingBreak {
            writer.insert(0x0A, at: offset)
            pendingBreak = nil
        } else if let offset = pendingSpace {
            writer.insert(0x20, at: offset)
        }
        pendingSpace = nil
        writer.text(bytes)
        lastWasSpace = false
        lineHasContent = true
    }

    /// Opens the root wrappers before the first content, and brings the open elements to the target.
    private mutating func prepareContent() {
        if !wroteContent {
            wroteContent = true
            writer.raw(rootOpening)
        }
        // A chain is the path from the paragraph down: ending at the same node, it is the same.
        if open.count == target.count, open.isEmpty || open[open.count - 1].node == target[target.count - 1].node { return }
        var common = 0
        while common < open.count, common < target.count, open[common].node == target[common].node { common += 1 }
        while open.count > common { close(open.removeLast()) }
        guard common < target.count else { return }
        for element in target[common...] {
            for wrapper in element.wrappers { writer.open(wrapper) }
            if let bidi = element.bidi { writer.text(bidi.open) }
            open.append(element)
        }
    }

    private mutating func close(_ element: Element) {
        if let bidi = element.bidi { writer.text(bidi.close) }
        for wrapper in element.wrappers.reversed() { writer.close(wrapper) }
    }
}
