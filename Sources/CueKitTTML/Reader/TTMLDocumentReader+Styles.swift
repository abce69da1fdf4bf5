import CueKit

// The styles of elements: referenced and inline styles become classes (layers) and tags, which
// wrap the cue text as WebVTT draws them.

extension TTMLDocumentReader {
    /// A style contribution of one element or style: its class and tags.
    typealias Layer = TTMLStyleCatalog.Layer

    /// An element of the body as the prescan sees it (``TTMLInlineStyleScanner``): the classes its
    /// inline styles, `set` or inline region need, registered as the reading pass registers them.
    /// Returns the element's attributes and style level when its children matter (a `div`, `p` or
    /// `span`), nil when its subtree can be skipped. `open` are the elements it is in, innermost
    /// last (taken whole: copying out the last for each element would copy its attributes).
    mutating func registerInlineStyles(
        of name: XMLName, _ xmlAttributes: XMLAttributes, _ location: SourceLocation, in open: [StyledElement]
    ) -> StyledElement? {
        let kind = vocabulary.element(name)
        let attributes = TTMLElementAttributes(
            xmlAttributes, vocabulary: &vocabulary, styleReferenceLimit: options.limits.maximumStyleReferencesPerElement)
        let level: TTMLStyleMapper.Level
        switch kind {
        case .div: level = .block
        case .p: level = .paragraph
        case .span: level = .inline
        case .set:
            if let parent = open.last, !attributes.styles.isEmpty {
                var changed = attributes.styles
                changed[.display] = nil
                if !changed.isEmpty {
                    _ = layers(restyled(parent.attributes, by: changed), level: parent.level, location: location)
                }
            }
            return nil
        case .region:
            _ = makeInlineRegion(attributes, location)
            return nil
        default:
            return nil
        }
        if !attributes.styles.isEmpty { _ = layers(attributes, level: level, location: location) }
        return StyledElement(attributes: attributes, level: level)
    }

    /// An open element of the body as the prescan keeps it: what a `set` in it restyles.
    struct StyledElement {
        var attributes: TTMLElementAttributes
        var level: TTMLStyleMapper.Level
    }

    /// An element's attributes with `changed` written over its own styles (what a `set` in it
    /// shows), the new set numbered.
    mutating func restyled(_ attributes: TTMLElementAttributes, by changed: TTMLStyleSet) -> TTMLElementAttributes {
        var restyled = attributes
        restyled.styles = restyled.styles.overridden(by: changed)
        restyled.numbers.styles = vocabulary.values.table.number(of: restyled.styles)
        return restyled
    }

    /// The specified styles of an element: its referenced styles, then its own attributes.
    mutating func specifiedStyles(_ attributes: TTMLElementAttributes, _ location: SourceLocation) -> TTMLStyleSet {
        if attributes.styleReferences.isEmpty { return attributes.styles }
        var issues: [TTMLStyleResolver.Issue] = []
        let set = styles.resolve(references: attributes.styleReferences, own: attributes.styles, location: location, issues: &issues)
        return set
    }

    /// The style layers of an element: each referenced style's class, then its own attributes'.
    mutating func layers(_ attributes: TTMLElementAttributes, level: TTMLStyleMapper.Level, location: SourceLocation) -> [Layer] {
        var result: [Layer] = []
        for reference in attributes.styleReferences {
            if let layer = styleCatalog.headLayer(reference) { result.append(layer) }
        }
        reportUnknownStyleReferences(attributes, location)
        if !attributes.styles.isEmpty {
            let key = TTMLStyleCatalog.InlineLayerKey(attributes, level: level)
            if let key, let kept = styleCatalog.inlineLayer(for: key) {
                result.append(kept)
            } else {
                let layer = layer(for: attributes.styles, level: level, location: location, preferredName: nil)
                if let key { styleCatalog.keepInlineLayer(layer, for: key) }
                result.append(layer)
            }
        }
        return result
    }

    /// Reports each of an element's style references that names no style.
    mutating func reportUnknownStyleReferences(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        for reference in attributes.styleReferences where styleCatalog.headLayer(reference) == nil {
            if regions.index(forKey: reference) != nil {
                reportOnce("style-ref:" + reference, .error, .ttmlUnknownStyle, location, "style attribute names \(quoted(reference)), which is a region, not a style; it is ignored")
            } else {
                reportOnce("style-ref:" + reference, .error, .ttmlUnknownStyle, location, "style \(quoted(reference)) is not defined; the reference is ignored")
            }
        }
    }

