import CueKit

/// Turns one ``TTMLParagraph`` into WebVTT cues: one cue per region and per interval in which the
/// text shown does not change.
///
/// 1. Timing (TTML2 section 12.4): every node's active interval, from its `begin`, `end` and `dur`
///    relative to its sync base, its implicit duration (an anonymous span, a `br`, or a `span` of
///    text alone lasts indefinitely in a `par` container and not at all in a `seq` one; an element
///    lasts as long as its children: the latest end in `par`, the last end in `seq`), clipped by
///    its parent's interval.
/// 2. Region association (TTML2 section 11.3.1.3): text is shown in a region when every element on
///    its chain that names a region names that one; in the default region when the document has
///    no regions; nowhere otherwise. A region's own interval (`begin`/`end` on `region`) limits it.
/// 3. The times where any text appears or disappears cut the paragraph into intervals; for each,
///    the text shown in each region becomes cue text, with white space handled as `xml:space`
///    says (TTML2 section 8.2.10: in `default`, runs of XML white space collapse to one space
///    across element boundaries and vanish at the start and end of lines; in `preserve`, spaces
///    and line feeds stay, a line feed breaking the line).
/// 4. Consecutive intervals with the same text, styles and settings in a region make one cue, so
///    that the text shown at every instant is the TTML document's, exactly, and a paragraph
///    without timed spans is one cue.
struct TTMLParagraphRenderer {
    /// The regions by identifier.
    let regions: [String: TTMLRegion]
    /// The region of documents that define none.
    let defaultRegion: TTMLRegion
    /// False when the document defines no region: then everything goes to the default region.
    let documentHasRegions: Bool
    /// Where cues of unbounded content end, in milliseconds.
    let unboundedEnd: Int
    /// Whether region-less documents get TTML's default-region settings.
    let defaultRegionSettings: Bool

    /// What rendering found besides the cues.
    struct Outcome {
        var cues: [Cue] = []
        var usedUnboundedEnd = false
        var droppedEmptyLines = false
        var hadUnassociatedText = false
    }

    /// Resolves the paragraph's timing only (its interval decides where a `seq` sibling begins).
    func resolveTiming(_ paragraph: inout TTMLParagraph) {
        _ = resolve(0, in: &paragraph, syncBase: paragraph.syncBase, limit: paragraph.limit, parentIsSequence: false)
    }

    func render(_ paragraph: inout TTMLParagraph) -> Outcome {
        var outcome = Outcome()
        resolveTiming(&paragraph)
        let root = paragraph.nodes[0].interval
        guard !root.isEmpty else { return outcome }

        // The leaves that are ever shown, with their regions.
        var leaves: [(node: Int, region: TTMLRegion)] = []
        var seenRegions: [String] = []
        for index in paragraph.nodes.indices {
            let node = paragraph.nodes[index]
            switch node.kind {
            case .element: continue
            case .text, .lineBreak: break
            }
            if node.interval.isEmpty { continue }
            guard let region = region(for: node.region) else {
                if case .text(let textIndex) = node.kind, paragraph.texts[textIndex].contains(where: { !Self.isXMLWhiteSpace($0) }) {
                    outcome.hadUnassociatedText = true
                }
                continue
            }
            if region.interval.intersection(node.interval).isEmpty { continue }
            leaves.append((index, region))
            if !seenRegions.contains(region.identifier) { seenRegions.append(region.identifier) }
        }
        guard !leaves.isEmpty else { return outcome }

        // Every time at which what is shown can change.
        var times: [TTMLTime] = [root.begin, root.end]
        for leaf in leaves {
            let interval = paragraph.nodes[leaf.node].interval
            times.append(interval.begin)
            times.append(interval.end)
            times.append(leaf.region.interval.begin)
            times.append(leaf.region.interval.end)
        }
        if paragraph.hasDynamicStyles {
            for node in paragraph.nodes {
                for animation in node.animations {
                    times.append(animation.interval.begin)
                    times.append(animation.interval.end)
                }
            }
        }
        times = times.filter { root.begin <= $0 && $0 <= root.end }
        times.sort()
        var unique: [TTMLTime] = []
        for time in times where unique.last != time { unique.append(time) }

        // Cues being extended, per region.
        var open: [String: Cue] = [:]
        var finished: [(order: Int, cue: Cue)] = []
        var order = 0
        func close(_ regionIdentifier: String) {
            if let cue = open.removeValue(forKey: regionIdentifier) {
                finished.append((order, cue))
                order += 1
            }
        }
        for index in 0..<(unique.count - 1) {
            let start = unique[index], end = unique[index + 1]
            guard start < end else { continue }
            var shownByRegion: [String: [Int]] = [:]
            for leaf in leaves {
                let interval = paragraph.nodes[leaf.node].interval
                if interval.contains(start), leaf.region.interval.contains(start),
                    !paragraph.hasDynamicStyles || isDisplayed(leaf.node, in: paragraph, at: start)
                {
                    shownByRegion[leaf.region.identifier, default: []].append(leaf.node)
                }
            }
            for regionIdentifier in seenRegions {
                guard let shown = shownByRegion[regionIdentifier], let region = regionByIdentifier(regionIdentifier) else {
                    close(regionIdentifier)
                    continue
                }
                var dropped = false
                let nodes = cueNodes(for: shown, in: paragraph, region: region, at: start, droppedEmptyLines: &dropped)
                if dropped { outcome.droppedEmptyLines = true }
                guard !nodes.isEmpty else {
                    close(regionIdentifier)
                    continue
                }
                let markup = CueText.markup(for: nodes)
                let settings = cueSettings(for: paragraph, region: region)
                let startMilliseconds = start.milliseconds ?? 0
                let endMilliseconds: Int
                if let milliseconds = end.milliseconds {
                    endMilliseconds = milliseconds
                } else {
                    endMilliseconds = unboundedEnd
                    outcome.usedUnboundedEnd = true
                }
                if var cue = open[regionIdentifier], cue.text == markup, cue.settings == settings, cue.end == startMilliseconds {
                    cue.end = endMilliseconds
                    open[regionIdentifier] = cue
                    continue
                }
                close(regionIdentifier)
                open[regionIdentifier] = Cue(start: startMilliseconds, end: endMilliseconds, settings: settings, text: markup)
            }
        }
        for regionIdentifier in seenRegions { close(regionIdentifier) }
        // In time order (a cue's start), then region order; cues shorter than a millisecond vanish.
        let cues = finished.sorted { ($0.cue.start, $0.order) < ($1.cue.start, $1.order) }.map(\.cue).filter { $0.start < $0.end }
        for (number, var cue) in cues.enumerated() {
            if !paragraph.identifier.isEmpty {
                cue.id = cues.count == 1 ? paragraph.identifier : "\(paragraph.identifier)-\(number + 1)"
            }
            outcome.cues.append(cue)
        }
        return outcome
    }

