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
struct GzipMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Bodies shorter than this are sent as they are: gzip's header would outweigh the saving.
    static var minimumLength: Int { 256 }

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
