import CueKit

/// The TTML reader's state machine: XML events in, track events out, holding the head (parameters,
/// styles, regions) and one paragraph at a time.
///
/// This file dispatches each element to its room: the root's parameters
/// (``TTMLDocumentParameters``), the head builder (`+Head`), the time containers (`+TimeContainers`,
/// over ``TTMLTimeContainer``), the paragraph builder (`+Paragraphs`), element styles (`+Styles`,
/// which keep what they make in ``TTMLStyleCatalog``), common attributes (`+Attributes`) and the
/// limits that bound memory (`+Limits`).
///
/// The prescan of a two-pass read (``TTMLInlineStyleScanner``) drives the same reader through the
/// head and asks it for the classes of the body's inline styles (``registerInlineStyles(of:_:_:in:)``);
/// the reading pass is made with what it found (`scannedPresentations`) and writes them all in the
/// STYLE block before the first cue.
struct TTMLDocumentReader {
    let options: TTMLReader.Options
    /// Events ready to be handed out.
    var output: [TrackEvent] = []

    var vocabulary = TTMLVocabularyCache()
    var lastLocation = SourceLocation.start

    // Document parameters.
    var rootSeen = false
    var timing = TTMLTimingParameters()
    var layout = TTMLLayoutParameters()
    var rootLanguage = ""
    var rootPreservesSpace = false

    // The head, as written, then resolved.
    var styles = TTMLStyleResolver()
    var regionDefinitions: [TTMLRegionDefinition] = []
    var initialStyles = TTMLStyleSet()
    var headIdentifiers: Set<String> = []
    var headFinished = false
    var regions: [String: TTMLRegion] = [:]
    /// The region identifier ``validatedRegion(_:_:)`` found last.
    var lastValidatedRegion: String?
    /// Renders paragraphs; holds the regions too.
    var renderer: TTMLParagraphRenderer
    /// What styles make, kept: the layers of head styles and inline styles, span wrappers and
    /// paragraph chains, each table bounded.
    var styleCatalog = TTMLStyleCatalog()
    var registry = TTMLClassRegistry()
    var mapper: TTMLStyleMapper { TTMLStyleMapper(layout: layout) }
    var reportedStyleIssues: Set<String> = []
    var anonymousRegionCount = 0
    /// Classes the scan pass found, registered by the read pass before the STYLE block.
    let scannedPresentations: [TTMLPresentation]
    /// The `::cue` rule of the initial background, the `initial` styles and the body's styles,
    /// once the head is read.
    var everyCueRule: CueStyleRule?
    /// The CSS properties the body's styles give every cue (in ``everyCueRule``): region classes
    /// leave them out, as the body's value is what the text inherits in TTML.
    var bodyProperties: Set<String> = []
    /// True when the body's styles went into ``everyCueRule`` (the head ended at the body).
    var bodyStylesInEveryCueRule = false
    /// A one-pass read of a whole document: the STYLE block and every event after the head are
    /// held until the end, so that the block lists the classes the body registers as it is read.
    var holdsEventsAfterHead = false
    /// How many events a held read expects (from the document's size, when known): room for them
    /// is made when the hold starts, so that the held array does not grow, copying every event,
    /// a dozen times over a document.
    var heldEventsExpected = 0
    /// About the bytes of a document that make one event (a `p` with its times and a line of
    /// text is more): room for most documents' events at once, at most about the document's size
    /// in memory; a denser document's array grows from there, as any array does.
    static let bytesPerHeldEvent = 128
    /// Where the held events start in ``output``, while they are held.
    var heldFrom: Int?

    // Where the reader is.
    var stack: [Open] = []
    var skipDepth = 0
    /// The head's agents, for voices.
    var agents = TTMLAgents()
    /// How many elements are open (for ``TTMLReader/Options/Limits/maximumNestingDepth``).
    var depth = 0
    /// The bytes of text in the current paragraph (for ``TTMLReader/Options/Limits/maximumParagraphLength``).
    var paragraphTextLength = 0
    var containers: [Container] = []
    /// True between the body's start and end tags.
    var isInBody: Bool { !containers.isEmpty }
    /// The `p` being read, while ``isInParagraph``: one value, restarted for each `p`, so that
    /// its arrays keep their capacity (and it is changed where it is, never copied).
    var paragraph = TTMLParagraph()
    /// True between a `p`'s start and end tags.
    var isInParagraph = false
    var paragraphHidden = false
    var spanStack: [SpanContext] = []
    var pendingStyle: TTMLStyleDefinition?
    var pendingRegion: TTMLRegionDefinition?

