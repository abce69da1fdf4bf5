import Hummingbird

/// Byte ranges as RFC 9110 §14 has them, around Hummingbird's `FileMiddleware`, which serves ranges
/// but reads `bytes=-N` (the last N bytes) as the first N+1, answers a range that starts past the
/// end with a 206 whose `Content-Range` runs backwards, and refuses what it cannot parse with a
/// bare 416.
///
/// The `Range` header is parsed here (``ByteRangeSet``) and checked against the file's length
/// (asked with a `HEAD`), and the middleware only ever sees one explicit, satisfiable range:
/// - a header that does not parse (`bytes=5-2`, `bytes=abc`, `bytes=1-2-3`, another unit) is
///   ignored, and the whole file is answered (200), as §14.2 says;
/// - a last position past the end is clamped to the end (`bytes=0-99999999999999999999`: 206);
/// - a suffix range (`bytes=-N`) is made explicit from the length;
/// - a range that starts at or past the end, or `bytes=-0`, is answered
///   `416 Range Not Satisfiable` with `Content-Range: bytes */LENGTH` (§15.5.17);
/// - a request for several ranges is answered with the whole file (200), which §14.2 allows,
///   rather than with the first range alone (416 when none of them is satisfiable).
struct ByteRangeRepair<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.range], request.method == .get || request.method == .head else {
            return try await next(request, context)
        }
        guard let ranges = ByteRangeSet(header) else { return try await next(request.withoutRange(), context) }
        var head = request.head
        head.method = .head
        head.headerFields[.range] = nil
        let probe = try await next(Request(head: head, body: .init(buffer: .init())), context)
        guard probe.status == .ok, let length = probe.headers[.contentLength].flatMap(Int.init) else {
            return try await next(request.withoutRange(), context)
        }
        let satisfiable = ranges.specs.compactMap { $0.bounds(length: length) }
        guard let first = satisfiable.first else {
            // With `If-Range`, the range may be ignored (a changed file): the middleware decides,
            // and its backwards answer becomes a 416 below.
            guard request.headers[.ifRange] != nil else { return Self.unsatisfiable(length: length) }
            return try await Self.repaired(next(request.withRange("bytes=\(length)-\(length)"), context))
        }
        if satisfiable.count > 1 { return try await next(request.withoutRange(), context) }
        return try await Self.repaired(next(request.withRange("bytes=\(first.lowerBound)-\(first.upperBound)"), context))
    }

    /// `response`, or a 416 when it is a 206 whose `Content-Range` is not a range of the file.
    static func repaired(_ response: Response) -> Response {
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

/// A `Range: bytes=…` header, parsed as RFC 9110 §14.1.2 writes it: `bytes` (any case), `=`, then
/// one or more range specs separated by commas with optional white space around them (empty
/// elements allowed, as in any list). Positions too large for an `Int` are kept as `Int.max`: a
/// last position is clamped to the file anyway, and a first one is past any end.
struct ByteRangeSet: Hashable, Sendable {
    /// One range spec.
    enum Spec: Hashable, Sendable {
        /// `first-` or `first-last`.
        case from(first: Int, last: Int?)
        /// `-length`: the last `length` bytes.
        case suffix(length: Int)

        /// The bytes this spec selects in a file of `length` bytes; nil when it selects none
        /// (unsatisfiable, §14.1.1).
        func bounds(length: Int) -> ClosedRange<Int>? {
            switch self {
            case .from(let first, let last):
                guard first < length else { return nil }
                return first...min(last ?? length - 1, length - 1)
            case .suffix(let suffix):
                guard suffix > 0, length > 0 else { return nil }
                return max(0, length - suffix)...(length - 1)
            }
        }
    }

    let specs: [Spec]

    /// The set a header value names; nil when it does not parse or its unit is not bytes.
    init?(_ header: String) {
        let value = header.trimmingASCIISpaces()
        guard let equals = value.firstIndex(of: "="), value[..<equals].lowercased() == "bytes" else { return nil }
        var specs: [Spec] = []
        for element in value[value.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false) {
            let text = element.trimmingASCIISpaces()
            if text.isEmpty { continue }
            guard let spec = Self.spec(text) else { return nil }
            specs.append(spec)
        }
        guard !specs.isEmpty else { return nil }
        self.specs = specs
    }

    private static func spec(_ text: Substring) -> Spec? {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            return position(parts[1]).map { .suffix(length: $0) }
        }
        guard let first = position(parts[0]) else { return nil }
        if parts[1].isEmpty { return .from(first: first, last: nil) }
        guard let last = position(parts[1]), last >= first else { return nil }
        return .from(first: first, last: last)
    }

    /// `1*DIGIT`, saturated at `Int.max`.
    private static func position(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        var value = 0
        for byte in digits.utf8 {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if overflow || overflowAgain { return Int.max }
            value = sum
        }
        return value
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
    func trimmingASCIISpaces() -> Substring { self[...].trimmingASCIISpaces() }
}

extension Substring {
    func trimmingASCIISpaces() -> Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