    private func regionByIdentifier(_ identifier: String) -> TTMLRegion? {
        identifier == defaultRegion.identifier ? defaultRegion : regions[identifier]
    }

    private func region(for selection: TTMLParagraph.RegionSelection) -> TTMLRegion? {
        switch selection {
        case .unspecified: documentHasRegions ? nil : defaultRegion
        case .region(let identifier): regions[identifier]
        case .conflicting: nil
        }
    }

    // MARK: Timing

    /// Resolves the active interval of a node and its descendants; returns its active end.
    private func resolve(_ index: Int, in paragraph: inout TTMLParagraph, syncBase: TTMLTime, limit: TTMLTime, parentIsSequence: Bool)
        -> TTMLTime
    {
        let timing = paragraph.nodes[index].timing
        let begin = timing.resolvedBegin(syncBase: syncBase)
        let explicitEnd = timing.explicitEnd(syncBase: syncBase, begin: begin)
        let bound = min(explicitEnd, limit)
        var implicitEnd: TTMLTime
        switch paragraph.nodes[index].kind {
        case .text, .lineBreak:
            implicitEnd = parentIsSequence ? begin : .indefinite
        case .element:
            let children = paragraph.nodes[index].children
            var cursor = begin
            var latest = begin
            var onlyText = !children.isEmpty
            for child in children {
                if case .element = paragraph.nodes[child].kind { onlyText = false }
                let childEnd = resolve(
                    child, in: &paragraph, syncBase: timing.isSequence ? cursor : begin, limit: bound,
                    parentIsSequence: timing.isSequence)
                cursor = childEnd
                latest = max(latest, childEnd)
            }
            if onlyText && index != 0 {
                // A span of text alone is timed as an anonymous span (TTML2 section 12.4).
                implicitEnd = parentIsSequence ? begin : .indefinite
            } else {
                implicitEnd = timing.isSequence ? cursor : latest
            }
        }
        let end = max(begin, min(timing.hasExplicitEnd ? explicitEnd : implicitEnd, limit))
        paragraph.nodes[index].interval = TTMLInterval(begin: begin, end: end)
        for animation in paragraph.nodes[index].animations.indices {
            // A set is timed as an anonymous span of its parent (TTML2 section 12.4), within it.
            let setTiming = paragraph.nodes[index].animations[animation].timing
            let setBegin = setTiming.resolvedBegin(syncBase: begin)
            let setEnd = min(setTiming.explicitEnd(syncBase: begin, begin: setBegin), end)
            paragraph.nodes[index].animations[animation].interval = TTMLInterval(begin: setBegin, end: max(setBegin, setEnd))
        }
        return end
    }

    // MARK: Cue text

