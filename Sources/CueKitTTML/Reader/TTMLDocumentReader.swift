import CueKit

/// The TTML reader's state machine: XML events in, track events out, holding the head (parameters,
/// styles, regions) and one paragraph at a time.
///
/// It runs in two modes. ``Mode/read`` produces the track. ``Mode/scan`` is the first pass of a
/// two-pass read: it reads the same document the same way but renders nothing, and collects the
/// style classes that `tts:` attributes in the body need, so that the second pass can write them in
/// the STYLE block before the first cue.
struct TTMLDocumentReader {
    enum Mode {
        case read
        case scan
    }

    let options: TTMLReader.Options
    let mode: Mode
    /// Events ready to be handed out.
    private(set) var output: [TrackEvent] = []

    private var vocabulary = TTMLVocabularyCache()
    private var lastLocation = SourceLocation.start

    // Document parameters.
    private var rootSeen = false
    private var timing = TTMLTimingParameters()
    private var layout = TTMLLayoutParameters()
    private var rootLanguage = ""
    private var rootPreservesSpace = false

    // The head, as written, then resolved.
    private var styles = TTMLStyleResolver()
    private var regionDefinitions: [TTMLRegionDefinition] = []
    private var initialStyles = TTMLStyleSet()
    private var headIdentifiers: Set<String> = []
    private var headFinished = false
    private var regions: [String: TTMLRegion] = [:]
    /// Renders paragraphs; holds the regions too.
    private var renderer: TTMLParagraphRenderer
    private var styleLayers: [String: Layer] = [:]
    private var registry = TTMLClassRegistry()
    private var mapper: TTMLStyleMapper { TTMLStyleMapper(layout: layout) }
    private var inlineCache: [InlineKey: Layer] = [:]
    private var reportedStyleIssues: Set<String> = []
    private var anonymousRegionCount = 0
    /// Classes the scan pass found, registered by the read pass before the STYLE block.
    private let scannedPresentations: [TTMLPresentation]

    // Where the reader is.
    private var stack: [Open] = []
    private var skipDepth = 0
    /// How many elements are open (for ``TTMLReader/Options/maximumNestingDepth``).
    private var depth = 0
    /// The bytes of text in the current paragraph (for ``TTMLReader/Options/maximumParagraphLength``).
    private var paragraphTextLength = 0
    private var containers: [Container] = []
    private var paragraph: TTMLParagraph?
    /// The emptied arrays of the last paragraph, reused by the next.
    private var spareStorage = TTMLParagraph.Storage()
    private var paragraphHidden = false
    private var spanStack: [SpanContext] = []
    private var pendingStyle: TTMLStyleDefinition?
    private var pendingRegion: TTMLRegionDefinition?

    /// Scan mode, inside the body: the open elements' attributes and style level, so that a `set`
    /// can restyle its parent as the read pass will.
    private var scanStack: [(attributes: TTMLElementAttributes, level: TTMLStyleMapper.Level)] = []

    // Findings.
    private var limiter: DiagnosticLimiter
    private(set) var cueCount = 0
    private(set) var sawImages = false
    private var reportedUnbounded = false
    private var reportedEmptyLines = false
    private var reportedUnassociated = false
    /// Styles and regions defined so far, for their limits.
    private var styleCount = 0
    private var regionCount = 0
    /// Where text that selects no region was first met.
    private var firstUnassociated: SourceLocation?
    /// The kinds of ruby repair already reported.
    private var reportedRubyRepairs = TTMLParagraph.RubyRepairs()
    private var reportedLateStyles = false
    private var reportedAnimation = false

    /// A style contribution of one element or style: its class and tags.
    struct Layer: Sendable {
        var className: String?
        var presentation: TTMLPresentation
    }

    private struct InlineKey: Hashable {
        var styles: TTMLStyleSet
        var level: TTMLStyleMapper.Level
    }

    /// An open element and what closing it does.
    private enum Open {
        case tt, head, styling, layout, style, initial, region, regionStyle, body, div, paragraph, paragraphChild
    }

    /// A `body` or `div`: its time container and what it passes to its children.
    private struct Container {
        var begin: TTMLTime
        /// The end of its active interval if `end`/`dur` or an ancestor bounds it.
        var limit: TTMLTime
        var explicitEnd: TTMLTime?
        var isSequence: Bool
        /// `seq`: where the next child's time starts.
        var cursor: TTMLTime
        /// `par`: the latest end of a child so far.
        var latestEnd: TTMLTime
        var region: TTMLParagraph.RegionSelection
        var wrappers: [TTMLParagraph.Wrapper]
        var mergeableClasses: TTMLPresentation?
        var textAlign: String?
        var direction: String?
        var preservesSpace: Bool
        var language: String
        var hidden: Bool
    }

    /// What an element of a paragraph passes to its children, and what a `set` in it needs to
    /// restyle it.
    private struct SpanContext {
        var language: String
        /// The language its parent passed to it.
        var parentLanguage: String
        var attributes: TTMLElementAttributes
        var role: TTMLParagraph.Role
    }

    /// What the `p` being read needs to rebuild its outer chain for a `set`.
    private struct ParagraphContext {
        /// The index of its container in `containers` (which stays put while the `p` is read).
        var container: Int
        var attributes: TTMLElementAttributes
    }
    private var paragraphContext: ParagraphContext?

