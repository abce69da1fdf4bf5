import CueKit

/// Cue text written from ``CueTextEvents``, with no tree: the same markup
/// ``TTMLDocumentBuilder/appendNodes(_:context:)`` writes for the same text (the tests compare the
/// two on every fixture and on random markup). Names are looked up by their bytes, so a cue's spans
/// cost no `String` once their styles and agents are known.
extension TTMLDocumentBuilder {
    /// The last parse's events over its buffers, and where each span closes.
    struct EventText {
        let events: [CueTextEvents.Event]
        let bytes: UnsafeBufferPointer<UInt8>
        let classRanges: [Range<Int>]
        /// For each `.open` event, the index of its `.close` (filled only when the text has ruby).
        let closes: [Int]

        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        func classNames(_ classes: Range<Int>) -> [String] {
            classRanges[classes].map(string)
        }
    }

    /// Writes the cue text of the last parse into ``parsedText``.
    mutating func appendEvents(context: inout TextContext) {
        // Buffers are taken out of self while in use: they stay uniquely held (so they keep their
        // capacity) and are read with no copy.
        var parsed = CueTextEvents.Parsed()
        swap(&parsed, &parsedText)
        var closes: [Int] = []
        swap(&closes, &spanCloses)
        defer {
            swap(&parsed, &parsedText)
            swap(&closes, &spanCloses)
        }
        if !closes.isEmpty { closes.removeAll(keepingCapacity: true) }
        if parsed.events.contains(where: { if case .open(.ruby, _, _) = $0 { true } else { false } }) {
            // Ruby groups each base with its annotation: it needs to know where spans end. One
            // pass with a stack, so that nesting costs no rescans.
            closes.append(contentsOf: repeatElement(0, count: parsed.events.count))
            var open: [Int] = []
            swap(&open, &openIndices)
            if !open.isEmpty { open.removeAll(keepingCapacity: true) }
            for (index, event) in parsed.events.enumerated() {
                switch event {
                case .open: open.append(index)
                case .close: closes[open.removeLast()] = index
                default: break
                }
            }
            swap(&open, &openIndices)
        }
        if !openSpans.isEmpty { openSpans.removeAll(keepingCapacity: true) }
        parsed.bytes.withUnsafeBufferPointer { bytes in
            let text = EventText(events: parsed.events, bytes: bytes, classRanges: parsed.classRanges, closes: closes)
            appendEvents(0..<text.events.count, of: text, context: &context)
        }
    }

    /// Writes a balanced run of events.
    mutating func appendEvents(_ range: Range<Int>, of text: EventText, context: inout TextContext) {
        var index = range.lowerBound
        while index < range.upperBound {
            switch text.events[index] {
            case .text(let bytes):
                appendTextRun(UnsafeBufferPointer(rebasing: text.bytes[bytes]), context: context)
            case .timestamp(let time):
                takeTimestamp(time, context: &context)
            case .open(.ruby, let classes, _):
                let close = text.closes[index]
                appendRuby(index, close: close, classes: classes, of: text, context: &context)
                index = close
            case .open(let tag, let classes, let annotation):
                openSpans.append(openSpan(tag, classes: classes, annotation: annotation, of: text))
            case .close:
                if openSpans.removeLast() { closeSpan() }
            }
            index += 1
        }
    }

    /// ``openSpan(_:classes:)`` for an event: the style is found by the class names' bytes, the
    /// agent by the voice's bytes.
    mutating func openSpan(_ tag: CueTextEvents.Tag, classes: Range<Int>, annotation: Range<Int>, of text: EventText) -> Bool {
        var styleTag = 0
        var agent: String?
        var language: String?
        switch tag {
        case .italic: styleTag = 1
        case .bold: styleTag = 2
        case .underline: styleTag = 3
        case .voice:
            if annotation.isEmpty {
                break
            } else if options.profile.hasAgents {
                agent = agentID(forVoice: UnsafeBufferPointer(rebasing: text.bytes[annotation]))
            } else {
                losses.add(.voices, cue: cueNumber)
            }
        case .language:
            language = escapedLanguage(UnsafeBufferPointer(rebasing: text.bytes[annotation]))
        case .class, .ruby, .rubyText:
            break
        }
        let style = classes.isEmpty ? spanStyle(tag: styleTag, classes: []) : spanStyle(tag: styleTag, classes: classes, of: text)
        return appendSpanStart(agent: agent, language: language, style: style)
    }

    /// The style of a span with classes, cached by the tag and the class names' bytes.
    mutating func spanStyle(tag: Int, classes: Range<Int>, of text: EventText) -> String? {
        var key = TTMLNameBytes()
        swap(&key, &spanStyleKey)
        key.bytes.removeAll(keepingCapacity: true)
        key.bytes.append(UInt8(tag))
        for range in text.classRanges[classes] {
            // Class names hold no spaces: a space separates them unambiguously.
            key.bytes.append(UInt8(ascii: " "))
            key.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text.bytes[range]))
        }
        defer { spanStyleKey = key }
        if let known = spanStylesByBytes[key] { return known }
        let style = spanStyle(tag: tag, classes: text.classNames(classes))
        if spanStylesByBytes.count >= Self.maximumCachedNames { spanStylesByBytes.removeAll() }
        spanStylesByBytes[key] = .some(style)
        return style
    }

    /// The agent of a voice, by its name's bytes; nil when the head is full.
    mutating func agentID(forVoice name: UnsafeBufferPointer<UInt8>) -> String? {
        var key = TTMLNameBytes()
        swap(&key, &spanStyleKey)
        defer { swap(&key, &spanStyleKey) }
        key.bytes.removeAll(keepingCapacity: true)
        key.bytes.append(contentsOf: name)
        if let known = agentsByVoice[key] { return known }
        guard let id = agentID(for: String(decoding: name, as: UTF8.self)) else { return nil }
        if agentsByVoice.count >= Self.maximumCachedNames { agentsByVoice.removeAll() }
        agentsByVoice[key] = id
        return id
    }

    /// A language tag escaped for `xml:lang`, by its bytes.
    mutating func escapedLanguage(_ name: UnsafeBufferPointer<UInt8>) -> String {
        var key = TTMLNameBytes()
        swap(&key, &spanStyleKey)
        defer { swap(&key, &spanStyleKey) }
        return Self.lookUp(name, in: &escapedLanguages, key: &key) { Self.escaped($0, attribute: true) }
    }

    /// What `make` gives for a name, worked out once and then found by the name's bytes (`key` is
    /// scratch space). The table starts again past ``maximumCachedNames``, so memory stays flat.
    static func lookUp(
        _ name: UnsafeBufferPointer<UInt8>, in table: inout [TTMLNameBytes: String], key: inout TTMLNameBytes, make: (String) -> String
    ) -> String {
        key.bytes.removeAll(keepingCapacity: true)
        key.bytes.append(contentsOf: name)
        if let known = table[key] { return known }
        let value = make(String(decoding: name, as: UTF8.self))
        if table.count >= maximumCachedNames { table.removeAll() }
        table[key] = value
        return value
    }
}
