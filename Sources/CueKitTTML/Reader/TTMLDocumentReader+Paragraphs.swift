import CueKit

// The paragraph builder: a `p` and its spans, line breaks, `set`s and inline regions, held as one
// ``TTMLParagraph`` until it ends and is rendered into cues.

extension TTMLDocumentReader {
    /// What an element of a paragraph passes to its children, and what a `set` in it needs to
    /// restyle it.
    struct SpanContext {
        var language: String
        /// The language its parent passed to it.
        var parentLanguage: String
        /// The element's attributes, moved here once the element is started (never copied): a
        /// `set` restyles the element from them.
        var attributes: TTMLElementAttributes
        var role: TTMLParagraph.Role
    }

    /// What the `p` being read needs to rebuild its outer chain for a `set`.
    struct ParagraphContext {
        /// The index of its container in `containers` (which stays put while the `p` is read).
        var container: Int
    }

    mutating func startParagraph(_ attributes: consuming TTMLElementAttributes, _ location: SourceLocation) {
        // The parent container is read in place (a copy of it retained every string it holds).
        guard !containers.isEmpty else { return }
        let parent = containers.count - 1
        stack.append(.paragraph)
        let syncBase = containers[parent].time.syncBase
        var paragraphTiming = TTMLTiming.none
        var limit = containers[parent].time.limit
        if let read = readTiming(attributes, location, what: "p") {
            paragraphTiming = read
        } else {
            limit = syncBase
        }
        let specified = specifiedStyles(attributes, location)
        let (chain, chainKey) = paragraphChain(attributes, container: parent, location)
        paragraph.restart(
            identifier: attributes.identifier ?? "", location: location, syncBase: syncBase, limit: limit, timing: paragraphTiming,
            region: containers[parent].region.adding(validatedRegion(attributes.region, location)),
            preservesSpace: space(attributes, inherited: containers[parent].preservesSpace, location),
            blockWrappers: chain, blockChain: chainKey)
        isInParagraph = true
        paragraph.textAlign =
            specified[.textAlign].map { TTMLStyleValues.trimmed($0) } ?? containers[parent].textAlign
        paragraph.direction =
            specified[.direction].map { TTMLStyleValues.trimmed($0) } ?? containers[parent].direction
        if let display = specified[.display], TTMLStyleValues.trimmed(Substring(display)) == "none" {
            paragraph.nodes[0].displayNone = true
            paragraph.hasDynamicStyles = true
        }
        paragraphHidden = containers[parent].hidden
        paragraphContext = ParagraphContext(container: parent)
        if !spanStack.isEmpty { spanStack.removeAll(keepingCapacity: true) }
        spanStack.append(
            SpanContext(
                language: attributes.lang ?? containers[parent].language, parentLanguage: containers[parent].language,
                attributes: attributes, role: .paragraph))
    }

    /// The outer chain of a paragraph's cues: its containers' wrappers, then its own; and the
    /// chain's number in ``TTMLValueTable``, which the renderer keys its markup by.
    ///
    /// It depends only on the container's wrappers (fixed once it is opened) and on what
    /// ``TTMLStyleCatalog/SpanWrapperKey`` holds of the `p`: the chains used last are kept by those.
    mutating func paragraphChain(_ attributes: TTMLElementAttributes, container index: Int, _ location: SourceLocation)
        -> ([TTMLParagraph.Wrapper], TTMLValueTable.Number)
    {
        let language = attributes.lang ?? containers[index].language
        let changesLanguage = language != containers[index].language && !language.isEmpty
        if attributes.agent == nil, !changesLanguage, attributes.styleReferences.isEmpty, attributes.styles.isEmpty {
            // Most paragraphs add nothing to their container's chain.
            return (containers[index].wrappers, containers[index].chain)
        }
        let container = containers[index].chain
        let key = TTMLStyleCatalog.SpanWrapperKey(attributes, changesLanguage: changesLanguage, role: .paragraph).flatMap {
            container == .unnumbered ? nil : TTMLStyleCatalog.ParagraphChainKey(container: container, own: $0)
        }
        if let key, let kept = styleCatalog.paragraphChain(for: key) { return kept }
        var wrappers = containers[index].wrappers
        var mergeable = containers[index].mergeableClasses
        if let voice = agents.voice(attributes) {
            wrappers.append(voice)
            mergeable = nil
        }
        if changesLanguage {
            wrappers.append(TTMLParagraph.Wrapper(kind: .language(language)))
            mergeable = nil
        }
        for layer in layers(attributes, level: .paragraph, location: location) {
            appendLayer(layer, to: &wrappers, mergeable: &mergeable)
        }
        let number = vocabulary.values.table.number(of: wrappers)
        if let key { styleCatalog.keepParagraphChain(wrappers, number: number, for: key) }
        return (wrappers, number)
    }

