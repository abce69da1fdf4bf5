import CueKit
import CueKitSubRip
import CueKitTTML
import CueKitWebVTT

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The track a command reads: a file or standard input, in a format told from its content
/// (``TrackFormat/detect(content:path:)``: the WebVTT signature, a `tt` root or TTML namespace,
/// the SubRip shape; the file extension only when the content says nothing), or the one
/// `--from` names. Content nothing identifies is read as WebVTT, whose reader then says what is
/// wrong with it (no `WEBVTT` signature).
///
/// Each format's reader streams: memory stays bounded whatever the file's size. TTML is read in
/// two passes (``TTMLReader/stream(fileAtPath:options:to:)``) so that inline styles get their
/// classes in the STYLE block; TTML on standard input is first copied to a temporary file, so that
/// it too can be read twice with bounded memory.
struct TrackInput {
    /// The path as given (`-` for standard input).
    let path: String
    /// The format the input is read as.
    let format: TrackFormat
    /// Bytes already read from standard input to tell its format.
    private let prefix: [UInt8]
    /// True when the first byte that is not white space (after a UTF-8 BOM) is `{`: a JSON
    /// document, such as a Cast message, rather than a track.
    let startsLikeJSON: Bool
    /// The format the first bytes look like, whatever the input is read as.
    private(set) var contentLooksLike: TrackFormat?
    /// The encoding of SubRip and WebVTT input without a byte order mark (`--encoding`).
    var encoding: TextEncoding?
    /// How TTML is read.
    var ttmlOptions = TTMLReaderOptions()
    /// The WebVTT reader's limits (`--max-line-bytes`, `--max-block-bytes`).
    var webVTTLimits = WebVTTReader.Options.Limits()

    /// How many bytes are looked at to tell the format.
    static let detectionLength = TrackFormat.detectionLength

    /// The input at `path`, its format forced or told from its first bytes. Throws a ``ReadError``
    /// (`io-read`) when it cannot be read.
    static func open(_ path: String, format forced: TrackFormat?, limits: ReadingOptions? = nil) throws -> TrackInput {
        let prefix = try readPrefix(path)
        let named = path == "-" ? nil : TrackFormat(path: path)
        let detected = TrackFormat.detect(content: prefix)
        // A name that says WebVTT is read as WebVTT, as a browser (and so every Cast receiver) reads
        // it, whatever the content looks like; other names only break a tie.
        let format = forced ?? (named == .webVTT ? .webVTT : detected ?? named ?? .webVTT)
        var input = TrackInput(path: path, format: format, prefix: path == "-" ? prefix : [], startsLikeJSON: startsLikeJSON(prefix))
        input.contentLooksLike = detected
        if let limits {
            input.webVTTLimits = limits.webVTTLimits
            input.encoding = limits.encoding
        }
        return input
    }

