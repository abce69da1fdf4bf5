import AsyncHTTPClient
import CueKit
import NIOCore

/// GETs of whole resources over HTTP and HTTPS, each bounded in size and time: what a fetch of a
/// subtitle rendition asks of the network. Redirects are followed (at most five, no cycles);
/// anything but a 200 answer is an error that names the address and the status.
///
/// Owns its `HTTPClient`: ``shutdown()`` when done.
package struct HTTPResourceClient: Sendable {
    private let client: HTTPClient
    /// How long one GET may take, answer and body.
    package let timeout: TimeAmount

    package init(timeout: TimeAmount) {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: 5, allowCycles: false), timeout: .init(connect: .seconds(10), read: .seconds(30)))
        configuration.decompression = .enabled(limit: .ratio(100))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.timeout = timeout
    }

    /// The body at `url`, at most `limit` bytes.
    package func get(_ url: String, limit: Int) async throws(FetchError) -> [UInt8] {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(HTTPClientRequest(url: url), timeout: timeout)
        } catch {
            throw FetchError(url: url, "cannot be fetched: \(Self.describe(error))")
        }
        guard response.status == .ok else {
            throw FetchError(url: url, "answered \(response.status.code) \(response.status.reasonPhrase)")
        }
        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > limit {
            throw FetchError(url: url, "is \(length) bytes, over the limit of \(limit)")
        }
        do {
            let body = try await response.body.collect(upTo: limit)
            return Array(body.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw FetchError(url: url, "is over the limit of \(limit) bytes")
        } catch {
            throw FetchError(url: url, "was cut off: \(Self.describe(error))")
        }
    }

    /// Ends the client's connections.
    package func shutdown() async {
        try? await client.shutdown()
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError { return "\(error)" }
        return String(describing: error)
    }
}

/// A resource that could not be fetched: its address and why.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address asked for.
    public var url: String
    /// Why it failed: the status it answered, a limit passed, the network's error.
    public var reason: String

    public init(url: String, _ reason: String) {
        self.url = url
        self.reason = reason
    }

    /// `URL reason`.
    public var description: String { "\(url) \(reason)" }
}
