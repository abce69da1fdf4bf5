/// A reader of UTF-8 (WebVTT's reader, say) fed bytes in another ``TextEncoding``: each chunk is
/// transcoded to UTF-8 on the way in, with memory bounded by the chunk.
///
/// WebVTT is UTF-8 by definition, but files saved by old editors in Windows-1252 or UTF-16 exist;
/// `cuekit --encoding` reads them through this adapter. A byte order mark still wins over the
/// declared encoding, as it does in browsers.
public struct TranscodingTrackReader<Reader: TrackReader>: TrackReader {
    /// The reader the UTF-8 goes to.
    public private(set) var reader: Reader
    private var transcoder: TextTranscoder

    /// Feeds `reader` the input, read as `encoding`.
    public init(_ reader: Reader, encoding: TextEncoding) {
        self.reader = reader
        transcoder = TextTranscoder(declared: encoding)
    }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, to handler: (TrackEvent) throws -> Void) throws {
        try transcoder.decode(chunk) { output in
            if case .utf8(let bytes) = output { try reader.feed(bytes, to: handler) }
        }
    }

    public mutating func finish(to handler: (TrackEvent) throws -> Void) throws {
        try transcoder.finish { output in
            if case .utf8(let bytes) = output { try reader.feed(bytes, to: handler) }
        }
        try reader.finish(to: handler)
    }
}
