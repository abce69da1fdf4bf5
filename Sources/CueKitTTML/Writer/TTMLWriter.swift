import CueKit

/// Writes TTML (IMSC 1.1 Text, EBU-TT-D or TTML1), streaming: ``TrackEvent``s in, one `p` per cue.
///
/// A TTML document states its styles, regions and agents in its head, before the body, while a
/// track's cues come one by one and a placement or a voice can first appear in the last of them.
/// The writer therefore collects the head as cues come and holds the body back (in memory up to
/// ``TTMLWriterOptions/bodyMemoryLimit``, then in an unlinked temporary file): at ``finish()`` it
/// writes the head, then the body. Memory is bounded by the head, whatever the track's length.
///
/// What becomes of the model (W3C TTML2, IMSC 1.1 and EBU Tech 3380 name the TTML side):
/// - times: `begin` and `end` as `hh:mm:ss.fff` on a media time base, or `hh:mm:ss:ff` with
///   ``TTMLWriterOptions/frameRate``;
/// - cue settings and `REGION`s: `region`s (see ``TTMLRegionGeometry``); `align` becomes
///   `tts:textAlign`;
/// - `::cue` rules (those of the track's style sheets, a Cast style's included): `style`s, one per
///   distinct set of attributes, referenced by each paragraph (`::cue`) and by each class span
///   (`::cue(.class)`), with their CSS translated by ``TTMLStyleTranslation``;
/// - `<i>`, `<b>`, `<u>`: spans styled `tts:fontStyle`, `tts:fontWeight`, `tts:textDecoration`;
/// - voices: spans with `ttm:agent`, the agent declared in the head with its name;
/// - `<lang>`: spans with `xml:lang`; ruby: `tts:ruby` containers, bases and texts;
/// - inner timestamps: the text after one is a span timed from it, as TTML shows progressive text;
/// - line breaks: `br`; cue identifiers that are XML names: `xml:id`; notes: XML comments; the
///   header text: `ttm:title`.
///
/// What the profile cannot carry is adjusted, and each kind is reported once in ``diagnostics``
/// with a count: never dropped silently.
public struct TTMLWriter<Sink: ByteSink>: TrackWriter {
    /// The writer's options.
    public typealias Options = TTMLWriterOptions

    /// The options written with.
    public var options: Options { document.options }
    /// The sink; it receives the whole document at ``finish()``.
    public private(set) var sink: Sink
    /// What could not be written as it was; complete after ``finish()``.
    public private(set) var diagnostics: [Diagnostic] = []

    // Everything but the sink lives in a type that is not generic, so that the work done for every
    // cue never looks up generic metadata.
    private var document: TTMLDocumentBuilder
    private var finished = false

    /// Creates a writer that writes to `sink`.
    public init(to sink: Sink, options: Options = Options()) {
        self.sink = sink
        document = TTMLDocumentBuilder(options: options)
    }

    /// Writes one event: the header becomes the title; regions and style sheets are collected for
    /// the head; a cue becomes a paragraph and a note a comment; diagnostics are ignored.
    public mutating func write(_ event: TrackEvent) throws {
        precondition(!finished, "TTMLWriter written to after finish")
        try document.write(event)
    }

    /// Writes the document: declaration, root, head, then the held body; flushes the sink.
    public mutating func finish() throws {
        guard !finished else { return }
        finished = true
        defer { document.close() }
        try sink.write(document.start())
        try document.drainBody(into: &sink)
        try sink.write(TTMLDocumentBuilder.end)
        try sink.flush()
        diagnostics = document.diagnostics
    }

    /// True when `text` is an XML name without a colon (an NCName): what `xml:id` holds.
    static func isXMLName(_ text: String) -> Bool { TTMLDocumentBuilder.isXMLName(text) }

    /// True when the first strong character of cue text (markup skipped) is right to left.
    static func startsRightToLeft(_ text: String) -> Bool { TTMLDocumentBuilder.startsRightToLeft(text) }

