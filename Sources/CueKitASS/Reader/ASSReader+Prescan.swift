import CueKit

extension ASSReader: PrescanningTrackReader {
    /// The style sheets of an ASS script, as a reader hands them out: the styles' rules and those of
    /// every override colour. What a reader needs to hand out every rule before its first cue.
    public struct Prescan: Sendable, Hashable {
        /// The style sheets, in the order the script defines them.
        public var stylesheets: [CueStylesheet]

        /// A prescan that found `stylesheets`.
        public init(stylesheets: [CueStylesheet] = []) {
            self.stylesheets = stylesheets
        }
    }

    /// A reader that hands out `prescan`'s style sheets right after the header.
    public init(options: Options = Options(), prescan: Prescan) {
        self.init(options: options)
        prescanned = prescan.stylesheets
    }

    /// Finds the style sheets of an ASS script held in memory.
    public static func prescan(bytes: some Collection<UInt8>, options: Options = Options()) -> Prescan {
        var reader = prescanner(options)
        var found: [CueStylesheet] = []
        let collect: (TrackEvent) -> Void = { if case .stylesheet(let sheet) = $0 { found.append(sheet) } }
        try? Array(bytes).withUnsafeBytes { try reader.feed($0, to: collect) }
        try? reader.finish(to: collect)
        return Prescan(stylesheets: found)
    }

    /// Finds the style sheets of an ASS script file, read in chunks: only the lines of events with
    /// override blocks are read past their fields.
    public static func prescan(fileAtPath path: String, options: Options = Options()) throws -> Prescan {
        var reader = prescanner(options)
        var found: [CueStylesheet] = []
        let collect: (TrackEvent) -> Void = { if case .stylesheet(let sheet) = $0 { found.append(sheet) } }
        try FileByteSource(path: path).forEachChunk { try reader.feed($0, to: collect) }
        try reader.finish(to: collect)
        return Prescan(stylesheets: found)
    }

    private static func prescanner(_ options: Options) -> ASSReader {
        var reader = ASSReader(options: options)
        reader.prescanning = true
        return reader
    }
}
