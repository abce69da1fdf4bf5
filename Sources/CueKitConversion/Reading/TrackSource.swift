import CueKit
import CueKitASS
import CueKitEBUSTL
import CueKitSCC
import CueKitSubRip
import CueKitTTML
import CueKitWebVTT

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A track to read, of any format CueKit reads, as one stream of ``TrackEvent``s: a file, standard
/// input (`-`), or a pipe, FIFO or device.
///
/// The format is told from the content (``TrackFormat/detect(content:path:)``: the WebVTT signature,
/// a `tt` root or TTML namespace, the SubRip shape, `[Script Info]`, `Scenarist_SCC V1.0`, the EBU-STL disk format code), or from the name when the content says nothing,
/// or forced. A name that says WebVTT is read as WebVTT whatever the content, as a browser (and so
/// every Cast receiver) reads it. Content nothing identifies is read as WebVTT, whose reader then
/// says what is wrong with it.
///
/// Every format streams, with memory bounded by a chunk and the format's head. Formats whose style
/// sheets come late (SubRip's colours, ASS's override colours, TTML's inline styles) are read in two passes over the file,
/// the first a cheap prescan, so that every style sheet comes before the first cue as WebVTT needs
/// them (a TTML file of up to a few MiB is read once instead, its cues held until its end: see
/// `TTMLReader.Options.Limits.maximumHeldDocumentSize`). Input that cannot be read twice (standard input, a pipe) is then first copied to a
/// temporary file, at most ``Options/maximumSpoolBytes``, which ``TemporaryFiles`` tracks.
///
/// ```swift
/// let source = try TrackSource(path: "movie.srt")
/// try source.stream { event in print(event) }
/// ```
public struct TrackSource: Sendable {
    /// How a source is read.
    public struct Options: Sendable, Hashable {
        /// The encoding of SubRip and WebVTT content without a byte order mark (nil: UTF-8,
        /// repaired; for SubRip, UTF-16 when its NUL bytes show it). TTML declares its own.
        public var encoding: TextEncoding?
        /// The WebVTT reader's limits.
        public var webVTTLimits: WebVTTReader.Options.Limits
        /// How TTML is read.
        public var ttml: TTMLReader.Options
        /// How EBU-STL is read (whether the start of programme is subtracted).
        public var ebuSTL = EBUSTLReader.Options()
        /// How SCC is read (the frame rate and the caption channel).
        public var scc = SCCReader.Options()
        /// What each WebVTT cue event carries: ``WebVTTReader/Options/CueContent/timingOnly``
        /// for a caller that looks at diagnostics and times alone, ``WebVTTReader/Options/CueContent/diagnosticsOnly``
        /// (no cue events) for one that looks at diagnostics only. Default: the whole cue.
        public var webVTTCueContent: WebVTTReader.Options.CueContent = .full
        /// Which diagnostics the WebVTT reader looks for: ``WebVTTReader/Options/Diagnostics/none``
        /// for a caller that uses none of them (statistics), which then costs no checking.
        /// Default: all of them.
        public var webVTTDiagnostics: WebVTTReader.Options.Diagnostics = .all
        /// The most bytes copied from a stream that must be read twice: 4 GiB unless set, far past
        /// any caption file and a bound on what an endless stream fills the disk with.
        public var maximumSpoolBytes: Int

        /// What a TTML document is checked against after it is read (``TTMLProfileCheck``), with
        /// its findings handed on as `.diagnostic` events; nothing unless set.
        public var ttmlProfileCheck: TTMLProfileCheckRequest = .none

        /// The subtitle rendition read from a multivariant HLS playlist: its language or name
        /// (nil: the default one, or the only one).
        public var hlsRendition: String?

        /// Which profile's constraints a TTML document is checked against.
        public enum TTMLProfileCheckRequest: Sendable, Hashable {
            /// No profile check: only what reading checks.
            case none
            /// The profile the document declares, if any.
            case declared
            /// This profile, whatever the document declares.
            case profile(TTMLProfile)
        }

        /// The default ``maximumSpoolBytes``: 4 GiB.
        public static let defaultMaximumSpoolBytes = 4 << 30

        /// Options with the given values; the defaults read every honest file.
        public init(
            encoding: TextEncoding? = nil, webVTTLimits: WebVTTReader.Options.Limits = .init(), ttml: TTMLReader.Options = .init(),
            maximumSpoolBytes: Int = Options.defaultMaximumSpoolBytes
        ) {
            self.encoding = encoding
            self.webVTTLimits = webVTTLimits
            self.ttml = ttml
            self.maximumSpoolBytes = maximumSpoolBytes
        }
    }

