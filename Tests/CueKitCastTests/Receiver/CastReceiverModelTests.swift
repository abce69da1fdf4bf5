import CueKit
import CueKitCast
import Testing

@Suite struct CastReceiverModelTests {
    typealias Callback = CastReceiverModel.Callback

    let english = MediaTrack(
        trackID: 1, type: .text, subtype: .subtitles, trackContentID: "https://cdn.example.com/en.vtt", trackContentType: "text/vtt",
        name: "English", language: "en"
    )
    let french = MediaTrack(
        trackID: 2, type: .text, subtype: .subtitles, trackContentID: "https://cdn.example.com/fr.vtt", trackContentType: "text/vtt",
        name: "Français", language: "fr"
    )
    let audio = MediaTrack(trackID: 3, type: .audio, trackContentID: "trk0001", trackContentType: "audio/mp4", language: "fr")

    var media: MediaInformation {
        MediaInformation(
            contentID: "https://cdn.example.com/movie.mp4", contentType: "video/mp4", streamType: .buffered,
            tracks: [english, french, audio])
    }

    /// A receiver with media loaded and three listeners whose load callbacks were drained.
    func loadedReceiver(activeTrackIDs: [Int] = [1]) -> (CastReceiverModel, [CastReceiverModel.ListenerID]) {
        var receiver = CastReceiverModel()
        let listeners = [receiver.addListener(), receiver.addListener(), receiver.addListener()]
        let result = receiver.load(CastLoadRequest(media: media, activeTrackIDs: activeTrackIDs))
        #expect(throws: Never.self) { try result.get() }
        for listener in listeners { _ = receiver.takeCallbacks(for: listener) }
        return (receiver, listeners)
    }

    @Test func loadNotifiesEveryListenerOfMetadataThenStatus() throws {
        var receiver = CastReceiverModel()
        let first = receiver.addListener()
        let second = receiver.addListener()
        let completion = try receiver.load(CastLoadRequest(requestID: 41, media: media, activeTrackIDs: [2, 3])).get()
        let status = CastMediaStatus(mediaSessionID: 1, media: media, activeTrackIDs: [2, 3])
        #expect(completion == CastRequestCompletion(requestID: 41, status: status))
        for listener in [first, second] {
            #expect(receiver.takeCallbacks(for: listener) == [.metadataUpdated(media), .statusUpdated(status)])
            #expect(receiver.takeCallbacks(for: listener) == [])
        }
    }

    @Test func aNewLoadStartsANewSessionAndReplacesTheActiveTracks() throws {
        var (receiver, _) = loadedReceiver(activeTrackIDs: [1])
        let completion = try receiver.load(CastLoadRequest(media: media)).get()
        #expect(completion.status.mediaSessionID == 2)
        #expect(receiver.activeTrackIDs == [])
    }

    @Test func aLoadWithAnUnknownActiveTrackFailsAndNotifiesNoOne() {
        var receiver = CastReceiverModel()
        let listener = receiver.addListener()
        let result = receiver.load(CastLoadRequest(requestID: 5, media: media, activeTrackIDs: [9]))
        guard case .failure(let error) = result else {
            Issue.record("the load succeeded")
            return
        }
        #expect(error.requestID == 5)
        #expect(error.type == .loadFailed)
        #expect(error.reason == .invalidParams)
        #expect(error.description == "LOAD_FAILED (INVALID_PARAMS): $.activeTrackIds[0]: no track has id 9; the media's tracks are 1, 2, 3")
        #expect(receiver.media == nil)
        #expect(receiver.status == nil)
        #expect(receiver.takeCallbacks(for: listener) == [])
    }

