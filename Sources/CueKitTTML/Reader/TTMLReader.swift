import CueKit

/// Reads TTML (TTML1, TTML2, IMSC 1.0.1 and 1.1 text profiles, DFXP including the 2006 draft
/// namespaces, SMPTE-TT, EBU-TT-D) into cues, streaming, with libxml2's SAX2 push parser.
///
/// Feed it chunks of any size; it hands out the header and the STYLE block when the head is
/// complete, and the cues of each `p` as soon as its end tag arrives. It holds the head (styles,
/// regions) and one paragraph, never the body, so memory does not grow with the file.
///
/// ```swift
/// // A file, read so that inline styles get their classes in the STYLE block (once, holding the
/// // cues, up to 4 MiB; in two passes beyond):
/// let result = try TTMLReader.read(fileAtPath: "episode.ttml")
/// // Bytes as they arrive (one pass):
/// let reader = TTMLReader()
/// try reader.feed(chunk) { event in ... }
/// try reader.finish { event in ... }
/// ```
///
/// What it makes of a document:
/// - **Timing** (TTML2 section 12): clock and offset times in every metric, the `media`, `smpte`
///   (with drop modes) and `clock` time bases, `ttp:frameRate`, `frameRateMultiplier`,
///   `subFrameRate` and `tickRate` with their defaults, `begin`/`end`/`dur` on `body`, `div`,
///   `p`, `span` and `br` relative to their sync base and clipped by their parents, `par` and
///   `seq` containers. All arithmetic is exact (``TTMLTime`` fractions); each cue time is
///   rounded once to the nearest millisecond, halves up.
/// - **Cues**: one per paragraph, region and interval in which its text does not change, so the
///   text shown at every instant is the document's (spans with their own timing split the cue).
/// - **Styles** (TTML2 section 10): inline, referential, chained, nested and region styles, as
///   WebVTT classes in a STYLE block (``TTMLStyleMapper`` lists the mapping) and `<i>`, `<b>`,
///   `<u>`, `<ruby>`/`<rt>` tags; regions and `textAlign` as cue settings.
/// - **Refused** with a ``ReadError``: input that is not well-formed XML, a document type
///   declaration (no entity is ever declared or expanded, no file or network is read), a root
///   that is not `tt` in a TTML namespace, image captions.
///
/// **Inline styles and the STYLE block.** WebVTT wants its STYLE block before the first cue. The
/// classes of head styles and regions are known when the body starts; those of `tts:` attributes
/// written in the body are not. The static `read` and `stream` functions therefore either read a
/// file once and hold every event after the head until its end
/// (``init(options:holdingEventsUntilEnd:)``, for files up to
/// ``Options/Limits/maximumHeldDocumentSize``), or read it twice (``PrescanningTrackReader``): a
/// first, cheap pass (``prescan(fileAtPath:options:)``) collects the style sets written in the body
/// (their number, not the body's size, bounds its memory), and the reader made with its result
/// writes every class up front. Both give the same events. A reader fed in one pass without
/// holding and without that result gives such classes the same names, reports
/// `ttml-inline-style-late` once, and hands their rules out in a last `STYLE` event at the end.
///
/// A reader is a reference: it owns libxml2 state that cannot be copied. Use each for one document.
public final class TTMLReader: PrescanningTrackReader {
    /// The options this reader was made with.
    public let options: TTMLReader.Options

    private let parser = XMLPushParser()
    private var document: TTMLDocumentReader
    private var failure: ReadError?

    /// Creates a reader for one document, read in one pass.
    public init(options: TTMLReader.Options = TTMLReader.Options()) {
        self.options = options
        document = TTMLDocumentReader(options: options)
        parser.maximumAttributesPerElement = options.limits.maximumAttributesPerElement
    }

    /// Creates a reader that writes the classes `prescan` found (over the same document) in its
    /// STYLE block.
    public init(options: TTMLReader.Options = TTMLReader.Options(), prescan: Prescan) {
        self.options = options
        document = TTMLDocumentReader(options: options, scannedPresentations: prescan.presentations)
        parser.maximumAttributesPerElement = options.limits.maximumAttributesPerElement
    }