    init(options: TTMLReader.Options, mode: Mode, scannedPresentations: [TTMLPresentation] = []) {
        self.options = options
        limiter = DiagnosticLimiter(limit: options.maximumDiagnosticsPerCode)
        self.mode = mode
        self.scannedPresentations = scannedPresentations
        renderer = TTMLParagraphRenderer(
            defaultRegion: TTMLRegion(identifier: "", styles: TTMLStyleSet(), interval: .always, className: nil, geometry: .rootContainer),
            documentHasRegions: false, unboundedEnd: options.unboundedEnd, defaultRegionSettings: options.defaultRegion == .rootContainer)
        renderer.presentsUnregionedContent = options.unregionedContent == .defaultRegion
    }

    /// The presentations of the classes registered after the style sheet: in scan mode, what the
    /// read pass must register up front.
    var latePresentations: [TTMLPresentation] { registry.lateEntries.map(\.presentation) }

    /// Takes the events ready to hand out.
    mutating func takeOutput() -> [TrackEvent] {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }

    // MARK: Events

    mutating func consume(_ event: XMLEvent) throws {
        switch event {
        case .start(let name, let attributes, let location):
            lastLocation = location
            depth += 1
            if depth > options.maximumNestingDepth {
                throw ReadError(
                    .ttmlNestingTooDeep, at: location,
                    "elements nest more than \(options.maximumNestingDepth) deep (TTMLReader.Options.maximumNestingDepth); reading stopped")
            }
            if paragraph == nil { paragraphTextLength = 0 }
            if skipDepth > 0 {
                skipDepth += 1
                return
            }
            try start(name, attributes, location)
            try checkParagraphSize(location)
        case .end(_, let location):
            lastLocation = location
            depth -= 1
            if skipDepth > 0 {
                skipDepth -= 1
                return
            }
            end()
        case .text(let text):
            guard skipDepth == 0 else { return }
            if paragraph != nil {
                paragraphTextLength += text.utf8.count
                if paragraphTextLength > options.maximumParagraphLength {
                    throw ReadError(
                        .ttmlParagraphTooLong, at: lastLocation,
                        "a paragraph holds more than \(options.maximumParagraphLength) bytes of text (TTMLReader.Options.maximumParagraphLength); reading stopped")
                }
            }
            self.text(text)
            try checkParagraphSize(lastLocation)
        case .problem(let severity, let message, let location):
            report(severity, .ttmlXMLProblem, location, message)
        }
    }

    /// Stops reading where a document holds more than a limit allows: memory stays bounded by the
    /// limits, whatever the input (each limit is an option, raisable for the rare honest document).
    private mutating func checkLimits(_ kind: TTMLElementKind, _ attributes: TTMLElementAttributes, _ location: SourceLocation) throws {
        if attributes.styleReferences.count > options.maximumStyleReferencesPerElement {
            throw ReadError(
                .ttmlLimit, at: location,
                "an element refers to more than \(options.maximumStyleReferencesPerElement) styles (TTMLReader.Options.maximumStyleReferencesPerElement); reading stopped")
        }
        switch kind {
        case .style where !headFinished:
            styleCount += 1
            if styleCount > options.maximumStyles {
                throw ReadError(
                    .ttmlLimit, at: location,
                    "the head defines more than \(options.maximumStyles) styles (TTMLReader.Options.maximumStyles); reading stopped")
            }
        case .region:
            regionCount += 1
            if regionCount > options.maximumRegions {
                throw ReadError(
                    .ttmlLimit, at: location,
                    "the document defines more than \(options.maximumRegions) regions (TTMLReader.Options.maximumRegions); reading stopped")
            }
        default:
            break
        }
    }

    /// A paragraph is held until it ends: its elements, text pieces and line breaks are bounded.
    private func checkParagraphSize(_ location: SourceLocation) throws {
        guard let paragraph, paragraph.nodes.count > options.maximumNodesPerParagraph else { return }
        throw ReadError(
            .ttmlLimit, at: location,
            "a paragraph holds more than \(options.maximumNodesPerParagraph) elements, line breaks and pieces of text (TTMLReader.Options.maximumNodesPerParagraph); reading stopped")
    }

