import CueKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state and the formatting of ``TTMLWriter``: the head collected so far, the held body, and
/// what could not be written.
struct TTMLDocumentBuilder {
    var body: TTMLBodySpool
    var header = ""
    var cueNumber = 0
    /// Where paragraphs are formatted: the end of the held body (``TTMLBodySpool/buffer``, kept
    /// here too so that each append reaches it directly).
    let line: TTMLByteBuffer

    /// The `::cue` and `::cue(.class)` rules met so far, translated once.
    var rules: [(selector: CueStyleRule.Selector, attributes: [TTMLStyleAttribute])] = []
    /// The style every paragraph's content has (from `::cue` rules), once worked out.
    var everyCueStyle: String??
    /// The start tag of the span of that style, written into every paragraph.
    let everyCueSpanStart = TTMLByteBuffer(capacity: 32)
    /// Styles by their attributes, in the order made.
    var styles = TTMLHeadEntries<[TTMLStyleAttribute]>(prefix: "_s")
    var classStyles: [[String]: [TTMLStyleAttribute]] = [:]
    var regions = TTMLHeadEntries<TTMLRegionGeometry>(prefix: "_r")
    /// WebVTT region identifiers and the regions they became.
    var trackRegions: [String: String] = [:]
    var agents = TTMLHeadEntries<String>(prefix: "_a")
    /// The identifiers written as `xml:id`, as 64-bit hashes (a collision only leaves an
    /// identifier out), at most ``maximumIdentifiers``: past them no more are written, so that
    /// memory stays bounded and no `xml:id` can repeat.
    var identifierHashes = IdentifierHashSet()
    static var maximumIdentifiers: Int { 100_000 }
    /// The region of cues with no settings.
    var defaultPlacement: String?
    /// The region cues are placed in once the head holds the most regions (the default
    /// placement's), once known.
    var fullHeadRegion: String?
    /// The last sixteen distinct settings met (other than none) and their regions.
    var recentSettings: [CueSettings] = []
    var recentRegions: [String] = []
    var recentLines: [Int] = []
    /// Where the next settings met go once sixteen are held: over the oldest (a ring, so that no
    /// settings are moved).
    var recentNext = 0
    /// Cue text through ``CueNode`` trees only: the general path the events path is checked against.
    var writesThroughTheTree = false
    /// Whether each open span wrote a start tag, reused from cue to cue.
    var openSpans: [Bool] = []
    /// Where the start tags of the spans open around the text being written are in ``line`` (the
    /// every-cue span's first): a ruby container closes them and opens them again (see
    /// ``appendRubyStart(chain:containerStyle:)``). Reused from cue to cue.
    var openTags = TTMLOpenTags()
    /// True while a ruby base or text is written: a ruby inside it stays where it is.
    var writingRuby = false
    /// Cue text parsed into events, reused from cue to cue.
    var textEvents = CueTextEvents()
    /// The last cue's events, reused from cue to cue.
    var parsedText = CueTextEvents.Parsed()
    /// Where each span of the events closes (when they hold ruby), reused from cue to cue.
    var spanCloses: [Int] = []
    var openIndices: [Int] = []
    /// Span styles: by tag alone, and by tag and classes (reset when a style sheet comes).
    var tagStyles = [String??](repeating: nil, count: 4)
    var spanStyles: [SpanStyleKey: String?] = [:]
    /// Span styles by the tag and the class names' bytes, and the key being looked up (a voice's
    /// name, too).
    var spanStylesByBytes: [TTMLNameBytes: String?] = [:]
    var spanStyleKey = TTMLNameBytes()
    /// Agents by the voice names' bytes (emptied past ``maximumCachedNames``).
    var agentsByVoice: [TTMLNameBytes: String] = [:]
    /// `xml:lang` values, escaped, by the language tags' bytes.
    var escapedLanguages: [TTMLNameBytes: String] = [:]
    /// The most class combinations remembered: past it the caches start again, so that a track
    /// with ever new class names keeps its memory flat.
    static var maximumCachedNames: Int { 10_000 }
    /// Paragraph styles by alignment (in the order of `allCases`) and direction.
    var paragraphStyles = [String?](repeating: nil, count: CueSettings.TextAlignment.allCases.count * 2)
    var losses = TTMLWriterLosses()
    /// The regions of the cues shown around the last one, for the profiles that limit them.
    var shownRegions = TTMLShownRegions()
    /// How deep spans are open in the paragraph being written, and how many elements and pieces
    /// of text it holds so far (see ``maximumSpanDepth`` and ``maximumNodesPerParagraph``).
    var spanDepth = 0
    var paragraphNodes = 0