    /// Notes, once, that a region, body or div background is drawn behind its text.
    mutating func noteApproximatedBackground(_ presentation: TTMLPresentation, level: TTMLStyleMapper.Level, _ location: SourceLocation) {
        let paintsBox = presentation.declarations.contains { declaration in
            (declaration.property == "background-color" && !(declaration.value.utf8.count == 9 && declaration.value.hasSuffix("00")))
                || declaration.property == "opacity"
        }
        if level == .region || level == .block, paintsBox {
            reportOnce(
                "approximated-background", .note, .ttmlStyleApproximated, location,
                "the background or opacity of a region, body or div is drawn behind (or applied to) its text, as WebVTT has no box for them")
        }
    }

    /// The class and tags of a specified set, registering the class.
    mutating func layer(for set: TTMLStyleSet, level: TTMLStyleMapper.Level, location: SourceLocation, preferredName: String?) -> Layer {
        var (presentation, issues) = mapper.presentation(of: set, at: level)
        reportStyleIssues(issues, location)
        if level == .region, !bodyProperties.isEmpty {
            // The body's value of these is what its text inherits; the `::cue` rule has it.
            presentation.declarations.removeAll { bodyProperties.contains($0.property) }
        }
        noteApproximatedBackground(presentation, level: level, location)
        let name = registry.className(for: presentation, preferredName: preferredName)
        if name != nil, registry.isSealed, !reportedLateStyles, !registry.lateEntries.isEmpty {
            reportedLateStyles = true
            report(
                .warning, .ttmlInlineStyleLate, location,
                "tts: attributes in the body need classes that the STYLE block, written before the first cue, does not have; read the document in two passes (TTMLReader.read(fileAtPath:) does) to keep them")
        }
        return Layer(className: name, presentation: presentation)
    }

    mutating func reportStyleIssues(_ issues: [TTMLStyleMapper.Issue], _ location: SourceLocation) {
        for issue in issues {
            switch issue.kind {
            case .invalid(let reason):
                reportOnce(
                    "invalid:\(issue.property.rawValue)=\(issue.value)", .error, .ttmlBadStyleValue, location,
                    "\(issue.property.qualifiedName) value \(quoted(issue.value)) \(reason); it is ignored")
            case .notExpressible(let reason):
                reportOnce(
                    "unmapped:\(issue.property.rawValue)", .warning, .ttmlStyleNotMapped, location,
                    "\(issue.property.qualifiedName) \(quoted(issue.value)) is left out: \(reason)")
            }
        }
    }

    /// Adds a layer's class (on the open `<c>` when it conflicts with nothing there) and its tags.
    mutating func appendLayer(_ layer: Layer, to wrappers: inout [TTMLParagraph.Wrapper], mergeable: inout TTMLPresentation?) {
        if let name = layer.className {
            if var current = mergeable, let last = wrappers.indices.last, wrappers[last].kind == .class,
                !current.conflicts(with: layer.presentation)
            {
                wrappers[last].classes.append(name)
                for declaration in layer.presentation.declarations { current.declare(declaration.property, declaration.value) }
                mergeable = current
            } else {
                wrappers.append(TTMLParagraph.Wrapper(kind: .class, classes: [name]))
                var bare = TTMLPresentation()
                bare.declarations = layer.presentation.declarations
                mergeable = bare
            }
        }
        let tags = tagWrappers(layer.presentation.tags)
        if !tags.isEmpty {
            wrappers += tags
            mergeable = nil
        }
    }

    mutating func tagWrappers(_ tags: TTMLPresentation.Tags) -> [TTMLParagraph.Wrapper] {
        var result: [TTMLParagraph.Wrapper] = []
        if tags.contains(.italic) { result.append(TTMLParagraph.Wrapper(kind: .italic)) }
        if tags.contains(.bold) { result.append(TTMLParagraph.Wrapper(kind: .bold)) }
        if tags.contains(.underline) { result.append(TTMLParagraph.Wrapper(kind: .underline)) }
        return result
    }
}
