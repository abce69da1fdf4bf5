/// A reader whose style sheets can come after its first cue, with the one cheap first pass that
/// finds them: a *prescan*.
///
/// SubRip's colours are met in the cues that use them; TTML's inline styles in the body. WebVTT, and
/// so every writer that streams into it, wants every style sheet before the first cue. Such a
/// reader therefore reads a file twice: ``prescan(fileAtPath:options:)`` looks only for the style
/// sheets (never building a cue), and a reader made with its result hands them all out before its
/// first cue. Memory stays bounded by what the prescan keeps, never by the file.
///
/// ```swift
/// // Two passes over a file, style sheets first:
/// let result = try TTMLReader.read(fileAtPath: "episode.ttml")
/// // By hand, with bytes held in memory:
/// let prescan = SubRipReader.prescan(bytes: bytes, options: options)
/// var reader = SubRipReader(options: options, prescan: prescan)
/// ```
///
/// A reader made without a prescan reads in one pass: what it meets late it hands out late, as a
/// whole-track reader (``TrackCollector``) does not mind.
public protocol PrescanningTrackReader: TrackReader {
    /// How the reader reads.
    associatedtype Options: TrackReaderOptions
    /// What a prescan finds: the style sheets, or what makes them.
    associatedtype Prescan: Sendable

    /// A reader that reads in one pass.
    init(options: Options)
    /// A reader that hands out what `prescan` found (over the same input) before its first cue.
    init(options: Options, prescan: Prescan)

    /// The prescan of bytes held in memory. A document that cannot be read gives what was found
    /// before the problem (the reading pass reports it).
    static func prescan(bytes: some Collection<UInt8>, options: Options) -> Prescan
    /// The prescan of a file, read in chunks.
    static func prescan(fileAtPath path: String, options: Options) throws -> Prescan

    /// Streams a file's events to `handler`, every style sheet before the first cue. By default in
    /// two passes (``streamInTwoPasses(fileAtPath:options:to:)``); a reader may read a small file
    /// once and hold its cues instead, when that gives the same events.
    static func stream(fileAtPath path: String, options: Options, to handler: (TrackEvent) throws -> Void) throws
}

extension PrescanningTrackReader {
    /// ``streamInTwoPasses(fileAtPath:options:to:)``.
    public static func stream(fileAtPath path: String, options: Options = Options(), to handler: (TrackEvent) throws -> Void) throws {
        try streamInTwoPasses(fileAtPath: path, options: options, to: handler)
    }

    /// Streams a file's events to `handler` in two passes, every style sheet before the first cue;
    /// standard input (`-`), which cannot be read twice, in one.
    public static func streamInTwoPasses(fileAtPath path: String, options: Options = Options(), to handler: (TrackEvent) throws -> Void) throws {
        do {
            var reader = path == "-" ? Self(options: options) : Self(options: options, prescan: try prescan(fileAtPath: path, options: options))
            try reader.stream(fileAtPath: path, to: handler)
        } catch let error as ReadError where error.path == nil {
            throw error.inFile(path)
        }
    }

    /// Reads a whole file as ``stream(fileAtPath:options:to:)`` does.
    public static func read(fileAtPath path: String, options: Options = Options()) throws -> ReadResult {
        var collector = TrackCollector()
        try stream(fileAtPath: path, options: options) { collector.collect($0) }
        return collector.result
    }

    /// Reads a whole document held in memory, in two passes.
    public static func read(bytes: some Collection<UInt8>, options: Options = Options()) throws -> ReadResult {
        let array = Array(bytes)
        var reader = Self(options: options, prescan: prescan(bytes: array, options: options))
        return try reader.read(array)
    }

    /// Reads a whole document held in a string, in two passes.
    public static func read(_ text: String, options: Options = Options()) throws -> ReadResult {
        try read(bytes: Array(text.utf8), options: options)
    }
}

/// The options of a reader: nested in it as `Options`, each with defaults that read every honest
/// file, so `Options()` is always a good start.
public protocol TrackReaderOptions: Sendable {
    /// The defaults.
    init()
}
