import CueKit

extension EBUSTLReader: PrescanningTrackReader {
    /// The teletext colours an EBU-STL file's text uses: what a reader needs to hand out each
    /// colour's rule before the first cue.
    ///
    /// It may hold a colour more than a full read uses (one in a subtitle that is skipped), never
    /// one less: an extra rule styles nothing.
    public struct Prescan: Sendable, Hashable {
        /// The colour codes (0 black … 6 cyan), as bits.
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

    /// Finds the colours of an EBU-STL file held in memory.
    public static func prescan(bytes: some Collection<UInt8>, options: Options = Options()) -> Prescan {
        var reader = prescanner(options)
        try? Array(bytes).withUnsafeBytes { try reader.feed($0) { _ in } }
        try? reader.finish { _ in }
        return Prescan(colors: reader.colorsUsed)
    }

    /// Finds the colours of an EBU-STL file, read in chunks: the text fields are only looked at.
    public static func prescan(fileAtPath path: String, options: Options = Options()) throws -> Prescan {
        var reader = prescanner(options)
        do {
            try FileByteSource(path: path).forEachChunk { try reader.feed($0) { _ in } }
            try reader.finish { _ in }
        } catch is ReadError {
            // The reading pass reports what is wrong with the file.
        }
        return Prescan(colors: reader.colorsUsed)
    }

    private static func prescanner(_ options: Options) -> EBUSTLReader {
        var reader = EBUSTLReader(options: options)
        reader.prescanning = true
        return reader
    }
}
