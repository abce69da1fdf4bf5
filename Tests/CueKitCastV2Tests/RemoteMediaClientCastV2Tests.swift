import CueKitCast
import CueKitCastSender
import CueKitServer
import CueKitTestSupport
import Testing

@testable import CueKitCastV2

/// One sender API, two transports: `RemoteMediaClient` over Cast v2 makes the same calls and hears
/// the same updates as over a CueKit receiver's WebSocket.
@Suite(.tags(.network), .skippableByTag) struct RemoteMediaClientCastV2Tests {
    static let media = MediaInformation(
        contentID: "http://127.0.0.1/movie.webm", contentType: "video/webm", streamType: .buffered,
        tracks: [
            MediaTrack(trackID: 1, type: .text, subtype: .subtitles, trackContentID: "http://127.0.0.1/en.vtt", trackContentType: "text/vtt", language: "en"),
            MediaTrack(trackID: 2, type: .text, subtype: .captions, trackContentID: "http://127.0.0.1/de.vtt", trackContentType: "text/vtt", language: "de"),
        ])

    @Test func loadSwitchRestyleAndHearAnotherSender() async throws {
        try await CastV2DeviceTests.withDevice { port, session, _ in
            // Nothing runs yet: joining without launching is refused, and says why.
            await #expect(throws: RemoteMediaClient.ConnectionError.self) {
                _ = try await RemoteMediaClient.connect(toDevice: "127.0.0.1", port: port, launching: false)
            }
            let first = try await RemoteMediaClient.connect(toDevice: "127.0.0.1", port: port)
            let loaded = try await first.load(CastLoadRequest(media: Self.media, activeTrackIDs: [1]))
            #expect(loaded.activeTrackIDs == [1])
            #expect(await first.mediaInformation?.contentID == "http://127.0.0.1/movie.webm")

            // A second sender joins the running session, as `cuekit cast tracks` does.
            let second = try await RemoteMediaClient.connect(toDevice: "127.0.0.1", port: port, launching: false)
            #expect(await second.mediaStatus?.activeTrackIDs == [1])
            let heard = await second.updates()
            let switched = try await first.setActiveTrackIDs([2])
            #expect(switched.activeTrackIDs == [2])
            var told: CastMediaStatus?
            for await update in heard {
                if case .mediaStatus(let status) = update {
                    told = status
                    break
                }
            }
            #expect(told?.activeTrackIDs == [2])

            let style = TextTrackStyle(foregroundColor: CastColor(red: 255, green: 255, blue: 0), edgeType: .outline)
            try await second.setTextTrackStyle(style)
            #expect(await second.mediaInformation?.textTrackStyle == style)
            #expect(await session.status?.media?.textTrackStyle == style)
            try await first.setActiveTrackIDs([])
            #expect(await session.status?.activeTrackIDs == [])
            await first.disconnect()
            await second.disconnect()
        }
    }

    @Test func aDeviceThatVanishesFailsTheClientsRequests() async throws {
        var client: RemoteMediaClient?
        try await CastV2DeviceTests.withDevice { port, _, running in
            client = try await RemoteMediaClient.connect(toDevice: "127.0.0.1", port: port)
            try await client!.load(CastLoadRequest(media: Self.media, activeTrackIDs: [1]))
            running.cancel()
        }
        let vanished = try #require(client)
        let failure = await CastV2DeviceTests.firstFailure { _ = try await vanished.requestStatus() }
        #expect(failure is RemoteMediaClient.ConnectionError, "\(String(describing: failure))")
    }
}