    /// The most cue identifiers written as `xml:id`.
    static var maximumIdentifiers: Int { TTMLDocumentBuilder.maximumIdentifiers }
}

/// The state and the formatting of ``TTMLWriter``: the head collected so far, the held body, and
/// what could not be written.
struct TTMLDocumentBuilder {
    private var body: TTMLBodySpool
    private var header = ""
    private var cueNumber = 0
    private var line: [UInt8] = []

    /// The `::cue` and `::cue(.class)` rules met so far, translated once.
    private var rules: [(selector: CueStyleRule.Selector, attributes: [TTMLStyleAttribute])] = []
    /// The style every paragraph's content has (from `::cue` rules), once worked out.
    private var everyCueStyle: String??
    /// Styles by their attributes, in the order made.
    private var styleIDs: [[TTMLStyleAttribute]: String] = [:]
    private var styles: [(id: String, attributes: [TTMLStyleAttribute])] = []
    private var classStyles: [[String]: [TTMLStyleAttribute]] = [:]
    private var regionIDs: [TTMLRegionGeometry: String] = [:]
    private var regions: [(id: String, geometry: TTMLRegionGeometry)] = []
    /// WebVTT region identifiers and the regions they became.
    private var trackRegions: [String: String] = [:]
    private var agentIDs: [String: String] = [:]
    private var agents: [(id: String, name: String)] = []
    /// The identifiers written as `xml:id`, as 64-bit hashes (a collision only leaves an
    /// identifier out), at most ``maximumIdentifiers``: past them no more are written, so that
    /// memory stays bounded and no `xml:id` can repeat.
    private var identifierHashes: Set<Int> = []
    static var maximumIdentifiers: Int { 100_000 }
    private var lastPlacement: (CueSettings, String)?
    private var defaultPlacement: String?
    /// Span styles: by tag alone, and by tag and classes (reset when a style sheet comes).
    private var tagStyles = [String??](repeating: nil, count: 4)
    private var spanStyles: [SpanStyleKey: String?] = [:]
    /// Paragraph styles by alignment (its index in `allCases`) and direction.
    private var paragraphStyles = [String?](repeating: nil, count: CueSettings.TextAlignment.allCases.count * 2)
    private var losses = TTMLWriterLosses()

    let options: TTMLWriterOptions

    init(options: TTMLWriterOptions) {
        self.options = options
        body = TTMLBodySpool(memoryLimit: options.bodyMemoryLimit)
        line.reserveCapacity(1024)
        if options.frameRate != nil, !options.profile.hasFrames { losses.add(.framesInEBUTTD, cue: 0) }
    }

    /// Takes one event.
    mutating func write(_ event: TrackEvent) throws {
        switch event {
        case .header(let text):
            header = text
        case .region(let region):
            if region.scroll != .none { losses.add(.regionScroll, cue: cueNumber) }
            trackRegions[region.id] = regionID(for: TTMLRegionGeometry(region: region))
        case .stylesheet(let sheet):
            for rule in sheet.cueRules {
                if case .other = rule.selector {
                    losses.add(.selectors, cue: cueNumber, detail: rule.selector.css)
                } else {
                    rules.append((rule.selector, translate(rule.declarations)))
                }
            }
            let unread = sheet.rules == nil ? CueStyleRule.parse(sheet.text).unread : 0
            for _ in 0..<unread { losses.add(.selectors, cue: cueNumber, detail: "@-rules and other CSS") }
            everyCueStyle = nil
            classStyles = [:]
            tagStyles = [String??](repeating: nil, count: 4)
            spanStyles = [:]
        case .note(let note):
            line.removeAll(keepingCapacity: true)
            appendLiteral("<!--")
            line.append(contentsOf: Self.commentText(note.text).utf8)
            appendLiteral("-->\n")
            try body.append(line)
        case .cue(let cue):
            cueNumber += 1
            try write(cue)
        case .diagnostic:
            break
        }
    }

