import Foundation
import Hummingbird

/// Where the access log goes: one line per request in the Common Log Format, with the time taken.
public struct AccessLog: Sendable {
    private let write: @Sendable (String) -> Void

    /// Lines written by `write` (standard error by the command, a list in a test).
    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// No log.
    public static let none = AccessLog { _ in }

    /// Standard error, one line at a time.
    public static let standardError = AccessLog { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    func log(_ line: String) { write(line) }
}

/// Logs each request when its response is ready: `HOST - - [TIME] "METHOD PATH HTTP/1.1" STATUS
/// LENGTH MILLISECONDSms`. The length is `-` when the body is streamed without a known length.
struct AccessLogMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let log: AccessLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let status: Int
        let length: String
        do {
            let response = try await next(request, context)
            status = response.status.code
            length = response.headers[.contentLength] ?? "-"
            record(request, context, status, length, start)
            return response
        } catch let error as any HTTPResponseError {
            record(request, context, error.status.code, "-", start)
            throw error
        } catch {
            record(request, context, 500, "-", start)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, _ status: Int, _ length: String, _ start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let host = context.remoteAddress?.ipAddress ?? "-"
        let time = AccessLogTime.now()
        let path = request.uri.description.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F || $0 == "\"" ? "%" + String($0.value, radix: 16) : String($0) }.joined()
        log.log("\(host) - - [\(time)] \"\(request.method.rawValue) \(path) HTTP/1.1\" \(status) \(length) \(String(format: "%.1f", milliseconds))ms")
    }

}

/// The log's time stamps, `10/Oct/2026:13:55:36 +0000`, in UTC, made without shared state.
enum AccessLogTime {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func now() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_mday))/\(months[Int(parts.tm_mon)])/\(parts.tm_year + 1900):\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }
}
