import HummingbirdWSClient
import Logging

/// A CueKit receiver's sender socket (`ws://HOST:PORT/cast`) as a ``RemoteMediaTransport``: each
/// text frame is one message.
actor WebSocketMediaTransport: RemoteMediaTransport {
    private var outbound: WebSocketOutboundWriter?
    private var connection: Task<Void, Never>?
    private let incoming = AsyncStream<String>.makeStream()
    private(set) var closeReason: String?

    private init() {}

    /// Connects; throws ``RemoteMediaClient/ConnectionError`` when the socket cannot be opened.
    static func open(_ url: String) async throws -> WebSocketMediaTransport {
        let transport = WebSocketMediaTransport()
        try await transport.start(url)
        return transport
    }

    private func start(_ url: String) async throws {
        var quiet = Logger(label: "cuekit.sender")
        quiet.logLevel = .critical
        let logger = quiet
        let opened = AsyncStream<Result<WebSocketOutboundWriter, any Error>>.makeStream()
        let incoming = incoming.continuation
        connection = Task {
            do {
                try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 20), logger: logger) {
                    inbound, outbound, _ in
                    opened.continuation.yield(.success(outbound))
                    for try await message in inbound.messages(maxSize: 1 << 24) {
                        if case .text(let text) = message { incoming.yield(text) }
                    }
                }
                self.finish("the receiver closed the connection")
            } catch {
                opened.continuation.yield(.failure(error))
                self.finish("the connection failed: \(error)")
            }
            opened.continuation.finish()
        }
        for await result in opened.stream {
            switch result {
            case .success(let writer):
                outbound = writer
                return
            case .failure(let error):
                throw RemoteMediaClient.ConnectionError(description: "cannot connect to \(url): \(error)")
            }
        }
        throw RemoteMediaClient.ConnectionError(description: "cannot connect to \(url)")
    }

    /// The reason is set before the stream finishes, so that whoever sees the end can ask why.
    private func finish(_ reason: String) {
        if closeReason == nil { closeReason = reason }
        incoming.continuation.finish()
    }

    func messages() -> AsyncStream<String> { incoming.stream }

    func send(text: String) async throws {
        guard let outbound else { throw RemoteMediaClient.ConnectionError(description: closeReason ?? "not connected") }
        try await outbound.write(.text(text))
    }

    func close() async {
        try? await outbound?.close(.normalClosure, reason: nil)
        connection?.cancel()
    }
}
