import CueKit
import CueKitCast
import CueKitTestSupport
import HummingbirdTesting
import Testing

@testable import CueKitCastSender
@testable import CueKitServer

/// The receiver's sender socket at the message level: who is told, and with which `requestId`.
@Suite(.tags(.network), .skippableByTag) struct SenderSocketTests {
    /// The next `MEDIA_STATUS` (or error) on `messages`, read as JSON; nil when none comes within
    /// `limit`.
    static func next(_ messages: AsyncStream<String>, within limit: Duration = .seconds(10)) async -> CastJSONObject? {
        await withTaskGroup(of: CastJSONObject?.self) { group in
            group.addTask {
                for await text in messages {
                    if let object = (try? CastJSONDocument(parsing: text))?.value.objectValue { return object }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
    }

    @Test func aSenderThatHasJustConnectedIsToldOfTheNextLoad() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, _ in
            let url = "ws://127.0.0.1:\(try #require(client.port))/cast"
            let loader = try await RemoteMediaClient.connect(to: url)
            let media = RemoteMediaClientTests.media(base: "http://127.0.0.1")
            var missed: [Int] = []
            for round in 0..<100 {
                // Connected means registered: the load right after is told to the new sender.
                let listener = try await WebSocketMediaTransport.open(url)
                let messages = await listener.messages()
                try await loader.load(CastLoadRequest(media: media, activeTrackIDs: [round % 2 + 1]))
                let told = await Self.next(messages, within: .seconds(5))
                await listener.close()
                if told?["type"]?.stringValue != "MEDIA_STATUS" || told?["requestId"] != 0 {
                    // One miss fails the test; stop there rather than wait on every round.
                    missed.append(round)
                    break
                }
            }
            #expect(missed.isEmpty, "rounds in which the new sender was not told: \(missed)")
            await loader.disconnect()
        }
    }

    @Test func aRequestWithoutRequestIDIsAnsweredWithZero() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, server in
            let sender = try await WebSocketMediaTransport.open("ws://127.0.0.1:\(try #require(client.port))/cast")
            let messages = await sender.messages()
            let media = RemoteMediaClientTests.media(base: "http://127.0.0.1")
            try await sender.send(text: CastLoadRequest(requestID: 1, media: media, activeTrackIDs: [1]).json.serialized(.compact))
            let loaded = await Self.next(messages)
            #expect(loaded?["type"]?.stringValue == "MEDIA_STATUS")
            #expect(loaded?["requestId"] == 1)

            // No requestId: answered with 0, not with an id this sender used before.
            try await sender.send(text: #"{"type":"EDIT_TRACKS_INFO","activeTrackIds":[2]}"#)
            let switched = await Self.next(messages)
            #expect(switched?["type"]?.stringValue == "MEDIA_STATUS")
            #expect(switched?["requestId"] == 0)
            #expect(await server.session.status?.activeTrackIDs == [2])
            await sender.close()
        }
    }

    @Test @MainActor func aSessionOverTheWebSocketEndsOnceItsConnectionIsClosed() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        let port = try await withServer(folder) { client, server in
            let port = try #require(client.port)
            let loaded = try await Self.loadAndEnd(url: "ws://127.0.0.1:\(port)/cast")
            #expect(loaded == 1)
            // The server lets the sender go once its handler sees the close.
            for _ in 0..<500 where await server.session.senderCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(await server.session.senderCount == 0)
            return port
        }
        #expect(port > 0)
    }

    /// Loads through a session's main-actor call and ends the session; the media session id.
    @MainActor static func loadAndEnd(url: String) async throws -> Int? {
        let sessions = SessionManager()
        try await sessions.connect(to: url)
        let client = try #require(sessions.currentSession?.remoteMediaClient)
        let request = client.loadMedia(RemoteMediaClientTests.media(base: "http://127.0.0.1"))
        try await request.completion
        let id = await client.mediaStatus?.mediaSessionID
        // A refused request fails its completion with the receiver's error, and records it.
        let refused = switchOn([9], on: client)
        await #expect(throws: CastRequestError.self) { try await refused.completion }
        #expect(refused.error is CastRequestError)
        #expect(refused != request)
        await sessions.endSession()
        #expect(await client.closedReason != nil)
        return id
    }

    /// A synchronous caller, where Swift picks the main-actor call over the async one.
    @MainActor static func switchOn(_ ids: [Int], on client: RemoteMediaClient) -> CastRequest {
        client.setActiveTrackIDs(ids)
    }

    @Test func closingTheTransportReturnsOnceTheConnectionIsClosed() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, _ in
            let transport = try await WebSocketMediaTransport.open("ws://127.0.0.1:\(try #require(client.port))/cast")
            #expect(await transport.closeReason == nil)
            await transport.close()
            #expect(await transport.closeReason != nil)
        }
    }
}
