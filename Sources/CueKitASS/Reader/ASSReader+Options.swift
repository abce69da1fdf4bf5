import CueKit

extension ASSReader {
    /// How the reader reads.
    public struct Options: TrackReaderOptions, Hashable {
        /// The text encoding of input without a byte order mark; nil: UTF-8 (UTF-16 when its NUL
        /// bytes show it).
        public var encoding: TextEncoding?
        /// How much the reader holds at most, whatever the input.
        public var limits: Limits

        /// The defaults, which suit scripts from anywhere.
        public init() {
            self.init(encoding: nil)
        }

        /// Creates options.
        public init(encoding: TextEncoding? = nil, limits: Limits = Limits()) {
            self.encoding = encoding
            self.limits = limits
        }

        /// How much the reader holds at most: memory is bounded by these whatever the input.
        public struct Limits: Sendable, Hashable {
            /// The longest line kept, in bytes (at least 64); the rest is dropped and reported.
            public var maximumLineLength: Int
            /// The most styles kept (10,000 by default); further `Style:` lines are reported once
            /// and skipped, and their events shown in `Default`.
            public var maximumStyles: Int
            /// The most distinct override colours given a style rule (1,000 by default).
            public var maximumColors: Int
            /// The most fields a `Format:` line names (64 by default).
            public var maximumFields: Int
            /// How many diagnostics of one code are emitted; the rest are counted in one note.
            public var maximumDiagnosticsPerCode: Int

            /// Limits; the defaults suit scripts from anywhere.
            public init(
                maximumLineLength: Int = 256 * 1024, maximumStyles: Int = 10_000, maximumColors: Int = 1000, maximumFields: Int = 64,
                maximumDiagnosticsPerCode: Int = 100
            ) {
                self.maximumLineLength = max(64, maximumLineLength)
                self.maximumStyles = max(1, maximumStyles)
                self.maximumColors = max(0, maximumColors)
                self.maximumFields = max(10, maximumFields)
                self.maximumDiagnosticsPerCode = max(0, maximumDiagnosticsPerCode)
            }
        }
    }
}
