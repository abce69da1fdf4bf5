import NIOCore
import NIOWebSocket

/// A CueKit receiver's sender socket (`ws://HOST:PORT/cast`) as a ``RemoteMediaTransport``: each
/// text message is one Cast message. Pings are answered; a close from the server is answered and
/// ends the messages.
actor WebSocketMediaTransport: RemoteMediaTransport {
    private var outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>?
    private var connection: Task<Void, Never>?
    private let incoming = AsyncStream<String>.makeStream()
    private(set) var closeReason: String?

    private init() {}

    /// Connects; throws ``RemoteMediaClient/ConnectionError`` when the socket cannot be opened.
    static func open(_ url: String) async throws -> WebSocketMediaTransport {
        guard let address = WebSocketConnection.Address(url) else {
            throw RemoteMediaClient.ConnectionError(
                description: "'\(url)' is not a ws://HOST:PORT/PATH URL (a CueKit receiver's sender socket; wss:// is not supported)")
        }
        let transport = WebSocketMediaTransport()
        try await transport.start(address, url: url)
        return transport
    }

    private func start(_ address: WebSocketConnection.Address, url: String) async throws {
        let channel: WebSocketConnection.FrameChannel
        do {
            channel = try await WebSocketConnection.open(address)
        } catch {
            throw RemoteMediaClient.ConnectionError(description: "cannot connect to \(url): \(error)")
        }
        let opened = AsyncStream<NIOAsyncChannelOutboundWriter<WebSocketFrame>>.makeStream()
        let incoming = incoming.continuation
        connection = Task {
            do {
                try await channel.executeThenClose { inbound, outbound in
                    opened.continuation.yield(outbound)
                    opened.continuation.finish()
                    for try await frame in inbound {
                        switch frame.opcode {
                        case .text:
                            incoming.yield(String(buffer: frame.unmaskedData))
                        case .ping:
                            try await outbound.write(WebSocketConnection.frame(.pong, frame.unmaskedData))
                        case .connectionClose:
                            try? await outbound.write(WebSocketConnection.closeFrame())
                            return
                        default:
                            break
                        }
                    }
                }
                self.finish("the receiver closed the connection")
            } catch {
                opened.continuation.finish()
                self.finish("the connection failed: \(error)")
            }
        }
        for await writer in opened.stream {
            outbound = writer
            return
        }
        throw RemoteMediaClient.ConnectionError(description: "cannot connect to \(url): \(closeReason ?? "the connection closed")")
    }

    /// The reason is set before the stream finishes, so that whoever sees the end can ask why.
    private func finish(_ reason: String) {
        if closeReason == nil { closeReason = reason }
        outbound = nil
        incoming.continuation.finish()
    }

    func messages() -> AsyncStream<String> { incoming.stream }

    func send(text: String) async throws {
        guard let outbound else { throw RemoteMediaClient.ConnectionError(description: closeReason ?? "not connected") }
        try await outbound.write(WebSocketConnection.frame(.text, ByteBuffer(string: text)))
    }

    /// Sends a close frame and returns once the connection is closed: when the receiver has
    /// answered the close, or after five seconds without an answer.
    func close() async {
        try? await outbound?.write(WebSocketConnection.closeFrame())
        guard let connection else { return }
        let deadline = Task {
            try? await Task.sleep(for: .seconds(5))
            connection.cancel()
        }
        await connection.value
        deadline.cancel()
    }
}
