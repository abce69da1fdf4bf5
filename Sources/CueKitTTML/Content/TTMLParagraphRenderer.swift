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
///
/// A class, and an honest one: the reader owns the one renderer of a document, whose memos and
/// scratch arrays live from paragraph to paragraph (emptied, not freed), and never copies it. Its
/// state is read and written by one paragraph's rendering at a time, so its accesses are not
/// checked at run time.
final class TTMLParagraphRenderer {
    /// The regions; the first is the default region, used when the document defines none.
    @exclusivity(unchecked) private(set) var regions: [TTMLRegion]
    /// Each region's own `tts:textAlign` and `tts:direction`, in the order of ``regions``.
    @exclusivity(unchecked) private var regionText: [(textAlign: String?, direction: String?)]
    /// Each region's place in ``regions``.
    @exclusivity(unchecked) private var regionIndex: [String: Int] = [:]
    /// False when the document defines no region: then everything goes to the default region.
    var documentHasRegions: Bool {
        didSet { lastSelection = nil }
    }
    /// Where cues of unbounded content end, in milliseconds.
    let unboundedEnd: Int
    /// Whether region-less documents get TTML's default-region settings.
    let defaultRegionSettings: Bool
    /// Whether content that selects no region is shown in the default region even when the
    /// document defines regions (``TTMLReader/Options/UnregionedContent/defaultRegion``).
    var presentsUnregionedContent = false {
        didSet { lastSelection = nil }
    }

    /// The region selection answered last, and its answer (``region(for:)``), kept from
    /// paragraph to paragraph; forgotten when what decides the answer changes.
    @exclusivity(unchecked) private var lastSelection: (TTMLParagraph.RegionSelection, Int?)?

    /// Arrays that rendering fills for each paragraph, kept from one paragraph to the next:
    /// emptied, not freed, so that rendering the common paragraph allocates only its cue's text.
    @exclusivity(unchecked) private var leavesShown: [(node: Int, region: Int)] = []
    @exclusivity(unchecked) private var regionsShown: [Int] = []
    @exclusivity(unchecked) private var builderStorage = TTMLCueTextBuilder.Storage()

    init(defaultRegion: TTMLRegion, documentHasRegions: Bool, unboundedEnd: Int, defaultRegionSettings: Bool) {
        regions = [defaultRegion]
        regionText = [Self.text(of: defaultRegion)]
        self.documentHasRegions = documentHasRegions
        self.unboundedEnd = unboundedEnd
        self.defaultRegionSettings = defaultRegionSettings
    }

    /// Adds a region content can select.
    func add(_ region: TTMLRegion) {
        regionIndex[region.identifier] = regions.count
        regions.append(region)
        regionText.append(Self.text(of: region))
        lastSelection = nil
    }

    /// What rendering a paragraph found besides its cues.
    struct Outcome {
        /// How many cues the paragraph made.
        var cueCount = 0
        var usedUnboundedEnd = false
        var droppedEmptyLines = false
        var hadUnassociatedText = false
        /// The paragraph's times add up past ``TTMLTime/latest``.
        var timeBeyondReach = false
    }

    /// Resolves the paragraph's timing only (its interval decides where a `seq` sibling begins).
    func resolveTiming(_ paragraph: inout TTMLParagraph) {
        _ = resolve(0, in: &paragraph, syncBase: paragraph.syncBase, limit: paragraph.limit, parentIsSequence: false)
    }

