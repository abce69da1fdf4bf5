import CueKit

/// The writer stays within what CueKit's own reader accepts by default
/// (``TTMLReader/Options/Limits``), so that every document it writes reads back: the head holds at
/// most ``maximumStyles`` styles, ``maximumRegions`` regions and ``maximumAgents`` agents (which
/// also bounds the writer's memory, since the head is held until the last cue), and a paragraph
/// holds at most ``maximumNodesPerParagraph`` elements and pieces of text, nested at most
/// ``maximumSpanDepth`` deep. Past a limit, what does not fit is flattened (a span is not opened,
/// ruby becomes `base(text)`, a line break a space) or placed in the default region, and each kind
/// is reported once with a count (``TTMLWriterLosses``).
extension TTMLDocumentBuilder {
    /// The reader's defaults the writer keeps to.
    static let readerLimits = TTMLReader.Options.Limits()

    /// The most `style` elements written.
    static var maximumStyles: Int { readerLimits.maximumStyles }
    /// Styles kept for paragraphs (one per alignment and direction): class and span styles stop
    /// this many short of ``maximumStyles``.
    static var reservedParagraphStyles: Int { CueSettings.TextAlignment.allCases.count * 2 }
    /// The most `region` elements written, the default placement's included.
    static var maximumRegions: Int { readerLimits.maximumRegions }
    /// The most `ttm:agent` elements written.
    static var maximumAgents: Int { 10_000 }
    /// The most elements, line breaks and pieces of text a paragraph is given: the reader's limit,
    /// less room for the paragraph, its wrapper, and the text after each span still open when the
    /// budget runs out.
    static let maximumNodesPerParagraph = readerLimits.maximumNodesPerParagraph - maximumSpanDepth - 8
    /// The deepest spans nest in a paragraph (its wrapper included): the reader's nesting limit, less
    /// `tt`, `body`, `div` and `p`, and a margin.
    static let maximumSpanDepth = readerLimits.maximumNestingDepth - 8

    /// True when one more span fits in the paragraph being written; counts it as opened.
    mutating func admitsSpan(elements: Int = 1) -> Bool {
        guard spanDepth + elements <= Self.maximumSpanDepth, paragraphNodes + elements <= Self.maximumNodesPerParagraph else {
            losses.add(.flattened, cue: cueNumber)
            return false
        }
        spanDepth += elements
        paragraphNodes += elements
        return true
    }

    /// Closes spans opened through ``admitsSpan(elements:)``.
    mutating func closeSpans(_ elements: Int = 1) {
        spanDepth -= elements
        for _ in 0..<elements { appendLiteral("</span>") }
    }

    /// The style with these attributes, declared now if new; nil when the head is full (past
    /// ``maximumStyles``, less the room kept for paragraph styles unless `forParagraphs`).
    mutating func styleID(for attributes: [TTMLStyleAttribute], forParagraphs: Bool = false) -> String? {
        // A later attribute of the same name wins, as in CSS.
        var merged: [TTMLStyleAttribute] = []
        for attribute in attributes {
            merged.removeAll { $0.name == attribute.name }
            merged.append(attribute)
        }
        let limit = forParagraphs ? Self.maximumStyles : Self.maximumStyles - Self.reservedParagraphStyles
        guard let id = styles.id(for: merged, limit: limit) else {
            losses.add(.headFull, cue: cueNumber, detail: "styles")
            return nil
        }
        return id
    }

    /// The region of this geometry, declared now if new; past ``maximumRegions`` (one kept for
    /// the default placement), the default placement's.
    mutating func regionID(for geometry: TTMLRegionGeometry) -> String {
        if let id = regions.id(for: geometry, limit: Self.maximumRegions - 1) { return id }
        losses.add(.headFull, cue: cueNumber, detail: "regions")
        if let fullHeadRegion { return fullHeadRegion }
        guard let id = regions.id(for: TTMLRegionGeometry(cue: CueSettings(), lines: 1), limit: Self.maximumRegions) else {
            preconditionFailure("the head keeps room for the default placement")
        }
        // An entry's identifier never changes: the default placement's is kept for the cues to come.
        fullHeadRegion = id
        return id
    }

    /// The agent of a voice, declared now if new; nil past ``maximumAgents``.
    mutating func agentID(for name: String) -> String? {
        if let id = agents.id(for: name, limit: Self.maximumAgents) { return id }
        losses.add(.headFull, cue: cueNumber, detail: "agents")
        return nil
    }
}
