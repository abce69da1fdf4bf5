import CueKit
import CueKitCast
import CueKitTestSupport
import Foundation
import HummingbirdTesting
import Logging
import Testing

@testable import CueKitServer

/// `GET /media.json` lists what a sender can load, by the URLs that play on a receiver; and a LOAD
/// naming a file of this server that is not there, or a track a receiver cannot draw, is refused.
@Suite(.tags(.network), .skippableByTag) struct MediaListingTests {
    static func listing(_ client: any TestClientProtocol) async throws -> CastJSONObject {
        try await client.execute(uri: "/media.json", method: .get, headers: [.origin: "http://127.0.0.1:1"]) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(response.headers[.accessControlAllowOrigin] == "*")
            return try #require(try CastJSONDocument(parsing: Array(response.body.readableBytesView)).value.objectValue)
        }
    }

    /// Writes `text` to `name` in `folder`, making the folders on the way.
    static func put(_ text: String, _ name: String, in folder: ServedFolder) {
        let path = folder.directory.file(name)
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        folder.write(text, to: name)
    }

    static func names(_ listing: CastJSONObject, _ key: String) -> [String] {
        (listing[key]?.arrayValue ?? []).compactMap { $0.objectValue?["name"]?.stringValue }
    }

    @Test func mediaTracksAndStylesAreListedByTheURLsThatPlay() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write("not really a movie", to: "movie.webm")
        Self.put("not really a song", "songs/one song.mp3", in: folder)
        folder.write(##"{"foregroundColor": "#FFFF00FF", "edgeType": "OUTLINE"}"##, to: "yellow.json")
        folder.write(#"{"foregroundColor": "yellow"}"#, to: "bad-style.json")
        folder.write(#"{"type": "LOAD", "media": {"contentId": "x"}}"#, to: "load.json")
        Self.put("WEBVTT\n", ".hidden/secret.vtt", in: folder)
        folder.write("<tt/>", to: "notes.xml")
        folder.write("WEBVTT\n", to: "english.styled.vtt")
        try await withServer(folder) { client, _ in
            let listing = try await Self.listing(client)
            #expect(Self.names(listing, "media") == ["movie.webm", "songs/one song.mp3"])
            let media = try #require(listing["media"]?.arrayValue?.last?.objectValue)
            #expect(media["url"] == "/songs/one%20song.mp3")
            #expect(media["contentType"] == "audio/mpeg")
            // A file before its variants; every format by its /tracks/ URL, which answers WebVTT.
            #expect(Self.names(listing, "tracks") == ["english.vtt", "english.styled.vtt", "german.srt"])
            let german = try #require(listing["tracks"]?.arrayValue?.last?.objectValue)
            #expect(german["url"] == "/tracks/german.srt?as=vtt")
            #expect(german["format"] == "SubRip")
            #expect(german["contentType"] == "text/vtt")
            #expect(Self.names(listing, "styles") == ["yellow.json"])
            #expect(listing["truncated"] == false)
            // Each URL listed is served, and a track's is WebVTT.
            for entry in ["media", "tracks", "styles"].flatMap({ listing[$0]?.arrayValue ?? [] }) {
                let url = try #require(entry.objectValue?["url"]?.stringValue)
                try await client.execute(uri: url, method: .get) { response in
                    #expect(response.status == .ok, "\(url)")
                    if url.hasPrefix("/tracks/") { #expect(response.text.hasPrefix("WEBVTT"), "\(url)") }
                }
            }
        }
    }

    @Test func aFileOfTheSameNameDoesNotHideTheListing() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write("{}", to: "media.json")
        try await withServer(folder) { client, _ in
            let listing = try await Self.listing(client)
            #expect(Self.names(listing, "tracks") == ["english.vtt", "german.srt"])
        }
    }

    @Test func theListingIsBoundedAndSaysWhereItStopped() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        for index in 0..<(MediaListing.maximumFiles + 5) { Self.put("WEBVTT\n", "many/track\(index).vtt", in: folder) }
        Self.put("WEBVTT\n", "a/b/c/d/e/deep.vtt", in: folder)
        Self.put("WEBVTT\n", "a/b/c/d/shallow.vtt", in: folder)
        try await withServer(folder) { client, _ in
            let listing = try await Self.listing(client)
            let tracks = Self.names(listing, "tracks")
            #expect(tracks.count == MediaListing.maximumFiles)
            #expect(tracks.contains("a/b/c/d/shallow.vtt"))
            #expect(!tracks.contains("a/b/c/d/e/deep.vtt"))
            #expect(listing["truncated"] == true)
            let reason = try #require(listing["reason"]?.stringValue)
            #expect(reason.contains("deeper than \(MediaListing.maximumDepth) levels"), "\(reason)")
            #expect(reason.contains("stops at \(MediaListing.maximumFiles) files"), "\(reason)")
            #expect(listing["limits"] == ["files": .number(Double(MediaListing.maximumFiles)), "depth": .number(Double(MediaListing.maximumDepth))])
        }
    }

    @Test func aLoadNamingWhatThisServerLacksIsRefusedWithTheReason() throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write("not really a movie", to: "movie.webm")
        let preflight = LoadPreflight(files: try #require(ConfinedFileSystem(root: folder.path, logger: .init(label: "test"))))
        func load(_ media: String, _ track: String) -> CastLoadRequest {
            CastLoadRequest(
                media: MediaInformation(
                    contentID: media, contentType: "video/webm",
                    tracks: [MediaTrack(trackID: 1, type: .text, subtype: .subtitles, trackContentID: track, trackContentType: "text/vtt", language: "en")]))
        }
        #expect(preflight.problem(with: load("/movie.webm", "/english.vtt")) == nil)
        #expect(preflight.problem(with: load("movie.webm", "/tracks/german.srt?as=vtt")) == nil)
        #expect(preflight.problem(with: load("/movie.webm", "/tracks/english.vtt?as=vtt")) == nil)
        // Absolute URLs are the receiver page's to try.
        #expect(preflight.problem(with: load("https://cdn.example.com/gone.webm", "https://cdn.example.com/gone.vtt")) == nil)
        #expect(preflight.problem(with: load("/gone.webm", "/english.vtt")) == "the media /gone.webm is not in the served folder")
        #expect(preflight.problem(with: load("/movie.webm", "/tracks/gone.srt?as=vtt")) == "track 1 (/tracks/gone.srt?as=vtt) is not in the served folder")
        #expect(
            preflight.problem(with: load("/movie.webm", "/german.srt"))
                == "track 1 (/german.srt) is SubRip, which a receiver does not draw: name it as /tracks/german.srt?as=vtt, which answers WebVTT")
        // HLS subtitle playlists: joined by /tracks, or refused with the URL that joins them.
        folder.write("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-ENDLIST\n", to: "subs.m3u8")
        #expect(preflight.problem(with: load("/movie.webm", "/tracks/subs.m3u8?as=vtt")) == nil)
        #expect(
            preflight.problem(with: load("/movie.webm", "/subs.m3u8"))
                == "track 1 (/subs.m3u8) is an HLS playlist, which a receiver does not draw: name it as /tracks/subs.m3u8?as=vtt, which answers its segments joined as WebVTT")
        #expect(
            preflight.problem(with: load("/movie.webm", "/hls/german.srt/subs.m3u8?duration=4"))
                == "track 1 (/hls/german.srt/subs.m3u8?duration=4) is an HLS playlist, which a receiver does not draw: name it as /tracks/german.srt?as=vtt, which answers WebVTT")
        #expect(
            preflight.problem(with: load("/movie.webm", "/hls/gone.srt/subs.m3u8"))
                == "track 1 (/hls/gone.srt/subs.m3u8) is not in the served folder")
        #expect(preflight.problem(with: load("/../etc/passwd", "/english.vtt")) == "the media /../etc/passwd is not in the served folder")
        #expect(preflight.problem(with: load("", "/english.vtt")) == "the LOAD names no media: its contentId is empty")
    }
}