    /// The path as given (`-` for standard input).
    public let path: String
    /// The format the input is read as.
    public let format: TrackFormat
    /// The format the first bytes look like, whatever the input is read as; nil when they match none.
    public let contentLooksLike: TrackFormat?
    /// True when the input is an HLS playlist (`#EXTM3U`): its WebVTT segments are read as one
    /// track (``HLSPlaylistReader``), and ``format`` is WebVTT.
    public let isHLSPlaylist: Bool
    /// The format as people name it: ``TrackFormat/displayName``, or an HLS playlist's.
    public var formatDescription: String { isHLSPlaylist ? "HLS playlist of WebVTT segments" : format.displayName }

    /// The subtitle renditions and variants of a multivariant playlist; nil for any other input,
    /// or one that cannot be read again (standard input).
    public var hlsMultivariantListing: HLSMultivariantListing? {
        guard isHLSPlaylist, canBeReadAgain, let bytes = try? readAll(upTo: Self.maximumPlaylistBytes) else { return nil }
        guard case .multivariant(let listing) = try? HLSPlaylist.parse(String(decoding: bytes, as: UTF8.self)) else { return nil }
        return listing
    }

    /// True when the input is one WebVTT file, read straight from its bytes: the byte-level paths
    /// (copying blocks unchanged, the statistics' byte observer) apply to it alone.
    package var isOneWebVTTFile: Bool { format == .webVTT && !isHLSPlaylist }
    /// True when the first byte that is not white space (after a UTF-8 BOM) is `{`: a JSON
    /// document, such as a Cast message, rather than a track.
    public let startsLikeJSON: Bool
    /// How it is read.
    public var options: Options

    /// Bytes already read from a stream to tell its format (empty for a regular file, which is
    /// read again from its start).
    private let prefix: [UInt8]
    /// Standard input, a pipe, a FIFO or a device: read once, through this descriptor. Nil for a
    /// regular file.
    private let streamInput: StreamInput?

    /// True when the input is a regular file, which can be read again from its start.
    var canBeReadAgain: Bool { streamInput == nil }

    /// Opens `path` (`-` for standard input) and reads its first bytes to tell the format, unless
    /// `format` forces one. Throws a ``ReadError`` (`io-read`) when it cannot be read.
    public init(path: String, format forced: TrackFormat? = nil, options: Options = Options()) throws {
        let stream = try StreamInput.open(path)
        let prefix = try Self.readPrefix(path, stream: stream)
        let named = path == "-" ? nil : TrackFormat(path: path)
        let detected = TrackFormat.detect(content: prefix)
        self.path = path
        let playlist = (forced == nil || forced == .webVTT) && HLSPlaylist.startsLikePlaylist(prefix)
        self.format = playlist ? .webVTT : forced ?? (named == .webVTT ? .webVTT : detected ?? named ?? .webVTT)
        self.contentLooksLike = detected
        self.isHLSPlaylist = playlist
        self.startsLikeJSON = Self.startsLikeJSON(prefix)
        self.options = options
        self.prefix = stream == nil ? [] : prefix
        self.streamInput = stream
    }

    /// Reads the whole input with its format's reader, handing each event to `handler`. A fatal
    /// error is thrown as a ``ReadError`` located in the file; recoverable problems arrive as
    /// `.diagnostic` events.
    public func stream(to handler: (TrackEvent) throws -> Void) throws {
        try stream(to: handler, webVTTHooks: nil)
    }

