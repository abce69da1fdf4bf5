import CueKit

extension TTMLReader {
    /// How ``TTMLReader`` turns a TTML document into cues. Each member is a small enum or number with a
    /// documented default.
    public struct Options: TrackReaderOptions, Hashable {
        /// Where the cues of content that nothing ends (an untimed document, a `p` without `end` in a
        /// `body` without `end`) end, in milliseconds. TTML shows such content until the end of the
        /// media, which a document does not know. Default: 359,999,999 (`99:59:59.999`), later than any
        /// programme; a note (`ttml-unbounded-end`) says when it was used.
        public var unboundedEnd: Int

        /// The text background where the document specifies none. Default:
        /// ``InitialBackground/transparent``.
        public var initialBackground: InitialBackground

        /// Where text goes when the document defines no region. Default: ``DefaultRegion/rootContainer``.
        public var defaultRegion: DefaultRegion

        /// What becomes of content that selects no region in a document that defines regions. Default:
        /// ``UnregionedContent/hidden``, as TTML2 section 11.3.1.3 says.
        public var unregionedContent: UnregionedContent

        /// For documents in the `clock` time base: the time of day, in milliseconds, that becomes time
        /// zero of the media. Default: 0 (midnight), so `13:00:00` is read as 13 hours into the media.
        public var clockTimeOrigin: Int

        /// How much the reader holds at most, whatever the input: memory is bounded by these, and
        /// each is raisable for the rare honest document.
        public var limits: Limits

        /// The documented defaults.
        public init() {
            self.init(unboundedEnd: 359_999_999)
        }

        /// Creates options; every argument defaults to the documented default.
        public init(
            unboundedEnd: Int = 359_999_999,
            initialBackground: InitialBackground = .transparent,
            defaultRegion: DefaultRegion = .rootContainer,
            unregionedContent: UnregionedContent = .hidden,
            clockTimeOrigin: Int = 0,
            limits: Limits = Limits()
        ) {
            self.unboundedEnd = unboundedEnd
            self.initialBackground = initialBackground
            self.defaultRegion = defaultRegion
            self.unregionedContent = unregionedContent
            self.clockTimeOrigin = clockTimeOrigin
            self.limits = limits
        }

        /// How much the reader holds at most, whatever the input.
        public struct Limits: Sendable, Hashable {
            /// At most this many diagnostics of one code are reported; then one `ttml-diagnostic-limit`
            /// note says how many more there were. Default: 100.
            public var maximumDiagnosticsPerCode: Int

            /// The deepest nesting of elements read: 256 by default (libxml2's own limit when it builds a
            /// tree). Deeper stops reading with `ttml-nesting-too-deep`: a document nested a million deep
            /// would otherwise exhaust the stack of every recursive walk of a paragraph.
            public var maximumNestingDepth: Int

            /// The most text one paragraph may hold, in bytes: 16 MiB by default (a real cue holds a few
            /// hundred). More stops reading with `ttml-paragraph-too-long`, since a paragraph is held in
            /// memory until it ends.
            public var maximumParagraphLength: Int

            /// The most attributes one element may have: 1,000 by default (a real element has a dozen).
            /// More stops reading with `ttml-too-many-attributes`, before libxml2 reads the element, since
            /// its duplicate-attribute check takes time growing with the square of their number.
            public var maximumAttributesPerElement: Int

            /// The most elements, line breaks and pieces of text one paragraph may hold: 10,000 by default
            /// (a karaoke line with a timed span a syllable holds a few hundred). A paragraph is held in
            /// memory until it ends, and its rendering looks at every piece at every instant its content
            /// changes. More stops reading with `ttml-limit`.
            public var maximumNodesPerParagraph: Int

            /// The most `style` elements a document's head may define: 10,000 by default. More stops
            /// reading with `ttml-limit`.
            public var maximumStyles: Int

            /// The most `region` elements a document may define: 1,000 by default (IMSC allows 4 on screen
            /// at once). More stops reading with `ttml-limit`.
            public var maximumRegions: Int

            /// The most styles one element's `style` attribute may name: 100 by default. More stops
            /// reading with `ttml-limit`.
            public var maximumStyleReferencesPerElement: Int

            /// The largest file read in one pass, in bytes: 4 MiB by default (a feature film's
            /// subtitles take one or two; the held cues of a file this size take about 8 MB). WebVTT
            /// wants every class before the first cue, and inline styles in the body make classes as
            /// they are read: a file up to this size is read once and its cues are held until its end
            /// (``TTMLReader/init(options:holdingEventsUntilEnd:)``); a larger one is read twice, a
            /// prescan for the classes and then the reading pass, which hold nothing. Both give the
            /// same events.
            public var maximumHeldDocumentSize: Int

            /// Limits; every argument defaults to the documented default.
            public init(
                maximumDiagnosticsPerCode: Int = 100,
                maximumNestingDepth: Int = 256,
                maximumParagraphLength: Int = 16 << 20,
                maximumAttributesPerElement: Int = 1000,
                maximumNodesPerParagraph: Int = 10_000,
                maximumStyles: Int = 10_000,
                maximumRegions: Int = 1000,
                maximumStyleReferencesPerElement: Int = 100,
                maximumHeldDocumentSize: Int = 4 << 20
            ) {
                self.maximumDiagnosticsPerCode = maximumDiagnosticsPerCode
                self.maximumNestingDepth = maximumNestingDepth
                self.maximumParagraphLength = maximumParagraphLength
                self.maximumAttributesPerElement = maximumAttributesPerElement
                self.maximumNodesPerParagraph = maximumNodesPerParagraph
                self.maximumStyles = maximumStyles
                self.maximumRegions = maximumRegions
                self.maximumStyleReferencesPerElement = maximumStyleReferencesPerElement
                self.maximumHeldDocumentSize = maximumHeldDocumentSize
            }
        }

        /// The background behind text whose document does not set one.
        public enum InitialBackground: Sendable, Hashable, CaseIterable {
            /// Transparent, TTML's initial value of `tts:backgroundColor` (TTML2 section 10.2.3): the
            /// STYLE block starts with `::cue { background-color: transparent; }`, since WebVTT's own
            /// default is a dark box.
            case transparent
            /// The player's default (WebVTT's dark box): nothing is written.
            case playerDefault
        }

        /// Content that selects no region (no `region` attribute on it or its ancestors) in a document
        /// whose head defines regions.
        public enum UnregionedContent: Sendable, Hashable, CaseIterable {
            /// Not presented (TTML2 section 11.3.1.3): the specification's behaviour. A document whose
            /// content is all like this reads as no cues, and an error says so.
            case hidden
            /// Presented in the default region, as many players do (`cuekit convert --unregioned
            /// default-region`).
            case defaultRegion
        }

        /// The placement of text in a document without `region` elements.
        public enum DefaultRegion: Sendable, Hashable, CaseIterable {
            /// TTML's default region (TTML2 section 11.3.1.1): the whole root container, with text at
            /// its top (`displayAlign` `before`): cues get `line:0%` and `size:100%`.
            case rootContainer
            /// No line or position settings: the player places the cues (at the bottom, for most).
            case playerDefault
        }
    }
}
