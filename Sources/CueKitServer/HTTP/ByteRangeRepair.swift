import Hummingbird

/// Byte ranges as RFC 9110 has them, around Hummingbird's `FileMiddleware`, which serves ranges
/// but reads `bytes=-N` (the last N bytes) as the first N+1, and answers a range that starts past
/// the end with a 206 whose `Content-Range` runs backwards.
///
/// - A suffix range is made explicit from the file's length.
/// - A range that starts at or past the end is answered `416 Range Not Satisfiable` with
///   `Content-Range: bytes */LENGTH`.
/// - A request for several ranges is answered with the whole file (200), which RFC 9110 allows,
///   rather than with the first range alone.
struct ByteRangeRepair<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let range = request.headers[.range], request.method == .get || request.method == .head else {
            return try await next(request, context)
        }
        let spec = range.trimmingASCIISpaces()
        guard spec.hasPrefix("bytes=") else { return try await next(request.withoutRange(), context) }
        let ranges = spec.dropFirst("bytes=".count)
        if ranges.contains(",") { return try await next(request.withoutRange(), context) }
        if ranges.hasPrefix("-") {
            guard let suffix = Int(ranges.dropFirst()), suffix > 0 else { return try await next(request.withoutRange(), context) }
            var head = request.head
            head.method = .head
            head.headerFields[.range] = nil
            let probe = try await next(Request(head: head, body: .init(buffer: .init())), context)
            guard probe.status == .ok, let length = probe.headers[.contentLength].flatMap(Int.init) else {
                return try await next(request.withoutRange(), context)
            }
            guard length > 0 else { return Self.unsatisfiable(length: 0) }
            return try await next(request.withRange("bytes=\(max(0, length - suffix))-\(length - 1)"), context)
        }
        let response = try await next(request, context)
        if response.status == .partialContent, let contentRange = response.headers[.contentRange],
            let (first, last, length) = Self.parseContentRange(contentRange), first > last || first >= length
        {
            return Self.unsatisfiable(length: length)
        }
        return response
    }

    static func unsatisfiable(length: Int) -> Response {
        Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(length)", .contentLength: "0"])
    }

    /// `bytes FIRST-LAST/LENGTH`.
    static func parseContentRange(_ value: String) -> (Int, Int, Int)? {
        guard value.hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst(6).split(separator: "/")
        guard parts.count == 2, let length = Int(parts[1]) else { return nil }
        let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]) else { return nil }
        return (first, last, length)
    }
}

extension Request {
    /// The request with its `Range` header removed.
    func withoutRange() -> Request {
        var head = self.head
        head.headerFields[.range] = nil
        return Request(head: head, body: body)
    }

    /// The request with `Range: value`.
    func withRange(_ value: String) -> Request {
        var head = self.head
        head.headerFields[.range] = value
        return Request(head: head, body: body)
    }
}

extension String {
    func trimmingASCIISpaces() -> Substring {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
