import CueKit
import CueKitCast
import CueKitHLS
import CueKitTestSupport
import Testing

/// A multivariant playlist's subtitle renditions as the text tracks a receiver page draws: each
/// named by the URL that joins it into one WebVTT file.
@Suite struct HLSRenditionTracksTests {
    static let master = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="other",NAME="Other",LANGUAGE="de",URI="other.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="subs/en/subs.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français",LANGUAGE="fr",DEFAULT=YES,URI="../fr%20cc/subs.m3u8?token=1"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Served",LANGUAGE="es",URI="/hls/talk.es.srt/subs.m3u8?duration=4.000&style=s.json"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Remote",LANGUAGE="it",URI="https://cdn.example/it.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Outside",LANGUAGE="pt",URI="../../pt.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES="subs"
        video.m3u8

        """

    @Test func theFirstVariantsGroupIsListedByTheURLsThatJoinEachRendition() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(Self.master, to: "master.m3u8")
        let listing = HLSRenditionTracks.listing(
            ofPlaylistAt: folder.file("master.m3u8"), servedAs: "movie/master.m3u8", baseURL: "http://host:8000/", firstID: 3)
        #expect(
            listing.tracks.map(\.trackContentID) == [
                "http://host:8000/tracks/movie/subs/en/subs.m3u8?as=vtt",
                "http://host:8000/tracks/fr%20cc/subs.m3u8?as=vtt",
                "http://host:8000/tracks/talk.es.srt?as=vtt&style=s.json",
            ])
        #expect(listing.tracks.map(\.trackID) == [3, 4, 5])
        #expect(listing.tracks.map(\.language) == ["en", "fr", "es"])
        #expect(listing.tracks.map(\.name) == ["English", "Français", "Served"])
        #expect(listing.tracks.allSatisfy { $0.type == .text && $0.subtype == .subtitles && $0.trackContentType == "text/vtt" })
        #expect(listing.defaultTrackID == 4)
        #expect(listing.skipped.count == 2)
        #expect(listing.skipped.first?.contains("https://cdn.example/it.m3u8") == true)
        #expect(listing.skipped.last?.contains("../../pt.m3u8") == true)
        // Without a base URL: paths on the server.
        let relative = HLSRenditionTracks.listing(ofPlaylistAt: folder.file("master.m3u8"), servedAs: "master.m3u8", baseURL: nil, firstID: 1)
        #expect(relative.tracks.first?.trackContentID == "/tracks/subs/en/subs.m3u8?as=vtt")
    }

    @Test func aMediaPlaylistOrAFileThatIsNoPlaylistListsNothing() {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nsubs0.vtt\n#EXT-X-ENDLIST\n", to: "subs.m3u8")
        folder.write("not a playlist", to: "video.m3u8")
        for name in ["subs.m3u8", "video.m3u8", "missing.m3u8"] {
            let listing = HLSRenditionTracks.listing(ofPlaylistAt: folder.file(name), servedAs: name, baseURL: nil, firstID: 1)
            #expect(listing == HLSRenditionTracks.Listing(), "\(name)")
        }
    }
}