    /// ``stream(to:)``, with the WebVTT reader's byte hooks (``WebVTTBytesConsumer``) when the
    /// input is WebVTT, and the SubRip reader's (``SubRipCuesConsumer``) when it is SubRip; other
    /// formats never call them.
    func stream(to handler: (TrackEvent) throws -> Void, webVTTHooks: WebVTTReaderHooks?, subRipHooks: SubRipReaderHooks? = nil) throws {
        do {
            if isHLSPlaylist, canBeReadAgain {
                try HLSPlaylistReader(path: path, options: options).stream(maximumBytes: Self.maximumPlaylistBytes, to: handler)
                return
            }
            if isHLSPlaylist {
                let text = String(decoding: try readAll(upTo: Self.maximumPlaylistBytes), as: UTF8.self)
                guard text.utf8.count <= Self.maximumPlaylistBytes else {
                    throw ReadError(.hlsPlaylistMalformed, at: .start, "the playlist is longer than \(Self.maximumPlaylistBytes) bytes")
                }
                try HLSPlaylistReader(path: path, options: options).stream(text: text, to: handler)
                return
            }
            switch format {
            case .webVTT:
                var readerOptions = WebVTTReader.Options(diagnostics: options.webVTTDiagnostics, limits: options.webVTTLimits)
                readerOptions.cueContent = options.webVTTCueContent
                let reader = WebVTTReader(options: readerOptions)
                if let webVTTHooks {
                    try feedOnce(transcoded: HookedWebVTTReader(reader: reader, hooks: webVTTHooks), handler)
                } else {
                    try feedOnce(transcoded: reader, handler)
                }
            case .subRip:
                try withFile { path in
                    if let subRipHooks {
                        try SubRipReader.stream(fileAtPath: path, options: .init(encoding: options.encoding), hooks: subRipHooks, to: handler)
                    } else {
                        try SubRipReader.stream(fileAtPath: path, options: .init(encoding: options.encoding), to: handler)
                    }
                }
            case .ass:
                try withFile { path in try ASSReader.stream(fileAtPath: path, options: .init(encoding: options.encoding), to: handler) }
            case .ebuSTL:
                try withFile { path in try EBUSTLReader.stream(fileAtPath: path, options: options.ebuSTL, to: handler) }
            case .scc:
                try withFile { path in try SCCReader.stream(fileAtPath: path, options: options.scc, to: handler) }
            case .ttml:
                try withFile { path in
                    try TTMLReader.stream(fileAtPath: path, options: options.ttml, to: handler)
                    let profile: TTMLProfile?
                    switch options.ttmlProfileCheck {
                    case .none: return
                    case .declared: profile = nil
                    case .profile(let given): profile = given
                    }
                    var findings: [Diagnostic] = []
                    try TTMLProfileCheck.check(fileAtPath: path, profile: profile) { findings.append($0) }
                    for finding in findings { try handler(.diagnostic(finding)) }
                }
            }
        } catch let error as ReadError where error.path == nil {
            throw error.inFile(path)
        }
    }

    /// The longest HLS playlist read: 64 MiB, some two million segments' lines.
    public static let maximumPlaylistBytes = 64 << 20

    /// The input as bytes, for small documents such as JSON messages: at most `limit` + 1 bytes,
    /// so that a document over the limit is refused without being read whole.
    public func readAll(upTo limit: Int) throws -> [UInt8] {
        struct Enough: Error {}
        var bytes = Array(prefix.prefix(limit + 1))
        func take(_ chunk: UnsafeRawBufferPointer) throws {
            bytes.append(contentsOf: chunk.prefix(limit + 1 - bytes.count))
            if bytes.count > limit { throw Enough() }
        }
        do {
            if let stream = streamInput {
                try stream.forEachChunk(take)
            } else {
                try FileByteSource(path: path).forEachChunk(take)
            }
        } catch is Enough {
        } catch let error as ReadError where error.path == nil {
            throw error.inFile(path)
        }
        return bytes
    }

    /// Feeds the input once through `reader`, transcoded first from ``Options/encoding`` when it is
    /// not UTF-8.
    private func feedOnce<Reader: TrackReader>(transcoded reader: Reader, _ handler: (TrackEvent) throws -> Void) throws {
        if let encoding = options.encoding, encoding != .utf8 {
            var transcoding = TranscodingTrackReader(reader, encoding: encoding)
            try feedOnce(&transcoding, handler)
        } else {
            var reader = reader
            try feedOnce(&reader, handler)
        }
    }

    /// Feeds the input once through `reader`: a stream's prefix, then the rest.
    private func feedOnce<Reader: TrackReader>(_ reader: inout Reader, _ handler: (TrackEvent) throws -> Void) throws {
        if let stream = streamInput {
            if !prefix.isEmpty { try reader.feed(prefix, to: handler) }
            try stream.forEachChunk { chunk in try reader.feed(chunk, to: handler) }
        } else {
            try FileByteSource(path: path).forEachChunk { chunk in try reader.feed(chunk, to: handler) }
        }
        try reader.finish(to: handler)
    }

