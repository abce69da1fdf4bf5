import CompressNIO
import Hummingbird
import NIOCore

/// Compresses text (tracks, pages, JSON) with gzip when the client's `Accept-Encoding` allows it.
///
/// The body is compressed as it streams, so a large track takes the memory of one chunk. A
/// compressed response has its own entity tag (the file's with `-gzip` appended, as RFC 9110 asks
/// of a different representation) and `Vary: Accept-Encoding`; a conditional request naming that
/// tag is answered 304. Ranges are served uncompressed, as media players ask for them. Compression
/// runs at zlib's fastest level.
///
/// A body with an entity tag and a known length up to ``GzipCache/largestEntry`` is compressed
/// once: the result is kept, by path and tag, in a cache of bounded size and served with its
/// length, so every receiver that loads the same track costs one compression.
struct GzipMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Bodies shorter than this are sent as they are: gzip's header would outweigh the saving.
    static var minimumLength: Int { 256 }

    /// Compressed bodies already made.
    let cache: GzipCache

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, request.headers[.range] == nil,
            Self.acceptsGzip(request.headers[values: .acceptEncoding])
        else {
            var response = try await next(request, context)
            if Self.isCompressible(response) { response.headers[values: .vary].append("Accept-Encoding") }
            return response
        }
        // A tag the client got from a compressed response names the same file.
        var head = request.head
        let tags = head.headerFields[values: .ifNoneMatch]
        if !tags.isEmpty {
            head.headerFields[values: .ifNoneMatch] = tags.map(Self.identityTag)
        }
        var response = try await next(Request(head: head, body: request.body), context)
        guard Self.isCompressible(response) else { return response }
        response.headers[values: .vary].append("Accept-Encoding")
        if response.status == .notModified {
            response.headers[.eTag] = response.headers[.eTag].map(Self.gzipTag)
            return response
        }
        guard response.status == .ok, response.headers[.contentEncoding] == nil else { return response }
        if let length = response.headers[.contentLength].flatMap(Int.init), length < Self.minimumLength { return response }
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = nil
        response.headers[.eTag] = response.headers[.eTag].map(Self.gzipTag)
        response.headers[.acceptRanges] = nil
        if request.method == .head { return response }
        let length = Int(response.headers[.contentLength] ?? "") ?? Int(response.body.contentLength ?? -1)
        if let tag = response.headers[.eTag], length >= 0, length <= GzipCache.largestEntry {
            let key = request.uri.description + "\u{0}" + tag
            let compressed: ByteBuffer
            if let cached = await cache.entry(for: key) {
                compressed = cached
            } else {
                let collector = BodyCollector()
                try await response.body.write(collector)
                compressed = try GzipBodyWriter.compress(collector.buffer)
                await cache.store(compressed, for: key)
            }
            response.headers[.contentLength] = String(compressed.readableBytes)
            response.body = ResponseBody(byteBuffer: compressed)
            return response
        }
        let body = response.body
        response.body = ResponseBody { writer in
            try await body.write(GzipBodyWriter(wrapping: writer))
        }
        return response
    }

    /// True when `Accept-Encoding` lists gzip (or `*`) with a weight above zero.
    static func acceptsGzip(_ values: [String]) -> Bool {
        for value in values {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
                guard let coding = parts.first?.lowercased(), coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
                let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                if weight > 0 { return true }
            }
        }
        return false
    }

    /// Text worth compressing: `text/*`, TTML and other XML, JSON, JavaScript.
    static func isCompressible(_ response: Response) -> Bool {
        guard let type = response.headers[.contentType]?.lowercased() else { return false }
        return type.hasPrefix("text/") || type.contains("xml") || type.contains("json") || type.contains("javascript")
            || type.hasPrefix("application/x-subrip")
    }

    static func gzipTag(_ tag: String) -> String {
        tag.hasSuffix("\"") ? String(tag.dropLast()) + "-gzip\"" : tag + "-gzip"
    }

    static func identityTag(_ tag: String) -> String {
        if tag.hasSuffix("-gzip\"") { return String(tag.dropLast(6)) + "\"" }
        if tag.hasSuffix("-gzip") { return String(tag.dropLast(5)) }
        return tag
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var text = self
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}

/// Compressed bodies by path and entity tag, least recently used first out, at most
/// ``capacity`` bytes in all.
actor GzipCache {
    /// The largest body compressed whole and kept: 8 MiB (longer ones stream).
    static let largestEntry = 8 << 20
    /// The most bytes kept.
    let capacity: Int
    private var entries: [String: (buffer: ByteBuffer, use: Int)] = [:]
    private var size = 0
    private var clock = 0

    init(capacity: Int = 64 << 20) {
        self.capacity = capacity
    }

    func entry(for key: String) -> ByteBuffer? {
        guard let found = entries[key] else { return nil }
        clock += 1
        entries[key]?.use = clock
        return found.buffer
    }

    func store(_ buffer: ByteBuffer, for key: String) {
        guard buffer.readableBytes <= capacity else { return }
        clock += 1
        if let old = entries.updateValue((buffer, clock), forKey: key) { size -= old.buffer.readableBytes }
        size += buffer.readableBytes
        while size > capacity, let oldest = entries.min(by: { $0.value.use < $1.value.use }) {
            size -= oldest.value.buffer.readableBytes
            entries[oldest.key] = nil
        }
    }
}

/// A body writer that keeps what is written, to compress it whole.
final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var copy = buffer
        self.buffer.writeBuffer(&copy)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// A body writer that gzips what passes through it.
struct GzipBodyWriter: ResponseBodyWriter {
    private var wrapped: any ResponseBodyWriter
    private let compressor: any NIOCompressor

    init(wrapping writer: any ResponseBodyWriter) throws {
        wrapped = writer
        // Level 1: captions compress about fourfold even so, and the server keeps up with the
        // network instead of spending its cores on the last few percent.
        compressor = CompressionAlgorithm.gzip(configuration: .init(compressionLevel: .fastestCompression)).compressor
        compressor.window = ByteBufferAllocator().buffer(capacity: 64 * 1024)
        try compressor.startStream()
    }

    /// `buffer` gzipped whole.
    static func compress(_ buffer: ByteBuffer) throws -> ByteBuffer {
        var input = buffer
        return try input.compress(with: .gzip(configuration: .init(compressionLevel: .fastestCompression)))
    }

    mutating func write(_ buffer: ByteBuffer) async throws {
        var input = buffer
        var chunks: [ByteBuffer] = []
        try input.compressStream(with: compressor, flush: .no) { chunks.append($0) }
        for chunk in chunks { try await wrapped.write(chunk) }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        var empty = ByteBuffer()
        var chunks: [ByteBuffer] = []
        try empty.compressStream(with: compressor, flush: .finish) { chunks.append($0) }
        try compressor.finishStream()
        for chunk in chunks { try await wrapped.write(chunk) }
        try await wrapped.finish(trailingHeaders)
    }
}
