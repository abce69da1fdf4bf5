import CueKit
import CueKitCast
import Testing

@Suite struct CastValidationTests {
    func subtitles(_ id: Int, _ language: String? = "en", url: String = "https://cdn.example.com/en.vtt", type: String? = "text/vtt")
        -> MediaTrack
    {
        MediaTrack(
            trackID: id, type: .text, subtype: .subtitles, trackContentID: url, trackContentType: type, name: "Subtitles",
            language: language)
    }

    func media(_ tracks: [MediaTrack]) -> MediaInformation {
        MediaInformation(contentID: "https://cdn.example.com/movie.mp4", contentType: "video/mp4", streamType: .buffered, tracks: tracks)
    }

    func messages(_ diagnostics: [Diagnostic]) -> [String] { diagnostics.map(\.description) }

    @Test func acceptsAWellFormedMediaItem() {
        #expect(media([subtitles(1), subtitles(2, "pt-BR")]).validate() == [])
    }

    @Test func refusesDuplicateTrackIDs() {
        #expect(
            messages(media([subtitles(1), subtitles(2), subtitles(1, "fr")]).validate()) == [
                "error: $.tracks[2].trackId: track id 1 is already used by $.tracks[0]; track ids must be unique [cast-duplicate-track-id]"
            ]
        )
    }

    @Test func subtitlesNeedALanguage() {
        #expect(
            messages(media([subtitles(1, nil)]).validate()) == [
                "error: $.tracks[0]: a SUBTITLES track needs a language (the receiver and sender menus match subtitles by it) [cast-missing-language]"
            ]
        )
        var captions = subtitles(1, nil)
        captions.subtype = .captions
        #expect(media([captions]).validate() == [])
    }

    @Test(arguments: [
        ("en", true), ("en-US", true), ("zh-Hant-TW", true), ("es-419", true), ("sr-Latn-RS", true), ("de-CH-1996", true),
        ("x-klingon", true), ("en-a-bbb-x-a-ccc", true), ("i-klingon", true), ("zh-min-nan", true), ("EN-us", true),
        ("en_US", false), ("english", true), ("e", false), ("en--US", false), ("", false), ("en-", false), ("123", false),
        ("en-a", false), ("en-x", false), ("toolongtag", false), ("en-US-x-", false), ("fr CA", false),
    ])
    func checksTheShapeOfLanguageTags(tag: String, wellFormed: Bool) {
        let track = MediaTrack(trackID: 1, type: .text, subtype: .captions, language: tag)
        #expect(track.validate().contains { $0.code == .castBadLanguage } == !wellFormed)
    }

    @Test func badLanguageTagsAreErrorsWithAFix() {
        #expect(
            messages(media([subtitles(1, "en_US")]).validate()) == [
                "error: $.tracks[0].language: 'en_US' is not a BCP 47 language tag (RFC 5646); write 'en-US' [cast-bad-language]"
            ]
        )
    }

    @Test func contentTypeMustAgreeWithTheTrackType() {
        let text = subtitles(1, type: "audio/mp4")
        let audio = MediaTrack(trackID: 2, type: .audio, trackContentID: "a1", trackContentType: "text/vtt", language: "fr")
        let video = MediaTrack(trackID: 3, type: .video, trackContentType: "Audio/AAC; codecs=mp4a")
        let subtitledAudio = MediaTrack(trackID: 4, type: .audio, subtype: .subtitles, language: "fr")
        #expect(
            messages(media([text, audio, video, subtitledAudio]).validate()) == [
                "error: $.tracks[0].trackContentType: 'audio/mp4' is not a text format, but the track's type is TEXT [cast-content-type-mismatch]",
                "error: $.tracks[1].trackContentType: 'text/vtt' is not an audio format, but the track's type is AUDIO [cast-content-type-mismatch]",
                "error: $.tracks[2].trackContentType: 'Audio/AAC; codecs=mp4a' is not a video format, but the track's type is VIDEO [cast-content-type-mismatch]",
                "error: $.tracks[3].subtype: subtype describes TEXT tracks only; this track's type is AUDIO [cast-subtype-not-text]",
            ]
        )
    }

    @Test func textFormatsCastReceiversDoNotRenderAreWarnings() {
        #expect(
            messages(
                media([subtitles(1, type: "text/srt"), subtitles(2, type: "application/ttml+xml; charset=utf-8"), subtitles(3, type: nil)])
                    .validate()) == [
                    "warning: $.tracks[0].trackContentType: 'text/srt' is not a text format Cast receivers render; convert SubRip to WebVTT (cuekit convert) and use text/vtt [cast-unsupported-text-format]",
                    "warning: $.tracks[2]: a side-loaded text track needs trackContentType (text/vtt for WebVTT) for the receiver to pick its parser [cast-missing-content-type]",
                ]
        )
    }

    @Test func urlsTheReceiverFetchesMustBeAbsoluteAndSecure() {
        #expect(
            messages(media([subtitles(1, url: "subs/en.vtt"), subtitles(2, url: "http://cdn.example.com/en.vtt")]).validate()) == [
                "warning: $.tracks[0].trackContentId: 'subs/en.vtt' is not an absolute URL: the receiver resolves trackContentId against its own page, not the sender's [cast-relative-url]",
                "warning: $.tracks[1].trackContentId: 'http://cdn.example.com/en.vtt' is http: a receiver page served over HTTPS blocks it as mixed content; serve it over https [cast-insecure-url]",
            ]
        )
    }

    @Test func mediaNeedsContentAndASensibleDuration() {
        let bare = MediaInformation(duration: -3)
        #expect(
            messages(bare.validate()) == [
                "error: $: media needs a contentId or a contentUrl to play [cast-missing-content]",
                "error: $: media needs a contentType (video/mp4, application/x-mpegurl...): receivers pick the player by it [cast-missing-content-type]",
                "error: $.duration: duration is in seconds and cannot be negative, found -3 [cast-bad-duration]",
            ]
        )
        let live = MediaInformation(contentID: "x", contentType: "application/x-mpegurl", streamType: .live, duration: 60)
        #expect(
            messages(live.validate()) == ["warning: $.duration: a LIVE stream's duration is -1 (or absent), found 60 [cast-bad-duration]"])
    }

    @Test func notesStyleFieldsTheReceiverIgnores() {
        let style = TextTrackStyle(
            edgeType: TextTrackStyle.EdgeType.none, edgeColor: .white, windowType: .normal, windowRoundedCornerRadius: 4)
        #expect(
            messages(style.validate()) == [
                "note: $.edgeColor: edgeColor is ignored because edgeType is NONE [cast-ignored-field]",
                "note: $.windowRoundedCornerRadius: windowRoundedCornerRadius is ignored because windowType is NORMAL, not ROUNDED_CORNERS [cast-ignored-field]",
            ]
        )
    }

    @Test func activeTrackIDsMustNameTracksOfTheMedia() {
        let request = CastLoadRequest(media: media([subtitles(1), subtitles(2)]), activeTrackIDs: [2, 5, 2])
        #expect(
            messages(request.validate()) == [
                "error: $.activeTrackIds[1]: no track has id 5; the media's tracks are 1, 2 [cast-unknown-active-track]",
                "warning: $.activeTrackIds[2]: track id 2 is listed more than once [cast-duplicate-active-track]",
            ]
        )
    }

    @Test func checkPointsAtLinesAndColumnsInOrder() {
        let text = """
            {
              "type": "LOAD",
              "media": {
                "contentId": "https://cdn.example.com/movie.mp4",
                "contentType": "video/mp4",
                "tracks": [
                  {"trackId": 1, "type": "TEXT", "subtype": "SUBTITLES", "trackContentId": "https://cdn.example.com/en.vtt", "trackContentType": "text/vtt"},
                  {"trackId": 1, "type": "TEXT", "trackContentId": "https://cdn.example.com/fr.vtt", "trackContentType": "text/vtt", "language": "fr_FR"}
                ],
                "textTrackStyle": {"foregroundColor": "#FFFFFF", "fontScale": -1}
              },
              "activeTrackIds": [3]
            }
            """
        let result = CastMessage.check(Array(text.utf8))
        #expect(!result.isValid)
        #expect(
            result.diagnostics.map { $0.formatted(file: "load.json") } == [
                "load.json:1:1: warning: $: a LOAD message needs a requestId (an integer), as Cast's reference requires: the receiver answers with it and senders match the answer by it (the sender SDKs and cuekit cast send add one) [cast-missing-field]",
                "load.json:7:7: error: $.media.tracks[0]: a SUBTITLES track needs a language (the receiver and sender menus match subtitles by it) [cast-missing-language]",
                "load.json:8:19: error: $.media.tracks[1].trackId: track id 1 is already used by $.media.tracks[0]; track ids must be unique [cast-duplicate-track-id]",
                "load.json:8:134: error: $.media.tracks[1].language: 'fr_FR' is not a BCP 47 language tag (RFC 5646); write 'fr-FR' [cast-bad-language]",
                "load.json:10:67: error: $.media.textTrackStyle.fontScale: fontScale must be a positive number at most 100 (1 is the receiver's default size), found -1 [cast-bad-font-scale]",
                "load.json:12:22: error: $.activeTrackIds[0]: no track has id 3; the media's tracks are 1 [cast-unknown-active-track]",
            ]
        )
    }

    @Test func checkReportsSyntaxAndUnknownMessageTypes() {
        let broken = CastMessage.check(Array("{\"type\": \"LOAD\",}".utf8))
        #expect(broken.message == nil)
        #expect(
            broken.diagnostics.map(\.description) == [
                "1:17: error: unexpected '}'; expected a member name in double quotes [cast-json-syntax]"
            ])
        let seek = CastMessage.check(Array(#"{"type": "SEEK", "currentTime": 10}"#.utf8))
        #expect(!seek.isValid)
        #expect(
            seek.diagnostics.map(\.description) == [
                "1:10: error: $.type: \"SEEK\" is not a message type CueKit checks (LOAD, EDIT_TRACKS_INFO, MEDIA_STATUS) [cast-unknown-message-type]"
            ]
        )
    }

    @Test func findsWhatADocumentIs() {
        #expect(CastMessage.kind(of: ["media": [:]]) == .load)
        #expect(CastMessage.kind(of: ["type": "EDIT_TRACKS_INFO"]) == .editTracksInfo)
        #expect(CastMessage.kind(of: ["contentId": "x", "tracks": []]) == .media)
        #expect(CastMessage.kind(of: ["edgeType": "NONE"]) == .style)
        #expect(CastMessage.kind(of: ["type": "PLAY"]) == nil)
    }
}