    let options: TTMLWriterOptions
    /// Where the reader that feeds this writer leaves its parse of each cue text, if one does.
    var cueTextParseCache: CueTextParseCache?

    init(options: TTMLWriterOptions) {
        self.options = options
        body = TTMLBodySpool(memoryLimit: options.bodyMemoryLimit)
        line = body.buffer
        if options.frameRate != nil, !options.profile.hasFrames { losses.add(.framesInEBUTTD, cue: 0) }
    }

    /// Takes one event.
    mutating func write(_ event: TrackEvent) throws {
        switch event {
        case .header(let text):
            header = text
        case .region(let region):
            if region.scroll != .none { losses.add(.regionScroll, cue: cueNumber) }
            if trackRegions.count < Self.maximumRegions || trackRegions[region.id] != nil {
                trackRegions[region.id] = regionID(for: TTMLRegionGeometry(region: region))
            } else {
                losses.add(.headFull, cue: cueNumber, detail: "regions")
            }
            defaultPlacement = nil
            recentSettings = []
            recentRegions = []
            recentLines = []
            recentNext = 0
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
            spanStylesByBytes = [:]
        case .note(let note):
            appendLiteral("<!--")
            line.append(Self.commentText(note.text))
            appendLiteral("-->\n")
            try body.paragraphEnded()
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

    func rootStartTag() -> String {
        var tag = #"<tt xmlns="\#(TTML.namespace)" xmlns:ttp="\#(TTML.parameterNamespace)" xmlns:tts="\#(TTML.stylingNamespace)""#
        tag += #" xmlns:ttm="\#(TTML.metadataNamespace)""#
        if options.profile == .ebuTTD { tag += #" xmlns:ebuttm="urn:ebu:tt:metadata" xmlns:ebutts="urn:ebu:tt:style""# }
        tag += #" xml:lang="\#(Self.escaped(options.language, attribute: true))" ttp:timeBase="media""#
        switch options.profile {
        case .imsc11: tag += #" ttp:contentProfiles="http://www.w3.org/ns/ttml/profile/imsc1.1/text""#
        case .ttml1: tag += #" ttp:profile="http://www.w3.org/ns/ttml/profile/dfxp-presentation""#
        case .ebuTTD: break
        }
        let rows = options.look.cellRows
        if rows != 15 || options.profile == .ebuTTD { tag += #" ttp:cellResolution="32 \#(rows)""# }
        if let rate = frameRate {
            tag += #" ttp:frameRate="\#(rate.frames)""#
            if rate.numerator != 1 || rate.denominator != 1 { tag += #" ttp:frameRateMultiplier="\#(rate.numerator) \#(rate.denominator)""# }
        }
        return tag + ">\n"
    }

    func headElement() -> String {
        var head = "<head>\n"
        let title = header.split(separator: "\n", omittingEmptySubsequences: true).first.map { String($0).trimmedForTitle } ?? ""
        var metadata = ""
        if options.profile == .ebuTTD {
            metadata += "<ebuttm:documentMetadata><ebuttm:conformsToStandard>urn:ebu:tt:distribution:2014-01</ebuttm:conformsToStandard></ebuttm:documentMetadata>\n"
        }
        if !title.isEmpty, options.profile != .ebuTTD { metadata += "<ttm:title>\(Self.escaped(title, attribute: false))</ttm:title>\n" }
        for agent in agents.entries {
            metadata += #"<ttm:agent xml:id="\#(agent.id)" type="person"><ttm:name type="full">\#(Self.escaped(agent.value, attribute: false))</ttm:name></ttm:agent>"#
            metadata += "\n"
        }
        if !metadata.isEmpty { head += "<metadata>\n" + metadata + "</metadata>\n" }
        if !styles.entries.isEmpty {
            head += "<styling>\n"
            for style in styles.entries {
                head += #"<style xml:id="\#(style.id)""#
                for attribute in style.value { head += #" \#(attribute.name)="\#(Self.escaped(attribute.value, attribute: true))""# }
                head += "/>\n"
            }
            head += "</styling>\n"
        }
        if !regions.entries.isEmpty {
            head += "<layout>\n"
            for region in regions.entries { head += #"<region xml:id="\#(region.id)"\#(region.value.attributes)/>"# + "\n" }
            head += "</layout>\n"
        }
        return head + "</head>\n"
    }

    var frameRate: TTMLWriterOptions.FrameRate? { options.profile.hasFrames ? options.frameRate : nil }

    // MARK: - Cues

    /// Appends a run of text, in a timed span when an inner timestamp came before it.
    mutating func appendTextRun(_ text: UnsafeBufferPointer<UInt8>, context: TextContext) {
        guard let time = context.shownFrom, admitsSpan() else {
            appendText(bytes: text)
            return
        }
        appendLiteral(#"<span begin=""#)
        appendTime(time - context.cueStart)
        appendLiteral("\">")
        appendText(bytes: text)
        closeSpans()
    }

    /// An inner timestamp: with paint-on, the text after it is shown from then; else nothing (the
    /// whole cue shows for its whole time, as in WebVTT).
    mutating func takeTimestamp(_ time: Int, context: inout TextContext) {
        guard options.innerTimestamps == .paintOn else { return }
        if time > context.cueStart, time < context.cueEnd {
            // Text is never taken back: a timestamp earlier than one before it changes nothing.
            context.shownFrom = max(context.shownFrom ?? time, time)
        } else if time >= context.cueEnd {
            losses.add(.timestampsOutside, cue: cueNumber)
        }
    }

    /// Inner timestamps: the time the text being written is shown from.
    struct TextContext {
        let cueStart: Int
        let cueEnd: Int
        var shownFrom: Int?
    }

    mutating func appendNodes(_ nodes: [CueNode], context: inout TextContext) {
        for node in nodes {
            switch node {
            case .text(let text):
                var text = text
                text.withUTF8 { appendTextRun($0, context: context) }
            case .timestamp(let time):
                takeTimestamp(time, context: &context)
            case .span(let span):
                if span.kind == .ruby {
                    appendRuby(span, context: &context)
                } else {
                    let emitted = openSpan(span.kind, classes: span.classes)
                    appendNodes(span.children, context: &context)
                    if emitted { closeSpan() }
                }
            }
        }
    }

    /// Writes the start tag of a span (not ruby) when it says something in TTML: an agent, a
    /// language, a style. Returns whether it wrote one (and so its end tag is due).
    mutating func openSpan(_ kind: CueSpan.Kind, classes: [String]) -> Bool {
        var tag = 0
        var agent: String?
        var language: String?
        switch kind {
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
            language = Self.escaped(code, attribute: true)
        case .class, .ruby, .rubyText:
            break
        }
        return appendSpanStart(agent: agent, language: language, style: spanStyle(tag: tag, classes: classes))
    }

    /// Writes a span's start tag when it has something to say and fits in the paragraph. Returns
    /// whether it wrote one. `language` is escaped already.
    mutating func appendSpanStart(agent: String?, language: String?, style: String?) -> Bool {
        guard agent != nil || language != nil || style != nil, admitsSpan() else { return false }
        let start = line.count
        appendLiteral("<span")
        if let agent {
            appendLiteral(#" ttm:agent=""#)
            line.append(agent)
            line.append(UInt8(ascii: "\""))
        }
        if let language {
            appendLiteral(#" xml:lang=""#)
            line.append(language)
            line.append(UInt8(ascii: "\""))
        }
        if let style {
            appendLiteral(#" style=""#)
            line.append(style)
            line.append(UInt8(ascii: "\""))
        }
        line.append(UInt8(ascii: ">"))
        openTags.push(start..<line.count)
        return true
    }

    /// Closes a span whose start tag ``appendSpanStart(agent:language:style:)`` wrote.
    mutating func closeSpan() {
        openTags.pop()
        closeSpans()
    }

    /// The style of a span: its tag's (1 italic, 2 bold, 3 underline, 0 none) and its classes'.
    mutating func spanStyle(tag: Int, classes: [String]) -> String? {
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
            if spanStyles.count >= Self.maximumCachedNames { spanStyles.removeAll() }
            spanStyles[SpanStyleKey(tag: tag, classes: classes)] = .some(id)
        }
        return id
    }

    struct SpanStyleKey: Hashable {
        var tag: Int
        var classes: [String]
    }

    // MARK: - Styles, regions, agents

    /// The style of every paragraph's content: the look cues start from (``TTMLWriterOptions/look``),
    /// then the `::cue` rules; nil when together they set nothing.
    mutating func cueStyle() -> String? {
        if let known = everyCueStyle { return known }
        let initial = options.look == .webVTT ? Self.webVTTLook : []
        let attributes = initial + rules.filter { $0.selector == .everyCue }.flatMap(\.attributes)
        let id = attributes.isEmpty ? nil : styleID(for: attributes)
        everyCueStyle = .some(id)
        everyCueSpanStart.removeAll()
        if let id {
            everyCueSpanStart.append(#"<span style=""#)
            everyCueSpanStart.append(id)
            everyCueSpanStart.append(#"">"#)
        }
        return id
    }

    /// WebVTT's default cue look (section 7.4: `color: rgba(255,255,255,1)`, `background:
    /// rgba(0,0,0,0.8)`, `font: 5vh sans-serif`) in TTML. On the span around the paragraph's
    /// content, not the paragraph: a background is not inherited, and a paragraph's would fill
    /// its whole block rather than the text's lines. The size is the cell's
    /// (``TTMLWriterOptions/Look/cellRows``), so that `::cue` percentages are of 5vh, as in WebVTT.
    static let webVTTLook = [
        TTMLStyleAttribute(name: "tts:color", value: "#ffffffff"),
        TTMLStyleAttribute(name: "tts:backgroundColor", value: "#000000cc"),
        TTMLStyleAttribute(name: "tts:fontFamily", value: "sansSerif"),
    ]

    /// The attributes the `::cue(.class)` rules give a span with these classes: each rule whose
    /// classes the span all has, in rule order.
    mutating func classAttributes(_ classes: [String]) -> [TTMLStyleAttribute] {
        guard !classes.isEmpty else { return [] }
        if let known = classStyles[classes] { return known }
        var attributes: [TTMLStyleAttribute] = []
        for rule in rules {
            guard case .classes(let needed) = rule.selector, needed.allSatisfy(classes.contains) else { continue }
            attributes += rule.attributes
        }
        if classStyles.count >= Self.maximumCachedNames { classStyles.removeAll() }
        classStyles[classes] = attributes
        return attributes
    }

    mutating func translate(_ declarations: [CueStyleRule.Declaration]) -> [TTMLStyleAttribute] {
        let result = TTMLStyleTranslation.translate(declarations, profile: options.profile, cellRows: options.look.cellRows)
        for declaration in result.notCarried { losses.add(.cssProperties, cue: cueNumber, detail: declaration) }
        return result.attributes
    }

    mutating func region(for settings: CueSettings, lines: Int = 1) -> String {
        // Most cues have no settings, and most others share theirs with a recent cue. Settings are
        // compared in place: they are cheap to compare, not to copy or to hash.
        let isDefault = settings.isDefault
        if isDefault, let defaultPlacement { return defaultPlacement }
        if !isDefault, let index = Self.lastIndex(of: settings, in: recentSettings), recentLines[index] == lines {
            return recentRegions[index]
        }
        let id: String
        if let name = settings.region, let known = trackRegions[name] {
            id = known
        } else {
            id = regionID(for: TTMLRegionGeometry(cue: settings, lines: lines))
        }
        if isDefault {
            defaultPlacement = id
        } else {
            if recentSettings.count == 16 {
                recentSettings[recentNext] = settings
                recentRegions[recentNext] = id
                recentLines[recentNext] = lines
                recentNext = (recentNext + 1) % 16
            } else {
                recentSettings.append(settings)
                recentRegions.append(id)
                recentLines.append(lines)
            }
        }
        return id
    }

    /// The index of the last of `recent` equal to `settings` (any of them gives the same region:
    /// the order only decides which is tried first), compared in place.
    static func lastIndex(of settings: CueSettings, in recent: [CueSettings]) -> Int? {
        recent.withUnsafeBufferPointer { recent in
            var index = recent.count
            while index > 0 {
                index -= 1
                // Field by field, the numbers first: comparing whole values copied one of them.
                let held = recent.baseAddress! + index
                if held.pointee.size == settings.size, held.pointee.line == settings.line, held.pointee.position == settings.position,
                    held.pointee.alignment == settings.alignment, held.pointee.lineAlignment == settings.lineAlignment,
                    held.pointee.positionAlignment == settings.positionAlignment, held.pointee.vertical == settings.vertical,
                    held.pointee.region == settings.region
                {
                    return index
                }
            }
            return nil
        }
    }

    /// The style of a paragraph: its alignment, and its direction.
    mutating func paragraphStyle(_ alignment: CueSettings.TextAlignment, rightToLeft: Bool) -> String {
        let index = switch alignment {
        case .start: 0
        case .center: 1
        case .end: 2
        case .left: 3
        case .right: 4
        }
        let key = index * 2 + (rightToLeft ? 1 : 0)
        if let id = paragraphStyles[key] { return id }
        var attributes = [TTMLStyleAttribute(name: "tts:textAlign", value: alignment.rawValue)]
        if rightToLeft { attributes.append(TTMLStyleAttribute(name: "tts:direction", value: "rtl")) }
        guard let id = styleID(for: attributes, forParagraphs: true) else {
            preconditionFailure("the head keeps room for every paragraph style")
        }
        paragraphStyles[key] = id
        return id
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