    @Test func aLoadWithDuplicateTrackIDsFails() {
        var receiver = CastReceiverModel()
        var broken = media
        broken.tracks = [english, english]
        let result = receiver.load(CastLoadRequest(media: broken))
        #expect(throws: CastRequestError.self) { try result.get() }
        #expect((try? result.get()) == nil)
        if case .failure(let error) = result { #expect(error.diagnostics.map(\.code) == [.castDuplicateTrackID]) }
    }

    @Test func activatingTracksNotifiesEveryListenerOfStatusOnly() throws {
        var (receiver, listeners) = loadedReceiver()
        let completion = try receiver.setActiveTrackIDs([2, 3]).get()
        #expect(completion.status.activeTrackIDs == [2, 3])
        let status = CastMediaStatus(mediaSessionID: 1, media: media, activeTrackIDs: [2, 3])
        for listener in listeners {
            #expect(receiver.takeCallbacks(for: listener) == [.statusUpdated(status)])
        }
    }

    @Test func anEmptyListDeactivatesEveryTrack() throws {
        var (receiver, listeners) = loadedReceiver(activeTrackIDs: [1, 3])
        _ = try receiver.setActiveTrackIDs([]).get()
        #expect(receiver.activeTrackIDs == [])
        for listener in listeners {
            #expect(
                receiver.takeCallbacks(for: listener) == [
                    .statusUpdated(CastMediaStatus(mediaSessionID: 1, media: media, activeTrackIDs: []))
                ])
        }
    }

