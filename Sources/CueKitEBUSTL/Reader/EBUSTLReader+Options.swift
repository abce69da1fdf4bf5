import CueKit

extension EBUSTLReader {
    /// How the reader reads.
    public struct Options: TrackReaderOptions, Hashable {
        /// Keep the timecodes as written: by default the start of programme (GSI field TCP) is
        /// subtracted, so that a programme that starts at 10:00:00:00 has its first subtitle near 0.
        public var keepTimeCodeOfProgramme: Bool
        /// How much the reader holds at most, whatever the input.
        public var limits: Limits

        /// The defaults.
        public init() {
            self.init(keepTimeCodeOfProgramme: false)
        }

        /// Creates options.
        public init(keepTimeCodeOfProgramme: Bool = false, limits: Limits = Limits()) {
            self.keepTimeCodeOfProgramme = keepTimeCodeOfProgramme
            self.limits = limits
        }

        /// How much the reader holds: memory is bounded by these whatever the input.
        public struct Limits: Sendable, Hashable {
            /// The most TTI blocks one subtitle is joined from (64 by default: 7 KiB of text); the
            /// rest of a longer subtitle is left out, reported.
            public var maximumExtensionBlocks: Int
            /// How many diagnostics of one code are emitted; the rest are counted in one note.
            public var maximumDiagnosticsPerCode: Int

            /// Limits; the defaults suit files from anywhere.
            public init(maximumExtensionBlocks: Int = 64, maximumDiagnosticsPerCode: Int = 100) {
                self.maximumExtensionBlocks = max(1, maximumExtensionBlocks)
                self.maximumDiagnosticsPerCode = max(0, maximumDiagnosticsPerCode)
            }
        }
    }
}