    /// Runs `body` with a path that can be read twice (by a ``PrescanningTrackReader``): the
    /// file's own, or a stream's spool. An error located in the spool is located in the input.
    private func withFile(_ body: (String) throws -> Void) throws {
        guard streamInput != nil else {
            try body(path)
            return
        }
        let spool = try spooled()
        defer { spool.discard() }
        guard let spoolPath = spool.temporaryPath else { throw IOFailure.reading(path, errno: ENOENT) }
        do {
            try body(spoolPath)
        } catch let error as ReadError where error.path == spoolPath {
            throw ReadError(error.diagnostic.code, at: error.diagnostic.location, error.diagnostic.message)
        }
    }

    /// The stream (the prefix already read, then the rest) copied to a temporary file, at most
    /// ``Options/maximumSpoolBytes``, so an endless stream stops with an error.
    private func spooled() throws -> AtomicFileSink {
        guard let stream = streamInput else { preconditionFailure("only a stream is spooled") }
        let sink = try AtomicFileSink(path: TemporaryFiles.folder + "/cuekit-input")
        do {
            try sink.write(prefix)
            var total = prefix.count
            let limit = options.maximumSpoolBytes
            try stream.forEachChunk { chunk in
                total += chunk.count
                guard total <= limit else {
                    throw ReadError(
                        .inputTooLong, at: nil,
                        "the input is longer than \(ByteScanning.describe(byteCount: limit)) bytes, the most kept of standard input or a pipe read as SubRip or TTML (raise the limit with --max-spool-bytes)"
                    )
                }
                try sink.write(chunk)
            }
            try sink.flush()
        } catch {
            sink.discard()
            throw error
        }
        return sink
    }

    private static func startsLikeJSON(_ bytes: [UInt8]) -> Bool {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        let first = rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{")
    }

    /// The first bytes of the input (at most ``TrackFormat/detectionLength``). A stream's are
    /// consumed: ``stream(to:)`` feeds them before the rest.
    private static func readPrefix(_ path: String, stream: StreamInput?) throws -> [UInt8] {
        if let stream { return try stream.read(upTo: TrackFormat.detectionLength) }
        return try StreamInput.openFile(path).read(upTo: TrackFormat.detectionLength)
    }
}

extension DiagnosticCode {
    /// A stream longer than ``TrackSource/Options/maximumSpoolBytes``, which must be kept to be read
    /// twice.
    public static let inputTooLong: DiagnosticCode = "input-too-long"
}

/// A WebVTT reader with a consumer's hooks (``WebVTTReaderHooks``), handed to it with each call.
private struct HookedWebVTTReader: TrackReader {
    var reader: WebVTTReader
    let hooks: WebVTTReaderHooks

    mutating func feed(_ chunk: UnsafeRawBufferPointer, to handler: (TrackEvent) throws -> Void) throws {
        try reader.feed(chunk, hooks: hooks, to: handler)
    }

    mutating func finish(to handler: (TrackEvent) throws -> Void) throws {
        try reader.finish(hooks: hooks, to: handler)
    }
}

/// Standard input or another file that is not a regular file (a pipe, a FIFO, `/dev/fd/N` from a
/// shell's process substitution, a device): it cannot be opened again or read twice, so it is
/// opened once and read through one descriptor.
///
/// Unchecked `Sendable`: a source is read by one task at a time, front to back, and never again.
final class StreamInput: @unchecked Sendable {
    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { if descriptor != 0 { close(descriptor) } }

    /// Standard input for `-`; the opened file when it is not a regular file; nil for a regular
    /// file (read by path, as often as needed).
    static func open(_ path: String) throws -> StreamInput? {
        if path == "-" { return StreamInput(path: path, descriptor: 0) }
        let file = try openFile(path)
        var status = stat()
        guard fstat(file.descriptor, &status) == 0 else { throw IOFailure.reading(path, errno: errno) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: throw IOFailure.reading(path, errno: EISDIR)
        default: return file
        }
    }

    /// The file at `path`, opened for reading.
    static func openFile(_ path: String) throws -> StreamInput {
        let descriptor = systemOpen(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw IOFailure.reading(path, errno: errno) }
        return StreamInput(path: path, descriptor: descriptor)
    }

    /// Reads until `count` bytes or the end of input.
    func read(upTo count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = buffer.withUnsafeMutableBytes { raw in systemRead(descriptor, raw.baseAddress! + filled, count - filled) }
            if read < 0 {
                if errno == EINTR { continue }
                throw IOFailure.reading(path, errno: errno)
            }
            if read == 0 { break }
            filled += read
        }
        return Array(buffer[0..<filled])
    }

    /// Reads the rest of the input in chunks.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try FileByteSource.forEachChunk(of: descriptor, path: path, body)
    }
}

private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(descriptor, buffer, count) }
