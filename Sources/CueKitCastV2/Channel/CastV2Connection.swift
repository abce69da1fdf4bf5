import CueKitCast
import NIOCore
import NIOPosix
import NIOSSL

/// A sender's end of a Cast v2 channel to a device: TLS to its port (8009 on real devices), the
/// virtual connections (`CONNECT` to each destination before its first message), the heartbeat,
/// and requests matched to their answers by `requestId`.
///
/// The device's certificate is self-signed, as every Cast device's is: it is accepted without
/// verification, as Cast senders accept it (see the module's overview). The heartbeat sends a
/// `PING` every ``Configuration/heartbeatInterval``; when nothing at all has been heard from the
/// device for ``Configuration/heartbeatTimeout``, the device is taken for gone: the connection
/// closes, pending requests fail, and ``closeReason`` says why.
public actor CastV2Connection {
    /// Timing and naming.
    public struct Configuration: Sendable {
        /// This sender's id, the source of its messages.
        public var senderID = "sender-0"
        /// How often a `PING` is sent.
        public var heartbeatInterval: Duration = .seconds(5)
        /// How long the device may stay silent before it is taken for gone.
        public var heartbeatTimeout: Duration = .seconds(15)
        /// How long a request waits for its answer.
        public var requestTimeout: Duration = .seconds(10)
        /// How long connecting (TCP and TLS) may take.
        public var connectTimeout: Duration = .seconds(5)

        public init() {}
    }

    /// Why a request or the connection failed.
    public enum ConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The connection could not be made, or is closed (with the reason).
        case closed(String)
        /// No answer came in time.
        case timedOut(namespace: String, type: String, after: Duration)

        public var description: String {
            switch self {
            case .closed(let reason): "the Cast connection is closed: \(reason)"
            case .timedOut(let namespace, let type, let after): "no answer to \(type) in \(namespace) within \(after)"
            }
        }
    }

    public let configuration: Configuration
    /// The device's address, as connected to.
    public nonisolated let host: String
    public nonisolated let port: Int

    /// Why the connection closed; nil while it is open.
    public private(set) var closeReason: String?

    private var outbound: NIOAsyncChannelOutboundWriter<CastV2Message>?
    private var channelTask: Task<Void, Never>?
    private var heartbeatTask: Task<Void, Never>?
    private var connected: Set<String> = []
    private var waiting: [Int: CheckedContinuation<CastJSONObject, any Error>] = [:]
    private var subscribers: [Int: AsyncStream<CastV2Message>.Continuation] = [:]
    private var nextSubscriber = 0
    private var nextRequestID = 1
    private var lastHeard = ContinuousClock.now

    private init(host: String, port: Int, configuration: Configuration) {
        self.host = host
        self.port = port
        self.configuration = configuration
    }

    /// Connects to a device (TLS), opens the virtual connection to its platform (`receiver-0`)
    /// and starts the heartbeat.
    public static func connect(host: String, port: Int = 8009, configuration: Configuration = Configuration()) async throws -> CastV2Connection {
        let connection = CastV2Connection(host: host, port: port, configuration: configuration)
        try await connection.open()
        return connection
    }

    private func open() async throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        let context = try NIOSSLContext(configuration: tls)
        let channel: NIOAsyncChannel<CastV2Message, CastV2Message>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.nanoseconds(Int64(configuration.connectTimeout.components.seconds) * 1_000_000_000))
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: nil))
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(CastV2FrameDecoder()))
                        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(CastV2FrameEncoder()))
                        return try NIOAsyncChannel<CastV2Message, CastV2Message>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw ConnectionError.closed("cannot connect to \(host):\(port): \(error)")
        }
        let opened = AsyncStream<NIOAsyncChannelOutboundWriter<CastV2Message>>.makeStream()
        channelTask = Task {
            do {
                try await channel.executeThenClose { inbound, outbound in
                    opened.continuation.yield(outbound)
                    opened.continuation.finish()
                    for try await message in inbound { await self.receive(message) }
                }
                self.closed("the device closed the connection")
            } catch {
                self.closed("the connection failed: \(error)")
            }
            self.channelDidClose()
            opened.continuation.finish()
        }
        for await writer in opened.stream { outbound = writer }
        guard outbound != nil else { throw ConnectionError.closed(closeReason ?? "cannot connect to \(host):\(port)") }
        lastHeard = .now
        try await connect(to: "receiver-0")
        heartbeatTask = Task { await self.beat() }
    }

    /// Closes every virtual connection (`CLOSE`, the application's first, the platform's last),
    /// then the TLS session, and returns once the channel is closed: a program that exits right
    /// after leaves the device a clean shutdown.
    public func close() async {
        if closeReason == nil {
            for destination in connected.sorted(by: { ($0 == "receiver-0" ? 1 : 0, $0) < ($1 == "receiver-0" ? 1 : 0, $1) }) {
                try? await send(["type": "CLOSE"], namespace: CastV2Namespace.connection, to: destination)
            }
            closed("closed by this sender")
        }
        await channelTask?.value
    }

    /// True once the channel is closed, TLS included.
    private(set) var isChannelClosed = false

    // MARK: Messages

    /// Every message from the device but heartbeats, from now until the connection closes:
    /// answers to requests and the statuses devices send unasked.
    public func messages() -> AsyncStream<CastV2Message> {
        let (stream, continuation) = AsyncStream<CastV2Message>.makeStream(bufferingPolicy: .bufferingNewest(256))
        if closeReason != nil {
            continuation.finish()
            return stream
        }
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { _ in Task { await self.unsubscribe(id) } }
        return stream
    }

    private func unsubscribe(_ id: Int) { subscribers[id] = nil }

    /// Opens the virtual connection to `destination` (a transport id), once.
    public func connect(to destination: String) async throws {
        guard !connected.contains(destination) else { return }
        connected.insert(destination)
        try await send(["type": "CONNECT", "origin": .object([:])], namespace: CastV2Namespace.connection, to: destination)
    }

    /// Sends one JSON message, with no answer expected.
    public func send(_ object: CastJSONObject, namespace: String, to destination: String) async throws {
        try await send(text: CastJSONValue.object(object).serialized(.compact), namespace: namespace, to: destination)
    }

    /// Sends one message's JSON text as it is (after `CONNECT` to `destination`, once); its answer,
    /// if any, comes through ``messages()``.
    public func send(text: String, namespace: String, to destination: String) async throws {
        if namespace != CastV2Namespace.connection { try await connect(to: destination) }
        guard closeReason == nil, let outbound else { throw ConnectionError.closed(closeReason ?? "not open") }
        do {
            try await outbound.write(CastV2Message(sourceID: configuration.senderID, destinationID: destination, namespace: namespace, payload: .text(text)))
        } catch {
            closed("writing failed: \(error)")
            throw ConnectionError.closed(closeReason ?? "writing failed")
        }
    }

    /// Sends a request with a fresh `requestId` and returns the answer that carries it back.
    public func request(_ object: CastJSONObject, namespace: String, to destination: String) async throws -> CastJSONObject {
        try await connect(to: destination)
        var object = object
        let id = nextRequestID
        nextRequestID += 1
        object["requestId"] = .number(Double(id))
        let type = object["type"]?.stringValue ?? "a request"
        let timeout = configuration.requestTimeout
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.fail(id, ConnectionError.timedOut(namespace: namespace, type: type, after: timeout))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            waiting[id] = continuation
            Task {
                do {
                    try await self.send(object, namespace: namespace, to: destination)
                } catch {
                    self.fail(id, error)
                }
            }
        }
    }

    private func fail(_ id: Int, _ error: any Error) {
        waiting.removeValue(forKey: id)?.resume(throwing: error)
    }

    private func receive(_ message: CastV2Message) async {
        lastHeard = .now
        guard let text = message.text, let object = (try? CastJSONDocument(parsing: text))?.value.objectValue else {
            publish(message)
            return
        }
        switch (message.namespace, object["type"]?.stringValue) {
        case (CastV2Namespace.heartbeat, "PING"):
            try? await send(["type": "PONG"], namespace: CastV2Namespace.heartbeat, to: message.sourceID)
            return
        case (CastV2Namespace.heartbeat, _):
            return
        case (CastV2Namespace.connection, "CLOSE"):
            connected.remove(message.sourceID)
        default:
            break
        }
        if let number = object["requestId"]?.numberValue, let id = Int(exactly: number), id != 0,
            let continuation = waiting.removeValue(forKey: id)
        {
            continuation.resume(returning: object)
        }
        publish(message)
    }

    private func publish(_ message: CastV2Message) {
        for subscriber in subscribers.values { subscriber.yield(message) }
    }

    private func beat() async {
        let interval = configuration.heartbeatInterval
        let timeout = configuration.heartbeatTimeout
        while closeReason == nil {
            try? await Task.sleep(for: interval)
            guard closeReason == nil, !Task.isCancelled else { return }
            let silence = ContinuousClock.now - lastHeard
            if silence > timeout {
                closed("the device stopped answering: nothing heard for \(silence.formattedSeconds) (heartbeat timeout \(timeout.formattedSeconds))")
                return
            }
            try? await send(["type": "PING"], namespace: CastV2Namespace.heartbeat, to: "receiver-0")
        }
    }

    private func channelDidClose() { isChannelClosed = true }

    private func closed(_ reason: String) {
        guard closeReason == nil else { return }
        closeReason = reason
        heartbeatTask?.cancel()
        outbound?.finish()
        channelTask?.cancel()
        for continuation in waiting.values { continuation.resume(throwing: ConnectionError.closed(reason)) }
        waiting = [:]
        for subscriber in subscribers.values { subscriber.finish() }
        subscribers = [:]
    }
}

extension Duration {
    /// "2.5 s".
    var formattedSeconds: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return "\((seconds * 10).rounded() / 10) s"
    }
}
