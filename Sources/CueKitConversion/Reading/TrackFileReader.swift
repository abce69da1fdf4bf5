import CueKit
import CueKitSubRip
import CueKitTTML
import CueKitWebVTT

/// Reads a track file of any format CueKit reads (WebVTT, SubRip, TTML) as one stream of
/// ``TrackEvent``s, with memory bounded by a chunk and the format's head.
///
/// The format is told from the first bytes, or else from the file's extension; a file named
/// `.vtt` is read as WebVTT whatever its content, as a browser (and so every Cast receiver) reads it.
/// SubRip and TTML are read in two passes over the file (their style sheets come before the first
/// cue, as WebVTT needs them), so the path must name a regular file.
public struct TrackFileReader: Sendable {
    /// The file.
    public let path: String
    /// The format it is read as.
    public let format: TrackFormat
    /// The format its first bytes look like, whatever it is read as; nil when they match none.
    public let contentLooksLike: TrackFormat?
    /// The encoding of SubRip and WebVTT content without a byte order mark (nil: UTF-8, repaired).
    public var encoding: TextEncoding?
    /// The WebVTT reader's limits.
    public var webVTTLimits = WebVTTReader.Options.Limits()
    /// How TTML is read.
    public var ttmlOptions = TTMLReader.Options()

    /// Opens `path`, reading its first bytes to tell the format unless `format` forces one.
    /// Throws a ``ReadError`` (`io-read`) when the file cannot be read.
    public init(path: String, format forced: TrackFormat? = nil) throws {
        self.path = path
        var prefix: [UInt8] = []
        prefix.reserveCapacity(TrackFormat.detectionLength)
        struct Enough: Error {}
        do {
            try FileByteSource(path: path, chunkSize: TrackFormat.detectionLength).forEachChunk { chunk in
                prefix.append(contentsOf: chunk.prefix(TrackFormat.detectionLength - prefix.count))
                if prefix.count >= TrackFormat.detectionLength { throw Enough() }
            }
        } catch is Enough {
        } catch let error as ReadError where error.path == nil {
            throw error.inFile(path)
        }
        let named = TrackFormat(path: path)
        let detected = TrackFormat.detect(content: prefix)
        contentLooksLike = detected
        format = forced ?? (named == .webVTT ? .webVTT : detected ?? named ?? .webVTT)
    }

    /// Reads the whole file, handing each event to `handler`. A fatal error is thrown as a
    /// ``ReadError`` located in the file; recoverable problems arrive as `.diagnostic` events.
    public func stream(to handler: (TrackEvent) throws -> Void) throws {
        do {
            switch format {
            case .webVTT:
                let reader = WebVTTReader(options: .init(limits: webVTTLimits))
                if let encoding, encoding != .utf8 {
                    var transcoding = TranscodingTrackReader(reader, encoding: encoding)
                    try transcoding.stream(fileAtPath: path, to: handler)
                } else {
                    var reader = reader
                    try reader.stream(fileAtPath: path, to: handler)
                }
            case .subRip:
                try Self.streamSubRip(fileAtPath: path, encoding: encoding, handler)
            case .ttml:
                try TTMLReader.stream(fileAtPath: path, options: ttmlOptions, to: handler)
            }
        } catch let error as ReadError where error.path == nil {
            throw error.inFile(path)
        }
    }

    /// SubRip in two passes (``SubRipReader``'s colours and streaming): the header and the colour
    /// style sheets first, found by a cheap look at the tags, then the cues, so that the style
    /// sheets come before the first cue as WebVTT needs them.
    public static func streamSubRip(fileAtPath path: String, encoding: TextEncoding?, _ handler: (TrackEvent) throws -> Void) throws {
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
}
