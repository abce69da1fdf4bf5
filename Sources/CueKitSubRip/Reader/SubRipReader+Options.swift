import CueKit

extension SubRipReader {
    /// How the reader reads.
    public struct Options: TrackReaderOptions, Hashable {
        /// The text encoding of input without a byte order mark; nil: UTF-8, or UTF-16 when its
        /// NUL bytes show it.
        public var encoding: TextEncoding?
        /// What cue identifiers are made of.
        public var cueIdentifiers: CueIdentifiers
        /// How much the reader holds at most, whatever the input.
        public var limits: Limits

        /// The defaults, which suit files from anywhere.
        public init() {
            self.init(encoding: nil)
        }

        /// Creates options; the defaults suit files from anywhere.
        public init(encoding: TextEncoding? = nil, cueIdentifiers: CueIdentifiers = .sequenceNumbers, limits: Limits = Limits()) {
            self.encoding = encoding
            self.cueIdentifiers = cueIdentifiers
            self.limits = limits
        }

        /// How much the reader holds at most, whatever the input: memory is bounded by these.
        public struct Limits: Sendable, Hashable {
            /// The longest line kept, in bytes (at least 16); the rest of a longer line is dropped
            /// and reported.
            public var maximumLineLength: Int
            /// The longest cue text kept, in bytes (at least 16); further lines are dropped and
            /// reported.
            public var maximumCueTextLength: Int
            /// How many diagnostics of one code are emitted; the rest are counted in one note at the
            /// end. `Int.max` emits every one.
            public var maximumDiagnosticsPerCode: Int
            /// The most distinct font colours given a style rule: 1,000 by default.
            public var maximumColors: Int

            /// Limits; the defaults suit files from anywhere.
            public init(
                maximumLineLength: Int = 64 * 1024, maximumCueTextLength: Int = 1024 * 1024, maximumDiagnosticsPerCode: Int = 100,
                maximumColors: Int = 1000
            ) {
                self.maximumLineLength = max(16, maximumLineLength)
                self.maximumCueTextLength = max(16, maximumCueTextLength)
                self.maximumDiagnosticsPerCode = max(0, maximumDiagnosticsPerCode)
                self.maximumColors = max(0, maximumColors)
            }
        }

        /// What cue identifiers are made of.
        public enum CueIdentifiers: Sendable, Hashable, CaseIterable {
            /// The sequence number as written (`"12"`); empty when the cue has none.
            case sequenceNumbers
            /// None: every cue's identifier is empty (a WebVTT file written from it has no
            /// identifier lines).
            case none
        }
    }
}