    // Findings.
    var limiter: DiagnosticLimiter
    var cueCount = 0
    var sawImages = false
    var reportedUnbounded = false
    var reportedEmptyLines = false
    var reportedUnassociated = false
    /// Styles and regions defined so far, for their limits.
    var styleCount = 0
    var regionCount = 0
    /// Where text that selects no region was first met.
    var firstUnassociated: SourceLocation?
    /// The kinds of ruby repair already reported.
    var reportedRubyRepairs = TTMLParagraph.RubyRepairs()
    var reportedLateStyles = false
    var reportedAnimation = false

    /// An open element and what closing it does.
    enum Open {
        case tt, head, styling, layout, style, initial, region, regionStyle, body, div, paragraph, paragraphChild
    }

    var paragraphContext: ParagraphContext?

    init(options: TTMLReader.Options, scannedPresentations: [TTMLPresentation] = []) {
        self.options = options
        limiter = DiagnosticLimiter(limit: options.limits.maximumDiagnosticsPerCode)
        self.scannedPresentations = scannedPresentations
        renderer = TTMLParagraphRenderer(
            defaultRegion: TTMLRegion(identifier: "", styles: TTMLStyleSet(), interval: .always, className: nil, geometry: .rootContainer),
            documentHasRegions: false, unboundedEnd: options.unboundedEnd, defaultRegionSettings: options.defaultRegion == .rootContainer)
        renderer.presentsUnregionedContent = options.unregionedContent == .defaultRegion
    }

    /// The presentations of the classes registered after the style sheet: in the prescan, what the
    /// read pass must register up front.
    var latePresentations: [TTMLPresentation] { registry.lateEntries.map(\.presentation) }

    /// Takes the events ready to hand out: while events are held, those before the hold.
    mutating func takeOutput() -> [TrackEvent] {
        if let heldFrom {
            guard heldFrom > 0 else { return [] }
            defer {
                output.removeSubrange(..<heldFrom)
                self.heldFrom = 0
            }
            return Array(output[..<heldFrom])
        }
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }

    /// Drops the events ready to hand out (the prescan's), keeping the buffer.
    mutating func discardOutput() {
        output.removeAll(keepingCapacity: true)
    }

    // MARK: Events

    mutating func consume(_ event: XMLEvent) throws {
        switch event {
        case .start(let name, let attributes, let location):
            lastLocation = location
            depth += 1
            if depth > options.limits.maximumNestingDepth {
                throw ReadError(
                    .ttmlNestingTooDeep, at: location,
                    "elements nest more than \(options.limits.maximumNestingDepth) deep (TTMLReader.Options.Limits.maximumNestingDepth); reading stopped")
            }
            if !isInParagraph { paragraphTextLength = 0 }
            if agents.isActive {
                agents.start(name, attributes)
                return
            }
            if skipDepth > 0 {
                skipDepth += 1
                return
            }
            try start(name, attributes, location)
            try checkParagraphSize(location)
        case .end(let location):
            lastLocation = location
            depth -= 1
            if agents.isActive {
                agents.end()
                return
            }
            if skipDepth > 0 {
                skipDepth -= 1
                return
            }
            end()
        case .text(let text):
            if agents.isActive {
                agents.text(text.string)
                return
            }
            guard skipDepth == 0 else { return }
            if isInParagraph {
                paragraphTextLength += text.count
                if paragraphTextLength > options.limits.maximumParagraphLength {
                    throw ReadError(
                        .ttmlParagraphTooLong, at: lastLocation,
                        "a paragraph holds more than \(options.limits.maximumParagraphLength) bytes of text (TTMLReader.Options.Limits.maximumParagraphLength); reading stopped")
                }
            }
            self.text(text.bytes)
            try checkParagraphSize(lastLocation)
        case .problem(let severity, let message, let location):
            report(severity, .ttmlXMLProblem, location, message)
        }
    }

