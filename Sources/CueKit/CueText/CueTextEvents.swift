/// Cue text parsed by WebVTT's rules (section 6.4) into a flat list of events instead of a
/// ``CueNode`` tree: spans opening and closing, text, timestamps, in the order a walk of the tree
/// would meet them. For writers that translate cue text as they go (the TTML writer): the events,
/// the decoded text and the class names live in buffers that are reused from cue to cue, so a cue
/// costs no allocation once they have grown.
///
/// The events are exactly the tree ``CueText/nodes(from:)`` builds: the same spans, in the same
/// nesting, with the same text (the tests check it on every conformance input).
package struct CueTextEvents: Sendable {
    /// The tag that opened a span.
    package enum Tag: Sendable, Hashable {
        case `class`, italic, bold, underline, ruby, rubyText, voice, language

        init(_ tag: CueTextParser.Tag) {
            switch tag {
            case .class: self = .class
            case .italic: self = .italic
            case .bold: self = .bold
            case .underline: self = .underline
            case .ruby: self = .ruby
            case .rubyText: self = .rubyText
            case .voice: self = .voice
            case .language: self = .language
            }
        }

        /// The tree's span kind for this tag, with its annotation (a voice or language tag).
        package func kind(annotation: String) -> CueSpan.Kind {
            switch self {
            case .class: .class
            case .italic: .italic
            case .bold: .bold
            case .underline: .underline
            case .ruby: .ruby
            case .rubyText: .rubyText
            case .voice: .voice(annotation)
            case .language: .language(annotation)
            }
        }
    }

    /// One step of the walk. Ranges are into ``bytes`` (text, annotations) and ``classRanges``.
    package enum Event: Sendable, Hashable {
        case open(Tag, classes: Range<Int>, annotation: Range<Int>)
        /// The innermost open span ends.
        case close
        case text(Range<Int>)
        case timestamp(Int)
    }

    /// What a run records: the events, the decoded text and annotations they point into, and the
    /// class names. A caller that keeps one of its own (``parse(_:into:)``) reads it with no copy
    /// of the parser.
    package struct Parsed: Sendable {
        package var events: [Event] = []
        package var bytes: [UInt8] = []
        package var classRanges: [Range<Int>] = []

        package init() {}

        mutating func removeAll() {
            events.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
            classRanges.removeAll(keepingCapacity: true)
        }
    }

    private var parser = CueTextParser()
    private var storage = Parsed()

    package init() {}

    /// The events of the last ``parse(_:)``.
    package var events: [Event] { storage.events }
    /// Decoded text and annotations.
    package var bytes: [UInt8] { storage.bytes }
    /// Class names, as ranges of ``bytes``.
    package var classRanges: [Range<Int>] { storage.classRanges }

    /// Parses `text`, replacing the events of the last parse.
    package mutating func parse(_ text: String) {
        var parsed = Parsed()
        swap(&parsed, &storage)
        parse(text, into: &parsed)
        swap(&parsed, &storage)
    }

    /// Parses `text` into `parsed`, replacing what it held and reusing its buffers. When `cache`
    /// holds the events of this very text (the WebVTT reader's check parsed it a moment ago), they
    /// are taken instead: the buffers change hands, nothing is copied.
    package mutating func parse(_ text: String, into parsed: inout Parsed, sharedWith cache: CueTextParseCache? = nil) {
        if let cache, cache.holds(text) {
            cache.handOver(into: &parsed)
            return
        }
        var text = text
        text.withUTF8 { parse(bytes: UnsafeRawBufferPointer($0), into: &parsed) }
    }

    /// ``parse(_:into:sharedWith:)`` for a text's UTF-8 bytes (valid UTF-8), borrowed for the call.
    package mutating func parse(bytes: UnsafeRawBufferPointer, into parsed: inout Parsed, sharedWith cache: CueTextParseCache? = nil) {
        if let cache, cache.holds(bytes: bytes) {
            cache.handOver(into: &parsed)
            return
        }
        parsed.removeAll()
        swap(&parsed, &parser.recorded)
        parser.reset(bytes, buildsTree: false, context: nil)
        parser.recordsEvents = true
        _ = parser.run()
        _ = parser.takeDiagnostics()
        swap(&parsed, &parser.recorded)
    }

    /// True when `text` holds a tag or a character reference (`<` or `&`): text without either is
    /// its own plain text, one text event.
    package static func hasMarkup(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { hasMarkup(bytes: $0) }
    }

    /// ``hasMarkup(_:)`` on a text's UTF-8 bytes.
    package static func hasMarkup(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let bytes = UnsafeRawBufferPointer(bytes)
        return CueTextParser.nextSpecial(in: bytes, from: 0) < bytes.count
    }

    /// The bytes of a range of ``bytes`` as a string.
    package func string(_ range: Range<Int>) -> String {
        String(decoding: storage.bytes[range], as: UTF8.self)
    }

    /// The events as a ``CueNode`` tree: what ``CueText/nodes(from:)`` returns for the same text.
    package func nodes() -> [CueNode] {
        var stack: [(tag: Tag, classes: [String], annotation: String, children: [CueNode])] = []
        var root: [CueNode] = []
        func add(_ node: CueNode) {
            if stack.isEmpty { root.append(node) } else { stack[stack.count - 1].children.append(node) }
        }
        for event in storage.events {
            switch event {
            case .open(let tag, let classes, let annotation):
                stack.append((tag, classRanges[classes].map(string), string(annotation), []))
            case .close:
                let span = stack.removeLast()
                let kind = span.tag.kind(annotation: span.annotation)
                add(.span(CueSpan(kind, classes: span.classes, children: span.children)))
            case .text(let range):
                add(.text(string(range)))
            case .timestamp(let time):
                add(.timestamp(time))
            }
        }
        return root
    }
}