    /// Creates a reader for one document read in one pass that still writes every class in its
    /// STYLE block: it hands out the head's events as they come, then holds the STYLE block and
    /// every later event (cues, diagnostics) until the document ends, when it hands them out in the
    /// order a two-pass read gives. Memory grows with the document: ``stream(fileAtPath:options:to:)``
    /// reads this way only files of at most ``Options/Limits/maximumHeldDocumentSize`` bytes.
    public init(options: TTMLReader.Options = TTMLReader.Options(), holdingEventsUntilEnd: Bool) {
        self.options = options
        document = TTMLDocumentReader(options: options)
        document.holdsEventsAfterHead = holdingEventsUntilEnd
        parser.maximumAttributesPerElement = options.limits.maximumAttributesPerElement
    }

    /// A reader as ``init(options:holdingEventsUntilEnd:)`` makes it, whose value table numbers
    /// at most `valueCapacity` values and style sets (``TTMLValueTable``): a document with more
    /// distinct values than that reads the same, styled afresh past the bound.
    convenience init(options: TTMLReader.Options = TTMLReader.Options(), holdingEventsUntilEnd: Bool, valueCapacity: Int) {
        self.init(options: options, holdingEventsUntilEnd: holdingEventsUntilEnd)
        document.vocabulary.values = TTMLAttributeValueCache(valueCapacity: valueCapacity)
    }

    /// Reads a file: in one pass when it is a regular file of at most
    /// ``Options/Limits/maximumHeldDocumentSize`` bytes (``init(options:holdingEventsUntilEnd:)``),
    /// otherwise in two (``PrescanningTrackReader/streamInTwoPasses(fileAtPath:options:to:)``), so
    /// that memory stays bounded whatever the file's size. Both hand out the same events.
    public static func stream(
        fileAtPath path: String, options: TTMLReader.Options = TTMLReader.Options(), to handler: (TrackEvent) throws -> Void
    ) throws {
        guard path != "-", let size = FileByteSource.regularFileSize(atPath: path), size <= options.limits.maximumHeldDocumentSize else {
            try streamInTwoPasses(fileAtPath: path, options: options, to: handler)
            return
        }
        do {
            var reader = TTMLReader(options: options, holdingEventsUntilEnd: true)
            reader.document.heldEventsExpected = size / TTMLDocumentReader.bytesPerHeldEvent
            try reader.stream(fileAtPath: path, to: handler)
        } catch let error as ReadError where error.path == nil {
            throw error.inFile(path)
        }
    }

    /// Takes the next bytes and hands out each event they complete.
    public func feed(_ chunk: UnsafeRawBufferPointer, to handler: (TrackEvent) throws -> Void) throws {
        if let failure { throw failure }
        parser.feed(chunk)
        try drain(handler)
    }

    /// Marks the end of input and hands out what remains.
    public func finish(to handler: (TrackEvent) throws -> Void) throws {
        if let failure { throw failure }
        parser.finish()
        try drain(handler)
        do {
            try document.finish()
        } catch let error as ReadError {
            document.releaseHeldEvents()
            try handOut(handler)
            failure = error
            throw error
        }
        try handOut(handler)
    }

    private func drain(_ handler: (TrackEvent) throws -> Void) throws {
        do {
            try Self.consume(parser, &document)
        } catch let error as ReadError {
            // What was read before the problem is handed out, held or not.
            document.releaseHeldEvents()
            try handOut(handler)
            failure = error
            throw error
        }
        if parser.refusal != nil { document.releaseHeldEvents() }
        try handOut(handler)
        if let refusal = parser.refusal {
            let error = Self.error(for: refusal)
            failure = error
            throw error
        }
    }