    /// The end of the document: what remains to hand out.
    mutating func finish() throws {
        if rootSeen, !headFinished { finishHead() }
        releaseHeldEvents()
        if !registry.lateEntries.isEmpty {
            output.append(.stylesheet(CueStylesheet(rules: TTMLClassRegistry.rules(registry.lateEntries))))
        }
        for note in limiter.notes(code: .ttmlDiagnosticLimit) { output.append(.diagnostic(note)) }
        if cueCount == 0, reportedUnassociated {
            output.append(
                .diagnostic(
                    Diagnostic(
                        .error, .ttmlAllContentUnregioned, at: firstUnassociated,
                        "the document defines regions but none of its text selects one, so nothing is presented (TTML2 section 11.3.1.3) and the track is empty; players show such text in the default region: convert with --unregioned default-region to do the same"
                    )))
        }
        if sawImages, cueCount == 0 {
            throw ReadError(.ttmlImageCaptions, at: nil, "the document holds image captions, which CueKit does not convert (only text is read)")
        }
    }

    // MARK: Start tags

    private mutating func start(_ name: XMLName, _ xmlAttributes: XMLAttributes, _ location: SourceLocation) throws {
        let kind = vocabulary.element(name)
        guard rootSeen else {
            guard kind == .tt else {
                let expected = name.local == "tt" ? "has no TTML namespace" : "is <\(name.local)>, not <tt>"
                throw ReadError(
                    .ttmlNotTTML, at: location,
                    "not a TTML document: the root element \(expected) (TTML needs <tt> in the namespace \(TTML.namespace))")
            }
            try startDocument(name, TTMLElementAttributes(xmlAttributes, vocabulary: &vocabulary), location)
            return
        }
        let parent = stack.last
        if kind == .foreign || kind == .metadataItem {
            skipDepth = 1
            return
        }
        if kind == .metadata, parent == .head {
            agents.begin()
            return
        }
        if kind == .metadata || kind == .resource || kind == .animate {
            if kind == .animate { reportAnimation(location) }
            skipDepth = 1
            return
        }
        if kind == .image {
            noteImage(location)
            skipDepth = 1
            return
        }
        if kind == .profile {
            checkProfileElement(xmlAttributes, location)
            skipDepth = 1
            return
        }
        let attributes = TTMLElementAttributes(
            xmlAttributes, vocabulary: &vocabulary, styleReferenceLimit: options.limits.maximumStyleReferencesPerElement)
        try checkLimits(kind, attributes, location)
        if !attributes.unknownStyling.isEmpty {
            for unknown in attributes.unknownStyling {
                reportOnce("attribute:" + unknown, .warning, .ttmlBadAttribute, location, "tts:\(unknown) is not a TTML style attribute; it is ignored")
            }
        }
        if attributes.hasBackgroundImage {
            noteImage(location)
        }
        switch (parent, kind) {
        case (.tt?, .head):
            stack.append(.head)
        case (.tt?, .body):
            if !headFinished { finishHead(body: attributes, location) }
            startBody(attributes, location)
        case (.head?, .styling):
            stack.append(.styling)
        case (.head?, .layout):
            stack.append(.layout)
        case (.styling?, .style):
            defineStyle(attributes, location)
            stack.append(.style)
        case (.styling?, .initial):
            initialStyles = initialStyles.overridden(by: attributes.styles)
            stack.append(.initial)
        case (.layout?, .region):
            pendingRegion = TTMLRegionDefinition(
                identifier: attributes.identifier ?? "", references: attributes.styleReferences, styles: attributes.styles,
                attributes: attributes, location: location)
            if attributes.identifier == nil {
                report(.error, .ttmlBadAttribute, location, "a region in the head has no xml:id, so no content can select it; it is ignored")
            }
            stack.append(.region)
        case (.region?, .style):
            pendingRegion?.nested.append(
                TTMLStyleDefinition(
                    identifier: attributes.identifier ?? "", references: attributes.styleReferences, styles: attributes.styles,
                    location: location))
            stack.append(.regionStyle)
        case (.region?, .set):
            reportAnimation(location)
            skipDepth = 1
        case (.body?, .div), (.div?, .div):
            startDiv(attributes, location)
        case (.body?, .p), (.div?, .p):
            startParagraph(attributes, location)
        case (.body?, .region), (.div?, .region):
            startInlineRegionOfContainer(attributes, location)
            skipDepth = 1
        case (.paragraph?, .span), (.paragraphChild?, .span):
            startSpan(attributes, location)
        case (.paragraph?, .p), (.paragraphChild?, .p):
            report(.error, .ttmlMisplacedContent, location, "a p inside a p is not allowed; it is read as a span")
            startSpan(attributes, location)
        case (.paragraph?, .br), (.paragraphChild?, .br):
            lineBreak(attributes, location)
            skipDepth = 1
        case (.paragraph?, .region):
            startInlineRegionOfParagraph(attributes, location)
            skipDepth = 1
        case (.paragraph?, .set), (.paragraphChild?, .set):
            animate(attributes, location)
            skipDepth = 1
        case (.body?, .set), (.div?, .set):
            reportAnimation(location)
            skipDepth = 1
        case (_, .unknownTTML):
            reportOnce(
                "element:" + name.local, .warning, .ttmlUnknownElement, location,
                "<\(name.local)> is not a TTML element; it and its content are ignored")
            skipDepth = 1
        default:
            let place = parent.map { "\($0)" } ?? "the document"
            report(.warning, .ttmlMisplacedContent, location, "<\(name.local)> is not allowed in \(place); it and its content are ignored")
            skipDepth = 1
        }
    }

