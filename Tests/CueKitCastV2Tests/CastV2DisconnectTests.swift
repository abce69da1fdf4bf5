import CueKitCast
import CueKitCastSender
import CueKitServer
import CueKitTestSupport
import Synchronization
import Testing

@testable import CueKitCastV2

/// Ending a Cast v2 session: the virtual connections are closed, then TLS, before the call returns.
@Suite(.tags(.network), .skippableByTag) struct CastV2DisconnectTests {
    @Test func closeReturnsOnceTheChannelIsClosed() async throws {
        try await CastV2DeviceTests.withDevice { port, _, _ in
            let connection = try await CastV2Connection.connect(host: "127.0.0.1", port: port)
            _ = try await CastV2DeviceTests.launch(connection)
            await connection.close()
            #expect(await connection.isChannelClosed)
            #expect(await connection.closeReason == "closed by this sender")
        }
    }

    @Test func aDisconnectedSenderLeavesTheDeviceAfterACleanShutdown() async throws {
        let log = Mutex<[String]>([])
        let session = CastReceiverSession()
        var configuration = CastV2Device.Configuration()
        configuration.port = 0
        configuration.log = { line in log.withLock { $0.append(line) } }
        let device = CastV2Device(configuration: configuration, application: session)
        let port = try await device.start()
        let running = Task { try await device.run() }
        defer { running.cancel() }

        let client = try await RemoteMediaClient.connect(toDevice: "127.0.0.1", port: port)
        try await client.load(CastLoadRequest(media: RemoteMediaClientCastV2Tests.media, activeTrackIDs: [1]))
        #expect(await session.senderCount == 1)
        await client.disconnect()
        // The device ends its side once it has read the CLOSE and the TLS close: it logs the end
        // of the connection, a clean one, and has let the sender go.
        let started = ContinuousClock.now
        while log.withLock({ $0.isEmpty }), ContinuousClock.now - started < .seconds(30) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let lines = log.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.hasSuffix("closed") == true, "\(lines)")
        #expect(await session.senderCount == 0)
    }
}
