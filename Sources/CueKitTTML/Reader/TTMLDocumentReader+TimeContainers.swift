import CueKit

// The time containers: `body` and `div` open and close as time containers (TTML2 section 12.1.2)
// and pass their region, language, space handling and style layers to what they hold.

extension TTMLDocumentReader {
    /// A `body` or `div`: its time container and what it passes to its children.
    struct Container {
        var time: TTMLTimeContainer
        var region: TTMLParagraph.RegionSelection
        var wrappers: [TTMLParagraph.Wrapper]
        /// The number of ``wrappers`` in ``TTMLValueTable``: what its paragraphs' chains are kept
        /// by (``paragraphChain(_:container:_:)``), since the wrappers (and the classes open for
        /// merging, which follow from them) are all a paragraph's chain takes from its container.
        var chain = TTMLValueTable.Number.absent
        var mergeableClasses: TTMLPresentation?
        var textAlign: String?
        var direction: String?
        var preservesSpace: Bool
        var language: String
        var hidden: Bool
    }

    mutating func startBody(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        let root = Container(
            time: .root, region: .unspecified, wrappers: [], mergeableClasses: nil, textAlign: nil, direction: nil,
            preservesSpace: rootPreservesSpace, language: rootLanguage, hidden: false)
        containers = [root]
        stack.append(.body)
        startContainer(attributes, location, parent: root, what: "body")
    }

    mutating func startDiv(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard let parent = containers.last else { return }
        stack.append(.div)
        startContainer(attributes, location, parent: parent, what: "div")
    }

    /// Opens a `body` or `div` as a time container with its styles. A container whose timing cannot
    /// be read presents nothing.
    mutating func startContainer(_ attributes: TTMLElementAttributes, _ location: SourceLocation, parent: Container, what: String) {
        var container = parent
        container.time = parent.time.child(readTiming(attributes, location, what: what))
        container.region = parent.region.adding(validatedRegion(attributes.region, location))
        container.preservesSpace = space(attributes, inherited: parent.preservesSpace, location)
        let specified = specifiedStyles(attributes, location)
        if specified[.display].map({ TTMLStyleValues.trimmed(Substring($0)) }) == "none" { container.hidden = true }
        if let align = specified[.textAlign] { container.textAlign = TTMLStyleValues.trimmed(align) }
        if let direction = specified[.direction] { container.direction = TTMLStyleValues.trimmed(direction) }
        var wrappers = parent.wrappers
        var mergeable = parent.mergeableClasses
        var changed = false
        let language = attributes.lang ?? parent.language
        if language != parent.language, !language.isEmpty {
            wrappers.append(TTMLParagraph.Wrapper(kind: .language(language)))
            mergeable = nil
            changed = true
        }
        // The body's styles are in the `::cue` rule (``finishHead(body:_:)``).
        if what != "body" || !bodyStylesInEveryCueRule {
            for layer in layers(attributes, level: .block, location: location) {
                appendLayer(layer, to: &wrappers, mergeable: &mergeable)
                changed = true
            }
        }
        container.wrappers = wrappers
        if changed { container.chain = vocabulary.values.table.number(of: wrappers) }
        container.mergeableClasses = mergeable
        container.language = language
        containers.append(container)
    }

    /// Closes a `body` or `div`: its active end goes to its parent time container.
    mutating func endContainer() {
        guard let container = containers.popLast() else { return }
        childEnded(at: container.time.activeEnd(within: containers.last?.time.limit ?? .indefinite))
    }

    /// A container or paragraph ended: its parent's `seq` cursor and `par` end move on.
    mutating func childEnded(at end: TTMLTime) {
        guard !containers.isEmpty else { return }
        containers[containers.count - 1].time.childEnded(at: end)
    }
}
