import CueKit
import CueKitCast
import Testing

@testable import CueKitServer

/// The session's messages to each sender, read straight from its streams.
@Suite struct CastReceiverSessionTests {
    static let load = """
        {"type":"LOAD","requestId":7,"media":{"contentId":"http://127.0.0.1:1/m.webm","contentType":"video/webm","streamType":"BUFFERED",
        "tracks":[{"trackId":1,"type":"TEXT","subtype":"SUBTITLES","trackContentId":"http://127.0.0.1:1/en.vtt","trackContentType":"text/vtt","language":"en"},
        {"trackId":2,"type":"TEXT","subtype":"CAPTIONS","trackContentId":"http://127.0.0.1:1/de.vtt","trackContentType":"text/vtt","language":"de"}]},
        "activeTrackIds":[1]}
        """

    /// Reads what has been sent to a sender so far (the session yields synchronously).
    final class Inbox {
        var iterator: AsyncStream<String>.AsyncIterator
        init(_ stream: AsyncStream<String>) { iterator = stream.makeAsyncIterator() }

        func next() async -> CastJSONObject? {
            guard let text = await iterator.next() else { return nil }
            return try? CastJSONDocument(parsing: text).value.objectValue
        }
    }

    @Test func everySenderHearsALoadWithMediaAndOnlyTheAskerGetsItsRequestID() async throws {
        let session = CastReceiverSession()
        let (first, firstStream) = await session.connectSender()
        let (_, secondStream) = await session.connectSender()
        let firstInbox = Inbox(firstStream)
        let secondInbox = Inbox(secondStream)
        await session.receive(Self.load, from: first)
        let toAsker = try #require(await firstInbox.next())
        let toOther = try #require(await secondInbox.next())
        #expect(toAsker["type"] == "MEDIA_STATUS")
        #expect(toAsker["requestId"] == 7)
        #expect(toOther["requestId"] == 0)
        for message in [toAsker, toOther] {
            let status = try #require(message["status"]?.arrayValue?.first?.objectValue)
            #expect(status["activeTrackIds"] == [1])
            #expect(status["media"] != nil)
            #expect(status["mediaSessionId"] == 1)
        }
    }

