import CueKit

// The head builder: styles and regions as the head defines them, resolved into classes, the
// STYLE block and the renderer's regions once the head is complete.

extension TTMLDocumentReader {
    mutating func defineStyle(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard let identifier = attributes.identifier else {
            report(.warning, .ttmlBadAttribute, location, "a style without xml:id cannot be referred to; it is ignored")
            return
        }
        let definition = TTMLStyleDefinition(
            identifier: identifier, references: attributes.styleReferences, styles: attributes.styles, location: location)
        if headIdentifiers.contains(identifier) || !styles.define(definition) {
            report(.error, .ttmlDuplicateIdentifier, location, "xml:id \(quoted(identifier)) is used twice; the first element keeps it")
            return
        }
        headIdentifiers.insert(identifier)
    }

    /// Resolves the head once it is complete: styles, regions, classes, and the STYLE block. The
    /// `body` that follows, when there is one, gives its styles to the `::cue` rule: they are the
    /// track's base style, which a Cast style applied later overrides as a receiver does (a class
    /// span around every cue would win over it).
    mutating func finishHead(body: TTMLElementAttributes? = nil, _ bodyLocation: SourceLocation = .start) {
        headFinished = true
        var issues: [TTMLStyleResolver.Issue] = []
        // Head styles become classes named after them.
        for identifier in styles.order {
            guard let set = styles.resolve(identifier, issues: &issues) else { continue }
            let location = styles.definitions[identifier]?.location ?? .start
            let layer = layer(for: set, level: .inline, location: location, preferredName: identifier)
            styleCatalog.keepHeadLayer(layer, for: identifier)
        }
        let bodyPresentation = body.map { bodyStyles($0, bodyLocation) } ?? TTMLPresentation()
        bodyProperties = Set(bodyPresentation.declarations.map(\.property))
        bodyStylesInEveryCueRule = body != nil
        // Regions.
        for definition in regionDefinitions where !definition.identifier.isEmpty {
            var set = styles.resolve(references: definition.references, own: TTMLStyleSet(), location: definition.location, issues: &issues)
            for nested in definition.nested {
                set = set.overridden(by: styles.resolve(references: nested.references, own: nested.styles, location: nested.location, issues: &issues))
            }
            set = set.overridden(by: definition.styles)
            for reference in definition.references + definition.nested.flatMap(\.references) where !styles.isDefined(reference) {
                report(.error, .ttmlUnknownStyle, definition.location, "region \(quoted(definition.identifier)) refers to style \(quoted(reference)), which is not defined; the reference is ignored")
            }
            regions[definition.identifier] = makeRegion(
                identifier: definition.identifier, styles: set, attributes: definition.attributes, location: definition.location)
        }
        for issue in issues { report(.error, issue.code, issue.location, issue.message) }
        renderer.documentHasRegions = !regionDefinitions.isEmpty
        for definition in regionDefinitions {
            if let region = regions[definition.identifier] { renderer.add(region) }
        }
        // Classes for the tts: attributes of the body, found by the scan pass.
        for presentation in scannedPresentations { _ = registry.className(for: presentation) }
        var base = TTMLPresentation()
        if options.initialBackground == .transparent { base.declare("background-color", "transparent") }
        if !initialStyles.isEmpty {
            let (presentation, styleIssues) = mapper.presentation(of: initialStyles, at: .inline)
            reportStyleIssues(styleIssues, .start)
            for declaration in presentation.declarations { base.declare(declaration.property, declaration.value) }
            if !presentation.tags.isEmpty {
                report(.warning, .ttmlStyleNotMapped, nil, "italic, bold and underline set by an initial element are written as CSS in ::cue")
                if presentation.tags.contains(.italic) { base.declare("font-style", "italic") }
                if presentation.tags.contains(.bold) { base.declare("font-weight", "bold") }
                if presentation.tags.contains(.underline) { base.declare("text-decoration", "underline") }
            }
        }
        for declaration in bodyPresentation.declarations { base.declare(declaration.property, declaration.value) }
        everyCueRule = base.hasDeclarations ? base.rule(.everyCue) : nil
        if holdsEventsAfterHead {
            // The STYLE block waits for the body's classes: what follows is held until the end.
            heldFrom = output.count
            output.reserveCapacity(output.count + heldEventsExpected)
            return
        }
        appendStyleSheet()
    }