    mutating func endParagraph() {
        guard isInParagraph else { return }
        isInParagraph = false
        paragraphContext = nil
        spanStack.removeAll(keepingCapacity: true)
        if !paragraphHidden {
            let outcome = renderer.render(&paragraph, into: &output)
            cueCount += outcome.cueCount
            if outcome.usedUnboundedEnd, !reportedUnbounded {
                reportedUnbounded = true
                report(
                    .note, .ttmlUnboundedEnd, paragraph.location,
                    "nothing ends this content (no end or dur on it or its ancestors): its cue ends at \(CueTimestamp.format(options.unboundedEnd)), as TTML shows it until the end of the media")
            }
            if outcome.droppedEmptyLines, !reportedEmptyLines {
                reportedEmptyLines = true
                report(.note, .ttmlEmptyLine, paragraph.location, "empty lines (a br with nothing before it on its line) cannot be written in WebVTT cue text; they were left out")
            }
            reportRubyRepairs(paragraph.rubyRepairs, at: paragraph.location)
            if outcome.timeBeyondReach {
                report(
                    .error, .ttmlBadTime, paragraph.location,
                    "the paragraph's times, added up through its time containers, are past the latest time CueKit reads (a billion hours): it is not presented")
            }
            if outcome.hadUnassociatedText, !reportedUnassociated {
                reportedUnassociated = true
                firstUnassociated = paragraph.location
                report(
                    .warning, .ttmlNoRegion, paragraph.location,
                    "text that selects no region (no region attribute on it or its ancestors) is not presented, since the document defines regions (TTML2 section 11.3.1.3); --unregioned default-region presents it in the default region, as players do")
            }
        } else {
            renderer.resolveTiming(&paragraph)
        }
        childEnded(at: paragraph.nodes[0].interval.end)
    }

    mutating func startSpan(_ attributes: consuming TTMLElementAttributes, _ location: SourceLocation) {
        guard isInParagraph else { return }
        stack.append(.paragraphChild)
        let parentLanguage = spanStack.last?.language ?? rootLanguage
        guard let spanTiming = readTiming(attributes, location, what: "span") else {
            // Its timing cannot be read: it is not presented (an empty element keeps its place).
            paragraph.openElement(.span, timing: TTMLTiming(begin: .zero, end: .zero), region: nil, preservesSpace: false, wrappers: [])
            skipDepth = 1
            paragraph.closeElement()
            stack.removeLast()
            return
        }
        let specified = specifiedStyles(attributes, location)
        let role = rubyRole(specified, location)
        let language = attributes.lang ?? parentLanguage
        let wrappers = spanWrappers(attributes, role: role, parentLanguage: parentLanguage, location)
        let preserves = space(attributes, inherited: paragraph.currentPreservesSpace, location)
        let region = validatedRegion(attributes.region, location)
        paragraph.openElement(role, timing: spanTiming, region: region, preservesSpace: preserves, wrappers: wrappers)
        let current = paragraph.current
        // Each value trimmed only when the span has it (a span mostly has neither).
        if let unicodeBidi = specified[.unicodeBidi], case let bidi = TTMLStyleValues.trimmed(Substring(unicodeBidi)), bidi != "normal" {
            let rtl = specified[.direction].map { TTMLStyleValues.trimmed(Substring($0)) } == "rtl"
            switch bidi {
            case "embed": paragraph.nodes[current].bidiControls = (rtl ? "\u{202B}" : "\u{202A}", "\u{202C}")
            case "bidiOverride": paragraph.nodes[current].bidiControls = (rtl ? "\u{202E}" : "\u{202D}", "\u{202C}")
            case "isolate": paragraph.nodes[current].bidiControls = (rtl ? "\u{2067}" : "\u{2066}", "\u{2069}")
            default: break
            }
        }
        spanStack.append(SpanContext(language: language, parentLanguage: parentLanguage, attributes: attributes, role: role))
        if let display = specified[.display], TTMLStyleValues.trimmed(Substring(display)) == "none" {
            paragraph.nodes[current].displayNone = true
            paragraph.hasDynamicStyles = true
        }
        if role == .rubyDelimiter {
            // Not presented: ruby delimiters are for renderers without ruby (TTML2 section 10.2.35.1).
            skipDepth = 1
            paragraph.closeElement()
            spanStack.removeLast()
            stack.removeLast()
        }
    }