    private mutating func startDocument(_ name: XMLName, _ attributes: TTMLElementAttributes, _ location: SourceLocation) throws(ReadError) {
        rootSeen = true
        stack.append(.tt)
        if case .content(let version) = TTMLNamespace(name.namespace), version != .ttml {
            report(
                .note, .ttmlLegacyNamespace, location,
                "the document uses the DFXP draft namespace \(name.namespace); it is read as TTML1")
        }
        rootLanguage = attributes.lang ?? ""
        rootPreservesSpace = space(attributes, inherited: false, location)
        output.append(.header(""))
        let parameters = try TTMLDocumentParameters(root: attributes, at: location, clockTimeOrigin: options.clockTimeOrigin)
        timing = parameters.timing
        layout = parameters.layout
        for finding in parameters.findings { report(finding.severity, finding.code, finding.location, finding.message) }
    }

    // MARK: End tags and text

    private mutating func end() {
        guard let top = stack.popLast() else { return }
        switch top {
        case .region:
            if let definition = pendingRegion {
                regionDefinitions.append(definition)
                if !definition.identifier.isEmpty {
                    if headIdentifiers.contains(definition.identifier) {
                        report(.error, .ttmlDuplicateIdentifier, definition.location, "xml:id \(quoted(definition.identifier)) is used twice; the first element keeps it")
                        regionDefinitions.removeLast()
                    }
                    headIdentifiers.insert(definition.identifier)
                }
            }
            pendingRegion = nil
        case .body, .div:
            endContainer()
        case .paragraph:
            endParagraph()
        case .paragraphChild:
            if isInParagraph { paragraph.closeElement() }
            if spanStack.count > 1 { spanStack.removeLast() }
        case .tt:
            if !headFinished { finishHead() }
        default:
            break
        }
    }

    private mutating func text(_ text: UnsafeBufferPointer<UInt8>) {
        if isInParagraph {
            paragraph.appendText(text)
            return
        }
        guard text.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else { return }
        switch stack.last {
        case .body?, .div?:
            report(.warning, .ttmlMisplacedContent, lastLocation, "text directly in a body or div is not allowed (only in p); it is ignored")
        case .style?, .region?, .head?, .styling?, .layout?, .tt?, .initial?, .regionStyle?:
            report(.warning, .ttmlMisplacedContent, lastLocation, "text is not allowed here; it is ignored")
        default:
            break
        }
    }

    // MARK: Diagnostics

    mutating func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ location: SourceLocation?, _ message: String) {
        guard limiter.admit(code) else { return }
        output.append(.diagnostic(Diagnostic(severity, code, at: location, message)))
    }

    mutating func reportOnce(
        _ key: String, _ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ location: SourceLocation?, _ message: String
    ) {
        guard reportedStyleIssues.insert(key).inserted else { return }
        report(severity, code, location, message)
    }
}
