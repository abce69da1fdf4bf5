import CueKitCast
import HummingbirdWSClient
import Logging

/// A WebSocket of JSON messages for tests, on a client CueKit does not ship (so what it hears is
/// checked independently of CueKit's own sender): each text message is one JSON object. A request
/// is answered by the message whose `idKey` member (`id` for DevTools, `requestId` for Cast)
/// repeats its id; every other message is handed to ``unanswered``.
public actor JSONWebSocket {
    private let idKey: String
    private var outbound: WebSocketOutboundWriter?
    private var connection: Task<Void, Never>?
    private var waiting: [Int: CheckedContinuation<CastJSONObject, any Error>] = [:]
    /// Bounded: a DevTools page sends events nobody reads.
    private let heard = AsyncStream<CastJSONObject>.makeStream(bufferingPolicy: .bufferingNewest(4_096))

    private init(idKey: String) { self.idKey = idKey }

    /// Connects to `url`; answers carry their request's id in `idKey`.
    public static func connect(to url: String, answersCarry idKey: String, maximumMessageSize: Int = 1 << 24) async throws -> JSONWebSocket {
        let socket = JSONWebSocket(idKey: idKey)
        try await socket.open(url, maximumMessageSize: maximumMessageSize)
        return socket
    }

    private func open(_ url: String, maximumMessageSize: Int) async throws {
        var logger = Logger(label: "test-websocket")
        logger.logLevel = .critical
        let opened = AsyncStream<WebSocketOutboundWriter?>.makeStream()
        connection = Task {
            _ = try? await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: maximumMessageSize), logger: logger) {
                inbound, outbound, _ in
                opened.continuation.yield(outbound)
                for try await message in inbound.messages(maxSize: maximumMessageSize) {
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

    /// Every message that answers none of this socket's requests, in order, until it closes (one
    /// reader; the newest 4,096 are kept for it).
    public nonisolated var unanswered: AsyncStream<CastJSONObject> { heard.stream }

    /// Sends one message.
    public func send(_ message: CastJSONObject) async throws {
        guard let outbound else { throw Failure(description: "not connected") }
        try await outbound.write(.text(CastJSONValue.object(message).serialized(.compact)))
    }

    /// Sends `message`, which carries `id` (other than 0) in `idKey`, and returns its answer.
    public func request(_ message: CastJSONObject, id: Int) async throws -> CastJSONObject {
        guard id != 0, message[idKey]?.numberValue.map(Int.init) == id else {
            throw Failure(description: "a request carries its id, other than 0, in \(idKey)")
        }
        return try await withCheckedThrowingContinuation { continuation in
            waiting[id] = continuation
            Task {
                do { try await self.send(message) } catch { self.fail(id, error) }
            }
        }
    }

    /// Closes the socket; requests still waiting fail.
    public func close() async {
        try? await outbound?.close(.normalClosure, reason: nil)
        connection?.cancel()
    }

    private func deliver(_ object: CastJSONObject) {
        if let id = object[idKey]?.numberValue.map(Int.init), id != 0, let continuation = waiting.removeValue(forKey: id) {
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

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }
}