    @Test func activeTrackIDsMustBelongToTheLoadedMedia() {
        var (receiver, listeners) = loadedReceiver(activeTrackIDs: [1])
        let result = receiver.setActiveTrackIDs([2, 7], requestID: 12)
        guard case .failure(let error) = result else {
            Issue.record("activating an unknown track succeeded")
            return
        }
        #expect(error.requestID == 12)
        #expect(error.type == .invalidRequest)
        #expect(error.reason == .invalidParams)
        #expect(error.diagnostics.map(\.code) == [.castUnknownActiveTrack])
        #expect(receiver.activeTrackIDs == [1])
        for listener in listeners { #expect(receiver.takeCallbacks(for: listener) == []) }
    }

    @Test func aStyleChangeNotifiesEveryListenerOfMetadataAndStatus() throws {
        var (receiver, listeners) = loadedReceiver()
        let style = TextTrackStyle(foregroundColor: CastColor(red: 255, green: 255, blue: 0), fontScale: 1.5)
        _ = try receiver.setTextTrackStyle(style).get()
        var styled = media
        styled.textTrackStyle = style
        #expect(receiver.media == styled)
        let status = CastMediaStatus(mediaSessionID: 1, media: styled, activeTrackIDs: [1])
        for listener in listeners {
            #expect(receiver.takeCallbacks(for: listener) == [.metadataUpdated(styled), .statusUpdated(status)])
        }
    }

    @Test func settingTheSameStyleAgainStillNotifiesEveryListener() throws {
        var (receiver, listeners) = loadedReceiver()
        let style = TextTrackStyle(edgeType: .outline, edgeColor: .black)
        _ = try receiver.setTextTrackStyle(style).get()
        for listener in listeners { _ = receiver.takeCallbacks(for: listener) }
        let before = receiver
        _ = try receiver.setTextTrackStyle(style).get()
        #expect(receiver.media == before.media)
        for listener in listeners {
            let callbacks = receiver.takeCallbacks(for: listener)
            #expect(callbacks.count == 2)
            #expect(callbacks.first == .metadataUpdated(receiver.media!))
            #expect(callbacks.last == .statusUpdated(receiver.status!))
        }
    }

    @Test func editingTracksAndStyleTogetherIsAllOrNothing() throws {
        var (receiver, listeners) = loadedReceiver()
        let style = TextTrackStyle(fontScale: 2)
        let refused = receiver.editTracksInfo(CastEditTracksInfoRequest(activeTrackIDs: [99], textTrackStyle: style))
        #expect((try? refused.get()) == nil)
        #expect(receiver.media?.textTrackStyle == nil)
        for listener in listeners { #expect(receiver.takeCallbacks(for: listener) == []) }

        _ = try receiver.editTracksInfo(CastEditTracksInfoRequest(activeTrackIDs: [2], textTrackStyle: style)).get()
        #expect(receiver.activeTrackIDs == [2])
        #expect(receiver.media?.textTrackStyle == style)
        for listener in listeners {
            #expect(receiver.takeCallbacks(for: listener).map(\.kind) == ["metadata", "status"])
        }
    }

    @Test func aStyleTheReceiverWouldRefuseFails() {
        var (receiver, listeners) = loadedReceiver()
        let result = receiver.setTextTrackStyle(TextTrackStyle(fontScale: -2))
        guard case .failure(let error) = result else {
            Issue.record("a negative scale was accepted")
            return
        }
        #expect(
            error.diagnostics.map(\.description) == [
                "error: $.textTrackStyle.fontScale: fontScale must be a positive number at most 100 (1 is the receiver's default size), found -2 [cast-bad-font-scale]"
            ])
        for listener in listeners { #expect(receiver.takeCallbacks(for: listener) == []) }
    }

    /// Media whose status, with its members around it, passes what a Cast message carries.
    var mediaTooLongForAStatus: MediaInformation {
        var long = media
        long.metadata = ["metadataType": 0, "title": .string(String(repeating: "t", count: CastReceiverModel.maximumStatusLength))]
        return long
    }

    @Test func aLoadWhoseStatusCannotBeSentFailsAndNotifiesNoOne() {
        var receiver = CastReceiverModel()
        let listener = receiver.addListener()
        let result = receiver.load(CastLoadRequest(requestID: 8, media: mediaTooLongForAStatus))
        guard case .failure(let error) = result else {
            Issue.record("the load succeeded")
            return
        }
        #expect(error.type == .loadFailed)
        #expect(error.reason == .invalidParams)
        #expect(error.requestID == 8)
        #expect(error.message.hasPrefix("the media status would be "), "\(error.message)")
        #expect(receiver.status == nil)
        #expect(receiver.takeCallbacks(for: listener) == [])
    }

    @Test func aStyleThatWouldMakeTheStatusTooLongFails() {
        var (receiver, listeners) = loadedReceiver()
        let style = TextTrackStyle(fontFamily: String(repeating: "f", count: CastReceiverModel.maximumStatusLength))
        let result = receiver.editTracksInfo(CastEditTracksInfoRequest(requestID: 3, textTrackStyle: style))
        guard case .failure(let error) = result else {
            Issue.record("the style was set")
            return
        }
        #expect(error.type == .invalidRequest)
        #expect(error.message.hasPrefix("the media status would be "), "\(error.message)")
        #expect(receiver.media?.textTrackStyle == nil)
        for listener in listeners { #expect(receiver.takeCallbacks(for: listener) == []) }
    }

    @Test func theTrackListOfLoadedMediaCannotBeEdited() throws {
        var (receiver, listeners) = loadedReceiver()
        let result = receiver.replaceTracks([english])
        guard case .failure(let error) = result else {
            Issue.record("the track list changed")
            return
        }
        #expect(error.reason == .notSupported)
        #expect(error.message == "the tracks of loaded media cannot be edited: load the media again with the new track list")
        #expect(receiver.media?.tracks == [english, french, audio])
        for listener in listeners { #expect(receiver.takeCallbacks(for: listener) == []) }

        // A new load is how the list changes.
        var reduced = media
        reduced.tracks = [english]
        _ = try receiver.load(CastLoadRequest(media: reduced)).get()
        #expect(receiver.media?.tracks == [english])
    }

    @Test func requestsWithoutLoadedMediaFail() {
        var receiver = CastReceiverModel()
        let listener = receiver.addListener()
        for result in [
            receiver.setActiveTrackIDs([1]), receiver.setTextTrackStyle(TextTrackStyle()), receiver.replaceTracks([]), receiver.stop(),
        ] {
            guard case .failure(let error) = result else {
                Issue.record("a request succeeded with nothing loaded")
                continue
            }
            #expect(error.reason == .invalidMediaSessionID)
        }
        #expect(receiver.takeCallbacks(for: listener) == [])
    }

    @Test func aStaleMediaSessionIsRefused() throws {
        var (receiver, _) = loadedReceiver()
        _ = try receiver.load(CastLoadRequest(media: media)).get()
        let result = receiver.editTracksInfo(CastEditTracksInfoRequest(mediaSessionID: 1, activeTrackIDs: []))
        guard case .failure(let error) = result else {
            Issue.record("a stale session was accepted")
            return
        }
        #expect(error.description == "INVALID_REQUEST (INVALID_MEDIA_SESSION_ID): media session 1 is not the current one (2)")
    }

    @Test func aRequestIsAnsweredWithItsOwnIDOrWithZeroWhenItCarriesNone() throws {
        var receiver = CastReceiverModel()
        #expect(try receiver.load(CastLoadRequest(requestID: 1, media: media, activeTrackIDs: [1])).get().requestID == 1)
        #expect(try receiver.setActiveTrackIDs([2], requestID: 100).get().requestID == 100)
        // Without an id: 0, the id of statuses no request caused, never one a sender used before.
        #expect(try receiver.editTracksInfo(CastEditTracksInfoRequest(activeTrackIDs: [1])).get().requestID == 0)
        #expect(try receiver.setActiveTrackIDs([]).get().requestID == 0)
        #expect(try receiver.play().get().requestID == 0)
        let refused = receiver.editTracksInfo(CastEditTracksInfoRequest(mediaSessionID: 99, activeTrackIDs: [1]))
        guard case .failure(let error) = refused else {
            Issue.record("a stale session was accepted")
            return
        }
        #expect(error.requestID == 0)
        // The message check still warns of the missing id.
        let unnumbered = try CastJSONDocument(parsing: #"{"type":"EDIT_TRACKS_INFO","activeTrackIds":[1]}"#)
        let warnings = CastMessage.check(unnumbered, as: .editTracksInfo).diagnostics.filter { $0.severity == .warning }
        #expect(warnings.contains { $0.message.contains("needs a requestId") })
    }

    @Test func listenersHearOnlyWhatHappensWhileRegistered() throws {
        var (receiver, listeners) = loadedReceiver()
        receiver.removeListener(listeners[1])
        let late = receiver.addListener()
        _ = try receiver.setActiveTrackIDs([2]).get()
        #expect(receiver.listeners == [listeners[0], listeners[2], late])
        #expect(receiver.takeCallbacks(for: listeners[1]) == [])
        #expect(receiver.takeCallbacks(for: late).map(\.kind) == ["status"])
        #expect(receiver.takeCallbacks(for: listeners[0]).map(\.kind) == ["status"])
    }

    @Test func stopEndsTheSessionAndTellsEveryone() throws {
        var (receiver, listeners) = loadedReceiver()
        let completion = try receiver.stop().get()
        #expect(completion.status == CastMediaStatus(mediaSessionID: 1, media: nil, activeTrackIDs: []))
        #expect(receiver.media == nil)
        for listener in listeners { #expect(receiver.takeCallbacks(for: listener).map(\.kind) == ["status"]) }
    }

    @Test func theModelIsSendable() async throws {
        let (receiver, listeners) = loadedReceiver()
        let changed = await Task.detached { () -> CastReceiverModel in
            var copy = receiver
            _ = copy.setActiveTrackIDs([])
            return copy
        }.value
        var copy = changed
        #expect(copy.takeCallbacks(for: listeners[0]).map(\.kind) == ["status"])
        #expect(receiver.activeTrackIDs == [1])
    }
}

extension CastReceiverModelTests {
    @Test func aFailureEndsTheSessionWithAnIdleStatusWhoseReasonIsError() throws {
        var (receiver, listeners) = loadedReceiver()
        let session = try #require(receiver.mediaSessionID)
        let failed = receiver.endAfterFailure()
        let ended = try #require(failed)
        #expect(ended == CastMediaStatus(mediaSessionID: session, media: nil, activeTrackIDs: [], playerState: .idle, idleReason: .error))
        #expect(receiver.status == nil && receiver.media == nil)
        #expect(receiver.takeCallbacks(for: listeners[0]) == [.statusUpdated(ended)])
        let json = CastMediaChannel.mediaStatus(ended, requestID: 0, includingMedia: true).serialized(.compact)
        #expect(json.contains(#""playerState":"IDLE","idleReason":"ERROR""#), "\(json)")
        guard case .mediaStatus(_, let read?, _) = CastMediaChannel.receiverMessage(from: Array(json.utf8)) else {
            Issue.record("not read back: \(json)")
            return
        }
        #expect(read.idleReason == .error)
        // Nothing is loaded: nothing more to end.
        #expect(receiver.endAfterFailure() == nil)
    }

    @Test func discardedCallbacksAreNeverTaken() throws {
        var (receiver, listeners) = loadedReceiver()
        _ = try receiver.setActiveTrackIDs([2]).get()
        receiver.discardCallbacks()
        for listener in listeners { #expect(receiver.takeCallbacks(for: listener).isEmpty) }
        #expect(receiver.activeTrackIDs == [2])
    }
}

extension CastReceiverModel.Callback {
    var kind: String {
        switch self {
        case .metadataUpdated: "metadata"
        case .statusUpdated: "status"
        }
    }
}
