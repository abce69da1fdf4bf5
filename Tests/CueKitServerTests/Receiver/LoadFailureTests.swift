import CueKit
import CueKitCast
import Testing

@testable import CueKitServer

/// A load that fails reaches every sender as Cast's `LOAD_FAILED` (or `ERROR` once it played),
/// with the reason, and nobody hears `PLAYING` for it.
@Suite struct LoadFailureTests {
    typealias Inbox = CastReceiverSessionTests.Inbox

    /// A receiver page connected to `session`, past the state it is first sent.
    static func openPage(on session: CastReceiverSession) async -> AsyncStream<String>.Iterator {
        var display = await session.connectDisplay().1.makeAsyncIterator()
        _ = await display.next()
        return display
    }

    static func status(_ message: CastJSONObject?) -> CastJSONObject? {
        message?["status"]?.arrayValue?.first?.objectValue
    }

    @Test func whileAReceiverPageIsOpenALoadIsAnsweredOnceThePageLoadedIt() async throws {
        let session = CastReceiverSession()
        var display = await Self.openPage(on: session)
        let (sender, stream) = await session.connectSender()
        let inbox = Inbox(stream)
        await session.receive(CastReceiverSessionTests.load, from: sender)
        // The page is told what to load; the sender hears nothing yet, and a status asked for says
        // the media is buffering, not playing.
        let state = try #require(try await display.next().map { try CastJSONDocument(parsing: $0).value.objectValue })
        #expect(state?["mediaSessionId"] == 1)
        await session.receive(#"{"type":"GET_STATUS","requestId":30}"#, from: sender)
        let asked = await inbox.next()
        #expect(asked?["requestId"] == 30)
        #expect(Self.status(asked)?["playerState"] == "BUFFERING")
        // A report on another session changes nothing; the page's report answers the load.
        await session.displayReport(#"{"type":"LOADED","mediaSessionId":9}"#)
        await session.displayReport(#"{"type":"LOADED","mediaSessionId":1}"#)
        let answer = await inbox.next()
        #expect(answer?["requestId"] == 7)
        #expect(Self.status(answer)?["playerState"] == "PLAYING")
        #expect(Self.status(answer)?["media"] != nil)
    }

    @Test func aFailureThePageReportsReachesEverySenderAsLoadFailedAndNobodyHearsPlaying() async throws {
        let session = CastReceiverSession()
        var display = await Self.openPage(on: session)
        let (asker, askerStream) = await session.connectSender()
        let (_, otherStream) = await session.connectSender()
        let askerInbox = Inbox(askerStream)
        let otherInbox = Inbox(otherStream)
        await session.receive(CastReceiverSessionTests.load, from: asker)
        _ = await display.next()
        await session.displayReport(
            #"{"type":"LOAD_ERROR","mediaSessionId":1,"detailedErrorCode":104,"message":"the media http://127.0.0.1:1/m.webm could not be played (HTTP 404)"}"#)
        for (inbox, requestID) in [(askerInbox, 7), (otherInbox, 0)] {
            let failure = try #require(await inbox.next())
            #expect(failure["type"] == "LOAD_FAILED")
            #expect(failure["requestId"] == .number(Double(requestID)))
            #expect(failure["reason"] == "GENERIC_LOAD_ERROR")
            #expect(failure["detailedErrorCode"] == 104)
            #expect(failure["customData"]?.objectValue?["message"]?.stringValue?.contains("HTTP 404") == true)
            let ended = Self.status(await inbox.next())
            #expect(ended?["playerState"] == "IDLE")
            #expect(ended?["idleReason"] == "ERROR")
            #expect(ended?["media"] == nil)
        }
        #expect(await session.status == nil)
        // The page shows why.
        let shown = try #require(try await display.next().map { try CastJSONDocument(parsing: $0).value.objectValue })
        #expect(shown?["mediaSessionId"] == .null)
        #expect(shown?["error"]?.stringValue?.contains("m.webm") == true)
        // A later report on the ended session is ignored.
        await session.displayReport(#"{"type":"LOAD_ERROR","mediaSessionId":1,"detailedErrorCode":905,"message":"late"}"#)
        await session.receive(#"{"type":"GET_STATUS","requestId":31}"#, from: asker)
        #expect(await askerInbox.next()?["type"] == "MEDIA_STATUS")
    }

    @Test func aFailureAfterTheLoadWasAnsweredIsAnErrorToEverySender() async throws {
        let session = CastReceiverSession()
        let page = await Self.openPage(on: session)
        defer { withExtendedLifetime(page) {} }  // the page stays connected
        let (sender, stream) = await session.connectSender()
        let inbox = Inbox(stream)
        await session.receive(CastReceiverSessionTests.load, from: sender)
        // Another command answers the waiting load first.
        await session.receive(#"{"type":"PAUSE","requestId":8}"#, from: sender)
        #expect(Self.status(await inbox.next())?["playerState"] == "PLAYING")
        #expect(Self.status(await inbox.next())?["playerState"] == "PAUSED")
        await session.displayReport(
            #"{"type":"LOAD_ERROR","mediaSessionId":1,"detailedErrorCode":905,"message":"track 1 (http://127.0.0.1:1/en.vtt) could not be loaded (HTTP 404)"}"#)
        let error = try #require(await inbox.next())
        #expect(error["type"] == "ERROR")
        #expect(error["requestId"] == 0)
        #expect(error["detailedErrorCode"] == 905)
        #expect(Self.status(await inbox.next())?["idleReason"] == "ERROR")
    }

    @Test func aLoadTheServerCanTellIsMissingFailsAtOnceAndChangesNothing() async throws {
        let session = CastReceiverSession { load in
            load.media.contentID == "/missing.webm" ? "the media /missing.webm is not in the served folder" : nil
        }
        let (asker, askerStream) = await session.connectSender()
        let (_, otherStream) = await session.connectSender()
        let askerInbox = Inbox(askerStream)
        let otherInbox = Inbox(otherStream)
        let missing = CastReceiverSessionTests.load.replacingOccurrences(of: "http://127.0.0.1:1/m.webm", with: "/missing.webm")
        await session.receive(missing, from: asker)
        let toAsker = try #require(await askerInbox.next())
        let toOther = try #require(await otherInbox.next())
        #expect(toAsker["type"] == "LOAD_FAILED")
        #expect(toAsker["requestId"] == 7)
        #expect(toOther["type"] == "LOAD_FAILED")
        #expect(toOther["requestId"] == 0)
        #expect(toAsker["customData"]?.objectValue?["message"] == "the media /missing.webm is not in the served folder")
        #expect(await session.status == nil)
        // The load that can play still plays.
        await session.receive(CastReceiverSessionTests.load, from: asker)
        #expect(Self.status(await askerInbox.next())?["playerState"] == "PLAYING")
    }

    @Test func aLoadWaitingForThePageSurvivesARefusedLoadAndAnotherLoadInterruptsIt() async throws {
        let session = CastReceiverSession { load in load.media.contentID == "/missing.webm" ? "missing" : nil }
        let page = await Self.openPage(on: session)
        defer { withExtendedLifetime(page) {} }  // the page stays connected
        let (sender, stream) = await session.connectSender()
        let inbox = Inbox(stream)
        await session.receive(CastReceiverSessionTests.load, from: sender)
        // Refused at once; the waiting load is untouched and is answered when the page reports.
        let missing = CastReceiverSessionTests.load.replacingOccurrences(of: "http://127.0.0.1:1/m.webm", with: "/missing.webm")
            .replacingOccurrences(of: #""requestId":7"#, with: #""requestId":20"#)
        await session.receive(missing, from: sender)
        #expect(await inbox.next()?["requestId"] == 20)
        await session.displayReport(#"{"type":"LOADED","mediaSessionId":1}"#)
        let answered = await inbox.next()
        #expect(answered?["requestId"] == 7)
        #expect(Self.status(answered)?["playerState"] == "PLAYING")
        // A second load while a third waits: the waiting one is interrupted (904).
        let second = CastReceiverSessionTests.load.replacingOccurrences(of: #""requestId":7"#, with: #""requestId":21"#)
        let third = CastReceiverSessionTests.load.replacingOccurrences(of: #""requestId":7"#, with: #""requestId":22"#)
        await session.receive(second, from: sender)
        await session.receive(third, from: sender)
        let interrupted = await inbox.next()
        #expect(interrupted?["type"] == "LOAD_FAILED")
        #expect(interrupted?["requestId"] == 21)
        #expect(interrupted?["detailedErrorCode"] == 904)
        await session.displayReport(#"{"type":"LOADED","mediaSessionId":3}"#)
        let loaded = await inbox.next()
        #expect(loaded?["requestId"] == 22)
        #expect(Self.status(loaded)?["mediaSessionId"] == 3)
    }

    @Test func aSenderReadsTheFailureAsATypedError() {
        let text = #"{"type":"LOAD_FAILED","requestId":3,"reason":"GENERIC_LOAD_ERROR","detailedErrorCode":905,"customData":{"message":"gone"}}"#
        guard case .error(let error) = CastMediaChannel.receiverMessage(from: Array(text.utf8)) else {
            Issue.record("not read as an error")
            return
        }
        #expect(error == CastRequestError(requestID: 3, type: .loadFailed, reason: .genericLoadError, message: "gone", detailedErrorCode: 905))
        #expect(CastMediaChannel.error(error).serialized(.compact) == text)
    }
}