    @Test func activeTrackChangesCarryNoMediaAndStyleChangesDoEvenWhenUnchanged() async throws {
        let session = CastReceiverSession()
        let (sender, stream) = await session.connectSender()
        let inbox = Inbox(stream)
        await session.receive(Self.load, from: sender)
        _ = await inbox.next()
        await session.receive(#"{"type":"EDIT_TRACKS_INFO","requestId":8,"activeTrackIds":[2]}"#, from: sender)
        let switched = try #require(await inbox.next()?["status"]?.arrayValue?.first?.objectValue)
        #expect(switched["activeTrackIds"] == [2])
        #expect(switched["media"] == nil)
        for _ in 0..<2 {
            await session.receive(##"{"type":"EDIT_TRACKS_INFO","requestId":9,"textTrackStyle":{"foregroundColor":"#FFFF00FF"}}"##, from: sender)
            let styled = try #require(await inbox.next()?["status"]?.arrayValue?.first?.objectValue)
            #expect(styled["media"]?.objectValue?["textTrackStyle"] == ["foregroundColor": "#FFFF00FF"])
        }
    }

    @Test func aRefusedRequestIsAnsweredToItsSenderAloneAndChangesNothing() async throws {
        let session = CastReceiverSession()
        let (asker, askerStream) = await session.connectSender()
        let (_, otherStream) = await session.connectSender()
        let askerInbox = Inbox(askerStream)
        await session.receive(Self.load, from: asker)
        _ = await askerInbox.next()
        let before = await session.status
        await session.receive(
            #"{"type":"EDIT_TRACKS_INFO","requestId":11,"tracks":[{"trackId":3,"type":"TEXT"}],"activeTrackIds":[3]}"#, from: asker)
        let refusal = try #require(await askerInbox.next())
        #expect(refusal["type"] == "INVALID_REQUEST")
        #expect(refusal["requestId"] == 11)
        #expect(await session.status == before)
        await session.receive(#"{"type":"EDIT_TRACKS_INFO","requestId":12,"mediaSessionId":5,"activeTrackIds":[]}"#, from: asker)
        #expect(try #require(await askerInbox.next())["reason"] == "INVALID_MEDIA_SESSION_ID")
        await session.receive("not json", from: asker)
        #expect(try #require(await askerInbox.next())["reason"] == "INVALID_COMMAND")
        // The other sender heard the load only.
        await session.disconnectSender(asker)
        var otherInbox = otherStream.makeAsyncIterator()
        #expect(await otherInbox.next() != nil)
        let (probe, _) = await session.connectSender()
        await session.receive(#"{"type":"PAUSE","requestId":1}"#, from: probe)
        let afterPause = await otherInbox.next().flatMap { try? CastJSONDocument(parsing: $0).value.objectValue }
        #expect(afterPause?["status"]?.arrayValue?.first?.objectValue?["playerState"] == "PAUSED")
    }

    @Test func languageWinsOverIDsAndEnableTextTracksSwitchesThemOff() async throws {
        let session = CastReceiverSession()
        let (sender, stream) = await session.connectSender()
        let inbox = Inbox(stream)
        await session.receive(Self.load, from: sender)
        _ = await inbox.next()
        await session.receive(#"{"type":"EDIT_TRACKS_INFO","requestId":2,"language":"de-DE","activeTrackIds":[1]}"#, from: sender)
        _ = await inbox.next()
        #expect(await session.status?.activeTrackIDs == [2])
        await session.receive(#"{"type":"EDIT_TRACKS_INFO","requestId":3,"enableTextTracks":false}"#, from: sender)
        _ = await inbox.next()
        #expect(await session.status?.activeTrackIDs == [])
    }

    @Test func aLoadNamingNoTracksSwitchesOnThePreferredLanguage() async throws {
        let session = CastReceiverSession(preferredLanguage: "de")
        let (sender, stream) = await session.connectSender()
        let inbox = Inbox(stream)
        await session.receive(Self.load.replacingOccurrences(of: #""activeTrackIds":[1]"#, with: #""autoplay":false"#), from: sender)
        _ = await inbox.next()
        #expect(await session.status?.activeTrackIDs == [2])
    }

    @Test func receiverPagesAreSentTheStateToDraw() async throws {
        let session = CastReceiverSession()
        let (_, displayStream) = await session.connectDisplay()
        var display = displayStream.makeAsyncIterator()
        let initialText = try #require(await display.next())
        let initial = try CastJSONDocument(parsing: initialText).value.objectValue
        #expect(initial?["mediaSessionId"] == .null)
        let (sender, _) = await session.connectSender()
        await session.receive(Self.load, from: sender)
        await session.receive(
            ##"{"type":"EDIT_TRACKS_INFO","requestId":3,"textTrackStyle":{"foregroundColor":"#FFFF00FF","windowType":"ROUNDED_CORNERS","windowColor":"#00000080"}}"##,
            from: sender)
        _ = await display.next()
        let stateText = try #require(await display.next())
        let state = try #require(try CastJSONDocument(parsing: stateText).value.objectValue)
        let tracks = try #require(state["tracks"]?.arrayValue)
        #expect(tracks.map { $0.objectValue?["mode"] } == ["showing", "disabled"])
        #expect(tracks.map { $0.objectValue?["kind"] } == ["subtitles", "captions"])
        let css = try #require(state["css"]?.stringValue)
        #expect(css.contains("#player::cue {\n  color: rgba(255, 255, 0, 1);"))
        #expect(css.contains("#player::-webkit-media-text-track-display {\n  background-color: rgba(0, 0, 0, 0.502);"))
        #expect(css.contains("border-radius: 8px;"))
    }
}
