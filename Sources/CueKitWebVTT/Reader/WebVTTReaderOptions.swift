import CueKit

extension WebVTTReader {
    /// How a ``WebVTTReader`` reads: which diagnostics it looks for, what each cue carries, and
    /// its limits.
    ///
    /// Options never change what is read: every setting gives the track a browser builds (save
    /// ``CueContent/timingOnly``, which leaves strings out of the cues it hands on, and
    /// ``CueContent/diagnosticsOnly``, which hands on none). They choose how
    /// much checking is done beside it, and where reading gives up.
    public struct Options: TrackReaderOptions, Hashable {
        /// Which departures from the authoring rules are reported. Default: ``Diagnostics/all``.
        public var diagnostics: Diagnostics

        /// Where reading stops with a ``ReadError`` rather than use unbounded memory.
        public var limits: Limits

        /// What each cue event carries. Default: ``CueContent/full``.
        public var cueContent: CueContent = .full

        /// What each cue event carries.
        public enum CueContent: Sendable, Hashable, CaseIterable {
            /// The whole cue: identifier, times, settings and text. The default.
            case full
            /// Times and settings, with the identifier and text left empty: for a caller that
            /// looks at diagnostics and times alone (validation). The text is still checked and
            /// every diagnostic is the same; the reader makes no string per cue.
            case timingOnly
            /// No cue events at all: diagnostics, and the header, regions and styles, alone, for a
            /// caller that looks at diagnostics only (`cuekit validate`). Every diagnostic is the
            /// same as with ``full``; the reader builds no cue.
            case diagnosticsOnly
        }

        /// Creates options; each defaults to what a validator wants.
        /// The defaults: every diagnostic, the default limits.
        public init() {
            self.init(diagnostics: .all)
        }

        public init(diagnostics: Diagnostics = .all, limits: Limits = Limits()) {
            self.diagnostics = diagnostics
            self.limits = limits
        }

        /// Which diagnostics the reader reports.
        public enum Diagnostics: Sendable, Hashable, CaseIterable {
            /// Everything: the file, its blocks, timings and settings, and each cue's text (tags,
            /// character references, timestamp tags). The default.
            case all
            /// Everything but cue text, which is then never tokenized while reading: for
            /// converters that only need the structure checked.
            case structure
            /// Nothing: the fastest reading, for input already validated.
            case none
        }

        /// Limits that keep a hostile or broken file from taking unbounded memory.
        public struct Limits: Sendable, Hashable {
            /// The longest line, in bytes: 16 MiB by default. Longer stops reading with
            /// ``DiagnosticCode/vttLineTooLong``.
            public var maximumLineLength: Int
            /// The longest block (a cue, a comment, a style sheet), in bytes: 64 MiB by default.
            /// Longer stops reading with ``DiagnosticCode/vttBlockTooLong``.
            public var maximumBlockLength: Int
            /// How many distinct cue identifiers the duplicate check remembers: 100,000 by
            /// default (some 2 MB; a feature film has a few thousand cues). Identifiers that are
            /// increasing integers (`1`, `2`, `3`...) cost nothing; past the limit the check stops
            /// with ``DiagnosticCode/vttIdentifierCheckStopped``, so that memory stays flat
            /// whatever the file's length.
            public var maximumTrackedIdentifiers: Int
            /// The most bytes of `STYLE` blocks in all: 16 MiB by default (a real style sheet holds
            /// a few kilobytes). Every reader of a track keeps its style sheets, since a writer puts
            /// them before the first cue; more stops reading with ``DiagnosticCode/vttStylesTooLong``.
            public var maximumStyleLength: Int

            /// Creates limits.
            public init(
                maximumLineLength: Int = WebVTTLineDecoder.defaultMaximumLineLength,
                maximumBlockLength: Int = 64 << 20,
                maximumTrackedIdentifiers: Int = 100_000,
                maximumStyleLength: Int = 16 << 20
            ) {
                self.maximumStyleLength = maximumStyleLength
                self.maximumLineLength = maximumLineLength
                self.maximumBlockLength = maximumBlockLength
                self.maximumTrackedIdentifiers = maximumTrackedIdentifiers
            }
        }
    }
}
