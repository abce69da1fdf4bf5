import CueKitTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization

@testable import CueKitServer

/// A folder to serve, with tracks in each format and whatever a test adds.
struct ServedFolder {
    let directory = TemporaryDirectory()
    var path: String { directory.path }

    /// Two cues, long enough to be worth compressing.
    static let english = """
        WEBVTT

        00:00.000 --> 00:05.000
        Hello from the English track, long enough to be drawn on two lines if the video were narrow.

        00:05.000 --> 00:10.000
        The second English cue, which a test reads back after a seek, with more words to pass the gzip threshold.

        """

    static let german = """
        1
        00:00:00,000 --> 00:00:05,000
        <font color="#00FF00">Hallo aus der deutschen Spur</font>

        """

    init() {
        directory.write(Self.english, to: "english.vtt")
        directory.write(Self.german, to: "german.srt")
    }

    func write(_ text: String, to name: String) { directory.write(text, to: name) }

    func remove() { directory.remove() }
}

/// Runs `test` against a live server for `folder`, on a free port of 127.0.0.1; the server stops
/// when the test returns.
func withServer<Value: Sendable>(
    _ folder: ServedFolder, configure: (inout TrackServer.Configuration) -> Void = { _ in },
    _ test: @Sendable (any TestClientProtocol, TrackServer) async throws -> Value
) async throws -> Value {
    var configuration = TrackServer.Configuration(folder: folder.path)
    configuration.port = 0
    configure(&configuration)
    let server = try TrackServer(configuration: configuration)
    return try await server.makeApplication().test(.live) { client in try await test(client, server) }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }
}

/// One GET on a connection of its own, so that a test can have requests run at once.
func fetch(_ uri: String, port: Int, headers: HTTPFields = [:], timeout: Duration = .seconds(120)) async throws -> TestClient.Response {
    let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: timeout))
    client.connect()
    do {
        let response = try await client.get(uri, headers: headers)
        try await client.shutdown()
        return response
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// Waits until `condition` holds, checking every 20 ms for up to `limit`; returns whether it did.
func eventually(within limit: Duration = .seconds(5), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}

extension TestClient.Response {
    /// The body as text.
    var text: String { body.map { String(buffer: $0) } ?? "" }
}

/// A count that concurrent closures add to.
final class Tally: Sendable {
    private let count = Mutex(0)

    func add() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}