    /// One piece of the text shown: characters or a line break, under a chain of elements.
    private struct Segment {
        var text: String
        var isLineBreak: Bool
        var preservesSpace: Bool
        /// The elements holding it, from the `p`'s child down to its parent.
        var chain: [Int]
    }

    /// The cue text tree for the leaves shown together in one region.
    private func cueNodes(
        for leaves: [Int], in paragraph: TTMLParagraph, region: TTMLRegion, at time: TTMLTime, droppedEmptyLines: inout Bool
    ) -> [CueNode] {
        var segments: [Segment] = []
        segments.reserveCapacity(leaves.count)
        for leaf in leaves {
            let node = paragraph.nodes[leaf]
            var chain: [Int] = []
            var parent = node.parent
            while parent > 0 {
                chain.append(parent)
                parent = paragraph.nodes[parent].parent
            }
            chain.reverse()
            switch node.kind {
            case .text(let textIndex):
                if node.preservesSpace {
                    // A line feed in preserved text breaks the line.
                    var first = true
                    let text = paragraph.texts[textIndex].replacingCarriageReturns()
                    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                        if !first { segments.append(Segment(text: "", isLineBreak: true, preservesSpace: true, chain: chain)) }
                        first = false
                        if !line.isEmpty { segments.append(Segment(text: String(line), isLineBreak: false, preservesSpace: true, chain: chain)) }
                    }
                } else {
                    segments.append(Segment(text: paragraph.texts[textIndex], isLineBreak: false, preservesSpace: false, chain: chain))
                }
            case .lineBreak:
                segments.append(Segment(text: "", isLineBreak: true, preservesSpace: node.preservesSpace, chain: chain))
            case .element:
                break
            }
        }
        processWhiteSpace(&segments, droppedEmptyLines: &droppedEmptyLines)
        guard segments.contains(where: { !$0.isLineBreak && !$0.text.isEmpty }) else { return [] }
        return buildTree(segments, paragraph: paragraph, region: region, at: time)
    }

    static func isXMLWhiteSpace(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\n" || character == "\r" || character == "\r\n"
    }

    /// XSL's white-space handling as TTML2 section 8.2.10 applies it: in `default` text, each run of
    /// white space (across element boundaries) becomes one space, and spaces at the start or end of
    /// a line go; `preserve` text is kept as written. Lines left empty are dropped (WebVTT cue text
    /// cannot hold an empty line), and so is a break at the end.
    private func processWhiteSpace(_ segments: inout [Segment], droppedEmptyLines: inout Bool) {
        var output: [Segment] = []
        output.reserveCapacity(segments.count)
        var lastWasSpace = true  // at the start of a line
        var lineHasContent = false
        // Where a collapsed space waits: the output segment it ends. Removed at a line end.
        var pendingSpaceSegment: Int?
        func endLine() {
            if let index = pendingSpaceSegment, output[index].text.utf8.last == 0x20 {
                output[index].text.removeLast()
            }
            pendingSpaceSegment = nil
        }
        for segment in segments {
            if segment.isLineBreak {
                endLine()
                if lineHasContent {
                    output.append(segment)
                } else {
                    droppedEmptyLines = true
                }
                lineHasContent = false
                lastWasSpace = true
                continue
            }
            if segment.preservesSpace {
                if segment.text.isEmpty { continue }
                pendingSpaceSegment = nil
                output.append(segment)
                lineHasContent = true
                lastWasSpace = segment.text.utf8.last == 0x20
                continue
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(segment.text.utf8.count)
            for byte in segment.text.utf8 {
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                    if !lastWasSpace {
                        bytes.append(0x20)
                        lastWasSpace = true
                    }
                } else {
                    bytes.append(byte)
                    lastWasSpace = false
                    lineHasContent = true
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if text.isEmpty { continue }
            var copy = segment
            copy.text = text
            output.append(copy)
            if text.utf8.last == 0x20 {
                pendingSpaceSegment = output.count - 1
            } else {
                pendingSpaceSegment = nil
            }
        }
        endLine()
        while let last = output.last, last.isLineBreak || last.text.isEmpty {
            output.removeLast()
            if last.isLineBreak { droppedEmptyLines = true }
        }
        // A line holding only spaces left by preserved text is not content either.
        segments = output.filter { $0.isLineBreak || !$0.text.isEmpty }
    }

    /// Nests the segments in their elements' spans, inside the region's and the block elements'.
    private func buildTree(_ segments: [Segment], paragraph: TTMLParagraph, region: TTMLRegion, at time: TTMLTime) -> [CueNode] {
        // Open elements, with the children gathered so far.
        var stack: [(node: Int, children: [CueNode])] = [(-1, [])]
        func closeTop() {
            let (node, children) = stack.removeLast()
            var content = children
            if let controls = paragraph.nodes[node].bidiControls {
                content.insert(.text(controls.open), at: 0)
                content.append(.text(controls.close))
            }
            let wrapped = Self.wrap(content, in: wrappers(of: node, in: paragraph, at: time))
            stack[stack.count - 1].children += wrapped
        }
        for segment in segments {
            var common = 0
            while common < segment.chain.count, common + 1 < stack.count, stack[common + 1].node == segment.chain[common] {
                common += 1
            }
            while stack.count > common + 1 { closeTop() }
            for node in segment.chain[common...] { stack.append((node, [])) }
            let text = segment.isLineBreak ? "\n" : segment.text
            if let last = stack[stack.count - 1].children.last, case .text(let previous) = last {
                stack[stack.count - 1].children[stack[stack.count - 1].children.count - 1] = .text(previous + text)
            } else {
                stack[stack.count - 1].children.append(.text(text))
            }
        }
        while stack.count > 1 { closeTop() }
        var rootWrappers: [TTMLParagraph.Wrapper] = []
        if let className = region.className { rootWrappers.append(TTMLParagraph.Wrapper(kind: .class, classes: [className])) }
        rootWrappers += region.tagWrappers
        rootWrappers += wrappers(of: 0, in: paragraph, at: time) ?? paragraph.blockWrappers
        return Self.wrap(stack[0].children, in: rootWrappers)
    }

    /// An element's wrappers at `time`: those of the last `set` active then that changes styles,
    /// else its own. For the `p` (node 0), nil unless a `set` replaces its outer chain.
    private func wrappers(of node: Int, in paragraph: TTMLParagraph, at time: TTMLTime) -> [TTMLParagraph.Wrapper]? {
        let element = paragraph.nodes[node]
        if paragraph.hasDynamicStyles {
            for animation in element.animations.reversed() where animation.wrappers != nil && animation.interval.contains(time) {
                return animation.wrappers
            }
        }
        return node == 0 ? nil : element.wrappers
    }

    /// True when no element holding the leaf (itself included) has `display` `none` at `time`.
    private func isDisplayed(_ leaf: Int, in paragraph: TTMLParagraph, at time: TTMLTime) -> Bool {
        var node = paragraph.nodes[leaf].parent
        while node >= 0 {
            let element = paragraph.nodes[node]
            var hidden = element.displayNone
            for animation in element.animations.reversed() where animation.display != nil && animation.interval.contains(time) {
                hidden = !animation.display!
                break
            }
            if hidden { return false }
            node = element.parent
        }
        return true
    }

    /// Puts `children` inside `wrappers`, the first outermost.
    static func wrap(_ children: [CueNode], in wrappers: [TTMLParagraph.Wrapper]?) -> [CueNode] {
        guard let wrappers else { return children }
        var result = children
        for wrapper in wrappers.reversed() {
            result = [.span(CueSpan(wrapper.kind, classes: wrapper.classes, children: result))]
        }
        return result
    }

    // MARK: Settings

    /// The cue settings for a paragraph shown in `region`: the region's box and the paragraph's
    /// computed `tts:textAlign` (TTML2 section 10.2.41), whose `start` and `end` follow the computed
    /// `tts:direction` (`ltr` unless specified, or `rtl` in an `rltb` region).
    private func cueSettings(for paragraph: TTMLParagraph, region: TTMLRegion) -> CueSettings {
        let isDefault = region.identifier == defaultRegion.identifier && !documentHasRegions
        let regionStyles = region.styles
        let textAlign = paragraph.textAlign ?? regionStyles[.textAlign].map { String(TTMLStyleValues.trimmed(Substring($0))) } ?? "start"
        var direction = paragraph.direction ?? regionStyles[.direction].map { String(TTMLStyleValues.trimmed(Substring($0))) }
        if direction == nil, region.geometry.writingMode == .rightToLeftTopToBottom { direction = "rtl" }
        let rightToLeft = direction == "rtl"
        let alignment: CueSettings.TextAlignment
        if region.geometry.writingMode.isVertical {
            switch textAlign {
            case "center": alignment = .center
            case "end", "right": alignment = .end
            default: alignment = .start
            }
        } else {
            switch textAlign {
            case "left": alignment = .left
            case "right": alignment = .right
            case "center": alignment = .center
            case "end": alignment = rightToLeft ? .left : .right
            default: alignment = rightToLeft ? .right : .left  // start, justify
            }
        }
        if isDefault && !defaultRegionSettings { return CueSettings(alignment: alignment) }
        return TTMLRegion.settings(for: region.geometry, alignment: alignment)
    }
}

extension String {
    /// Carriage returns (which XML turns into line feeds, but a character reference can keep) as
    /// line feeds.
    fileprivate func replacingCarriageReturns() -> String {
        guard contains("\r") else { return self }
        return String(self.map { $0 == "\r" || $0 == "\r\n" ? "\n" : $0 })
    }
}
