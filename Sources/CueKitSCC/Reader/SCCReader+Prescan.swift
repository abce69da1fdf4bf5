import CueKit

extension SCCReader: PrescanningTrackReader {
    /// The caption colours an SCC file's decoded channel uses: what a reader needs to hand out
    /// each colour's rule before the first cue.
    ///
    /// It may hold a colour more than a full read shows (one in a caption never displayed), never
    /// one less: an extra rule styles nothing.
    public struct Prescan: Sendable, Hashable {
        /// The colour codes (1 green … 6 magenta), as bits.
        public var colors: UInt8

        /// A prescan that found `colors`.
        public init(colors: UInt8 = 0) {
            self.colors = colors
        }
    }

    /// A reader that hands out the rules of `prescan`'s colours right after the header.
    public init(options: Options = Options(), prescan: Prescan) {
        self.init(options: options)
        colorsUsed = prescan.colors
    }

    /// Finds the colours of an SCC file held in memory.
    public static func prescan(bytes: some Collection<UInt8>, options: Options = Options()) -> Prescan {
        var reader = prescanner(options)
        try? Array(bytes).withUnsafeBytes { try reader.feed($0) { _ in } }
        try? reader.finish { _ in }
        return Prescan(colors: reader.decoder.colorsWritten)
    }

    /// Finds the colours of an SCC file, read in chunks: the pairs are decoded, no cue is made.
    public static func prescan(fileAtPath path: String, options: Options = Options()) throws -> Prescan {
        var reader = prescanner(options)
        do {
            try FileByteSource(path: path).forEachChunk { try reader.feed($0) { _ in } }
            try reader.finish { _ in }
        } catch is ReadError {
            // The reading pass reports what is wrong with the file.
        }
        return Prescan(colors: reader.decoder.colorsWritten)
    }

    private static func prescanner(_ options: Options) -> SCCReader {
        var reader = SCCReader(options: options)
        reader.prescanning = true
        return reader
    }
}
