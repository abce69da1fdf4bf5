import CueKit
import CueKitConversion
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
    /// Bytes already read from a stream to tell its format (empty for a regular file, which is
    /// read again from its start).
    private let prefix: [UInt8]
    /// Standard input, a pipe, a FIFO or a device: read once, through this descriptor, and spooled
    /// to a temporary file when it must be read twice. Nil for a regular file.
    private let streamInput: StreamInput?
    /// The most bytes spooled from a stream (`--max-spool-bytes`).
    var maximumSpoolBytes = TrackInput.defaultMaximumSpoolBytes
    /// True when the first byte that is not white space (after a UTF-8 BOM) is `{`: a JSON
    /// document, such as a Cast message, rather than a track.
    let startsLikeJSON: Bool
    /// The format the first bytes look like, whatever the input is read as.
    private(set) var contentLooksLike: TrackFormat?
    /// The encoding of SubRip and WebVTT input without a byte order mark (`--encoding`).
    var encoding: TextEncoding?
    /// How TTML is read.
    var ttmlOptions = TTMLReader.Options()
    /// The WebVTT reader's limits (`--max-line-bytes`, `--max-block-bytes`).
    var webVTTLimits = WebVTTReader.Options.Limits()

    /// How many bytes are looked at to tell the format.
    static let detectionLength = TrackFormat.detectionLength

    /// The input at `path`, its format forced or told from its first bytes. Throws a ``ReadError``
    /// (`io-read`) when it cannot be read.
    static func open(_ path: String, format forced: TrackFormat?, limits: ReadingOptions? = nil) throws -> TrackInput {
        let stream = try StreamInput.open(path)
        let prefix = try readPrefix(path, stream: stream)
        let named = path == "-" ? nil : TrackFormat(path: path)
        let detected = TrackFormat.detect(content: prefix)
        // A name that says WebVTT is read as WebVTT, as a browser (and so every Cast receiver) reads
        // it, whatever the content looks like; other names only break a tie.
        let format = forced ?? (named == .webVTT ? .webVTT : detected ?? named ?? .webVTT)
        var input = TrackInput(
            path: path, format: format, prefix: stream == nil ? [] : prefix, streamInput: stream, startsLikeJSON: startsLikeJSON(prefix))
        input.contentLooksLike = detected
        if let limits {
            input.webVTTLimits = limits.webVTTLimits
            input.encoding = limits.encoding
            input.maximumSpoolBytes = limits.maxSpoolBytes.bytes
        }
        return input
    }

    /// 4 GiB: far past any caption file, and a bound on what an endless stream fills the disk with.
    static let defaultMaximumSpoolBytes = 4 << 30

    private static func startsLikeJSON(_ bytes: [UInt8]) -> Bool {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        let first = rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{")
    }

    /// The input as bytes, for small documents such as JSON messages: at most `limit` + 1 bytes,
    /// so that a document over the limit is refused without being read whole.
    func readAll(upTo limit: Int) throws -> [UInt8] {
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
                if streamInput != nil {
                    let spool = try spooled()
                    defer { spool.discard() }
                    try Self.streamSubRip(fileAtPath: spool.temporaryPath!, encoding: encoding, handler)
                } else {
                    try Self.streamSubRip(fileAtPath: path, encoding: encoding, handler)
                }
            case .ttml:
                if streamInput != nil {
                    let spool = try spooled()
                    defer { spool.discard() }
                    do {
                        try TTMLReader.stream(fileAtPath: spool.temporaryPath!, options: ttmlOptions, to: handler)
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

    /// SubRip in two passes, as ``TrackFileReader`` reads it: the colour style sheets before the
    /// first cue, as WebVTT needs them.
    private static func streamSubRip(fileAtPath path: String, encoding: TextEncoding?, _ handler: (TrackEvent) throws -> Void) throws {
        try TrackFileReader.streamSubRip(fileAtPath: path, encoding: encoding, handler)
    }

    private func stream<Reader: TrackReader>(_ reader: inout Reader, _ handler: (TrackEvent) throws -> Void) throws {
        if let stream = streamInput {
            if !prefix.isEmpty { try reader.feed(prefix, to: handler) }
            try stream.forEachChunk { chunk in try reader.feed(chunk, to: handler) }
        } else {
            try FileByteSource(path: path).forEachChunk { chunk in try reader.feed(chunk, to: handler) }
        }
        try reader.finish(to: handler)
    }

    /// The first bytes of the input (at most ``detectionLength``). A stream's are consumed:
    /// ``stream(to:)`` feeds them before the rest.
    private static func readPrefix(_ path: String, stream: StreamInput?) throws -> [UInt8] {
        if let stream { return try stream.read(upTo: detectionLength) }
        let file = try StreamInput.openFile(path)
        return try file.read(upTo: detectionLength)
    }

    /// The stream (the prefix already read, then the rest) copied to a temporary file, which the
    /// signal handling removes if the command is stopped; at most ``maximumSpoolBytes``, so an
    /// endless stream stops with an error.
    private func spooled() throws -> AtomicFileSink {
        guard let stream = streamInput else { preconditionFailure("only a stream is spooled") }
        let sink = try AtomicFileSink(path: ConversionJob.temporaryFolder + "/cuekit-input")
        do {
            try sink.write(prefix)
            var total = prefix.count
            let limit = maximumSpoolBytes
            try stream.forEachChunk { chunk in
                total += chunk.count
                guard total <= limit else {
                    throw ReadError(
                        .inputTooLong, at: nil,
                        "the input is longer than \(ByteCount(limit)) bytes, the most kept of standard input or a pipe read as SubRip or TTML (raise the limit with --max-spool-bytes)")
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
}

/// Standard input or another file that is not a regular file (a pipe, a FIFO, `/dev/fd/N` from a
/// shell's process substitution, a device): it cannot be opened again or read twice, so it is
/// opened once and read through one descriptor.
final class StreamInput {
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
