/// A streaming reader: bytes in, in chunks of any size, ``TrackEvent``s out as soon as each is
/// complete.
///
/// The shape is that of SwiftNIO's decoders: a reader keeps only the bytes of the block it is in,
/// so memory is bounded by the largest block and never by the file, and the events do not depend on
/// how the input was cut into chunks (CueKit's tests feed every fixture whole, byte by byte and in
/// random chunks, and demand the same events).
///
/// ```swift
/// var reader = WebVTTReader()
/// try reader.feed(chunk) { event in ... }   // as often as bytes arrive
/// try reader.finish { event in ... }        // once, at the end of input
/// ```
public protocol TrackReader {
    /// Takes the next bytes of input and hands each event completed by them to `handler`.
    ///
    /// Throws a ``ReadError`` where the format's spec says reading stops (and rethrows what
    /// `handler` throws). After a throw, the reader must not be fed again.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, to handler: (TrackEvent) throws -> Void) throws

    /// Marks the end of input and hands the remaining events to `handler`.
    mutating func finish(to handler: (TrackEvent) throws -> Void) throws
}

extension TrackReader {
    /// Takes the next bytes of input from any byte collection.
    public mutating func feed(_ bytes: some Collection<UInt8>, to handler: (TrackEvent) throws -> Void) throws {
        if let done = try bytes.withContiguousStorageIfAvailable({ buffer in
            try feed(UnsafeRawBufferPointer(buffer), to: handler)
        }) {
            return done
        }
        let copy = Array(bytes)
        try copy.withUnsafeBytes { try feed($0, to: handler) }
    }

    /// Reads a whole document held in memory.
    public mutating func read(_ bytes: some Collection<UInt8>) throws -> ReadResult {
        var collector = TrackCollector()
        try feed(bytes) { collector.collect($0) }
        try finish { collector.collect($0) }
        return collector.result
    }

    /// Reads a whole file, in fixed-size chunks so that the reader's working memory stays bounded.
    public mutating func read(fileAtPath path: String, chunkSize: Int = FileByteSource.defaultChunkSize) throws -> ReadResult {
        var collector = TrackCollector()
        do {
            try stream(fileAtPath: path, chunkSize: chunkSize) { collector.collect($0) }
        } catch let error as ReadError where error.path == nil {
            throw error.inFile(path)
        }
        return collector.result
    }

    /// Streams a file's events to `handler`, reading fixed-size chunks: memory is bounded by the
    /// chunk size plus the largest block, however large the file.
    public mutating func stream(fileAtPath path: String, chunkSize: Int = FileByteSource.defaultChunkSize, to handler: (TrackEvent) throws -> Void) throws {
        let source = try FileByteSource(path: path, chunkSize: chunkSize)
        try source.forEachChunk { chunk in try feed(chunk, to: handler) }
        try finish(to: handler)
    }
}

/// A whole track and the diagnostics found reading it.
public struct ReadResult: Sendable, Hashable {
    /// The track.
    public var track: Track
    /// Every diagnostic, in the order it was found.
    public var diagnostics: [Diagnostic]

    /// Creates a result.
    public init(track: Track, diagnostics: [Diagnostic]) {
        self.track = track
        self.diagnostics = diagnostics
    }

    /// True when some diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Builds a ``Track`` from events: the whole-document side of every streaming reader.
public struct TrackCollector: Sendable {
    private var track = Track()
    private var diagnostics: [Diagnostic] = []

    /// Creates an empty collector.
    public init() {}

    /// Adds one event to the track.
    public mutating func collect(_ event: TrackEvent) {
        switch event {
        case .header(let text): track.header = text
        case .region(let region): track.regions.append(region)
        case .stylesheet(let sheet): track.stylesheets.append(sheet)
        case .note(let note): track.notes.append(note)
        case .cue(let cue): track.cues.append(cue)
        case .diagnostic(let diagnostic): diagnostics.append(diagnostic)
        }
    }

    /// The track and diagnostics collected so far.
    public var result: ReadResult { ReadResult(track: track, diagnostics: diagnostics) }
}
