import CompressNIO
import Foundation
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
/// once: the result is kept in a ``GzipCache`` (by the file, resolved, and its entity tag, never
/// the query string) and served with its length, so every receiver that loads the same track
/// costs one compression, and requests that arrive while it is made wait for it.
struct GzipMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Bodies shorter than this are sent as they are: gzip's header would outweigh the saving.
    static var minimumLength: Int { 256 }

    /// Compressed bodies already made.
    let cache: GzipCache
    /// The served folder, to name a file by its resolved path.
    let files: ConfinedFileSystem?

    init(cache: GzipCache, files: ConfinedFileSystem? = nil) {
        self.cache = cache
        self.files = files
    }

    /// What a request's answer is made from: the file it names, resolved (so that `/a/../x.vtt`
    /// and `/x.vtt?anything` are one), or else its path without the query. The entity tag tells
    /// versions and representations (a style's conversion) apart.
    func resource(of request: Request) -> String {
        let path = request.uri.path
        let decoded = path.removingPercentEncoding ?? path
        if !decoded.hasPrefix("/tracks/"), let files, let resolved = files.confinedPath(decoded) { return resolved }
        return decoded
    }

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
            let key = GzipCache.Key(resource: resource(of: request), entityTag: tag)
            let body = response.body
            let made = try await cache.body(for: key) {
                let collector = BodyCollector()
                try await body.write(collector)
                return try GzipBodyWriter.compress(collector.buffer)
            }
            if let compressed = made {
                response.headers[.contentLength] = String(compressed.readableBytes)
                response.body = ResponseBody(byteBuffer: compressed)
                return response
            }
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