    /// The ruby role `tts:ruby` gives a span (TTML2 section 10.2.35); a plain span without one.
    private mutating func rubyRole(_ specified: TTMLStyleSet, _ location: SourceLocation) -> TTMLParagraph.Role {
        guard let ruby = specified[.ruby] else { return .span }
        switch TTMLStyleValues.trimmed(Substring(ruby)) {
        case "container": return .rubyContainer
        case "baseContainer": return .rubyBaseContainer
        case "textContainer": return .rubyTextContainer
        case "base": return .rubyBase
        case "text": return .rubyText
        case "delimiter": return .rubyDelimiter
        case "none": return .span
        default:
            reportOnce("ruby=\(ruby)", .error, .ttmlBadStyleValue, location, "tts:ruby value \(quoted(ruby)) is not a ruby role; the span is read as a plain span")
            return .span
        }
    }

    /// Reports, once per document and kind, how a paragraph's ruby was mended.
    mutating func reportRubyRepairs(_ repairs: TTMLParagraph.RubyRepairs, at location: SourceLocation) {
        if repairs.textMovedOutOfContainer, !reportedRubyRepairs.textMovedOutOfContainer {
            reportedRubyRepairs.textMovedOutOfContainer = true
            report(
                .warning, .ttmlRubyRepaired, location,
                "text directly inside a tts:ruby=\"container\" span, outside its base and text, is not ruby (TTML2 section 10.2.35): it is kept after the ruby")
        }
        if repairs.textPutAfterBase, !reportedRubyRepairs.textPutAfterBase {
            reportedRubyRepairs.textPutAfterBase = true
            report(
                .warning, .ttmlRubyRepaired, location,
                "a ruby text comes before its base: it is written after it, as WebVTT's <ruby> draws an annotation over the base before it")
        }
        if repairs.textWithoutContainer, !reportedRubyRepairs.textWithoutContainer {
            reportedRubyRepairs.textWithoutContainer = true
            report(
                .warning, .ttmlRubyRepaired, location,
                "a tts:ruby=\"text\" span is not inside a tts:ruby=\"container\" span: it is written in parentheses, as ruby is shown where it cannot be drawn")
        }
    }

    /// A span's wrappers: its voice and language, then its style layers (on ruby elements, as
    /// WebVTT's `<ruby>` and `<rt>` allow).
    ///
    /// They depend only on what ``TTMLStyleCatalog/SpanWrapperKey`` holds, given the head (read
    /// before the body): each set is made once and kept by its key in the catalog.
    mutating func spanWrappers(
        _ attributes: TTMLElementAttributes, role: TTMLParagraph.Role, parentLanguage: String, _ location: SourceLocation
    ) -> [TTMLParagraph.Wrapper] {
        let language = attributes.lang ?? parentLanguage
        let changesLanguage = language != parentLanguage && !language.isEmpty
        let key = TTMLStyleCatalog.SpanWrapperKey(attributes, changesLanguage: changesLanguage, role: role)
        if let key, let kept = styleCatalog.spanWrappers(for: key) { return kept }
        let wrappers = makeSpanWrappers(attributes, role: role, language: changesLanguage ? language : nil, location)
        if let key { styleCatalog.keepSpanWrappers(wrappers, for: key) }
        return wrappers
    }