    /// The body's specified styles as CSS for every cue: its tags as the declarations they stand
    /// for, since the `::cue` rule has no markup.
    private mutating func bodyStyles(_ attributes: TTMLElementAttributes, _ location: SourceLocation) -> TTMLPresentation {
        reportUnknownStyleReferences(attributes, location)
        var (presentation, issues) = mapper.presentation(of: specifiedStyles(attributes, location), at: .block)
        reportStyleIssues(issues, location)
        noteApproximatedBackground(presentation, level: .block, location)
        if presentation.tags.contains(.italic) { presentation.declare("font-style", "italic") }
        if presentation.tags.contains(.bold) { presentation.declare("font-weight", "bold") }
        if presentation.tags.contains(.underline) { presentation.declare("text-decoration", "underline") }
        presentation.tags = []
        return presentation
    }

    /// Seals the classes and hands out the STYLE block: the every-cue rule, then a rule a class.
    private mutating func appendStyleSheet() {
        if let sheet = sealedStyleSheet() { output.append(sheet) }
    }

    /// Seals the classes and makes the STYLE block, when it has a rule.
    private mutating func sealedStyleSheet() -> TrackEvent? {
        registry.seal()
        var rules: [CueStyleRule] = []
        if let everyCueRule { rules.append(everyCueRule) }
        rules += TTMLClassRegistry.rules(registry.entries)
        return rules.isEmpty ? nil : .stylesheet(CueStylesheet(rules: rules))
    }

    /// Ends the hold of a one-pass read (``holdsEventsAfterHead``): the STYLE block, with every class
    /// registered so far, goes where the head ended, before the events held since. At the end of
    /// the document, or when reading stops on an error; nothing is held after.
    mutating func releaseHeldEvents() {
        guard let heldFrom else { return }
        self.heldFrom = nil
        // Inserted where it goes: the held events move up in place. (Taken out and appended
        // again, each was copied and the copy destroyed, every string of every cue retained and
        // released.)
        if let sheet = sealedStyleSheet() { output.insert(sheet, at: heldFrom) }
    }

    /// A region from its resolved styles: geometry, timing, class.
    mutating func makeRegion(identifier: String, styles set: TTMLStyleSet, attributes: TTMLElementAttributes, location: SourceLocation)
        -> TTMLRegion
    {
        let (geometry, geometryIssues) = TTMLRegion.geometry(of: set, layout: layout)
        for issue in geometryIssues {
            reportOnce(
                "region-geometry:\(issue.property.rawValue)=\(issue.value)", .error, .ttmlBadStyleValue, location,
                "\(issue.property.qualifiedName) value \(quoted(issue.value)) \(issue.reason); the initial value is used")
        }
        var interval = TTMLInterval.always
        if let regionTiming = readTiming(attributes, location, what: "region \(quoted(identifier))") {
            let begin = regionTiming.resolvedBegin(syncBase: .zero)
            let end = regionTiming.explicitEnd(syncBase: .zero, begin: begin)
            interval = TTMLInterval(begin: begin, end: end)
        } else {
            interval = TTMLInterval(begin: .zero, end: .zero)
        }
        if set[.display].map({ TTMLStyleValues.trimmed(Substring($0)) }) == "none" {
            interval = TTMLInterval(begin: .zero, end: .zero)
        }
        let layer = layer(for: set, level: .region, location: location, preferredName: identifier)
        var region = TTMLRegion(identifier: identifier, styles: set, interval: interval, className: layer.className, geometry: geometry)
        region.tagWrappers = tagWrappers(layer.presentation.tags)
        return region
    }

    /// An inline region (TTML2 section 11.3.1.2): anonymous, for the element that holds it.
    mutating func makeInlineRegion(_ attributes: TTMLElementAttributes, _ location: SourceLocation) -> String? {
        if attributes.hasTiming {
            report(.error, .ttmlBadAttribute, location, "an inline region cannot have timing attributes (TTML2 section 11.1.2); it is ignored")
            return nil
        }
        anonymousRegionCount += 1
        let identifier = "inline-region-\(anonymousRegionCount)"
        var issues: [TTMLStyleResolver.Issue] = []
        let set = styles.resolve(references: attributes.styleReferences, own: attributes.styles, location: location, issues: &issues)
        for issue in issues { report(.error, issue.code, issue.location, issue.message) }
        let region = makeRegion(identifier: identifier, styles: set, attributes: TTMLElementAttributes(), location: location)
        regions[identifier] = region
        renderer.add(region)
        return identifier
    }
}