    /// The end of the document: what remains to hand out.
    mutating func finish() throws {
        if rootSeen, !headFinished { finishHead() }
        if mode == .read {
            if !registry.lateEntries.isEmpty {
                output.append(.stylesheet(Stylesheet(TTMLClassRegistry.rules(registry.lateEntries).joined(separator: "\n"))))
            }
            for note in limiter.notes(code: .ttmlDiagnosticLimit) { output.append(.diagnostic(note)) }
        }
        if mode == .read, cueCount == 0, reportedUnassociated {
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

    private mutating func start(_ name: XMLName, _ xmlAttributes: [XMLAttribute], _ location: SourceLocation) throws {
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
        if mode == .scan, !containers.isEmpty {
            scanStart(kind, xmlAttributes, location)
            return
        }
        let parent = stack.last
        if kind == .foreign || kind == .metadataItem {
            skipDepth = 1
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
            xmlAttributes, vocabulary: &vocabulary, styleReferenceLimit: options.maximumStyleReferencesPerElement)
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
            if !headFinished { finishHead() }
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

    private mutating func startDocument(_ name: XMLName, _ attributes: TTMLElementAttributes, _ location: SourceLocation) throws {
        rootSeen = true
        stack.append(.tt)
        if case .content(let version) = TTMLNamespace(name.namespace), version != .ttml {
            report(
                .note, .ttmlLegacyNamespace, location,
                "the document uses the DFXP draft namespace \(name.namespace); it is read as TTML1")
        }
        rootLanguage = attributes.lang ?? ""
        rootPreservesSpace = space(attributes, inherited: false, location)
        if mode == .read { output.append(.header("")) }
        var clockMode: String?
        for (parameter, value) in attributes.parameters {
            let text = TTMLStyleValues.trimmed(Substring(value))
            switch parameter {
            case "timeBase":
                if let base = TTMLTimingParameters.TimeBase(rawValue: String(text)) {
                    timing.timeBase = base
                } else {
                    badParameter(parameter, value, "is not media, smpte or clock; media is used", location)
                }
            case "frameRate":
                if let rate = positiveInteger(text) {
                    timing.frameRate = rate
                    timing.frameRateSpecified = true
                } else {
                    badParameter(parameter, value, "is not a positive integer; 30 is used", location)
                }
            case "frameRateMultiplier":
                let parts = TTMLStyleValues.components(text)
                if parts.count == 2, let numerator = positiveInteger(parts[0]), let denominator = positiveInteger(parts[1]) {
                    timing.frameRateMultiplier = (numerator, denominator)
                } else {
                    badParameter(parameter, value, "is not two positive integers separated by a space; 1 1 is used", location)
                }
            case "subFrameRate":
                if let rate = positiveInteger(text) {
                    timing.subFrameRate = rate
                } else {
                    badParameter(parameter, value, "is not a positive integer; 1 is used", location)
                }
            case "tickRate":
                if let rate = positiveInteger(text) {
                    timing.specifiedTickRate = rate
                } else {
                    badParameter(parameter, value, "is not a positive integer; the default tick rate is used", location)
                }
            case "dropMode":
                if let mode = TTMLTimingParameters.DropMode(rawValue: String(text)) {
                    timing.dropMode = mode
                } else {
                    badParameter(parameter, value, "is not nonDrop, dropNTSC or dropPAL; nonDrop is used", location)
                }
            case "markerMode":
                if let mode = TTMLTimingParameters.MarkerMode(rawValue: String(text)) {
                    timing.markerMode = mode
                } else {
                    badParameter(parameter, value, "is not continuous or discontinuous; continuous is used", location)
                }
            case "clockMode":
                clockMode = String(text)
            case "cellResolution":
                let parts = TTMLStyleValues.components(text)
                if parts.count == 2, let columns = positiveInteger(parts[0]), let rows = positiveInteger(parts[1]) {
                    layout.cellColumns = Double(columns)
                    layout.cellRows = Double(rows)
                } else {
                    badParameter(parameter, value, "is not two positive integers; 32 15 is used", location)
                }
            case "profile", "contentProfiles", "processorProfiles":
                let designators = TTMLStyleValues.components(text).map(String.init)
                if parameter != "processorProfiles", designators.contains(where: { TTML.imageProfiles.contains($0) }) {
                    throw ReadError(
                        .ttmlImageCaptions, at: location,
                        "the document declares an image profile (\(designators.joined(separator: " "))): image captions are not supported")
                }
            default:
                break
            }
        }
        if timing.timeBase == .smpte, timing.dropMode != .nonDrop, timing.frameRate != 30, timing.dropMode == .dropNTSC {
            report(.warning, .ttmlBadParameter, location, "dropNTSC time codes assume a frame rate of 30; this document says \(timing.frameRate)")
        }
        if timing.timeBase == .clock {
            report(
                .note, .ttmlTimeBase, location,
                "times are in the clock time base (\(clockMode ?? "utc")): they are read as times of day, \(Timestamp.format(options.clockTimeOrigin)) being the start of the media")
        }
        if timing.timeBase == .smpte, timing.markerMode == .discontinuous {
            report(
                .warning, .ttmlTimeBase, location,
                "discontinuous SMPTE time codes are labels, not times; they are read as continuous time codes")
        }
        if let extent = attributes.styles[.extent] {
            let parts = TTMLStyleValues.components(TTMLStyleValues.trimmed(Substring(extent)))
            if parts.count == 2, let width = TTMLStyleValues.length(parts[0]), let height = TTMLStyleValues.length(parts[1]),
                width.unit == .pixel, height.unit == .pixel, width.value > 0, height.value > 0
            {
                layout.rootExtent = (width.value, height.value)
            } else if extent != "auto" {
                report(.error, .ttmlBadStyleValue, location, "tts:extent on tt must be two pixel lengths; '\(extent)' is ignored")
            }
        }
    }

    private mutating func positiveInteger(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int64(text), value > 0, value < 1_000_000_000 else {
            return nil
        }
        return value
    }

    private mutating func badParameter(_ name: String, _ value: String, _ reason: String, _ location: SourceLocation) {
        report(.error, .ttmlBadParameter, location, "ttp:\(name) value \(quoted(value)) \(reason)")
    }

    private mutating func checkProfileElement(_ attributes: [XMLAttribute], _ location: SourceLocation) {
        for attribute in attributes where attribute.name.local == "use" && attribute.name.namespace.isEmpty {
            if TTML.imageProfiles.contains(attribute.value) {
                noteImage(location)
            }
        }
    }

    private mutating func noteImage(_ location: SourceLocation) {
        sawImages = true
        report(.warning, .ttmlImageSkipped, location, "image content is not converted (CueKit reads text captions only); it is skipped")
    }

    private mutating func reportAnimation(_ location: SourceLocation) {
        guard !reportedAnimation else { return }
        reportedAnimation = true
        report(
            .warning, .ttmlStyleNotMapped, location,
            "style animation (set, animate) is not converted: the text is shown with its styles outside the animation")
    }

    // MARK: Head

    private mutating func defineStyle(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
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

    /// Resolves the head once it is complete: styles, regions, classes, and the STYLE block.
    private mutating func finishHead() {
        headFinished = true
        var issues: [TTMLStyleResolver.Issue] = []
        // Head styles become classes named after them.
        for identifier in styles.order {
            guard let set = styles.resolve(identifier, issues: &issues) else { continue }
            let location = styles.definitions[identifier]?.location ?? .start
            let layer = layer(for: set, level: .inline, location: location, preferredName: identifier)
            styleLayers[identifier] = layer
        }
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
        registry.seal()
        guard mode == .read else { return }
        var lines: [String] = []
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
        if base.hasDeclarations { lines.append("::cue { \(base.cssBody) }") }
        lines += TTMLClassRegistry.rules(registry.entries)
        if !lines.isEmpty { output.append(.stylesheet(Stylesheet(lines.joined(separator: "\n")))) }
    }

    /// A region from its resolved styles: geometry, timing, class.
    private mutating func makeRegion(identifier: String, styles set: TTMLStyleSet, attributes: TTMLElementAttributes, location: SourceLocation)
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

    // MARK: Body

    private mutating func startBody(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        let root = Container(
            begin: .zero, limit: .indefinite, explicitEnd: nil, isSequence: false, cursor: .zero, latestEnd: .zero,
            region: .unspecified, wrappers: [], mergeableClasses: nil, textAlign: nil, direction: nil,
            preservesSpace: rootPreservesSpace, language: rootLanguage, hidden: false)
        containers = [root]
        stack.append(.body)
        startContainer(attributes, location, parent: root, what: "body")
    }

    private mutating func startDiv(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard let parent = containers.last else { return }
        stack.append(.div)
        startContainer(attributes, location, parent: parent, what: "div")
    }

    /// Opens a `body` or `div` as a time container with its styles.
    private mutating func startContainer(_ attributes: TTMLElementAttributes, _ location: SourceLocation, parent: Container, what: String) {
        let syncBase = parent.isSequence ? parent.cursor : parent.begin
        var container = parent
        container.hidden = parent.hidden
        if let elementTiming = readTiming(attributes, location, what: what) {
            let begin = elementTiming.resolvedBegin(syncBase: syncBase)
            container.begin = begin
            container.explicitEnd = elementTiming.hasExplicitEnd ? elementTiming.explicitEnd(syncBase: syncBase, begin: begin) : nil
            container.limit = min(container.explicitEnd ?? .indefinite, parent.limit)
            container.isSequence = elementTiming.isSequence
        } else {
            // Its timing cannot be read: nothing in it is presented.
            container.begin = syncBase
            container.explicitEnd = syncBase
            container.limit = syncBase
            container.isSequence = false
        }
        container.cursor = container.begin
        container.latestEnd = container.begin
        container.region = parent.region.adding(validatedRegion(attributes.region, location))
        container.preservesSpace = space(attributes, inherited: parent.preservesSpace, location)
        let specified = specifiedStyles(attributes, location)
        if specified[.display].map({ TTMLStyleValues.trimmed(Substring($0)) }) == "none" { container.hidden = true }
        if let align = specified[.textAlign] { container.textAlign = String(TTMLStyleValues.trimmed(Substring(align))) }
        if let direction = specified[.direction] { container.direction = String(TTMLStyleValues.trimmed(Substring(direction))) }
        var wrappers = parent.wrappers
        var mergeable = parent.mergeableClasses
        let language = attributes.lang ?? parent.language
        if language != parent.language, !language.isEmpty {
            wrappers.append(TTMLParagraph.Wrapper(kind: .language(language)))
            mergeable = nil
        }
        for layer in layers(attributes, level: .block, location: location) {
            appendLayer(layer, to: &wrappers, mergeable: &mergeable)
        }
        container.wrappers = wrappers
        container.mergeableClasses = mergeable
        container.language = language
        containers.append(container)
    }

    /// Closes a `body` or `div`: its active end goes to its parent time container.
    private mutating func endContainer() {
        guard let container = containers.popLast() else { return }
        let implicitEnd = container.isSequence ? container.cursor : container.latestEnd
        var end = container.explicitEnd ?? implicitEnd
        end = min(end, containers.last?.limit ?? .indefinite)
        end = max(end, container.begin)
        childEnded(at: end)
    }

    private mutating func childEnded(at end: TTMLTime) {
        guard !containers.isEmpty else { return }
        let index = containers.count - 1
        containers[index].cursor = end
        containers[index].latestEnd = max(containers[index].latestEnd, end)
    }

    // MARK: Paragraphs

    private mutating func startParagraph(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard !containers.isEmpty else { return }
        let parentIndex = containers.count - 1
        stack.append(.paragraph)
        let syncBase = containers[parentIndex].isSequence ? containers[parentIndex].cursor : containers[parentIndex].begin
        var paragraphTiming = TTMLTiming.none
        var limit = containers[parentIndex].limit
        if let read = readTiming(attributes, location, what: "p") {
            paragraphTiming = read
        } else {
            limit = syncBase
        }
        let specified = specifiedStyles(attributes, location)
        let chain = paragraphChain(attributes, container: parentIndex, location)
        var storage = TTMLParagraph.Storage()
        swap(&storage, &spareStorage)
        paragraph = TTMLParagraph(
            identifier: attributes.identifier ?? "", location: location, syncBase: syncBase, limit: limit, timing: paragraphTiming,
            region: containers[parentIndex].region.adding(validatedRegion(attributes.region, location)),
            preservesSpace: space(attributes, inherited: containers[parentIndex].preservesSpace, location),
            blockWrappers: chain, storage: storage)
        if let align = specified[.textAlign] {
            paragraph!.textAlign = String(TTMLStyleValues.trimmed(Substring(align)))
        } else {
            paragraph!.textAlign = containers[parentIndex].textAlign
        }
        if let direction = specified[.direction] {
            paragraph!.direction = String(TTMLStyleValues.trimmed(Substring(direction)))
        } else {
            paragraph!.direction = containers[parentIndex].direction
        }
        if let display = specified[.display], TTMLStyleValues.trimmed(Substring(display)) == "none" {
            paragraph!.nodes[0].displayNone = true
            paragraph!.hasDynamicStyles = true
        }
        paragraphHidden = containers[parentIndex].hidden
        paragraphContext = ParagraphContext(container: parentIndex, attributes: attributes)
        let parentLanguage = containers[parentIndex].language
        spanStack.removeAll(keepingCapacity: true)
        spanStack.append(
            SpanContext(language: attributes.lang ?? parentLanguage, parentLanguage: parentLanguage, attributes: attributes, role: .paragraph))
    }

    /// The outer chain of a paragraph's cues: its containers' wrappers, then its own.
    private mutating func paragraphChain(_ attributes: TTMLElementAttributes, container index: Int, _ location: SourceLocation)
        -> [TTMLParagraph.Wrapper]
    {
        var wrappers = containers[index].wrappers
        var mergeable = containers[index].mergeableClasses
        let language = attributes.lang ?? containers[index].language
        if language != containers[index].language, !language.isEmpty {
            wrappers.append(TTMLParagraph.Wrapper(kind: .language(language)))
            mergeable = nil
        }
        for layer in layers(attributes, level: .paragraph, location: location) {
            appendLayer(layer, to: &wrappers, mergeable: &mergeable)
        }
        return wrappers
    }

    private mutating func endParagraph() {
        guard var finished = paragraph.take() else { return }
        defer { spareStorage = finished.recycle() }
        paragraphContext = nil
        spanStack.removeAll(keepingCapacity: true)
        if mode == .read, !paragraphHidden {
            let outcome = renderer.render(&finished)
            for cue in outcome.cues { output.append(.cue(cue)) }
            cueCount += outcome.cues.count
            if outcome.usedUnboundedEnd, !reportedUnbounded {
                reportedUnbounded = true
                report(
                    .note, .ttmlUnboundedEnd, finished.location,
                    "nothing ends this content (no end or dur on it or its ancestors): its cue ends at \(Timestamp.format(options.unboundedEnd)), as TTML shows it until the end of the media")
            }
            if outcome.droppedEmptyLines, !reportedEmptyLines {
                reportedEmptyLines = true
                report(.note, .ttmlEmptyLine, finished.location, "empty lines (a br with nothing before it on its line) cannot be written in WebVTT cue text; they were left out")
            }
            reportRubyRepairs(finished.rubyRepairs, at: finished.location)
            if outcome.timeBeyondReach {
                report(
                    .error, .ttmlBadTime, finished.location,
                    "the paragraph's times, added up through its time containers, are past the latest time CueKit reads (a billion hours): it is not presented")
            }
            if outcome.hadUnassociatedText, !reportedUnassociated {
                reportedUnassociated = true
                firstUnassociated = finished.location
                report(
                    .warning, .ttmlNoRegion, finished.location,
                    "text that selects no region (no region attribute on it or its ancestors) is not presented, since the document defines regions (TTML2 section 11.3.1.3); --unregioned default-region presents it in the default region, as players do")
            }
        } else {
            renderer.resolveTiming(&finished)
        }
        childEnded(at: finished.nodes[0].interval.end)
    }

    private mutating func startSpan(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard paragraph != nil else { return }
        stack.append(.paragraphChild)
        let parentLanguage = spanStack.last?.language ?? rootLanguage
        guard let spanTiming = readTiming(attributes, location, what: "span") else {
            // Its timing cannot be read: it is not presented (an empty element keeps its place).
            paragraph!.openElement(.span, timing: TTMLTiming(begin: .zero, end: .zero), region: nil, preservesSpace: false, wrappers: [])
            skipDepth = 1
            paragraph!.closeElement()
            stack.removeLast()
            return
        }
        let specified = specifiedStyles(attributes, location)
        var role = TTMLParagraph.Role.span
        if let ruby = specified[.ruby] {
            switch TTMLStyleValues.trimmed(Substring(ruby)) {
            case "container": role = .rubyContainer
            case "baseContainer": role = .rubyBaseContainer
            case "textContainer": role = .rubyTextContainer
            case "base": role = .rubyBase
            case "text": role = .rubyText
            case "delimiter": role = .rubyDelimiter
            case "none": role = .span
            default:
                reportOnce("ruby=\(ruby)", .error, .ttmlBadStyleValue, location, "tts:ruby value \(quoted(ruby)) is not a ruby role; the span is read as a plain span")
            }
        }
        let language = attributes.lang ?? parentLanguage
        let wrappers = spanWrappers(attributes, role: role, parentLanguage: parentLanguage, location)
        let preserves = space(attributes, inherited: paragraph!.currentPreservesSpace, location)
        paragraph!.openElement(
            role, timing: spanTiming, region: validatedRegion(attributes.region, location), preservesSpace: preserves, wrappers: wrappers)
        if let bidi = specified[.unicodeBidi].map({ TTMLStyleValues.trimmed(Substring($0)) }), bidi != "normal" {
            let direction = specified[.direction].map { TTMLStyleValues.trimmed(Substring($0)) } ?? "ltr"
            let rtl = direction == "rtl"
            switch bidi {
            case "embed": paragraph!.nodes[paragraph!.current].bidiControls = (rtl ? "\u{202B}" : "\u{202A}", "\u{202C}")
            case "bidiOverride": paragraph!.nodes[paragraph!.current].bidiControls = (rtl ? "\u{202E}" : "\u{202D}", "\u{202C}")
            case "isolate": paragraph!.nodes[paragraph!.current].bidiControls = (rtl ? "\u{2067}" : "\u{2066}", "\u{2069}")
            default: break
            }
        }
        spanStack.append(SpanContext(language: language, parentLanguage: parentLanguage, attributes: attributes, role: role))
        if specified[.display].map({ TTMLStyleValues.trimmed(Substring($0)) }) == "none" {
            paragraph!.nodes[paragraph!.current].displayNone = true
            paragraph!.hasDynamicStyles = true
        }
        if role == .rubyDelimiter {
            // Not presented: ruby delimiters are for renderers without ruby (TTML2 section 10.2.35.1).
            skipDepth = 1
            paragraph!.closeElement()
            spanStack.removeLast()
            stack.removeLast()
        }
    }

    /// Reports, once per document and kind, how a paragraph's ruby was mended.
    private mutating func reportRubyRepairs(_ repairs: TTMLParagraph.RubyRepairs, at location: SourceLocation) {
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

    /// A span's wrappers: its language, then its style layers (on ruby elements, as WebVTT's
    /// `<ruby>` and `<rt>` allow).
    private mutating func spanWrappers(
        _ attributes: TTMLElementAttributes, role: TTMLParagraph.Role, parentLanguage: String, _ location: SourceLocation
    ) -> [TTMLParagraph.Wrapper] {
        var wrappers: [TTMLParagraph.Wrapper] = []
        var mergeable: TTMLPresentation?
        let language = attributes.lang ?? parentLanguage
        if language != parentLanguage, !language.isEmpty {
            wrappers.append(TTMLParagraph.Wrapper(kind: .language(language)))
        }
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
    private mutating func animate(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard paragraph != nil, let context = spanStack.last else { return }
        guard let setTiming = readTiming(attributes, location, what: "set") else { return }
        var changed = attributes.styles
        var display: Bool?
        if let value = changed[.display] {
            display = TTMLStyleValues.trimmed(Substring(value)) != "none"
            changed[.display] = nil
        }
        var wrappers: [TTMLParagraph.Wrapper]?
        if !changed.isEmpty {
            var restyled = context.attributes
            restyled.styles = restyled.styles.overridden(by: changed)
            if context.role == .paragraph, let paragraphContext {
                wrappers = paragraphChain(restyled, container: paragraphContext.container, location)
            } else {
                wrappers = spanWrappers(restyled, role: context.role, parentLanguage: context.parentLanguage, location)
            }
        }
        guard display != nil || wrappers != nil else { return }
        let node = paragraph!.current
        paragraph!.nodes[node].animations.append(TTMLParagraph.Animation(timing: setTiming, display: display, wrappers: wrappers))
        paragraph!.hasDynamicStyles = true
    }

    private mutating func lineBreak(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard paragraph != nil else { return }
        guard let breakTiming = readTiming(attributes, location, what: "br") else { return }
        paragraph!.appendLineBreak(timing: breakTiming, region: validatedRegion(attributes.region, location))
    }

    private mutating func startInlineRegionOfContainer(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard let identifier = makeInlineRegion(attributes, location), !containers.isEmpty else { return }
        containers[containers.count - 1].region = .region(identifier)
    }

    private mutating func startInlineRegionOfParagraph(_ attributes: TTMLElementAttributes, _ location: SourceLocation) {
        guard let identifier = makeInlineRegion(attributes, location), paragraph != nil else { return }
        paragraph!.nodes[0].region = .region(identifier)
    }

    /// An inline region (TTML2 section 11.3.1.2): anonymous, for the element that holds it.
    private mutating func makeInlineRegion(_ attributes: TTMLElementAttributes, _ location: SourceLocation) -> String? {
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

    // MARK: End tags and text

    /// The scan pass inside the body: only what registers classes (inline styles, `set`, inline
    /// regions), computed as the read pass computes it.
    private mutating func scanStart(_ kind: TTMLElementKind, _ xmlAttributes: [XMLAttribute], _ location: SourceLocation) {
        let attributes = TTMLElementAttributes(
            xmlAttributes, vocabulary: &vocabulary, styleReferenceLimit: options.maximumStyleReferencesPerElement)
        let level: TTMLStyleMapper.Level
        switch kind {
        case .div: level = .block
        case .p: level = .paragraph
        case .span: level = .inline
        case .set:
            if let parent = scanStack.last, !attributes.styles.isEmpty {
                var changed = attributes.styles
                changed[.display] = nil
                if !changed.isEmpty {
                    var restyled = parent.attributes
                    restyled.styles = restyled.styles.overridden(by: changed)
                    _ = layers(restyled, level: parent.level, location: location)
                }
            }
            skipDepth = 1
            return
        case .region:
            _ = makeInlineRegion(attributes, location)
            skipDepth = 1
            return
        default:
            skipDepth = 1
            return
        }
        if !attributes.styles.isEmpty { _ = layers(attributes, level: level, location: location) }
        scanStack.append((attributes, level))
    }

    private mutating func end() {
        if mode == .scan, !scanStack.isEmpty {
            scanStack.removeLast()
            return
        }
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
            paragraph?.closeElement()
            if spanStack.count > 1 { spanStack.removeLast() }
        case .tt:
            if !headFinished { finishHead() }
        default:
            break
        }
    }

    private mutating func text(_ text: String) {
        if mode == .scan, !containers.isEmpty { return }
        if paragraph != nil {
            paragraph!.appendText(text)
            return
        }
        guard text.utf8.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else { return }
        switch stack.last {
        case .body?, .div?:
            report(.warning, .ttmlMisplacedContent, lastLocation, "text directly in a body or div is not allowed (only in p); it is ignored")
        case .style?, .region?, .head?, .styling?, .layout?, .tt?, .initial?, .regionStyle?:
            report(.warning, .ttmlMisplacedContent, lastLocation, "text is not allowed here; it is ignored")
        default:
            break
        }
    }

    // MARK: Styles of elements

    /// The specified styles of an element: its referenced styles, then its own attributes.
    private mutating func specifiedStyles(_ attributes: TTMLElementAttributes, _ location: SourceLocation) -> TTMLStyleSet {
        if attributes.styleReferences.isEmpty { return attributes.styles }
        var issues: [TTMLStyleResolver.Issue] = []
        let set = styles.resolve(references: attributes.styleReferences, own: attributes.styles, location: location, issues: &issues)
        return set
    }

    /// The style layers of an element: each referenced style's class, then its own attributes'.
    private mutating func layers(_ attributes: TTMLElementAttributes, level: TTMLStyleMapper.Level, location: SourceLocation) -> [Layer] {
        var result: [Layer] = []
        for reference in attributes.styleReferences {
            if let layer = styleLayers[reference] {
                result.append(layer)
            } else if regions[reference] != nil {
                reportOnce("style-ref:" + reference, .error, .ttmlUnknownStyle, location, "style attribute names \(quoted(reference)), which is a region, not a style; it is ignored")
            } else {
                reportOnce("style-ref:" + reference, .error, .ttmlUnknownStyle, location, "style \(quoted(reference)) is not defined; the reference is ignored")
            }
        }
        if !attributes.styles.isEmpty {
            let key = InlineKey(styles: attributes.styles, level: level)
            if let cached = inlineCache[key] {
                result.append(cached)
            } else {
                let layer = layer(for: attributes.styles, level: level, location: location, preferredName: nil)
                inlineCache[key] = layer
                result.append(layer)
            }
        }
        return result
    }

    /// The class and tags of a specified set, registering the class.
    private mutating func layer(for set: TTMLStyleSet, level: TTMLStyleMapper.Level, location: SourceLocation, preferredName: String?) -> Layer {
        let (presentation, issues) = mapper.presentation(of: set, at: level)
        reportStyleIssues(issues, location)
        let paintsBox = presentation.declarations.contains { declaration in
            (declaration.property == "background-color" && !(declaration.value.utf8.count == 9 && declaration.value.hasSuffix("00")))
                || declaration.property == "opacity"
        }
        if level == .region || level == .block, paintsBox {
            reportOnce(
                "approximated-background", .note, .ttmlStyleApproximated, location,
                "the background or opacity of a region, body or div is drawn behind (or applied to) its text, as WebVTT has no box for them")
        }
        let name = registry.className(for: presentation, preferredName: preferredName)
        if name != nil, registry.isSealed, mode == .read, !reportedLateStyles, !registry.lateEntries.isEmpty {
            reportedLateStyles = true
            report(
                .warning, .ttmlInlineStyleLate, location,
                "tts: attributes in the body need classes that the STYLE block, written before the first cue, does not have; read the document in two passes (TTMLReader.read(fileAtPath:) does) to keep them")
        }
        return Layer(className: name, presentation: presentation)
    }

    private mutating func reportStyleIssues(_ issues: [TTMLStyleMapper.Issue], _ location: SourceLocation) {
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
    private mutating func appendLayer(_ layer: Layer, to wrappers: inout [TTMLParagraph.Wrapper], mergeable: inout TTMLPresentation?) {
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

    private mutating func tagWrappers(_ tags: TTMLPresentation.Tags) -> [TTMLParagraph.Wrapper] {
        var result: [TTMLParagraph.Wrapper] = []
        if tags.contains(.italic) { result.append(TTMLParagraph.Wrapper(kind: .italic)) }
        if tags.contains(.bold) { result.append(TTMLParagraph.Wrapper(kind: .bold)) }
        if tags.contains(.underline) { result.append(TTMLParagraph.Wrapper(kind: .underline)) }
        return result
    }

    // MARK: Attributes

    /// Reads `begin`, `end`, `dur` and `timeContainer`; nil (after reporting) when a time cannot be
    /// read, in which case the element is not presented.
    private mutating func readTiming(_ attributes: TTMLElementAttributes, _ location: SourceLocation, what: String) -> TTMLTiming? {
        var result = TTMLTiming()
        if let container = attributes.timeContainer {
            switch TTMLStyleValues.trimmed(Substring(container)) {
            case "seq": result.isSequence = true
            case "par": break
            default:
                report(.error, .ttmlBadAttribute, location, "timeContainer \(quoted(container)) is not par or seq; par is used")
            }
        }
        if let value = attributes.begin {
            guard let time = readTime(value, name: "begin", location, what: what) else { return nil }
            result.begin = time
        }
        if let value = attributes.end {
            guard let time = readTime(value, name: "end", location, what: what) else { return nil }
            result.end = time
        }
        if let value = attributes.duration {
            guard let time = readTime(value, name: "dur", location, what: what) else { return nil }
            result.duration = time
        }
        return result
    }

    /// One time expression; nil (after reporting) when it cannot be read.
    private mutating func readTime(_ value: String, name: String, _ location: SourceLocation, what: String) -> TTMLTime? {
        var text = value
        let (result, trimmedWhiteSpace) = text.withUTF8 { bytes in
            var start = 0
            var end = bytes.count
            while start < end, TTMLStyleValues.isXMLWhiteSpace(bytes[start]) { start += 1 }
            while end > start, TTMLStyleValues.isXMLWhiteSpace(bytes[end - 1]) { end -= 1 }
            let trimmed = UnsafeBufferPointer(rebasing: bytes[start..<end])
            return (TTMLTimeExpression.parse(trimmed, parameters: timing), end - start != bytes.count && end > start)
        }
        if trimmedWhiteSpace {
            report(
                .warning, .ttmlTimeWhiteSpace, location,
                "\(name) \(quoted(value)) has white space around the time, which TTML does not allow; it was read without it")
        }
        switch result {
        case .success(let parsed):
            var time = parsed.time
            if let warning = parsed.warning {
                report(.warning, .ttmlBadTime, location, "\(name) \(quoted(value)) on \(what): \(warning)")
            }
            if timing.timeBase == .clock, name != "dur", options.clockTimeOrigin != 0 {
                time = time - TTMLTime(Int64(options.clockTimeOrigin), over: 1000)
                if time < .zero { time = .zero }
            }
            return time
        case .failure(let failure):
            report(
                .error, .ttmlBadTime, location,
                "\(name) \(quoted(value)) on \(what) is not a TTML time expression: \(failure.reason); the \(what) and its content are not presented")
            return nil
        }
    }

    private mutating func space(_ attributes: TTMLElementAttributes, inherited: Bool, _ location: SourceLocation) -> Bool {
        guard let value = attributes.space else { return inherited }
        switch value {
        case "preserve": return true
        case "default": return false
        default:
            report(.error, .ttmlBadAttribute, location, "xml:space \(quoted(value)) is not default or preserve; it is ignored")
            return inherited
        }
    }

    /// A `region` attribute's value when it names a region; nil (after reporting) otherwise.
    private mutating func validatedRegion(_ identifier: String?, _ location: SourceLocation) -> String? {
        guard let identifier else { return nil }
        if regions[identifier] != nil { return identifier }
        let what = styles.isDefined(identifier) ? "a style, not a region" : "not defined"
        reportOnce("region-ref:" + identifier, .error, .ttmlUnknownRegion, location, "region \(quoted(identifier)) is \(what); the region attribute is ignored")
        return nil
    }

    // MARK: Diagnostics

    private mutating func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ location: SourceLocation?, _ message: String) {
        guard mode == .read, limiter.admit(code) else { return }
        output.append(.diagnostic(Diagnostic(severity, code, at: location, message)))
    }

    private mutating func reportOnce(
        _ key: String, _ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ location: SourceLocation?, _ message: String
    ) {
        guard reportedStyleIssues.insert(key).inserted else { return }
        report(severity, code, location, message)
    }
}