    /// Renders a paragraph, appending its cues, in order, to `output`. (Made where they are
    /// stored: a cue handed back in a result was copied into it, then out of it.)
    func render(_ paragraph: inout TTMLParagraph, into output: inout [TrackEvent]) -> Outcome {
        var outcome = Outcome()
        resolveTiming(&paragraph)
        let root = paragraph.nodes[0].interval
        guard !root.isEmpty else { return outcome }
        // Offsets that add up past the latest time the reader reads (nested time containers, each
        // within reach on its own): the paragraph is not presented, and the reader says why.
        guard root.begin.isWithinReach, root.end.isWithinReach else {
            outcome.timeBeyondReach = true
            return outcome
        }

        // The leaves that are ever shown, with their regions (in arrays kept for the next paragraph).
        leavesShown.removeAll(keepingCapacity: true)
        regionsShown.removeAll(keepingCapacity: true)
        // The leaves of a paragraph, and paragraph after paragraph, mostly select the same
        // region: the last answer is reused when the selection is the same, which compares two
        // strings where a lookup hashed one.
        var lastSelection = self.lastSelection
        defer { self.lastSelection = lastSelection }
        for index in paragraph.nodes.indices {
            switch paragraph.nodes[index].kind {
            case .element: continue
            case .text, .lineBreak: break
            }
            let interval = paragraph.nodes[index].interval
            if interval.isEmpty { continue }
            let selected: Int?
            if let last = lastSelection, last.0 == paragraph.nodes[index].region {
                selected = last.1
            } else {
                selected = region(for: paragraph.nodes[index].region)
                lastSelection = (paragraph.nodes[index].region, selected)
            }
            guard let region = selected else {
                if case .text(let range) = paragraph.nodes[index].kind,
                    paragraph.textBytes[range].contains(where: { !TTMLStyleValues.isXMLWhiteSpace($0) })
                {
                    outcome.hadUnassociatedText = true
                }
                continue
            }
            if regions[region].interval.intersection(interval).isEmpty { continue }
            leavesShown.append((index, region))
            if !regionsShown.contains(region) { regionsShown.append(region) }
        }
        let leaves = leavesShown
        let seenRegions = regionsShown
        guard !leaves.isEmpty else { return outcome }
        if appendSingleCue(leaves, &paragraph, root, &outcome, into: &output) {
            outcome.cueCount = 1
            return outcome
        }

        // Every time at which what is shown can change.
        var times: [TTMLTime] = [root.begin, root.end]
        for leaf in leaves {
            let interval = paragraph.nodes[leaf.node].interval
            times.append(interval.begin)
            times.append(interval.end)
        }
        for region in seenRegions {
            times.append(regions[region].interval.begin)
            times.append(regions[region].interval.end)
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

        // Cues being extended, per region (in the order of seenRegions).
        var open: [Cue?] = Array(repeating: nil, count: seenRegions.count)
        var finished: [(order: Int, cue: Cue)] = []
        var order = 0
        func close(_ slot: Int) {
            if let cue = open[slot] {
                finished.append((order, cue))
                order += 1
                open[slot] = nil
            }
        }
        var shown: [[Int]] = Array(repeating: [], count: seenRegions.count)
        // A sweep over the times: each leaf joins the active set at its begin and leaves it at its
        // end, so each instant looks at the leaves shown then, not at every leaf of the paragraph
        // (a paragraph of thousands of timed spans, one after the other, renders in linear time).
        let byBegin = leaves.indices.sorted {
            paragraph.nodes[leaves[$0].node].interval.begin < paragraph.nodes[leaves[$1].node].interval.begin
        }
        let byEnd = leaves.indices.sorted { paragraph.nodes[leaves[$0].node].interval.end < paragraph.nodes[leaves[$1].node].interval.end }
        var nextBegin = 0, nextEnd = 0
        var active: [Int] = []  // indices into `leaves`, ascending: document order
        func position(of leaf: Int) -> Int {
            var low = 0, high = active.count
            while low < high {
                let middle = (low + high) / 2
                if active[middle] < leaf { low = middle + 1 } else { high = middle }
            }
            return low
        }
        for index in 0..<(unique.count - 1) {
            let start = unique[index], end = unique[index + 1]
            while nextBegin < byBegin.count, paragraph.nodes[leaves[byBegin[nextBegin]].node].interval.begin <= start {
                let leaf = byBegin[nextBegin]
                active.insert(leaf, at: position(of: leaf))
                nextBegin += 1
            }
            while nextEnd < byEnd.count, paragraph.nodes[leaves[byEnd[nextEnd]].node].interval.end <= start {
                let leaf = byEnd[nextEnd]
                let at = position(of: leaf)
                if at < active.count, active[at] == leaf { active.remove(at: at) }
                nextEnd += 1
            }
            guard start < end else { continue }
            for slot in shown.indices { shown[slot].removeAll(keepingCapacity: true) }
            for leafIndex in active {
                let leaf = leaves[leafIndex]
                let interval = paragraph.nodes[leaf.node].interval
                if interval.contains(start), regions[leaf.region].interval.contains(start),
                    !paragraph.hasDynamicStyles || isDisplayed(leaf.node, in: paragraph, at: start)
                {
                    shown[seenRegions.firstIndex(of: leaf.region)!].append(leaf.node)
                }
            }
            for (slot, region) in seenRegions.enumerated() {
                guard !shown[slot].isEmpty else {
                    close(slot)
                    continue
                }
                var dropped = false
                let text = markup(for: shown[slot], in: paragraph, region: region, at: start, droppedEmptyLines: &dropped)
                if dropped { outcome.droppedEmptyLines = true }
                guard let markup = text else {
                    close(slot)
                    continue
                }
                let settings = TTMLRegion.placedByTop(cueSettings(for: paragraph, region: region), text: markup)
                let startMilliseconds = start.milliseconds ?? 0
                let endMilliseconds: Int
                if let milliseconds = end.milliseconds {
                    endMilliseconds = milliseconds
                } else {
                    endMilliseconds = unboundedEnd
                    outcome.usedUnboundedEnd = true
                }
                if var cue = open[slot], cue.text == markup, cue.settings == settings, cue.end == startMilliseconds {
                    cue.end = endMilliseconds
                    open[slot] = cue
                    continue
                }
                close(slot)
                open[slot] = Cue(start: startMilliseconds, end: endMilliseconds, settings: settings, text: markup)
            }
        }
        for slot in seenRegions.indices { close(slot) }
        // In time order (a cue's start), then region order; cues shorter than a millisecond vanish.
        let cues = finished.sorted { ($0.cue.start, $0.order) < ($1.cue.start, $1.order) }.map(\.cue).filter { $0.start < $0.end }
        for (number, var cue) in cues.enumerated() {
            // One cue keeps the paragraph's identifier; several are numbered after it.
            if !paragraph.identifier.isEmpty { cue.id = cues.count == 1 ? paragraph.identifier : "\(paragraph.identifier)-\(number + 1)" }
            cue.location = paragraph.location
            output.append(.cue(cue))
        }
        outcome.cueCount = cues.count
        return outcome
    }

    /// The common case in one step: every leaf shown for the paragraph's whole interval, in one
    /// region active throughout, nothing animated: its one cue is appended to `output`. False,
    /// with nothing appended, when the general path is needed.
    private func appendSingleCue(
        _ leaves: [(node: Int, region: Int)], _ paragraph: inout TTMLParagraph, _ root: TTMLInterval, _ outcome: inout Outcome,
        into output: inout [TrackEvent]
    ) -> Bool {
        guard !paragraph.hasDynamicStyles, let region = leaves.first?.region else { return false }
        guard regions[region].interval.begin <= root.begin, root.end <= regions[region].interval.end else { return false }
        for leaf in leaves {
            guard leaf.region == region, paragraph.nodes[leaf.node].interval == root else { return false }
        }
        var dropped = false
        let text = markup(for: leaves.lazy.map(\.node), in: paragraph, region: region, at: root.begin, droppedEmptyLines: &dropped)
        if dropped { outcome.droppedEmptyLines = true }
        guard let text else { return false }
        let start = root.begin.milliseconds ?? 0
        let end: Int
        if let milliseconds = root.end.milliseconds {
            end = milliseconds
        } else {
            end = unboundedEnd
            outcome.usedUnboundedEnd = true
        }
        guard start < end else { return false }
        let settings = TTMLRegion.placedByTop(cueSettings(for: paragraph, region: region), text: text)
        output.append(
            .cue(Cue(id: paragraph.identifier, start: start, end: end, settings: settings, text: text, location: paragraph.location)))
        return true
    }

    /// The region that content with this selection goes to, by index; nil when none.
    private func region(for selection: TTMLParagraph.RegionSelection) -> Int? {
        switch selection {
        case .unspecified: documentHasRegions && !presentsUnregionedContent ? nil : 0
        case .region(let identifier): regionIndex[identifier]
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
            var cursor = begin
            var latest = begin
            var onlyText = paragraph.nodes[index].firstChild >= 0
            var child = paragraph.nodes[index].firstChild
            while child >= 0 {
                defer { child = paragraph.nodes[child].nextSibling }
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

    /// The WebVTT cue text for the leaves shown together in one region; nil when it shows nothing.
    private func markup(
        for leaves: some Collection<Int>, in paragraph: TTMLParagraph, region: Int, at time: TTMLTime, droppedEmptyLines: inout Bool
    ) -> String? {
        let (opening, closing) = rootMarkup(region: region, in: paragraph, at: time)
        var builder = TTMLCueTextBuilder(rootOpening: opening, rootClosing: closing, reusing: &builderStorage)
        var chainParent = 0
        for leaf in leaves {
            let parent = paragraph.nodes[leaf].parent
            if parent != chainParent {
                chainParent = parent
                builder.target(from: parent) { element in
                    (
                        (element, wrappers(of: element, in: paragraph, at: time) ?? [], paragraph.nodes[element].bidiControls),
                        paragraph.nodes[element].parent
                    )
                }
            }
            switch paragraph.nodes[leaf].kind {
            case .text(let range):
                paragraph.textBytes.withUnsafeBufferPointer { all in
                    let text = UnsafeBufferPointer(rebasing: all[range])
                    if paragraph.nodes[leaf].preservesSpace {
                        builder.preservedText(text)
                    } else {
                        builder.collapsibleText(text)
                    }
                }
            case .lineBreak:
                builder.lineBreak()
            case .element:
                break
            }
        }
        if builder.droppedEmptyLines { droppedEmptyLines = true }
        return builder.finish(returning: &builderStorage)
    }

    /// The markup around a cue of `paragraph` shown in `region` at `time`: the region's class and
    /// tags, then the paragraph's outer chain (a `set`'s, while one replaces it). A document has
    /// few such pairs (a region, a speaker, a language), and consecutive paragraphs mostly share
    /// theirs: the answers used last are compared first, then those kept by pair, the chain by
    /// its number. A chain without a number is made into markup each time.
    private func rootMarkup(region: Int, in paragraph: TTMLParagraph, at time: TTMLTime) -> ([UInt8], [UInt8]) {
        var chain = paragraph.blockWrappers
        var chainKey = paragraph.blockChain
        if paragraph.hasDynamicStyles {
            for animation in paragraph.nodes[0].animations.reversed()
            where animation.wrappers != nil && animation.interval.contains(time) {
                chain = animation.wrappers ?? []
                chainKey = animation.chain
                break
            }
        }
        let key = chainKey == .unnumbered ? nil : RootMarkupKey(region: region, chain: chainKey)
        if let key, let known = rootAnswers.answer(for: key) { return known }
        var wrappers: [TTMLParagraph.Wrapper] = []
        if let className = regions[region].className { wrappers.append(TTMLParagraph.Wrapper(kind: .class, classes: [className])) }
        wrappers += regions[region].tagWrappers
        wrappers += chain
        var opening = CueTextMarkupBuilder()
        for wrapper in wrappers { opening.open(wrapper) }
        var closing = CueTextMarkupBuilder()
        for wrapper in wrappers.reversed() { closing.close(wrapper) }
        if let key { rootAnswers.keep(key, (opening.bytes, closing.bytes)) }
        return (opening.bytes, closing.bytes)
    }

    /// A region and the number of an outer chain.
    private struct RootMarkupKey: Hashable, RecentAnswerKey {
        var region: Int
        var chain: TTMLValueTable.Number
    }

    /// The ``rootMarkup(region:in:at:)`` answers: the few used last, compared in turn (a document
    /// mostly alternates between a few pairs: a region, and a speaker or none), then up to 256 by
    /// pair, hashed.
    @exclusivity(unchecked) private var rootAnswers = KeptAnswers<RootMarkupKey, (opening: [UInt8], closing: [UInt8])>(
        recent: 16, capacity: 256)

    /// An element's wrappers at `time`: those of the last `set` active then that changes styles,
    /// else its own. For the `p` (node 0), nil unless a `set` replaces its outer chain.
    private func wrappers(of node: Int, in paragraph: TTMLParagraph, at time: TTMLTime) -> [TTMLParagraph.Wrapper]? {
        // The node's fields are read where they are: a copy of the node retained all it holds.
        if paragraph.hasDynamicStyles {
            for animation in paragraph.nodes[node].animations.reversed()
            where animation.wrappers != nil && animation.interval.contains(time) {
                return animation.wrappers
            }
        }
        return node == 0 ? nil : paragraph.nodes[node].wrappers
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

    // MARK: Settings

    /// The cue settings for a paragraph shown in `region`: the region's box and the paragraph's
    /// computed `tts:textAlign` (TTML2 section 10.2.41), whose `start` and `end` follow the computed
    /// `tts:direction` (`ltr` unless specified, or `rtl` in an `rltb` region).
    private func cueSettings(for paragraph: TTMLParagraph, region index: Int) -> CueSettings {
        // The region is read in place, its own alignment and direction from ``regionText`` (a
        // copy of the region, and a look-up in its styles, cost some 900 instructions a cue).
        let writingMode = regions[index].geometry.writingMode
        let textAlign = paragraph.textAlign ?? regionText[index].textAlign ?? "start"
        var direction = paragraph.direction ?? regionText[index].direction
        if direction == nil, writingMode == .rightToLeftTopToBottom { direction = "rtl" }
        let rightToLeft = direction == "rtl"
        let alignment: CueSettings.TextAlignment
        if writingMode.isVertical {
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
        if index == 0 && !defaultRegionSettings { return CueSettings(alignment: alignment) }
        return memoizedSettings(region: index, alignment: alignment) {
            TTMLRegion.settings(for: regions[index].geometry, alignment: alignment)
        }
    }

    /// A region's own `tts:textAlign` and `tts:direction`, trimmed, by region index.
    private static func text(of region: TTMLRegion) -> (textAlign: String?, direction: String?) {
        (
            region.styles[.textAlign].map { TTMLStyleValues.trimmed($0) },
            region.styles[.direction].map { TTMLStyleValues.trimmed($0) }
        )
    }

    /// The settings of each region for each alignment, made once: they depend on nothing else.
    @exclusivity(unchecked) private var settingsByRegion: [[CueSettings?]] = []

    private func memoizedSettings(region: Int, alignment: CueSettings.TextAlignment, make: () -> CueSettings) -> CueSettings {
        let slot: Int
        switch alignment {
        case .start: slot = 0
        case .center: slot = 1
        case .end: slot = 2
        case .left: slot = 3
        case .right: slot = 4
        }
        while settingsByRegion.count <= region { settingsByRegion.append([CueSettings?](repeating: nil, count: 5)) }
        if let known = settingsByRegion[region][slot] { return known }
        let made = make()
        settingsByRegion[region][slot] = made
        return made
    }
}
