import Hummingbird

/// Which origins may read what the server serves (`Access-Control-Allow-Origin`).
public enum AllowedOrigins: Sendable, Hashable {
    /// Any origin: `*`, as a Cast receiver on any device needs by default.
    case any
    /// Only these origins (`scheme://host:port`); the matching one is echoed, with `Vary: Origin`.
    case only([String])
    /// No CORS headers at all: what a server that forgot CORS sends, so that a receiver refuses
    /// the tracks. For tests and demonstrations.
    case none

    /// Whether a page from `origin` may use the server: read its files, open its WebSockets.
    /// Without CORS (``none``) nothing is checked, as a server that forgot CORS would not.
    public func admits(_ origin: String) -> Bool {
        switch self {
        case .any, .none: true
        case .only(let list): list.contains(origin)
        }
    }
}

/// The CORS a Cast receiver needs: Chromium loads a `<track>` of a `<video crossorigin>` only when
/// both are served with CORS, and it asks first (a preflight `OPTIONS`) whether `Range` may be sent.
///
/// Hummingbird's `CORSMiddleware` takes a fixed list of origins only as a variadic argument, and its
/// default request headers omit `Range` and `Accept-Encoding`, the trap the Cast guide warns about;
/// this middleware takes the list from the command line and always allows the headers a player sends.
struct CastCORSMiddleware<Context: RequestContext>: RouterMiddleware {
    /// `Access-Control-Allow-Headers`.
    static var allowedHeaders: String { "Content-Type, Accept-Encoding, Range, If-None-Match, If-Modified-Since, If-Range, Accept, Origin" }
    /// `Access-Control-Allow-Methods`.
    static var allowedMethods: String { "GET, HEAD, OPTIONS" }
    /// `Access-Control-Expose-Headers`.
    static var exposedHeaders: String { "Content-Length, Content-Range, Accept-Ranges, Content-Encoding, ETag, Last-Modified, X-CueKit-Conversion" }

    let origins: AllowedOrigins

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if case .none = origins { return try await next(request, context) }
        let origin = request.headers[.origin]
        let allowed: String?
        switch origins {
        case .none: allowed = nil
        case .any: allowed = "*"
        case .only: allowed = origin.flatMap { origin in origins.admits(origin) ? origin : nil }
        }
        var headers = HTTPFields()
        if let allowed { headers[.accessControlAllowOrigin] = allowed }
        if case .only = origins { headers[.vary] = "Origin" }
        headers[.accessControlExposeHeaders] = Self.exposedHeaders
        if request.method == .options {
            headers[.accessControlAllowMethods] = Self.allowedMethods
            headers[.accessControlAllowHeaders] = Self.allowedHeaders
            headers[.accessControlMaxAge] = "600"
            return Response(status: .noContent, headers: headers)
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        for field in headers {
            if field.name == .vary {
                response.headers[values: .vary].append(field.value)
            } else {
                response.headers[field.name] = field.value
            }
        }
        return response
    }
}
