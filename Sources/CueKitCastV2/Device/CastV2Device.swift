import CueKitCast
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// The device end of the Cast v2 channel: a TLS listener that answers the connection, heartbeat
/// and receiver namespaces as a Cast device does, and runs one application, the Default Media
/// Receiver (`CC1AD845`), whose media namespace goes to a ``CastMediaApplication``.
///
/// `cuekit cast emulate` is this device with CueKit's receiver as its media application: senders
/// (CueKit's, pychromecast, …) connect to it by host and port as to a real device.
public actor CastV2Device {
    /// Where it listens and what it says it is.
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        /// 0 picks a free port (see ``port``).
        public var port = 8009
        /// The device's name, in its certificate.
        public var name = "CueKit Cast emulator"
        /// A sender silent for this long (no message, not even a `PING`) is disconnected.
        public var heartbeatTimeout: Duration = .seconds(15)
        /// Told why each sender's connection ended (`cuekit cast emulate` writes it to standard error).
        public var log: @Sendable (String) -> Void = { _ in }
        /// The most sender ids one connection may use (each `source_id` is a virtual connection's
        /// end, and a listener the application tells of every change): past it, a new sender id is
        /// answered `CLOSE` and its messages are dropped.
        public var maximumSendersPerConnection = 16
        /// The most sender ids over all connections, with the same answer past it.
        public var maximumSenders = 128
        /// The most bytes waiting to be written to one connection. Messages to a connection wait in
        /// its own queue, never in the device's state; a sender that stops reading is disconnected
        /// when its queue passes this.
        public var maximumQueuedBytesPerConnection = 1 << 20

        public init() {}
    }

    /// The only application it launches.
    public static let defaultMediaReceiverID = "CC1AD845"

    public let configuration: Configuration
    private let application: any CastMediaApplication
    private var server: NIOAsyncChannel<NIOAsyncChannel<CastV2Message, CastV2Message>, Never>?
    /// The launched application's session, if any.
    private var session: (id: String, transportID: String)?
    private var connections: [Int: DeviceConnection] = [:]
    private var nextConnection = 1
    /// The sender ids each connection uses, and the virtual connections each has open.
    private var senders: [Int: [String: Set<String>]] = [:]
    private var senderCount = 0

    public init(configuration: Configuration = Configuration(), application: any CastMediaApplication) {
        self.configuration = configuration
        self.application = application
    }

    /// Binds the port; returns the port bound. Then ``run()`` serves.
    public func start() async throws -> Int {
        let identity = try SelfSignedIdentity(commonName: configuration.name)
        let tls = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(identity.certificate)], privateKey: .privateKey(identity.privateKey))
        let context = try NIOSSLContext(configuration: tls)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(CastV2FrameDecoder()))
                    try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(CastV2FrameEncoder()))
                    return try NIOAsyncChannel<CastV2Message, CastV2Message>(wrappingChannelSynchronously: channel)
                }
            }
        self.server = server
        return server.channel.localAddress?.port ?? configuration.port
    }

    /// Serves connections until the task is cancelled.
    public func run() async throws {
        guard let server else { throw CastV2Connection.ConnectionError.closed("the device is not started") }
        try await withThrowingDiscardingTaskGroup { group in
            try await withTaskCancellationHandler {
                try await server.executeThenClose { inbound in
                    for try await channel in inbound {
                        group.addTask { await self.serve(channel) }
                    }
                }
            } onCancel: {
                server.channel.close(promise: nil)
            }
        }
    }

    // MARK: One sender's channel

    private func serve(_ channel: NIOAsyncChannel<CastV2Message, CastV2Message>) async {
        let id = nextConnection
        nextConnection += 1
        let peer = channel.channel.remoteAddress.map { "\($0)" } ?? "a sender"
        do {
            try await serveOpened(channel, id: id)
            configuration.log("the connection from \(peer) closed")
        } catch {
            configuration.log("the connection from \(peer) failed: \(error)")
        }
    }

    private func serveOpened(_ channel: NIOAsyncChannel<CastV2Message, CastV2Message>, id: Int) async throws {
        let timeout = configuration.heartbeatTimeout
        let (queued, queue) = AsyncStream<CastV2Message>.makeStream()
        let connection = DeviceConnection(
            queue: queue, channel: channel.channel, byteLimit: configuration.maximumQueuedBytesPerConnection, application: application)
        connections[id] = connection
        senders[id] = [:]
        defer {
            connections[id] = nil
            senderCount -= senders.removeValue(forKey: id)?.count ?? 0
            queue.finish()
        }
        do {
            try await serve(channel, connection: connection, id: id, timeout: timeout, queued: queued)
        } catch {
            if let reason = await connection.closeReason { throw CastV2Connection.ConnectionError.closed(reason) }
            throw error
        }
        if let reason = await connection.closeReason { throw CastV2Connection.ConnectionError.closed(reason) }
    }

    private func serve(
        _ channel: NIOAsyncChannel<CastV2Message, CastV2Message>, connection: DeviceConnection, id: Int, timeout: Duration,
        queued: AsyncStream<CastV2Message>
    ) async throws {
        try await channel.executeThenClose { inbound, outbound in
            try await withThrowingTaskGroup { group in
                group.addTask {
                    for try await message in inbound {
                        await connection.heard()
                        await self.handle(message, on: connection, id: id)
                    }
                }
                group.addTask {
                    // The only writer of the channel: a sender that does not read holds this task
                    // alone, never the device. A sender that closes while a message is on its way
                    // has ended the connection, cleanly.
                    do {
                        for await message in queued {
                            try await outbound.write(message)
                            await connection.wrote(message)
                        }
                    } catch let error as ChannelError where error == .ioOnClosedChannel || error == .alreadyClosed {
                        return
                    }
                }
                group.addTask {
                    // A sender that falls silent is gone.
                    while true {
                        try await Task.sleep(for: .seconds(1))
                        let silence = await connection.silence
                        if silence > timeout { throw CastV2Connection.ConnectionError.closed("the sender was silent for \(silence.formattedSeconds)") }
                    }
                }
                _ = try await group.next()
                group.cancelAll()
            }
            await connection.closeApplicationLinks()
        }
    }

    /// Admits the sender of a message: known already, or new within the limits. A new sender past
    /// them is answered `CLOSE` (its first refusal on the connection logged) and not admitted.
    private func admit(_ message: CastV2Message, type: String, on connection: DeviceConnection, id: Int) async -> Bool {
        let sender = message.sourceID
        if senders[id]?[sender] != nil { return true }
        if message.namespace == CastV2Namespace.connection, type == "CLOSE" { return false }
        let onConnection = senders[id]?.count ?? 0
        guard onConnection < configuration.maximumSendersPerConnection, senderCount < configuration.maximumSenders else {
            await connection.refuse(sender, from: message.destinationID)
            if await connection.firstRefusal() {
                let limit =
                    onConnection >= configuration.maximumSendersPerConnection
                    ? "\(configuration.maximumSendersPerConnection) on one connection" : "\(configuration.maximumSenders) on the device"
                configuration.log("a sender id past the limit of \(limit) was refused with CLOSE (and every later one on this connection)")
            }
            return false
        }
        senders[id]?[sender] = []
        senderCount += 1
        return true
    }

    /// Records a `CONNECT` or a `CLOSE` of a virtual connection; a sender whose last one closes
    /// leaves (its sender id no longer counts).
    private func track(_ type: String, from sender: String, to destination: String, on connection: DeviceConnection, id: Int) async {
        if type == "CONNECT" {
            guard destination == "receiver-0" || destination == session?.transportID else { return }
            senders[id]?[sender]?.insert(destination)
        } else if type == "CLOSE" {
            senders[id]?[sender]?.remove(destination)
            guard senders[id]?[sender]?.isEmpty ?? false else { return }
            senders[id]?[sender] = nil
            senderCount -= 1
            await connection.forget(sender)
        }
    }

    private func handle(_ message: CastV2Message, on connection: DeviceConnection, id: Int) async {
        guard let text = message.text, let object = (try? CastJSONDocument(parsing: text))?.value.objectValue,
            let type = object["type"]?.stringValue
        else { return }
        guard await admit(message, type: type, on: connection, id: id) else { return }
        let requestID = object["requestId"] ?? 0
        switch message.namespace {
        case CastV2Namespace.connection:
            if type == "CONNECT" {
                if let session, message.destinationID == session.transportID {
                    await connection.linkApplication(sender: message.sourceID, transportID: session.transportID)
                }
            } else if type == "CLOSE", message.destinationID != "receiver-0" {
                await connection.unlinkApplication(sender: message.sourceID)
            }
            await track(type, from: message.sourceID, to: message.destinationID, on: connection, id: id)
        case CastV2Namespace.heartbeat:
            if type == "PING" { await connection.send(["type": "PONG"], namespace: message.namespace, from: message.destinationID, to: message.sourceID) }
        case CastV2Namespace.receiver:
            switch type {
            case "GET_STATUS":
                await connection.send(receiverStatus(requestID: requestID), namespace: message.namespace, from: "receiver-0", to: message.sourceID)
            case "LAUNCH":
                guard object["appId"]?.stringValue == Self.defaultMediaReceiverID else {
                    await connection.send(["type": "LAUNCH_ERROR", "requestId": requestID, "reason": "NOT_FOUND"], namespace: message.namespace, from: "receiver-0", to: message.sourceID)
                    return
                }
                if session == nil {
                    let id = UUID().uuidString.lowercased()
                    session = (id, "web-\(id.prefix(8))")
                }
                await broadcastReceiverStatus(to: message.sourceID, on: connection, requestID: requestID)
            case "STOP":
                if let stopped = session {
                    session = nil
                    for other in connections.values { await other.closeApplicationLinks(transportID: stopped.transportID) }
                }
                await broadcastReceiverStatus(to: message.sourceID, on: connection, requestID: requestID)
            default:
                await connection.send(["type": "INVALID_REQUEST", "requestId": requestID, "reason": "INVALID_COMMAND"], namespace: message.namespace, from: "receiver-0", to: message.sourceID)
            }
        case CastV2Namespace.media:
            guard let session, message.destinationID == session.transportID else { return }
            await connection.linkApplication(sender: message.sourceID, transportID: session.transportID)
            await connection.forward(text, from: message.sourceID)
        default:
            break
        }
    }

    /// `RECEIVER_STATUS` to the sender that asked (its `requestId`) and to every other sender
    /// (request id 0), as the device's state changed.
    private func broadcastReceiverStatus(to asker: String, on askerConnection: DeviceConnection, requestID: CastJSONValue) async {
        await askerConnection.send(receiverStatus(requestID: requestID), namespace: CastV2Namespace.receiver, from: "receiver-0", to: asker)
        for connection in connections.values {
            for sender in await connection.platformSenders where !(connection === askerConnection && sender == asker) {
                await connection.send(receiverStatus(requestID: 0), namespace: CastV2Namespace.receiver, from: "receiver-0", to: sender)
            }
        }
    }

    private func receiverStatus(requestID: CastJSONValue) -> CastJSONObject {
        var status: CastJSONObject = ["volume": ["level": 1.0, "muted": false, "controlType": "attenuation", "stepInterval": 0.05]]
        if let session {
            status["applications"] = [
                [
                    "appId": .string(Self.defaultMediaReceiverID), "displayName": "Default Media Receiver", "isIdleScreen": false,
                    "launchedFromCloud": false, "namespaces": [["name": .string(CastV2Namespace.media)]],
                    "sessionId": .string(session.id), "statusText": "Ready To Cast", "transportId": .string(session.transportID),
                    "universalAppId": .string(Self.defaultMediaReceiverID),
                ]
            ]
        } else {
            status["applications"] = []
        }
        return ["type": "RECEIVER_STATUS", "requestId": requestID, "status": .object(status)]
    }
}