    /// Makes a span's wrappers (``spanWrappers(_:role:parentLanguage:_:)``); `language` is set
    /// when the span changes the language.
    private mutating func makeSpanWrappers(
        _ attributes: TTMLElementAttributes, role: TTMLParagraph.Role, language: String?, _ location: SourceLocation
    ) -> [TTMLParagraph.Wrapper] {
        var wrappers: [TTMLParagraph.Wrapper] = []
        var mergeable: TTMLPresentation?
        if let voice = agents.voice(attributes) { wrappers.append(voice) }
        if let language { wrappers.append(TTMLParagraph.Wrapper(kind: .language(language))) }
        let styleLayers = layers(attributes, level: .inline, location: location)
        switch role {
        case .rubyContainer, .rubyText:
            // WebVTT's <rt> must be a child of <ruby>: the ruby elements carry the classes
            // themselves, and tags go outside <ruby> or inside <rt>.
            var classes: [String] = []
            var tags: [TTMLParagraph.Wrapper] = []
            for layer in styleLayers {
                if let name = layer.className { classes.append(name) }
                tags += tagWrappers(layer.presentation.tags)
            }
            if role == .rubyContainer {
                wrappers += tags
                wrappers.append(TTMLParagraph.Wrapper(kind: .ruby, classes: classes))
            } else {
                wrappers.append(TTMLParagraph.Wrapper(kind: .rubyText, classes: classes))
                wrappers += tags
            }
        case .rubyBaseContainer, .rubyTextContainer, .rubyDelimiter:
            break
        case .paragraph, .span, .rubyBase:
            for layer in styleLayers { appendLayer(layer, to: &wrappers, mergeable: &mergeable) }
        }
        return wrappers
    }

    /// A `set` in a paragraph (TTML2 section 13.1.2): for its interval, its parent element shows
    /// with the set's styles over its own.
    mutating func animate(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard isInParagraph, let context = spanStack.last else { return }
        guard let setTiming = readTiming(attributes, location, what: "set") else { return }
        var changed = attributes.styles
        var display: Bool?
        if let value = changed[.display] {
            display = TTMLStyleValues.trimmed(Substring(value)) != "none"
            changed[.display] = nil
        }
        var wrappers: [TTMLParagraph.Wrapper]?
        var chain = TTMLValueTable.Number.unnumbered
        if !changed.isEmpty {
            let restyled = restyled(context.attributes, by: changed)
            if context.role == .paragraph, let paragraphContext {
                (wrappers, chain) = paragraphChain(restyled, container: paragraphContext.container, location)
            } else {
                wrappers = spanWrappers(restyled, role: context.role, parentLanguage: context.parentLanguage, location)
            }
        }
        guard display != nil || wrappers != nil else { return }
        paragraph.nodes[paragraph.current].animations.append(
            TTMLParagraph.Animation(timing: setTiming, display: display, wrappers: wrappers, chain: chain))
        paragraph.hasDynamicStyles = true
    }

    mutating func lineBreak(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard isInParagraph, let breakTiming = readTiming(attributes, location, what: "br") else { return }
        let region = validatedRegion(attributes.region, location)
        paragraph.appendLineBreak(timing: breakTiming, region: region)
    }

    mutating func startInlineRegionOfContainer(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard let identifier = makeInlineRegion(attributes, location), !containers.isEmpty else { return }
        containers[containers.count - 1].region = .region(identifier)
    }

    mutating func startInlineRegionOfParagraph(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard isInParagraph, let identifier = makeInlineRegion(attributes, location) else { return }
        paragraph.nodes[0].region = .region(identifier)
    }
}
