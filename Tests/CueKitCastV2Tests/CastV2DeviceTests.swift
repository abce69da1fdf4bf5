import CueKitCast
import CueKitServer
import CueKitTestSupport
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Testing

@testable import CueKitCastV2

/// CueKit's sender end against its device end, on loopback: the receiver namespace, the media
/// application, every sender told of changes, and the faults (a device that vanishes, one that
/// falls silent).
@Suite(.tags(.network), .skippableByTag) struct CastV2DeviceTests {
    /// A device on a free port with CueKit's receiver; stopped when `body` returns.
    static func withDevice(heartbeatTimeout: Duration = .seconds(15), _ body: (Int, CastReceiverSession, Task<Void, any Error>) async throws -> Void) async throws {
        let session = CastReceiverSession()
        var configuration = CastV2Device.Configuration()
        configuration.port = 0
        configuration.heartbeatTimeout = heartbeatTimeout
        let device = CastV2Device(configuration: configuration, application: session)
        let port = try await device.start()
        let running = Task { try await device.run() }
        defer { running.cancel() }
        try await body(port, session, running)
    }

    /// The error `request` throws first, tried every 100 ms for 5 s (nil if it never fails).
    static func firstFailure(of request: () async throws -> Void) async -> (any Error)? {
        for _ in 0..<50 {
            do {
                try await request()
                try await Task.sleep(for: .milliseconds(100))
            } catch {
                return error
            }
        }
        return nil
    }

    static func launch(_ connection: CastV2Connection) async throws -> String {
        let status = try await connection.request(["type": "LAUNCH", "appId": "CC1AD845"], namespace: CastV2Namespace.receiver, to: "receiver-0")
        #expect(status["type"]?.stringValue == "RECEIVER_STATUS")
        let application = try #require(status["status"]?.objectValue?["applications"]?.arrayValue?.first?.objectValue)
        #expect(application["appId"]?.stringValue == "CC1AD845")
        return try #require(application["transportId"]?.stringValue)
    }

    static let load: CastJSONObject = [
        "type": "LOAD",
        "media": [
            "contentId": "http://127.0.0.1/movie.mp4", "contentType": "video/mp4", "streamType": "BUFFERED",
            "tracks": [
                ["trackId": 1, "type": "TEXT", "subtype": "SUBTITLES", "trackContentId": "http://127.0.0.1/en.vtt", "trackContentType": "text/vtt", "language": "en"],
                ["trackId": 2, "type": "TEXT", "subtype": "SUBTITLES", "trackContentId": "http://127.0.0.1/fr.vtt", "trackContentType": "text/vtt", "language": "fr"],
            ],
        ],
        "activeTrackIds": [1],
    ]

    @Test func aSenderLaunchesTheMediaReceiverLoadsAndSwitchesTracks() async throws {
        try await Self.withDevice { port, session, _ in
            let connection = try await CastV2Connection.connect(host: "127.0.0.1", port: port)
            let idle = try await connection.request(["type": "GET_STATUS"], namespace: CastV2Namespace.receiver, to: "receiver-0")
            #expect(idle["status"]?.objectValue?["applications"]?.arrayValue == [])
            let refused = try await connection.request(["type": "LAUNCH", "appId": "E8C28D3C"], namespace: CastV2Namespace.receiver, to: "receiver-0")
            #expect(refused["type"]?.stringValue == "LAUNCH_ERROR")

            let transport = try await Self.launch(connection)
            let loaded = try await connection.request(Self.load, namespace: CastV2Namespace.media, to: transport)
            #expect(loaded["type"]?.stringValue == "MEDIA_STATUS")
            let status = try #require(loaded["status"]?.arrayValue?.first?.objectValue)
            #expect(status["activeTrackIds"]?.arrayValue == [1])
            #expect(status["media"]?.objectValue?["contentId"]?.stringValue == "http://127.0.0.1/movie.mp4")
            let sessionID = try #require(status["mediaSessionId"])
            #expect(await session.status?.activeTrackIDs == [1])

            let switched = try await connection.request(
                ["type": "EDIT_TRACKS_INFO", "mediaSessionId": sessionID, "activeTrackIds": [2]], namespace: CastV2Namespace.media, to: transport)
            #expect(switched["status"]?.arrayValue?.first?.objectValue?["activeTrackIds"]?.arrayValue == [2])
            // Only the status changed: Cast sends media again only when it changes.
            #expect(switched["status"]?.arrayValue?.first?.objectValue?["media"] == nil)
            #expect(await session.status?.activeTrackIDs == [2])
            await connection.close()
        }
    }

    @Test func everySenderIsToldOfAnotherSendersChange() async throws {
        try await Self.withDevice { port, _, _ in
            let first = try await CastV2Connection.connect(host: "127.0.0.1", port: port)
            let second = try await CastV2Connection.connect(host: "127.0.0.1", port: port)
            let transport = try await Self.launch(first)
            _ = try await second.request(["type": "GET_STATUS"], namespace: CastV2Namespace.media, to: transport)
            let heard = await second.messages()
            _ = try await first.request(Self.load, namespace: CastV2Namespace.media, to: transport)
            var told: CastJSONObject?
            for await message in heard where message.namespace == CastV2Namespace.media {
                told = (try? CastJSONDocument(parsing: message.text ?? ""))?.value.objectValue
                break
            }
            #expect(told?["type"]?.stringValue == "MEDIA_STATUS")
            #expect(told?["requestId"] == 0)
            #expect(told?["status"]?.arrayValue?.first?.objectValue?["activeTrackIds"]?.arrayValue == [1])
            await first.close()
            await second.close()
        }
    }

    @Test func aDeviceThatVanishesFailsThePendingRequestAndSaysSo() async throws {
        var connection: CastV2Connection?
        try await Self.withDevice { port, _, running in
            connection = try await CastV2Connection.connect(host: "127.0.0.1", port: port)
            _ = try await Self.launch(connection!)
            running.cancel()
        }
        let vanished = try #require(connection)
        // The device's channels close with its server: the next request fails, and why is told.
        let failure = await Self.firstFailure {
            _ = try await vanished.request(["type": "GET_STATUS"], namespace: CastV2Namespace.receiver, to: "receiver-0")
        }
        #expect(failure is CastV2Connection.ConnectionError)
        #expect(await vanished.closeReason != nil)
    }

    @Test func aSilentDeviceIsDetectedWithinTheHeartbeatTimeout() async throws {
        // A TLS server that takes frames and never answers, not even PONG.
        let identity = try SelfSignedIdentity(commonName: "silent")
        let context = try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: [.certificate(identity.certificate)], privateKey: .privateKey(identity.privateKey)))
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        defer { server.close(promise: nil) }
        var configuration = CastV2Connection.Configuration()
        configuration.heartbeatInterval = .milliseconds(200)
        configuration.heartbeatTimeout = .seconds(1)
        let started = ContinuousClock.now
        let connection = try await CastV2Connection.connect(host: "127.0.0.1", port: server.localAddress!.port!, configuration: configuration)
        // Detected at the first beat past the timeout: about 1.2 s here. The wait allows ten
        // minutes: the heartbeat runs on the shared concurrency pool, which the synchronous tests
        // running beside this one hold for as long as they run (over a minute in a full run on two
        // cores), and the beat comes only once they let it. A heartbeat that never closes the
        // connection still fails the test.
        while await connection.closeReason == nil, ContinuousClock.now - started < .seconds(600) {
            try await Task.sleep(for: .milliseconds(100))
        }
        let reason = try #require(await connection.closeReason)
        #expect(reason.contains("stopped answering"), "\(reason)")
        #expect(ContinuousClock.now - started > .seconds(1))
    }

    @Test func aMalformedFrameClosesTheDevicesChannel() async throws {
        try await Self.withDevice { port, _, _ in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            let context = try NIOSSLContext(configuration: tls)
            let closed = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: nil)) }
                }
                .connect(host: "127.0.0.1", port: port).get()
            var frame = ByteBuffer()
            frame.writeInteger(UInt32(1 << 20), endianness: .big)
            frame.writeBytes([UInt8](repeating: 0, count: 64))
            try await closed.writeAndFlush(frame)
            // The device refuses the frame and closes the connection.
            try await withThrowingTaskGroup { group in
                group.addTask { try await closed.closeFuture.get() }
                group.addTask {
                    // Generous: a loaded test run can starve the concurrency pool for seconds.
                    try await Task.sleep(for: .seconds(30))
                    throw CastV2Connection.ConnectionError.closed("the device kept the connection open")
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }
}
