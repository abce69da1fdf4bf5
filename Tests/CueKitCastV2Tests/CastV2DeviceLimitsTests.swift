import CueKitCast
import CueKitServer
import CueKitTestSupport
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import Testing

@testable import CueKitCastV2

/// The device's limits, each on its smallest case: sender ids per connection and per device, a
/// sender that stops reading, and a status too long for a frame.
@Suite(.tags(.network), .skippableByTag) struct CastV2DeviceLimitsTests {
    /// A device on a free port with CueKit's receiver and these limits; its log lines are kept.
    static func withDevice(
        sendersPerConnection: Int = 16, senders: Int = 128, queuedBytes: Int = 1 << 20,
        _ body: (Int, DeviceLog) async throws -> Void
    ) async throws {
        let log = DeviceLog()
        var configuration = CastV2Device.Configuration()
        configuration.port = 0
        configuration.maximumSendersPerConnection = sendersPerConnection
        configuration.maximumSenders = senders
        configuration.maximumQueuedBytesPerConnection = queuedBytes
        configuration.log = { line in log.lines.withLock { $0.append(line) } }
        let device = CastV2Device(configuration: configuration, application: CastReceiverSession())
        let port = try await device.start()
        let running = Task { try await device.run() }
        defer { running.cancel() }
        try await body(port, log)
    }

    /// A TLS connection that writes frames from any sender id. It reads only as its inbound stream
    /// is consumed (a few messages ahead): one whose stream is never read leaves what the device
    /// sends in the sockets, whose receive buffer is small.
    static func rawChannel(port: Int) async throws -> NIOAsyncChannel<CastV2Message, CastV2Message> {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        let context = try NIOSSLContext(configuration: tls)
        return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.so_rcvbuf), value: 4096)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: nil))
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(CastV2FrameDecoder()))
                    try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(CastV2FrameEncoder()))
                    return try NIOAsyncChannel<CastV2Message, CastV2Message>(wrappingChannelSynchronously: channel)
                }
            }
    }

    static func message(from sender: String, to destination: String = "receiver-0", _ namespace: String, _ text: String) -> CastV2Message {
        CastV2Message(sourceID: sender, destinationID: destination, namespace: namespace, payload: .text(text))
    }

    /// The lines the device logged.
    final class DeviceLog: Sendable {
        let lines = Mutex<[String]>([])
    }

    /// What a connection has read so far: one task reads the stream (which takes one reader only).
    final class Inbox: Sendable {
        let messages = Mutex<[CastV2Message]>([])

        /// An inbox filled from `inbound` until the channel closes.
        static func reading(_ inbound: NIOAsyncChannelInboundStream<CastV2Message>) -> Inbox {
            let inbox = Inbox()
            Task {
                do {
                    for try await message in inbound { inbox.messages.withLock { $0.append(message) } }
                } catch {}
            }
            return inbox
        }

        /// The messages read when `done` first says so, or after 10 s; they are taken out.
        func take(until done: ([CastV2Message]) -> Bool) async -> [CastV2Message] {
            for _ in 0..<1_000 {
                if let read = messages.withLock({ read -> [CastV2Message]? in
                    guard done(read) else { return nil }
                    defer { read = [] }
                    return read
                }) {
                    return read
                }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return messages.withLock { read in
                defer { read = [] }
                return read
            }
        }
    }

    @Test func senderIDsPastTheLimitOfAConnectionOrOfTheDeviceAreClosed() async throws {
        try await Self.withDevice(sendersPerConnection: 3, senders: 5) { port, log in
            let first = try await Self.rawChannel(port: port)
            try await first.executeThenClose { inbound, outbound in
                let inbox = Inbox.reading(inbound)
                for index in 0..<5 {
                    try await outbound.write(Self.message(from: "v\(index)", CastV2Namespace.connection, #"{"type":"CONNECT"}"#))
                }
                try await outbound.write(Self.message(from: "v0", CastV2Namespace.receiver, #"{"type":"GET_STATUS","requestId":1}"#))
                let read = await inbox.take { $0.contains { $0.namespace == CastV2Namespace.receiver } }
                let closed = read.filter { $0.namespace == CastV2Namespace.connection && $0.text == #"{"type":"CLOSE"}"# }
                #expect(closed.map(\.destinationID) == ["v3", "v4"], "\(read)")
                #expect(read.last?.destinationID == "v0")

                // Two more on a second connection reach the device's limit of 5; the third is closed.
                let second = try await Self.rawChannel(port: port)
                try await second.executeThenClose { inbound, outbound in
                    let inbox = Inbox.reading(inbound)
                    for index in 0..<3 {
                        try await outbound.write(
                            Self.message(from: "w\(index)", CastV2Namespace.receiver, #"{"type":"GET_STATUS","requestId":1}"#))
                    }
                    let read = await inbox.take { $0.count == 3 }
                    #expect(read.map(\.destinationID) == ["w0", "w1", "w2"])
                    #expect(read.map(\.namespace) == [CastV2Namespace.receiver, CastV2Namespace.receiver, CastV2Namespace.connection])
                }

                // A sender that closes its last virtual connection leaves room for another.
                try await outbound.write(Self.message(from: "v0", CastV2Namespace.connection, #"{"type":"CLOSE"}"#))
                try await outbound.write(Self.message(from: "v9", CastV2Namespace.receiver, #"{"type":"GET_STATUS","requestId":2}"#))
                let after = await inbox.take { $0.contains { $0.destinationID == "v9" } }
                #expect(after.last?.namespace == CastV2Namespace.receiver, "\(after)")
            }
            #expect(log.lines.withLock { $0.contains { $0.contains("past the limit of 3 on one connection") } })
            #expect(log.lines.withLock { $0.contains { $0.contains("past the limit of 5 on the device") } })
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aSenderThatStopsReadingIsDisconnectedAndHoldsUpNobody() async throws {
        try await Self.withDevice(queuedBytes: 64 * 1024) { port, log in
            var configuration = CastV2Connection.Configuration()
            configuration.requestTimeout = .seconds(10)
            let active = try await CastV2Connection.connect(host: "127.0.0.1", port: port, configuration: configuration)
            let transport = try await CastV2DeviceTests.launch(active)
            var load = CastV2DeviceTests.load
            var media = try #require(load["media"]?.objectValue)
            media["metadata"] = ["metadataType": 0, "title": .string(String(repeating: "t", count: 30_000))]
            load["media"] = .object(media)
            _ = try await active.request(load, namespace: CastV2Namespace.media, to: transport)

            // A sender asks for the 30 KB status 1,000 times and reads none of it: some 30 MB, more
            // than the sockets hold however far their buffers grow.
            let stuck = try await Self.rawChannel(port: port)
            try await stuck.executeThenClose { _, outbound in
                try await outbound.write(Self.message(from: "stuck", CastV2Namespace.connection, #"{"type":"CONNECT"}"#))
                try await outbound.write(Self.message(from: "stuck", CastV2Namespace.receiver, #"{"type":"GET_STATUS","requestId":1}"#))
                try await outbound.write(Self.message(from: "stuck", to: transport, CastV2Namespace.connection, #"{"type":"CONNECT"}"#))
                for index in 2...1_001 {
                    try await outbound.write(
                        Self.message(from: "stuck", to: transport, CastV2Namespace.media, #"{"type":"GET_STATUS","requestId":\#(index)}"#))
                }
                try await Task.sleep(for: .seconds(1))
                // The other sender goes on asking the platform and the application. (It does not
                // relaunch: that would end the stuck sender's link to the application, and with it
                // what the stuck sender is owed.)
                let started = ContinuousClock.now
                for _ in 0..<3 {
                    let answer = try await active.request(["type": "GET_STATUS"], namespace: CastV2Namespace.receiver, to: "receiver-0")
                    #expect(answer["type"]?.stringValue == "RECEIVER_STATUS")
                    let media = try await active.request(["type": "GET_STATUS"], namespace: CastV2Namespace.media, to: transport)
                    #expect(media["type"]?.stringValue == "MEDIA_STATUS")
                }
                // Each request has its own 10 s timeout; all six, far less than a minute even on a
                // loaded machine (a device held up by the stuck sender answers none).
                #expect(ContinuousClock.now - started < .seconds(30))
                let disconnected = await Self.eventually {
                    log.lines.withLock { $0.contains { $0.contains("the sender stopped reading") } }
                }
                // Whichever bound it passes first, the device's queue or the application's for
                // one sender, the connection is closed for it.
                #expect(disconnected, "\(log.lines.withLock { $0 })")
            }
            await active.close()
        }
    }

    @Test func aLoadWhoseStatusCannotFitInAFrameIsRefused() async throws {
        try await Self.withDevice { port, _ in
            let connection = try await CastV2Connection.connect(host: "127.0.0.1", port: port)
            let transport = try await CastV2DeviceTests.launch(connection)
            var load = CastV2DeviceTests.load
            // A frame of some 65,300 bytes, within 64 KiB; the status, with its own members, is not
            // far from it and past the room a status has.
            var media = try #require(load["media"]?.objectValue)
            media["metadata"] = ["metadataType": 0, "title": .string(String(repeating: "t", count: 64_700))]
            load["media"] = .object(media)
            let refused = try await connection.request(load, namespace: CastV2Namespace.media, to: transport)
            #expect(refused["type"]?.stringValue == "LOAD_FAILED", "\(refused["type"] ?? .null)")
            #expect(refused["reason"]?.stringValue == "INVALID_PARAMS")
            let message = refused["customData"]?.objectValue?["message"]?.stringValue ?? ""
            #expect(message.contains("the media status would be"), "\(message)")
            // The channel still works: nothing too long was sent, nothing was loaded.
            let status = try await connection.request(["type": "GET_STATUS"], namespace: CastV2Namespace.media, to: transport)
            #expect(status["type"]?.stringValue == "MEDIA_STATUS")
            #expect(status["status"]?.arrayValue == [])
            await connection.close()
        }
    }

    /// Whether `condition` holds within 30 s (a loaded machine runs the device slowly; a passing
    /// condition returns at once).
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<600 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }
}
