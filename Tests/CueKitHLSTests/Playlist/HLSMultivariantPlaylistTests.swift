import CueKit
import CueKitHLS
import Testing

@Suite struct HLSMultivariantPlaylistTests {
    let master = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2"
        low/video.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2560000,SUBTITLES="old",RESOLUTION=1280x720
        high/video.m3u8

        """

    let english = HLSSubtitleRendition(name: "English", language: "en", isDefault: true, uri: "subs/en/subs.m3u8")
    let french = HLSSubtitleRendition(name: "Français", language: "fr", uri: "subs/fr/subs.m3u8")

    @Test func addsTheRenditionsBeforeTheFirstVariantAndTheGroupToEveryVariant() throws {
        let updated = try HLSMultivariantPlaylist.adding([english, french], to: master)
        #expect(
            updated == """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-INDEPENDENT-SEGMENTS
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="subs/en/subs.m3u8"
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=YES,URI="subs/fr/subs.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2",SUBTITLES="subs"
                low/video.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=2560000,SUBTITLES="subs",RESOLUTION=1280x720
                high/video.m3u8

                """)
    }

    @Test func runningAgainReplacesTheLinesInPlaceAndChangesNothingElse() throws {
        let once = try HLSMultivariantPlaylist.adding([english, french], to: master)
        #expect(try HLSMultivariantPlaylist.adding([english, french], to: once) == once)
        var renamed = french
        renamed.name = "French"
        let again = try HLSMultivariantPlaylist.adding([renamed], to: once)
        #expect(again == once.replacingFirst("NAME=\"Français\"", with: "NAME=\"French\""))
    }

    @Test func keepsCRLFLineEndsAndAnExistingDefault() throws {
        let crlf = master.replacing("\n", with: "\r\n")
        let withDefault = crlf.replacingFirst(
            "#EXT-X-STREAM-INF:BANDWIDTH=1280000",
            with:
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"Deutsch\",LANGUAGE=\"de\",DEFAULT=YES,URI=\"de.m3u8\"\r\n#EXT-X-STREAM-INF:BANDWIDTH=1280000"
        )
        let updated = try HLSMultivariantPlaylist.adding([english], to: withDefault)
        #expect(!updated.replacing("\r\n", with: "").contains("\n"))
        #expect(
            updated.contains(
                "URI=\"de.m3u8\"\r\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=NO,"))
    }

    @Test func aMediaPlaylistIsRefusedWithALocatedError() throws {
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.000,\nsubs0.vtt\n#EXT-X-ENDLIST\n"
        let error = try #require(throws: ReadError.self) { try HLSMultivariantPlaylist.adding([english], to: media) }
        #expect(error.diagnostic.code == .hlsNotMultivariantPlaylist)
        #expect(throws: ReadError.self) { try HLSMultivariantPlaylist.adding([english], to: "WEBVTT\n") }
    }

    @Test func urisAreRelativeToTheMultivariantPlaylist() {
        #expect(HLSMultivariantPlaylist.relativeURI(from: "hls/master.m3u8", to: "hls/subs/en/subs.m3u8") == "subs/en/subs.m3u8")
        #expect(HLSMultivariantPlaylist.relativeURI(from: "/a/b/master.m3u8", to: "/a/subs.m3u8") == "../subs.m3u8")
        #expect(HLSMultivariantPlaylist.relativeURI(from: "/a/master.m3u8", to: "/a/./x/../sub titles/s.m3u8") == "sub%20titles/s.m3u8")
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}
