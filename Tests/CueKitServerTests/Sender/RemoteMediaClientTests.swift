import CueKit
import CueKitCast
import CueKitCastSender
import CueKitTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import CueKitServer

/// Two Swift senders on one live receiver.
@Suite(.tags(.network), .skippableByTag) struct RemoteMediaClientTests {
    /// The media of the served folder: English (WebVTT) and German (SubRip converted on request).
    static func media(base: String) -> MediaInformation {
        MediaInformation(
            contentID: "\(base)/movie.webm", contentType: "video/webm", streamType: .buffered,
            tracks: [
                MediaTrack(
                    trackID: 1, type: .text, subtype: .subtitles, trackContentID: "\(base)/english.vtt", trackContentType: "text/vtt",
                    name: "English", language: "en"),
                MediaTrack(
                    trackID: 2, type: .text, subtype: .captions, trackContentID: "\(base)/tracks/german.srt?as=vtt",
                    trackContentType: "text/vtt", name: "Deutsch", language: "de"),
            ])
    }

    /// Collects one client's updates as they come.
    actor Recorder {
        private(set) var updates: [RemoteMediaClient.Update] = []
        func record(_ update: RemoteMediaClient.Update) { updates.append(update) }
        func take() -> [RemoteMediaClient.Update] {
            defer { updates = [] }
            return updates
        }

        /// Waits until `count` updates have arrived (at most 5 s), then takes them.
        func take(count: Int) async throws -> [RemoteMediaClient.Update] {
            for _ in 0..<500 where updates.count < count { try await Task.sleep(for: .milliseconds(10)) }
            return take()
        }
    }

    static func listen(_ client: RemoteMediaClient) async -> (Recorder, Task<Void, Never>) {
        let recorder = Recorder()
        let stream = await client.updates()
        let task = Task {
            for await update in stream { await recorder.record(update) }
        }
        return (recorder, task)
    }

    static func kinds(_ updates: [RemoteMediaClient.Update]) -> [String] {
        updates.map {
            switch $0 {
            case .mediaStatus: "status"
            case .mediaMetadata: "metadata"
            }
        }
    }

    @Test func twoSendersStayInSyncThroughLoadTrackSwitchesAndStyles() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, server in
            let port = try #require(client.port)
            let first = try await RemoteMediaClient.connect(to: "ws://127.0.0.1:\(port)/cast")
            let second = try await RemoteMediaClient.connect(to: "ws://127.0.0.1:\(port)/cast")
            let (firstUpdates, firstTask) = await Self.listen(first)
            let (secondUpdates, secondTask) = await Self.listen(second)
            defer {
                firstTask.cancel()
                secondTask.cancel()
            }
            let media = Self.media(base: "http://127.0.0.1:\(port)")

            let loaded = try await first.load(CastLoadRequest(media: media, activeTrackIDs: [1]))
            #expect(loaded.activeTrackIDs == [1])
            for recorder in [firstUpdates, secondUpdates] {
                #expect(Self.kinds(try await recorder.take(count: 2)) == ["metadata", "status"])
            }
            #expect(await second.mediaInformation?.tracks?.count == 2)

            // A track switch: one status each, no metadata.
            try await second.setActiveTrackIDs([2])
            for recorder in [firstUpdates, secondUpdates] {
                let updates = try await recorder.take(count: 1)
                try await Task.sleep(for: .milliseconds(100))
                let late = await recorder.take()
                #expect(Self.kinds(updates + late) == ["status"])
                guard case .mediaStatus(let status) = updates.first else { continue }
                #expect(status.activeTrackIDs == [2])
                #expect(status.media == media)
            }
            #expect(await server.session.status?.activeTrackIDs == [2])

            try await first.setActiveTrackIDs([])
            #expect(await server.session.status?.activeTrackIDs == [])
            _ = try await firstUpdates.take(count: 1)
            _ = try await secondUpdates.take(count: 1)

            // A style: metadata then status for each, even the second time with the same style.
            let style = TextTrackStyle(foregroundColor: CastColor(red: 255, green: 255, blue: 0), fontScale: 1.25)
            for _ in 0..<2 {
                try await first.setTextTrackStyle(style)
                for recorder in [firstUpdates, secondUpdates] {
                    let updates = try await recorder.take(count: 2)
                    #expect(Self.kinds(updates) == ["metadata", "status"])
                    if case .mediaMetadata(let updated) = updates.first { #expect(updated.textTrackStyle == style) }
                }
            }

            // New tracks in an EDIT_TRACKS_INFO: refused, and nothing changes.
            let before = await server.session.status
            let answer = try await second.send(
                text: #"{"type":"EDIT_TRACKS_INFO","requestId":900,"tracks":[{"trackId":3,"type":"TEXT","trackContentId":"x.vtt"}],"activeTrackIds":[3]}"#,
                requestID: 900)
            #expect(answer.contains(#""type":"INVALID_REQUEST""#))
            #expect(await server.session.status == before)
            do {
                try await second.setActiveTrackIDs([42])
                Issue.record("an unknown track id was accepted")
            } catch let error as CastRequestError {
                #expect(error.type == .invalidRequest)
                #expect(error.reason == .invalidParams)
                #expect(error.message.contains("42"))
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(await firstUpdates.take().isEmpty)

            let status = try await second.requestStatus()
            #expect(status?.media?.textTrackStyle == style)
            await first.disconnect()
            await second.disconnect()
        }
    }

    /// A listener in the iOS shape.
    final class Listener: RemoteMediaClientListener, @unchecked Sendable {
        let lock = NSLock()
        var events: [String] = []
        func remoteMediaClient(_ client: RemoteMediaClient, didUpdateMediaStatus status: CastMediaStatus) {
            lock.withLock { events.append("status \(status.activeTrackIDs)") }
        }
        func remoteMediaClient(_ client: RemoteMediaClient, didUpdateMediaMetadata media: MediaInformation) {
            lock.withLock { events.append("metadata") }
        }
    }

    @Test func listenersAreToldInTheSDKsOrder() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, _ in
            let port = try #require(client.port)
            let sender = try await RemoteMediaClient.connect(to: "ws://127.0.0.1:\(port)/cast")
            let listener = Listener()
            await sender.add(listener)
            try await sender.load(CastLoadRequest(media: Self.media(base: "http://127.0.0.1:\(port)"), activeTrackIDs: [2]))
            try await sender.setActiveTrackIDs([1])
            #expect(listener.lock.withLock { listener.events } == ["metadata", "status [2]", "status [1]"])
            await sender.disconnect()
        }
    }

    @Test func connectingToNothingFailsWithAClearError() async throws {
        await #expect(throws: RemoteMediaClient.ConnectionError.self) {
            _ = try await RemoteMediaClient.connect(to: "ws://127.0.0.1:1/cast")
        }
    }
}
