import CueKit
import CueKitCast
import CueKitTestSupport
import Foundation
import Testing

@Suite struct CastLoadRequestTests {
    func fixture(_ name: String) throws -> String {
        try String(decoding: TestPaths.bytes(TestPaths.fixture("cast/" + name)), as: UTF8.self)
    }

    /// The Chrome sender guide's tracks example (English and French subtitles, French audio), as the
    /// JavaScript SDK serialises it: unset fields are `null`.
    @Test func readsTheSenderGuideExample() throws {
        let check = CastMessage.check(Array(try fixture("load-sender-guide.json").utf8))
        #expect(check.diagnostics == [])
        guard case .load(let request) = check.message else {
            Issue.record("not a LOAD: \(String(describing: check.message))")
            return
        }
        #expect(request.requestID == 1)
        #expect(request.activeTrackIDs == [1])
        #expect(request.autoplay == true)
        #expect(request.media.streamType == .buffered)
        #expect(request.media.duration == nil)
        #expect(request.media.customData == .null)
        #expect(request.media.textTrackStyle == TextTrackStyle(customData: .null))
        #expect(
            request.media.tracks == [
                MediaTrack(
                    trackID: 1, type: .text, subtype: .subtitles, trackContentID: "https://some-url/caption_en.vtt",
                    trackContentType: "text/vtt", name: "English Subtitles", language: "en-US", customData: .null
                ),
                MediaTrack(
                    trackID: 2, type: .text, subtype: .subtitles, trackContentID: "https://some-url/caption_fr.vtt",
                    trackContentType: "text/vtt", name: "French Subtitles", language: "fr", customData: .null
                ),
                MediaTrack(
                    trackID: 3, type: .audio, trackContentID: "trk0001", trackContentType: "audio/mp3", name: "French Audio",
                    language: "fr", customData: .null
                ),
            ]
        )
    }

    @Test func writesTheExampleCanonicallyAndTheCanonicalFormIsAFixedPoint() throws {
        let request = try CastLoadRequest(json: CastJSONDocument(parsing: fixture("load-sender-guide.json")).value)
        let canonical = try fixture("load-sender-guide.canonical.json")
        #expect(request.json.serialized() + "\n" == canonical)
        let again = try CastLoadRequest(json: CastJSONDocument(parsing: canonical).value)
        #expect(again == request)
        #expect(again.json.serialized() + "\n" == canonical)
    }

    @Test func roundTripsEditTracksInfoByteForByte() throws {
        let text = try fixture("edit-tracks-info.json")
        let check = CastMessage.check(Array(text.utf8))
        #expect(check.isValid)
        guard case .editTracksInfo(let request) = check.message else {
            Issue.record("not EDIT_TRACKS_INFO")
            return
        }
        #expect(request.activeTrackIDs == [2])
        #expect(request.textTrackStyle?.edgeType == TextTrackStyle.EdgeType.none)
        #expect(request.json.serialized() + "\n" == text)
    }

    @Test func keepsFieldsOfNewerSDKs() throws {
        let json: CastJSONValue = [
            "type": "LOAD",
            "media": ["contentUrl": "https://example.com/a.m3u8", "contentType": "application/x-mpegurl", "entity": "a"],
            "credentials": "token",
        ]
        let request = try CastLoadRequest(json: json)
        #expect(request.otherFields["credentials"] == "token")
        #expect(request.media.otherFields["entity"] == "a")
        #expect(request.json == json)
    }

    @Test func readsAndChecksTheHLSSegmentFormats() throws {
        let json: CastJSONValue = [
            "type": "LOAD",
            "media": [
                "contentId": "https://example.com/a.m3u8", "contentType": "application/x-mpegurl", "hlsSegmentFormat": "ts",
                "hlsVideoSegmentFormat": "fmp4",
            ],
        ]
        let request = try CastLoadRequest(json: json)
        #expect(request.media.hlsSegmentFormat == .ts)
        #expect(request.media.hlsVideoSegmentFormat == .fmp4)
        #expect(request.media.otherFields.isEmpty)
        #expect(request.json == json)
        let wrong: CastJSONValue = ["type": "LOAD", "media": ["contentId": "a.m3u8", "hlsVideoSegmentFormat": "mp2t"]]
        let error = #expect(throws: CastDecodingError.self) { try CastLoadRequest(json: wrong) }
        #expect(error?.description.contains("HlsVideoSegmentFormat") == true, "\(String(describing: error))")
    }

    @Test func decodesThroughFoundation() throws {
        let data = Data(try fixture("load-sender-guide.canonical.json").utf8)
        let request = try JSONDecoder().decode(CastLoadRequest.self, from: data)
        let reencoded = try JSONDecoder().decode(CastLoadRequest.self, from: JSONEncoder().encode(request))
        #expect(reencoded == request)
        #expect(request.media.tracks?.count == 3)
    }

    @Test func refusesARequestWithoutMediaOrWithBadTracks() {
        #expect {
            try CastLoadRequest(json: ["type": "LOAD", "media": ["tracks": [["trackId": 1.5, "type": "TEXT"], ["type": "CAPTION"]]]])
        } throws: { error in
            guard let error = error as? CastDecodingError else { return false }
            return error.description == """
                error: $.media.tracks[0].trackId: trackId must be a whole number, found 1.5 [cast-wrong-type]
                error: $.media.tracks[1]: a track needs a trackId [cast-missing-field]
                error: $.media.tracks[1].type: 'CAPTION' is not a TrackType; expected one of TEXT, AUDIO, VIDEO [cast-unknown-value]
                """
        }
        #expect {
            try CastLoadRequest(json: ["type": "LOAD"])
        } throws: { error in
            (error as? CastDecodingError)?.description == "error: $: a LOAD message needs media [cast-missing-field]"
        }
    }
}