    private func handOut(_ handler: (TrackEvent) throws -> Void) throws {
        // Each event is moved out to the handler, its place filled with an empty header, which
        // costs nothing to destroy: an event lent where it lies was copied for the call (every
        // string of the cue retained), and released again with the array.
        var events = document.takeOutput()
        try events.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for index in 0..<buffer.count {
                let event = (base + index).move()
                (base + index).initialize(to: .header(""))
                try handler(event)
            }
        }
    }

    static func consume(_ parser: XMLPushParser, _ document: inout TTMLDocumentReader) throws {
        try parser.events.drain { try document.consume($0) }
    }

    static func error(for refusal: XMLRefusal) -> ReadError {
        switch refusal {
        case .empty:
            return ReadError(.ttmlEmpty, at: .start, "the file is empty; a TTML document starts with <tt> (or an XML declaration)")
        case .documentTypeDeclaration(let location):
            return ReadError(
                .ttmlDocumentType, at: location,
                "the document has a document type declaration (<!DOCTYPE>), which TTML does not use: it is refused unread, so that no entity it could declare (an entity bomb, an external file or URL) is ever expanded")
        case .notWellFormed(let message, let location):
            return ReadError(.ttmlNotWellFormed, at: location, "not well-formed XML: \(message)")
        case .tooManyAttributes(let limit, let location):
            return ReadError(
                .ttmlTooManyAttributes, at: location,
                "the element has more than \(limit) attributes (TTMLReader.Options.Limits.maximumAttributesPerElement); reading stops here")
        }
    }
}

extension TTMLReader {
    /// The style classes that `tts:` attributes in a document's body need, found by a first pass
    /// (``prescan(fileAtPath:options:)``) so that a second pass can write them in the STYLE block
    /// before the first cue.
    public struct Prescan: Sendable, Hashable {
        let presentations: [TTMLPresentation]

        /// No inline styles: what a document without `tts:` attributes in its body gives.
        public static let none = Prescan(presentations: [])

        /// How many distinct classes the body's inline styles need.
        public var count: Int { presentations.count }
    }

    /// The first pass of a two-pass read: reads `bytes` without building cues and returns the
    /// classes its inline styles need. A document that cannot be read gives what was found
    /// before the problem (the second pass reports it).
    public static func prescan(bytes: some Collection<UInt8>, options: TTMLReader.Options = TTMLReader.Options()) -> Prescan {
        var pass = PrescanPass(options: options)
        Array(bytes).withUnsafeBytes { pass.feed($0) }
        return pass.finish()
    }

    /// The first pass of a two-pass read of a file, in fixed-size chunks. With the reading pass,
    /// the file is read twice.
    ///
    /// A byte-level look comes first: a body with no attribute in a styling namespace (the common
    /// case: styles in the head) needs no parsing at all. The bytes looked at are held until the
    /// look answers, so that the parse, when it is needed, starts from them rather than from a
    /// second read; see ``PrescanPass`` for the one exception.
    public static func prescan(fileAtPath path: String, options: TTMLReader.Options = TTMLReader.Options()) throws -> Prescan {
        var pass = PrescanPass(options: options)
        try FileByteSource(path: path).forEachChunk { pass.feed($0) }
        if pass.needsSecondLook {
            var scanner = TTMLInlineStyleScanner(options: options)
            try FileByteSource(path: path).forEachChunk { scanner.feed($0) }
            return scanner.finish()
        }
        return pass.finish()
    }

    /// One pass over a document's bytes for the prescan: ``InlineStyleHint`` looks at every chunk
    /// while the bytes are held; when it answers "maybe", a ``TTMLInlineStyleScanner`` parses the
    /// held bytes and then every later chunk as it comes.
    ///
    /// At most ``heldByteLimit`` bytes are held. A document whose first style attribute in the body
    /// comes after that many bytes (a large document that nests its styles in the body only far
    /// in) sets ``needsSecondLook``: its caller parses it from the start again, a third read of
    /// that file. Memory stays bounded either way.
    struct PrescanPass {
        static let heldByteLimit = 8 << 20
        private let options: TTMLReader.Options
        private var hint = InlineStyleHint()
        private var held: [UInt8] = []
        /// More than ``heldByteLimit`` bytes came before the hint answered: nothing is held since.
        private var overflowed = false
        private var scanner: TTMLInlineStyleScanner?

