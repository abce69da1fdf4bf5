import CueKit

// The limits that bound the reader's memory whatever the input (each is an option, raisable for the
// rare honest document; reading stops with a located error where one is passed), and the content
// that is skipped with a warning: images and style animation.

extension TTMLDocumentReader {
    /// Stops reading where a document holds more than a limit allows: memory stays bounded by the
    /// limits, whatever the input (each limit is an option, raisable for the rare honest document).
    mutating func checkLimits(_ kind: TTMLElementKind, _ attributes: TTMLElementAttributes, _ location: SourceLocation) throws {
        if attributes.styleReferences.count > options.limits.maximumStyleReferencesPerElement {
            throw ReadError(
                .ttmlLimit, at: location,
                "an element refers to more than \(options.limits.maximumStyleReferencesPerElement) styles (TTMLReader.Options.Limits.maximumStyleReferencesPerElement); reading stopped")
        }
        switch kind {
        case .style where !headFinished:
            styleCount += 1
            if styleCount > options.limits.maximumStyles {
                throw ReadError(
                    .ttmlLimit, at: location,
                    "the head defines more than \(options.limits.maximumStyles) styles (TTMLReader.Options.Limits.maximumStyles); reading stopped")
            }
        case .region:
            regionCount += 1
            if regionCount > options.limits.maximumRegions {
                throw ReadError(
                    .ttmlLimit, at: location,
                    "the document defines more than \(options.limits.maximumRegions) regions (TTMLReader.Options.Limits.maximumRegions); reading stopped")
            }
        default:
            break
        }
    }

    /// A paragraph is held until it ends: its elements, text pieces and line breaks are bounded.
    /// (Mutating only so that the reader is passed by reference: a non-mutating call from the
    /// mutating `consume` copied the whole reader for each event.)
    mutating func checkParagraphSize(_ location: SourceLocation) throws {
        guard isInParagraph, paragraph.nodes.count > options.limits.maximumNodesPerParagraph else { return }
        throw ReadError(
            .ttmlLimit, at: location,
            "a paragraph holds more than \(options.limits.maximumNodesPerParagraph) elements, line breaks and pieces of text (TTMLReader.Options.Limits.maximumNodesPerParagraph); reading stopped")
    }

    // MARK: Content that is skipped

    mutating func checkProfileElement(_ attributes: XMLAttributes, _ location: SourceLocation) {
        for attribute in attributes where attribute.name.local == "use" && attribute.name.namespace.isEmpty {
            if TTML.imageProfiles.contains(attribute.value) {
                noteImage(location)
            }
        }
    }

    mutating func noteImage(_ location: SourceLocation) {
        sawImages = true
        report(.warning, .ttmlImageSkipped, location, "image content is not converted (CueKit reads text captions only); it is skipped")
    }

    mutating func reportAnimation(_ location: SourceLocation) {
        guard !reportedAnimation else { return }
        reportedAnimation = true
        report(
            .warning, .ttmlStyleNotMapped, location,
            "style animation (set, animate) is not converted: the text is shown with its styles outside the animation")
    }
}