    private static func startsLikeJSON(_ bytes: [UInt8]) -> Bool {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        let first = rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{")
    }

    /// The whole input as bytes, for small documents such as JSON messages.
    func readAll() throws -> [UInt8] {
        do {
            return try prefix + FileByteSource(path: path).readAll()
        } catch let error as ReadError where error.path == nil {
            throw error.inFile(path)
        }
    }

    /// Reads the whole input with its format's reader, handing each event to `handler`.
    func stream(to handler: (TrackEvent) throws -> Void) throws {
        do {
            switch format {
            case .webVTT:
                let reader = WebVTTReader(options: .init(limits: webVTTLimits))
                do {
                    if let encoding, encoding != .utf8 {
                        var transcoding = TranscodingTrackReader(reader, encoding: encoding)
                        try stream(&transcoding, handler)
                    } else {
                        var reader = reader
                        try stream(&reader, handler)
                    }
                } catch var error as ReadError {
                    if error.diagnostic.code == .vttNoSignature, let other = contentLooksLike, other != .webVTT {
                        let output = path == "-" ? "out.vtt" : Self.shellQuoted(Self.replacingExtension(of: path, with: "fixed.vtt"))
                        error.diagnostic.message += "; the content looks like \(other.displayName), which no browser or Cast receiver reads as WebVTT: convert it with 'cuekit convert --from \(other.name) \(Self.shellQuoted(path)) -o \(output)'"
                    }
                    throw ReadingOptions.explained(error)
                }
            case .subRip:
                if path == "-" {
                    let spooled = try spoolStandardInput()
                    defer { unlink(spooled) }
                    try Self.streamSubRip(fileAtPath: spooled, encoding: encoding, handler)
                } else {
                    try Self.streamSubRip(fileAtPath: path, encoding: encoding, handler)
                }
            case .ttml:
                if path == "-" {
                    let spooled = try spoolStandardInput()
                    defer { unlink(spooled) }
                    do {
                        try TTMLReader.stream(fileAtPath: spooled, options: ttmlOptions, to: handler)
                    } catch let error as ReadError {
                        throw ReadError(error.diagnostic.code, at: error.diagnostic.location, error.diagnostic.message)
                    }
                } else {
                    try TTMLReader.stream(fileAtPath: path, options: ttmlOptions, to: handler)
                }
            }
        } catch let error as ReadError where error.path == nil {
            throw error.inFile(path)
        }
    }

    /// A path as a POSIX shell reads it back: quoted only when it has to be.
    static func shellQuoted(_ path: String) -> String {
        let safe = path.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-_./+,:@%".utf8.contains(byte)
        }
        return safe && !path.isEmpty ? path : "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// `dir/name.ext` as `dir/name.newExtension` (`dir/name.newExtension` when there is no extension).
    static func replacingExtension(of path: String, with newExtension: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path + "." + newExtension }
        return String(path[..<dot]) + "." + newExtension
    }

    /// SubRip in two passes (``SubRipReader``'s colours and streaming): the header and the colour
    /// style sheets first, found by a cheap look at the tags, then the cues, so that the style
    /// sheets come before the first cue as WebVTT needs them.
    private static func streamSubRip(fileAtPath path: String, encoding: TextEncoding?, _ handler: (TrackEvent) throws -> Void) throws {
        var first = SubRipReader(options: .init(encoding: encoding, events: .stylesheetsOnly))
        try FileByteSource(path: path).forEachChunk { chunk in try first.feed(chunk, to: handler) }
        try first.finish(to: handler)
        var reader = SubRipReader(options: .init(encoding: encoding))
        func rest(_ event: TrackEvent) throws {
            switch event {
            case .header, .stylesheet: return
            default: try handler(event)
            }
        }
        try FileByteSource(path: path).forEachChunk { chunk in try reader.feed(chunk, to: rest) }
        try reader.finish(to: rest)
    }

    private func stream<Reader: TrackReader>(_ reader: inout Reader, _ handler: (TrackEvent) throws -> Void) throws {
        if !prefix.isEmpty { try reader.feed(prefix, to: handler) }
        let source = try FileByteSource(path: path)
        try source.forEachChunk { chunk in try reader.feed(chunk, to: handler) }
        try reader.finish(to: handler)
    }

    /// The first bytes of the input (at most ``detectionLength``). For standard input, they are
    /// consumed: ``stream(to:)`` feeds them before the rest.
    private static func readPrefix(_ path: String) throws -> [UInt8] {
        let descriptor: Int32
        if path == "-" {
            descriptor = 0
        } else {
            descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw IOFailure.reading(path, errno: errno) }
        }
        defer { if descriptor != 0 { close(descriptor) } }
        var buffer = [UInt8](repeating: 0, count: detectionLength)
        var count = 0
        while count < detectionLength {
            let read = buffer.withUnsafeMutableBytes { raw in
                Glibc.read(descriptor, raw.baseAddress! + count, detectionLength - count)
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw IOFailure.reading(path, errno: errno)
            }
            if read == 0 { break }
            count += read
        }
        return Array(buffer[0..<count])
    }

    /// Copies standard input (the prefix already read, then the rest) to a new temporary file and
    /// returns its path.
    private func spoolStandardInput() throws -> String {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((directory + "/cuekit-stdin-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw IOFailure.writing(directory, errno: errno) }
        let spooled = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { close(descriptor) }
        var sink = FileDescriptorSink(descriptor: descriptor, path: spooled)
        do {
            try sink.write(prefix)
            try FileByteSource(path: "-").forEachChunk { try sink.write($0) }
            try sink.flush()
        } catch {
            unlink(spooled)
            throw error
        }
        return spooled
    }
}
