import CueKit
import CueKitCast
import Testing

@Suite struct CastMediaChannelTests {
    func request(_ text: String) -> Result<CastMediaChannel.Request, CastRequestError> {
        CastMediaChannel.request(from: Array(text.utf8))
    }

    @Test func readsEveryMediaCommand() throws {
        #expect(try request(#"{"type":"GET_STATUS","requestId":3}"#).get() == .getStatus(requestID: 3))
        #expect(try request(#"{"type":"PAUSE","requestId":4,"mediaSessionId":2}"#).get() == .pause(requestID: 4, mediaSessionID: 2))
        #expect(try request(#"{"type":"SEEK","requestId":5,"currentTime":12.5}"#).get() == .seek(requestID: 5, mediaSessionID: nil, currentTime: 12.5))
        guard case .editTracksInfo(let edit) = try request(
            #"{"type":"EDIT_TRACKS_INFO","requestId":6,"language":"fr","enableTextTracks":true,"isSuggestedLanguage":false,"sequenceNumber":9}"#
        ).get() else {
            Issue.record("not read as EDIT_TRACKS_INFO")
            return
        }
        #expect(edit.language == "fr")
        #expect(edit.enableTextTracks == true)
        #expect(edit.isSuggestedLanguage == false)
        #expect(edit.sequenceNumber == 9)
        #expect(edit.otherFields.isEmpty)
        #expect(try CastEditTracksInfoRequest(json: edit.json) == edit)
    }

    @Test func refusesAsAReceiverDoes() {
        guard case .failure(let notJSON) = request("{") else { Issue.record("accepted"); return }
        #expect(notJSON.type == .invalidRequest)
        #expect(notJSON.reason == .invalidCommand)
        guard case .failure(let unknown) = request(#"{"type":"QUEUE_JUMP","requestId":8}"#) else { Issue.record("accepted"); return }
        #expect(unknown.reason == .invalidCommand)
        #expect(unknown.requestID == 8)
        guard case .failure(let tracks) = request(#"{"type":"EDIT_TRACKS_INFO","requestId":9,"tracks":[]}"#) else { Issue.record("accepted"); return }
        #expect(tracks.type == .invalidRequest)
        #expect(tracks.diagnostics.map(\.code) == [.castTracksNotEditable])
        guard case .failure(let load) = request(#"{"type":"LOAD","requestId":10,"media":{"contentType":"video/mp4"}}"#) else {
            Issue.record("accepted"); return
        }
        #expect(load.type == .loadFailed)
        #expect(load.reason == .invalidParams)
        let json = CastMediaChannel.error(load).objectValue
        #expect(json?["type"] == "LOAD_FAILED")
        #expect(json?["requestId"] == 10)
        #expect(json?["reason"] == "INVALID_PARAMS")
    }

    @Test func aStatusCarriesMediaOnlyWhenAskedAndReadsBack() throws {
        let track = MediaTrack(
            trackID: 1, type: .text, subtype: .captions, trackContentID: "https://cdn.example.com/t.vtt", trackContentType: "text/vtt",
            language: "en")
        let media = MediaInformation(contentID: "https://cdn.example.com/m.mp4", contentType: "video/mp4", streamType: .buffered, tracks: [track])
        let status = CastMediaStatus(mediaSessionID: 3, media: media, activeTrackIDs: [1], playerState: .paused, currentTime: 4)
        let without = CastMediaChannel.mediaStatus(status, requestID: 0, includingMedia: false)
        #expect(without.objectValue?["status"]?.arrayValue?.first?.objectValue?["media"] == nil)
        let with = CastMediaChannel.mediaStatus(status, requestID: 12, includingMedia: true)
        guard case .mediaStatus(let requestID, let read, let carried) = CastMediaChannel.receiverMessage(from: Array(with.serialized().utf8)) else {
            Issue.record("not read as a status"); return
        }
        #expect(requestID == 12)
        #expect(carried)
        #expect(read == status)
        // Without media, the sender keeps the media it has.
        guard case .mediaStatus(_, let kept, false) = CastMediaChannel.receiverMessage(from: Array(without.serialized().utf8), currentMedia: media)
        else { Issue.record("not read as a status without media"); return }
        #expect(kept?.media == media)
        // cast check reads the same message as MEDIA_STATUS.
        let checked = CastMessage.check(Array(with.serialized().utf8))
        #expect(checked.isValid, "\(checked.diagnostics)")
        guard case .mediaStatus(let message)? = checked.message else { Issue.record("not checked as MEDIA_STATUS"); return }
        #expect(message.statuses == [status])
    }

    @Test func aBadStatusIsReportedWithItsPlace() {
        let text = #"{"type":"MEDIA_STATUS","status":[{"playerState":"RUNNING","activeTrackIds":[2]}]}"#
        let result = CastMessage.check(Array(text.utf8))
        #expect(!result.isValid)
        #expect(
            result.diagnostics.map(\.description) == [
                "1:1: error: $: a MEDIA_STATUS needs requestId: the id of the request it answers, or 0 for a broadcast [cast-missing-field]",
                "1:34: error: $.status[0]: a media status needs mediaSessionId [cast-missing-field]",
            ])
    }

    @Test func everyTextFormatCastListsIsAcceptedWithoutAWarning() {
        for type in ["text/vtt", "application/ttml+xml", "application/mp4", "text/mp4", "text/cea608", "text/vtt; charset=utf-8"] {
            let track = MediaTrack(
                trackID: 1, type: .text, subtype: .captions, trackContentID: "https://cdn.example.com/t", trackContentType: type, language: "en")
            #expect(track.validate().isEmpty, "\(type): \(track.validate())")
        }
    }

    @Test func aGenericFontFamilyIsWrittenAsTheCSSKeyword() {
        #expect(TextTrackStyle(fontFamily: "serif").cueStylesheet().declarations.map(\.value) == ["serif"])
        #expect(TextTrackStyle(fontFamily: " Monospace ").cueStylesheet().declarations.map(\.value) == ["monospace"])
        #expect(TextTrackStyle(fontFamily: "Droid Serif").cueStylesheet().declarations.map(\.value) == [#""Droid Serif""#])
    }
}
