import CueKit

extension SubRipReader: PrescanningTrackReader {
    /// The colours of a SubRip input's `<font color>` tags, in the order they first appear: what a
    /// reader needs to hand out every colour's rule before its first cue.
    ///
    /// It may hold a colour more than a full read defines (one used only in text the full read
    /// skips), never one less: an extra rule styles nothing.
    public struct Prescan: Sendable, Hashable {
        /// The distinct colours, at most ``Options/Limits/maximumColors``.
        public var colors: [SubRipColor]

        /// A prescan that found `colors`.
        public init(colors: [SubRipColor] = []) {
            self.colors = colors
        }
    }

    /// A reader that hands out the rules of `prescan`'s colours right after the header.
    public init(options: Options = Options(), prescan: Prescan) {
        self.init(options: options)
        prescannedColors = prescan.colors
    }

    /// Finds the colours of SubRip bytes held in memory.
    public static func prescan(bytes: some Collection<UInt8>, options: Options = Options()) -> Prescan {
        var prescanner = SubRipPrescanner(options: options)
        Array(bytes).withUnsafeBytes { prescanner.feed($0) }
        return prescanner.finish()
    }

    /// Finds the colours of a SubRip file, read in chunks.
    public static func prescan(fileAtPath path: String, options: Options = Options()) throws -> Prescan {
        var prescanner = SubRipPrescanner(options: options)
        try FileByteSource(path: path).forEachChunk { prescanner.feed($0) }
        return prescanner.finish()
    }
}

/// The first pass: the input decoded as the reader decodes it, and its tags looked at alone.
struct SubRipPrescanner {
    private var decoder: TextTranscoder
    private var scanner: SubRipColorScanner
    private var found: Set<String> = []
    private var colors: [SubRipColor] = []
    private let maximumColors: Int

    init(options: SubRipReader.Options) {
        decoder = TextTranscoder(declared: options.encoding)
        scanner = SubRipColorScanner(maximumTagLength: options.limits.maximumLineLength)
        maximumColors = options.limits.maximumColors
    }

    mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        var decoder = self.decoder
        self.decoder = TextTranscoder(declared: nil)
        defer { self.decoder = decoder }
        decoder.decode(chunk) { take($0) }
    }

    mutating func finish() -> SubRipReader.Prescan {
        var decoder = self.decoder
        self.decoder = TextTranscoder(declared: nil)
        decoder.finish { take($0) }
        scanner.finish()
        return SubRipReader.Prescan(colors: colors)
    }

    private mutating func take(_ output: TextTranscoder.Output) {
        guard case .utf8(let bytes) = output else { return }
        var seen: [SubRipColor] = []
        scanner.scan(bytes) { seen.append($0) }
        for color in seen where colors.count < maximumColors && found.insert(color.className).inserted {
            colors.append(color)
        }
    }
}
