import CueKitCast
import HummingbirdWSClient
import Logging

/// A sender of the test's own on a CueKit receiver's WebSocket (`ws://HOST:PORT/cast`), built on
/// a WebSocket client CueKit does not ship: it sends the JSON it is given and hands back every
/// message it hears, so that a test can check what any sender is told, independently of
/// CueKit's own sender.
public actor CastSocketWatcher {
    private var outbound: WebSocketOutboundWriter?
    private var connection: Task<Void, Never>?
    private let heard = AsyncStream<CastJSONObject>.makeStream()
    private var waiting: [Int: CheckedContinuation<CastJSONObject, any Error>] = [:]

    /// Connects; throws when the socket cannot be opened.
    public static func connect(to url: String) async throws -> CastSocketWatcher {
        let watcher = CastSocketWatcher()
        try await watcher.open(url)
        return watcher
    }

    private func open(_ url: String) async throws {
        var logger = Logger(label: "cast-watcher")
        logger.logLevel = .critical
        let opened = AsyncStream<WebSocketOutboundWriter?>.makeStream()
        connection = Task {
            _ = try? await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 24), logger: logger) { inbound, outbound, _ in
                opened.continuation.yield(outbound)
                for try await message in inbound.messages(maxSize: 1 << 24) {
                    guard case .text(let text) = message,
                        let object = try? CastJSONDocument(parsing: Array(text.utf8)).value.objectValue
                    else { continue }
                    await self.deliver(object)
                }
            }
            opened.continuation.yield(nil)
            self.finish()
        }
        for await writer in opened.stream {
            guard let writer else { break }
            outbound = writer
            return
        }
        throw Failure(description: "cannot connect to \(url)")
    }

    /// Every message heard that answers none of this watcher's requests, in order, until the
    /// socket closes (one reader).
    public nonisolated var messages: AsyncStream<CastJSONObject> { heard.stream }

    /// Sends `message` (with a `requestId` other than 0) and returns the answer with that id.
    public func request(_ message: CastJSONObject) async throws -> CastJSONObject {
        guard let id = message["requestId"]?.numberValue.map(Int.init), id != 0 else {
            throw Failure(description: "a request needs a requestId other than 0")
        }
        return try await withCheckedThrowingContinuation { continuation in
            waiting[id] = continuation
            Task {
                do { try await self.send(message) } catch { self.fail(id, error) }
            }
        }
    }

    private func deliver(_ object: CastJSONObject) {
        if let id = object["requestId"]?.numberValue.map(Int.init), id != 0, let continuation = waiting.removeValue(forKey: id) {
            continuation.resume(returning: object)
        } else {
            heard.continuation.yield(object)
        }
    }

    private func fail(_ id: Int, _ error: any Error) {
        waiting.removeValue(forKey: id)?.resume(throwing: error)
    }

    private func finish() {
        for (_, continuation) in waiting { continuation.resume(throwing: Failure(description: "the socket closed")) }
        waiting = [:]
        heard.continuation.finish()
    }

    /// Sends one message.
    public func send(_ message: CastJSONObject) async throws {
        guard let outbound else { throw Failure(description: "not connected") }
        try await outbound.write(.text(CastJSONValue.object(message).serialized(.compact)))
    }

    /// Closes the socket.
    public func close() async {
        try? await outbound?.close(.normalClosure, reason: nil)
        connection?.cancel()
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }
}
