import CueKit

/// Writes TTML (IMSC 1.1 Text, EBU-TT-D or TTML1), streaming: ``TrackEvent``s in, one `p` per cue.
///
/// A TTML document states its styles, regions and agents in its head, before the body, while a
/// track's cues come one by one and a placement or a voice can first appear in the last of them.
/// The writer therefore collects the head as cues come and holds the body back (in memory up to
/// ``TTMLWriterOptions/bodyMemoryLimit``, then in an unlinked temporary file): at ``finish()`` it
/// writes the head, then the body. Memory is bounded by the head, whatever the track's length.
///
/// What becomes of the model (W3C TTML2, IMSC 1.1 and EBU Tech 3380 name the TTML side):
/// - times: `begin` and `end` as `hh:mm:ss.fff` on a media time base, or `hh:mm:ss:ff` with
///   ``TTMLWriterOptions/frameRate``;
/// - cue settings and `REGION`s: `region`s (see ``TTMLRegionGeometry``); `align` becomes
///   `tts:textAlign`;
/// - `::cue` rules (those of the track's style sheets, a Cast style's included): `style`s, one per
///   distinct set of attributes, referenced by each paragraph (`::cue`) and by each class span
///   (`::cue(.class)`), with their CSS translated by ``TTMLStyleTranslation``;
/// - `<i>`, `<b>`, `<u>`: spans styled `tts:fontStyle`, `tts:fontWeight`, `tts:textDecoration`;
/// - voices: spans with `ttm:agent`, the agent declared in the head with its name;
/// - `<lang>`: spans with `xml:lang`; ruby: `tts:ruby` containers, bases and texts;
/// - inner timestamps: left out, so the whole cue shows for its whole time as in WebVTT; with
///   ``TTMLWriterOptions/InnerTimestamps/paintOn``, the text after one is a span timed from it;
/// - line breaks: `br`; cue identifiers that are NCNames of XML characters: `xml:id`; notes: XML
///   comments; the header text: `ttm:title`.
///
/// What the profile cannot carry is adjusted, and each kind is reported once in ``diagnostics``
/// with a count: never dropped silently. The document stays within what ``TTMLReader`` reads by
/// default (its head within the reader's counts of styles and regions, its paragraphs within its
/// depth and size), which also bounds the head held in memory: past a limit, spans are flattened
/// to their text and cues placed in the default region, reported as `ttml-write-limit`.
public struct TTMLWriter<Sink: ByteSink>: TrackWriter {
    /// The writer's options.
    public typealias Options = TTMLWriterOptions

    /// The options written with.
    public var options: Options { document.options }
    /// The sink; it receives the whole document at ``finish()``.
    public private(set) var sink: Sink
    /// What could not be written as it was; complete after ``finish()``.
    public private(set) var diagnostics: [Diagnostic] = []

    // Everything but the sink lives in a type that is not generic, so that the work done for every
    // cue never looks up generic metadata.
    private var document: TTMLDocumentBuilder
    private var finished = false

    /// Creates a writer that writes to `sink`.
    public init(to sink: Sink, options: Options = Options()) {
        self.sink = sink
        document = TTMLDocumentBuilder(options: options)
    }

    /// A writer that takes each cue text's parse from `cache` when the WebVTT reader feeding it
    /// left it there (``CueTextParseCache``), instead of parsing the text again.
    package init(to sink: Sink, options: Options = Options(), sharingCueTextEventsWith cache: CueTextParseCache) {
        self.init(to: sink, options: options)
        document.cueTextParseCache = cache
    }

    /// Writes one event: the header becomes the title; regions and style sheets are collected for
    /// the head; a cue becomes a paragraph and a note a comment; diagnostics are ignored.
    public mutating func write(_ event: TrackEvent) throws {
        precondition(!finished, "TTMLWriter written to after finish")
        try document.write(event)
    }

    /// Writes one cue given as its identifier's and text's UTF-8 bytes (valid UTF-8, borrowed for
    /// the call), its times and its settings: the bytes ``write(_:)`` writes for the `.cue` event of
    /// them, with no `String` and no ``Cue`` made (a conversion from WebVTT hands on the cue blocks
    /// its reader read whole this way). `textMayHaveMarkup` false promises the text holds neither
    /// `<` nor `&`.
    package mutating func writeCue(
        identifier: UnsafeRawBufferPointer, start: Int, end: Int, settings: borrowing CueSettings, text: UnsafeRawBufferPointer,
        textMayHaveMarkup: Bool = true
    ) throws {
        precondition(!finished, "TTMLWriter written to after finish")
        try document.writeCue(
            identifier: identifier, start: start, end: end, settings: settings, text: text, textMayHaveMarkup: textMayHaveMarkup)
    }

    /// Writes the document: declaration, root, head, then the held body; flushes the sink.
    public mutating func finish() throws {
        guard !finished else { return }
        finished = true
        defer { document.close() }
        try sink.write(document.start())
        try document.drainBody(into: &sink)
        try sink.write(TTMLDocumentBuilder.end)
        try sink.flush()
        diagnostics = document.diagnostics
    }

    /// A writer that writes cue text through the tree, as the events path must match (for tests).
    init(to sink: Sink, options: Options = Options(), throughTheTree: Bool) {
        self.init(to: sink, options: options)
        document.writesThroughTheTree = throughTheTree
    }

    /// True when `text` is an XML name without a colon (an NCName): what `xml:id` holds.
    static func isXMLName(_ text: String) -> Bool { TTMLDocumentBuilder.isXMLName(text) }

    /// True when the first strong character of cue text (markup skipped) is right to left.
    static func startsRightToLeft(_ text: String) -> Bool { TTMLDocumentBuilder.startsRightToLeft(text) }

    /// The most cue identifiers written as `xml:id`.
    static var maximumIdentifiers: Int { TTMLDocumentBuilder.maximumIdentifiers }
}