        init(options: TTMLReader.Options) { self.options = options }

        /// True, once every chunk was fed, when the document must be parsed from its start again.
        var needsSecondLook: Bool {
            scanner == nil && overflowed && hint.finish()
        }

        mutating func feed(_ chunk: UnsafeRawBufferPointer) {
            if scanner != nil {
                scanner!.feed(chunk)
                return
            }
            hint.feed(chunk)
            if overflowed { return }
            if hint.mayHaveInlineStyles {
                var started = TTMLInlineStyleScanner(options: options)
                held.withUnsafeBytes { started.feed($0) }
                started.feed(chunk)
                held = []
                scanner = started
            } else if held.count + chunk.count > Self.heldByteLimit {
                held = []
                overflowed = true
            } else {
                held.append(contentsOf: chunk)
            }
        }

        /// What was found, once every chunk was fed and unless ``needsSecondLook``.
        mutating func finish() -> Prescan {
            if var scanner { return scanner.finish() }
            guard !overflowed, hint.finish() else { return .none }
            // A document the hint could not rule out by its end (an empty one, say).
            var started = TTMLInlineStyleScanner(options: options)
            held.withUnsafeBytes { started.feed($0) }
            return started.finish()
        }
    }
}

/// The prescan of a two-pass read: the document reader through the head (styles, regions,
/// parameters, exactly as the reading pass reads them), then the body's elements asked only for the
/// classes their inline styles need. It renders nothing and its diagnostics are dropped: the
/// reading pass reports them.
struct TTMLInlineStyleScanner {
    /// Only elements with style attributes (and regions, `set`s, which the scan restyles) matter.
    private let parser = XMLPushParser(
        wantsAttributes: { namespace in
            switch TTMLNamespace(namespace) {
            case .styling, .ebuStyling, .imscStyling, .parameter, .smpte: true
            default: false
            }
        }, alwaysWanted: ["region", "set", "tt"])
    private var document: TTMLDocumentReader
    private let maximumNestingDepth: Int
    /// The open `div`, `p` and `span` elements inside the body.
    private var open: [TTMLDocumentReader.StyledElement] = []
    /// Inside an element whose subtree does not matter: how deep.
    private var skipDepth = 0
    private var stopped = false

    init(options: TTMLReader.Options) {
        document = TTMLDocumentReader(options: options)
        maximumNestingDepth = options.limits.maximumNestingDepth
        parser.maximumAttributesPerElement = options.limits.maximumAttributesPerElement
    }

    mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        guard !stopped else { return }
        parser.feed(chunk)
        drain()
    }

    mutating func finish() -> TTMLReader.Prescan {
        if !stopped {
            parser.finish()
            drain()
        }
        return TTMLReader.Prescan(presentations: document.latePresentations)
    }

    private mutating func drain() {
        do {
            try parser.events.drain { event in
                if !stopped { try take(event) }
            }
        } catch {
            stopped = true
        }
        document.discardOutput()
        if parser.refusal != nil { stopped = true }
    }

    private mutating func take(_ event: XMLEvent) throws {
        // Outside the body (the head, the body's own start and end), the reader reads as always.
        guard document.isInBody, skipDepth > 0 || !open.isEmpty || isChildStart(event) else {
            try document.consume(event)
            return
        }
        switch event {
        case .start(let name, let attributes, let location):
            if skipDepth > 0 {
                skipDepth += 1
            } else if let element = document.registerInlineStyles(of: name, attributes, location, in: open) {
                open.append(element)
            } else {
                skipDepth = 1
            }
            // Memory stays bounded by the limit the reading pass enforces.
            if open.count + skipDepth + 2 > maximumNestingDepth { stopped = true }
        case .end:
            if skipDepth > 0 {
                skipDepth -= 1
            } else {
                open.removeLast()
            }
        case .text, .problem:
            break
        }
    }

    private func isChildStart(_ event: XMLEvent) -> Bool {
        if case .start = event { true } else { false }
    }
}