    /// The declaration, the root's start tag, the head and the body's start: what comes before the
    /// held body, known once every cue is written.
    func start() -> [UInt8] {
        var head: [UInt8] = []
        head.append(contentsOf: #"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)
        head.append(0x0A)
        head.append(contentsOf: rootStartTag().utf8)
        head.append(contentsOf: headElement().utf8)
        head.append(contentsOf: "<body>\n<div>\n".utf8)
        return head
    }

    /// What follows the body.
    static let end = Array("</div>\n</body>\n</tt>\n".utf8)

    /// Hands the held body to `sink`.
    mutating func drainBody(into sink: inout some ByteSink) throws {
        try body.drain(into: &sink)
    }

    /// Releases the body's temporary file.
    mutating func close() { body.close() }

    /// What could not be written as it was.
    var diagnostics: [Diagnostic] { losses.diagnostics(profile: options.profile) }

    // MARK: - The document around the body

    private func rootStartTag() -> String {
        var tag = #"<tt xmlns="\#(TTML.namespace)" xmlns:ttp="\#(TTML.parameterNamespace)" xmlns:tts="\#(TTML.stylingNamespace)""#
        tag += #" xmlns:ttm="\#(TTML.metadataNamespace)""#
        if options.profile == .ebuTTD { tag += #" xmlns:ebuttm="urn:ebu:tt:metadata" xmlns:ebutts="urn:ebu:tt:style""# }
        tag += #" xml:lang="\#(Self.escaped(options.language, attribute: true))" ttp:timeBase="media""#
        switch options.profile {
        case .imsc11: tag += #" ttp:contentProfiles="http://www.w3.org/ns/ttml/profile/imsc1.1/text""#
        case .ttml1: tag += #" ttp:profile="http://www.w3.org/ns/ttml/profile/dfxp-presentation""#
        case .ebuTTD: tag += #" ttp:cellResolution="32 15""#
        }
        if let rate = frameRate {
            tag += #" ttp:frameRate="\#(rate.frames)""#
            if rate.numerator != 1 || rate.denominator != 1 { tag += #" ttp:frameRateMultiplier="\#(rate.numerator) \#(rate.denominator)""# }
        }
        return tag + ">\n"
    }

    private func headElement() -> String {
        var head = "<head>\n"
        let title = header.split(separator: "\n", omittingEmptySubsequences: true).first.map { String($0).trimmedForTitle } ?? ""
        var metadata = ""
        if options.profile == .ebuTTD {
            metadata += "<ebuttm:documentMetadata><ebuttm:conformsToStandard>urn:ebu:tt:distribution:2014-01</ebuttm:conformsToStandard></ebuttm:documentMetadata>\n"
        }
        if !title.isEmpty, options.profile != .ebuTTD { metadata += "<ttm:title>\(Self.escaped(title, attribute: false))</ttm:title>\n" }
        for agent in agents {
            metadata += #"<ttm:agent xml:id="\#(agent.id)" type="person"><ttm:name type="full">\#(Self.escaped(agent.name, attribute: false))</ttm:name></ttm:agent>"#
            metadata += "\n"
        }
        if !metadata.isEmpty { head += "<metadata>\n" + metadata + "</metadata>\n" }
        if !styles.isEmpty {
            head += "<styling>\n"
            for style in styles {
                head += #"<style xml:id="\#(style.id)""#
                for attribute in style.attributes { head += #" \#(attribute.name)="\#(Self.escaped(attribute.value, attribute: true))""# }
                head += "/>\n"
            }
            head += "</styling>\n"
        }
        if !regions.isEmpty {
            head += "<layout>\n"
            for region in regions { head += #"<region xml:id="\#(region.id)"\#(region.geometry.attributes)/>"# + "\n" }
            head += "</layout>\n"
        }
        return head + "</head>\n"
    }

    private var frameRate: TTMLWriterOptions.FrameRate? { options.profile.hasFrames ? options.frameRate : nil }

    // MARK: - Cues

    private mutating func write(_ cue: Cue) throws {
        line.removeAll(keepingCapacity: true)
        appendLiteral("<p")
        if !cue.id.isEmpty {
            if identifierHashes.count >= Self.maximumIdentifiers {
                losses.add(.identifiersPastTheLimit, cue: cueNumber)
            } else if Self.isXMLName(cue.id), !cue.id.hasPrefix("_"), identifierHashes.insert(cue.id.hashValue).inserted {
                appendLiteral(#" xml:id=""#)
                line.append(contentsOf: cue.id.utf8)
                line.append(UInt8(ascii: "\""))
            } else {
                losses.add(.identifiers, cue: cueNumber)
            }
        }
        appendLiteral(#" begin=""#)
        appendTime(max(cue.start, 0))
        appendLiteral(#"" end=""#)
        appendTime(max(cue.end, 0))
        appendLiteral(#"" region=""#)
        line.append(contentsOf: region(for: cue.settings).utf8)
        // WebVTT lays each cue out in its text's direction (its first strong character); TTML
        // paragraphs are left to right unless told.
        appendLiteral(#"" style=""#)
        line.append(contentsOf: paragraphStyle(cue.settings.alignment, rightToLeft: Self.startsRightToLeft(cue.text)).utf8)
        appendLiteral("\">")
        let wrapper = cueStyle()
        if let wrapper {
            appendLiteral(#"<span style=""#)
            line.append(contentsOf: wrapper.utf8)
            appendLiteral("\">")
        }
        if !Self.hasMarkup(cue.text) {
            appendText(cue.text)
        } else {
            var context = TextContext(cueStart: cue.start, cueEnd: cue.end)
            appendNodes(cue.nodes(), context: &context)
        }
        if wrapper != nil { appendLiteral("</span>") }
        appendLiteral("</p>\n")
        try body.append(line)
    }

    /// Inner timestamps: the time the text being written is shown from.
    private struct TextContext {
        let cueStart: Int
        let cueEnd: Int
        var shownFrom: Int?
    }

    private mutating func appendNodes(_ nodes: [CueNode], context: inout TextContext) {
        for node in nodes {
            switch node {
            case .text(let text):
                if let time = context.shownFrom {
                    appendLiteral(#"<span begin=""#)
                    appendTime(time - context.cueStart)
                    appendLiteral("\">")
                    appendText(text)
                    appendLiteral("</span>")
                } else {
                    appendText(text)
                }
            case .timestamp(let time):
                if time > context.cueStart, time < context.cueEnd {
                    // Text is never taken back: a timestamp earlier than one before it changes nothing.
                    context.shownFrom = max(context.shownFrom ?? time, time)
                } else if time >= context.cueEnd {
                    losses.add(.timestampsOutside, cue: cueNumber)
                }
            case .span(let span):
                appendSpan(span, context: &context)
            }
        }
    }

    private mutating func appendSpan(_ span: CueSpan, context: inout TextContext) {
        var tag = 0
        var agent: String?
        var language: String?
        switch span.kind {
        case .italic: tag = 1
        case .bold: tag = 2
        case .underline: tag = 3
        case .voice(let name):
            if name.isEmpty {
                break
            } else if options.profile.hasAgents {
                agent = agentID(for: name)
            } else {
                losses.add(.voices, cue: cueNumber)
            }
        case .language(let code):
            language = code
        case .ruby:
            appendRuby(span, context: &context)
            return
        case .class, .rubyText:
            break
        }
        let style = spanStyle(tag: tag, classes: span.classes)
        guard agent != nil || language != nil || style != nil else {
            appendNodes(span.children, context: &context)
            return
        }
        appendLiteral("<span")
        if let agent {
            appendLiteral(#" ttm:agent=""#)
            line.append(contentsOf: agent.utf8)
            line.append(UInt8(ascii: "\""))
        }
        if let language {
            appendLiteral(#" xml:lang=""#)
            line.append(contentsOf: Self.escaped(language, attribute: true).utf8)
            line.append(UInt8(ascii: "\""))
        }
        if let style {
            appendLiteral(#" style=""#)
            line.append(contentsOf: style.utf8)
            line.append(UInt8(ascii: "\""))
        }
        line.append(UInt8(ascii: ">"))
        appendNodes(span.children, context: &context)
        appendLiteral("</span>")
    }

    /// The style of a span: its tag's (1 italic, 2 bold, 3 underline, 0 none) and its classes'.
    private mutating func spanStyle(tag: Int, classes: [String]) -> String? {
        if classes.isEmpty, let known = tagStyles[tag] { return known }
        if !classes.isEmpty, let known = spanStyles[SpanStyleKey(tag: tag, classes: classes)] { return known }
        var attributes: [TTMLStyleAttribute] = []
        switch tag {
        case 1: attributes.append(TTMLStyleAttribute(name: "tts:fontStyle", value: "italic"))
        case 2: attributes.append(TTMLStyleAttribute(name: "tts:fontWeight", value: "bold"))
        case 3: attributes.append(TTMLStyleAttribute(name: "tts:textDecoration", value: "underline"))
        default: break
        }
        attributes += classAttributes(classes)
        let id = attributes.isEmpty ? nil : styleID(for: attributes)
        if classes.isEmpty {
            tagStyles[tag] = .some(id)
        } else {
            spanStyles[SpanStyleKey(tag: tag, classes: classes)] = .some(id)
        }
        return id
    }

    private struct SpanStyleKey: Hashable {
        var tag: Int
        var classes: [String]
    }

    /// WebVTT's `<ruby>base<rt>text</rt>…</ruby>`: a `tts:ruby` container for each base and its
    /// text; where the profile has no ruby, `base(text)`, as ruby is shown without ruby support.
    private mutating func appendRuby(_ span: CueSpan, context: inout TextContext) {
        var base: [CueNode] = []
        let classes = classAttributes(span.classes)
        for child in span.children {
            guard case .span(let annotation) = child, annotation.kind == .rubyText else {
                base.append(child)
                continue
            }
            if options.profile.hasRuby {
                let container = styleID(for: [TTMLStyleAttribute(name: "tts:ruby", value: "container")] + classes)
                line.append(contentsOf: #"<span style="\#(container)"><span style="\#(styleID(for: [TTMLStyleAttribute(name: "tts:ruby", value: "base")]))">"#.utf8)
                appendNodes(base, context: &context)
                let text = styleID(for: [TTMLStyleAttribute(name: "tts:ruby", value: "text")] + classAttributes(annotation.classes))
                line.append(contentsOf: #"</span><span style="\#(text)">"#.utf8)
                appendNodes(annotation.children, context: &context)
                appendLiteral("</span></span>")
            } else {
                losses.add(.ruby, cue: cueNumber)
                appendNodes(base, context: &context)
                appendLiteral("(")
                appendNodes(annotation.children, context: &context)
                appendLiteral(")")
            }
            base = []
        }
        appendNodes(base, context: &context)
    }

    // MARK: - Styles, regions, agents

    /// The style of every paragraph's content, from the `::cue` rules; nil when they set nothing.
    private mutating func cueStyle() -> String? {
        if let known = everyCueStyle { return known }
        let attributes = rules.filter { $0.selector == .everyCue }.flatMap(\.attributes)
        let id = attributes.isEmpty ? nil : styleID(for: attributes)
        everyCueStyle = .some(id)
        return id
    }

    /// The attributes the `::cue(.class)` rules give a span with these classes: each rule whose
    /// classes the span all has, in rule order.
    private mutating func classAttributes(_ classes: [String]) -> [TTMLStyleAttribute] {
        guard !classes.isEmpty else { return [] }
        if let known = classStyles[classes] { return known }
        var attributes: [TTMLStyleAttribute] = []
        for rule in rules {
            guard case .classes(let needed) = rule.selector, needed.allSatisfy(classes.contains) else { continue }
            attributes += rule.attributes
        }
        classStyles[classes] = attributes
        return attributes
    }

    private mutating func translate(_ declarations: [CueStyleRule.Declaration]) -> [TTMLStyleAttribute] {
        let result = TTMLStyleTranslation.translate(declarations, profile: options.profile)
        for declaration in result.notCarried { losses.add(.cssProperties, cue: cueNumber, detail: declaration) }
        return result.attributes
    }

    private mutating func styleID(for attributes: [TTMLStyleAttribute]) -> String {
        // A later attribute of the same name wins, as in CSS.
        var merged: [TTMLStyleAttribute] = []
        for attribute in attributes {
            merged.removeAll { $0.name == attribute.name }
            merged.append(attribute)
        }
        if let id = styleIDs[merged] { return id }
        let id = "_s\(styles.count + 1)"
        styleIDs[merged] = id
        styles.append((id, merged))
        return id
    }

    private mutating func region(for settings: CueSettings) -> String {
        if let name = settings.region, let id = trackRegions[name] { return id }
        if settings.isDefault {
            if let defaultPlacement { return defaultPlacement }
            defaultPlacement = regionID(for: TTMLRegionGeometry(cue: settings))
            return defaultPlacement!
        }
        // Most cues share their settings with the cue before.
        if let (last, id) = lastPlacement, last == settings { return id }
        let id = regionID(for: TTMLRegionGeometry(cue: settings))
        lastPlacement = (settings, id)
        return id
    }

    /// The style of a paragraph: its alignment, and its direction.
    private mutating func paragraphStyle(_ alignment: CueSettings.TextAlignment, rightToLeft: Bool) -> String {
        let key = Self.alignments.firstIndex(of: alignment)! * 2 + (rightToLeft ? 1 : 0)
        if let id = paragraphStyles[key] { return id }
        var attributes = [TTMLStyleAttribute(name: "tts:textAlign", value: alignment.rawValue)]
        if rightToLeft { attributes.append(TTMLStyleAttribute(name: "tts:direction", value: "rtl")) }
        let id = styleID(for: attributes)
        paragraphStyles[key] = id
        return id
    }

    private static let alignments = CueSettings.TextAlignment.allCases

    private mutating func regionID(for geometry: TTMLRegionGeometry) -> String {
        if let id = regionIDs[geometry] { return id }
        let id = "_r\(regions.count + 1)"
        regionIDs[geometry] = id
        regions.append((id, geometry))
        return id
    }

    private mutating func agentID(for name: String) -> String {
        if let id = agentIDs[name] { return id }
        let id = "_a\(agents.count + 1)"
        agentIDs[name] = id
        agents.append((id, name))
        return id
    }

    // MARK: - Text and times

    /// Appends text with XML's escapes, line breaks as `br`, and characters XML 1.0 cannot hold
    /// (C0 controls other than tab, U+FFFE, U+FFFF) replaced by U+FFFD (and counted). Works on the
    /// UTF-8 bytes: everything else is copied as it is.
    private mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            var copiedUpTo = 0
            func flush(_ line: inout [UInt8], upTo end: Int) {
                if end > copiedUpTo { line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<end])) }
            }
            while index < bytes.count {
                let byte = bytes[index]
                var replacement: StaticString?
                var length = 1
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\n"): replacement = "<br/>"
                case UInt8(ascii: "\t"), UInt8(ascii: "\r"): replacement = " "
                case 0..<0x20:
                    replacement = "\u{FFFD}"
                    losses.add(.invalidCharacters, cue: cueNumber)
                case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                    replacement = "\u{FFFD}"
                    length = 3
                    losses.add(.invalidCharacters, cue: cueNumber)
                default:
                    break
                }
                if let replacement {
                    flush(&line, upTo: index)
                    line.append(contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
                    copiedUpTo = index + length
                }
                index += length
            }
            flush(&line, upTo: bytes.count)
        }
    }

    /// Appends a time (milliseconds) as `hh:mm:ss.fff`, or `hh:mm:ss:ff` at the frame rate.
    private mutating func appendTime(_ milliseconds: Int) {
        guard let rate = frameRate else {
            CueTimestamp.append(milliseconds, hours: .always, separator: UInt8(ascii: "."), to: &line)
            return
        }
        var seconds = milliseconds / 1000
        var frames = Int((Double(milliseconds % 1000) * rate.perSecond / 1000).rounded())
        if frames >= rate.frames {
            seconds += 1
            frames = 0
        }
        // hh:mm:ss from the whole seconds, then the frames after a colon.
        CueTimestamp.append(seconds * 1000, hours: .always, separator: UInt8(ascii: "."), to: &line)
        line.removeLast(4)
        line.append(UInt8(ascii: ":"))
        if frames >= 100 { line.append(contentsOf: String(frames / 100).utf8) }
        line.append(UInt8(ascii: "0") + UInt8(frames / 10 % 10))
        line.append(UInt8(ascii: "0") + UInt8(frames % 10))
    }

    static func escaped(_ text: String, attribute: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where attribute: result += "&quot;"
            case "\n" where attribute: result += "&#10;"
            case "\u{00}"..."\u{08}", "\u{0B}", "\u{0C}", "\u{0E}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A note's text as an XML comment's: `--` cannot be in a comment, nor `-` at its end.
    static func commentText(_ text: String) -> String {
        var result = " "
        for scalar in escaped(text, attribute: false).unicodeScalars {
            if scalar == "-", result.hasSuffix("-") { result += " " }
            result.unicodeScalars.append(scalar)
        }
        return result + " "
    }

    /// Appends a literal's bytes in one copy.
    @inline(__always)
    private mutating func appendLiteral(_ literal: StaticString) {
        literal.withUTF8Buffer { line.append(contentsOf: $0) }
    }

    /// True when cue text holds a tag or a character reference (`<` or `&`), and so needs parsing.
    static func hasMarkup(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { buffer in
            let bytes = UnsafeRawBufferPointer(buffer)
            return ByteScanning.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: 0, to: bytes.count) < bytes.count
                || ByteScanning.firstIndex(of: UInt8(ascii: "&"), in: bytes, from: 0, to: bytes.count) < bytes.count
        }
    }

    /// True when the first strong character of cue text (markup skipped) is right to left:
    /// Hebrew, Arabic and the other scripts written right to left.
    static func startsRightToLeft(_ text: String) -> Bool {
        var inTag = false
        // Most text starts with an ASCII letter: the answer then needs no Unicode property.
        for byte in text.utf8 {
            if inTag {
                if byte == UInt8(ascii: ">") { inTag = false }
                continue
            }
            if byte == UInt8(ascii: "<") {
                inTag = true
                continue
            }
            if byte >= 0x80 { break }
            if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") { return false }
        }
        inTag = false
        for scalar in text.unicodeScalars {
            if inTag {
                if scalar == ">" { inTag = false }
                continue
            }
            if scalar == "<" {
                inTag = true
                continue
            }
            guard scalar.properties.isAlphabetic else { continue }
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
            default: return false
            }
        }
        return false
    }

    /// True when `text` is an XML name without a colon (an NCName): what `xml:id` holds.
    static func isXMLName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        func isStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || (scalar.value >= 0xC0 && scalar.value != 0xD7 && scalar.value != 0xF7)
        }
        guard isStart(first) else { return false }
        return text.unicodeScalars.allSatisfy { isStart($0) || $0 == "-" || $0 == "." || ("0"..."9").contains($0) || $0 == "\u{B7}" }
    }
}

extension String {
    fileprivate var trimmedForTitle: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" || first == "-" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
