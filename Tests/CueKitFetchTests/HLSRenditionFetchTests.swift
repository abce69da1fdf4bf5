import CueKit
import CueKitConversion
import CueKitTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import CueKitFetch
@testable import CueKitServer

/// Renditions fetched from a live `cuekit serve` on 127.0.0.1: what is written, what reads back,
/// and what is refused.
@Suite(.tags(.network), .skippableByTag)
struct HLSRenditionFetchTests {
    /// A folder with a WebVTT track, an English rendition cut by hand into two segments, and a
    /// multivariant playlist naming it, a French rendition the server cuts on request (segment
    /// URIs with a query) and a video variant.
    static func site() -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        folder.write("WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nBonjour\n\n00:00:05.000 --> 00:00:07.000\nÀ bientôt\n", to: "fr.vtt")
        try? FileManager.default.createDirectory(atPath: folder.path + "/en", withIntermediateDirectories: false)
        folder.write("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:02.000\nHello\n", to: "en/a.vtt")
        folder.write("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:00:05.000 --> 00:00:06.000\nGoodbye\n", to: "en/b.vtt")
        folder.write(
            "#EXTM3U\r\n#EXT-X-TARGETDURATION:4\r\n#EXT-X-VERSION:3\r\n#EXTINF:4.0,\r\na.vtt\r\n#EXTINF:4.0,\r\nb.vtt\r\n#EXT-X-ENDLIST\r\n",
            to: "en/subs.m3u8")
        folder.write(
            """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="en/subs.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français",LANGUAGE="fr",URI="/hls/fr.vtt/subs.m3u8?duration=3"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,SUBTITLES="subs"
            video/main.m3u8

            """, to: "master.m3u8")
        return folder
    }

    /// Runs `body` with the address of a server for `folder`.
    static func serving<Value: Sendable>(_ folder: TemporaryDirectory, _ body: @Sendable (String) async throws -> Value) async throws -> Value {
        var configuration = TrackServer.Configuration(folder: folder.path)
        configuration.port = 0
        configuration.accessLog = .none
        let server = try TrackServer(configuration: configuration)
        return try await server.makeApplication().test(.live) { client in
            try await body("http://127.0.0.1:\(try #require(client.port))")
        }
    }

    /// The cues a playlist (or track) reads as.
    static func cues(_ path: String, rendition: String? = nil) throws -> [Cue] {
        var options = TrackSource.Options()
        options.hlsRendition = rendition
        var cues: [Cue] = []
        try TrackSource(path: path, options: options).stream { if case .cue(let cue) = $0 { cues.append(cue) } }
        return cues
    }

    @Test func aMediaPlaylistOfPlainNamesIsCopiedAsItIs() async throws {
        let site = Self.site()
        let into = TemporaryDirectory()
        let target = into.path + "/got"
        let fetched = try await Self.serving(site) { base in try await HLSRenditionFetch().fetch(base + "/en/subs.m3u8", into: target) }
        #expect(fetched.playlistPath == target + "/subs.m3u8")
        #expect(fetched.renditions == 1 && fetched.segments == 2)
        for name in ["subs.m3u8", "a.vtt", "b.vtt"] {
            #expect(FileManager.default.contents(atPath: target + "/" + name) == FileManager.default.contents(atPath: site.path + "/en/" + name), "\(name)")
        }
        #expect(try Self.cues(fetched.playlistPath).map(\.text) == ["Hello", "Goodbye"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: into.path) == ["got"])
    }

    /// Segments that are byte ranges of one file bring that file once, and read back range by range.
    @Test func byteRangesOfOneFileBringTheFileOnce() async throws {
        let site = TemporaryDirectory()
        site.writeByteRangeRendition(
            ["WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello\n", "WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nGoodbye\n"], seconds: 4)
        let into = TemporaryDirectory()
        let target = into.path + "/got"
        let fetched = try await Self.serving(site) { base in try await HLSRenditionFetch().fetch(base + "/subs.m3u8", into: target) }
        #expect(fetched.segments == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).sorted() == ["all.vtt", "subs.m3u8"])
        let sizes = ["all.vtt", "subs.m3u8"].compactMap { FileManager.default.contents(atPath: site.path + "/" + $0)?.count }
        #expect(fetched.bytes == sizes.reduce(0, +))
        #expect(FileManager.default.contents(atPath: target + "/subs.m3u8") == FileManager.default.contents(atPath: site.path + "/subs.m3u8"))
        #expect(try Self.cues(fetched.playlistPath).map(\.text) == ["Hello", "Goodbye"])
    }

    @Test func aMultivariantPlaylistBringsEverySubtitleRenditionAndOnlyThose() async throws {
        let site = Self.site()
        let into = TemporaryDirectory()
        let target = into.path + "/got"
        let fetched = try await Self.serving(site) { base in try await HLSRenditionFetch().fetch(base + "/master.m3u8", into: target) }
        #expect(fetched.renditions == 2)
        #expect(fetched.segments == 2 + 3)
        let master = try String(contentsOfFile: target + "/master.m3u8", encoding: .utf8)
        let original = try String(contentsOfFile: site.path + "/master.m3u8", encoding: .utf8)
        // Line for line: only the two URI attributes changed, the video variant kept as it was.
        let (lines, originalLines) = (master.split(separator: "\n", omittingEmptySubsequences: false), original.split(separator: "\n", omittingEmptySubsequences: false))
        #expect(lines.count == originalLines.count)
        #expect(lines[1].hasSuffix("URI=\"rendition-1/subs.m3u8\""))
        #expect(lines[2].hasSuffix("URI=\"rendition-2/subs.m3u8\""))
        #expect(lines[0] == originalLines[0] && lines[3...] == originalLines[3...])
        #expect(!FileManager.default.fileExists(atPath: target + "/video"))
        // The French segments' URIs carried a query: named anew, on the same lines.
        let french = try String(contentsOfFile: target + "/rendition-2/subs.m3u8", encoding: .utf8)
        #expect(french.contains("\nsegment-1.vtt\n") && !french.contains("?"))
        #expect(try Self.cues(fetched.playlistPath, rendition: "en").map(\.text) == ["Hello", "Goodbye"])
        let fr = try Self.cues(fetched.playlistPath, rendition: "fr")
        #expect(fr == (try Self.cues(site.path + "/fr.vtt")))
    }

    @Test func whatCannotBeFetchedLeavesNoFolderAndSaysWhere() async throws {
        let site = Self.site()
        site.write("#EXTM3U\n#EXTINF:4.0,\na.vtt\n#EXTINF:4.0,\nmissing.vtt\n", to: "en/broken.m3u8")
        let into = TemporaryDirectory()
        let target = into.path + "/got"
        let (missing, notPlaylist, tooBig) = try await Self.serving(site) { base in
            func failure(_ url: String, _ limits: HLSRenditionFetch.Limits = .init()) async -> FetchError? {
                do {
                    _ = try await HLSRenditionFetch(limits: limits).fetch(url, into: target)
                    return nil
                } catch {
                    return error
                }
            }
            var small = HLSRenditionFetch.Limits()
            small.segmentBytes = 40
            return (
                await failure(base + "/en/broken.m3u8"), await failure(base + "/fr.vtt"), await failure(base + "/en/subs.m3u8", small)
            )
        }
        #expect(missing?.url.hasSuffix("/en/missing.vtt") == true)
        #expect(missing?.reason == "answered 404 Not Found")
        #expect(notPlaylist?.reason.hasPrefix("is not an HLS playlist") == true)
        #expect(tooBig?.reason.contains("over the limit of 40") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: into.path).isEmpty)
    }

    @Test func anExistingFolderIsLeftAlone() async throws {
        let into = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: into.path + "/got", withIntermediateDirectories: false)
        into.write("mine", to: "got/kept.txt")
        await #expect(throws: FetchError.self) { try await HLSRenditionFetch().fetch("http://127.0.0.1:9/subs.m3u8", into: into.path + "/got") }
        #expect(FileManager.default.contents(atPath: into.path + "/got/kept.txt") == Data("mine".utf8))
        await #expect(throws: FetchError.self) { try await HLSRenditionFetch().fetch("ftp://example.com/subs.m3u8", into: into.path + "/other") }
    }

    @Test func plainFileNamesAreKeptAndOthersAreNot() {
        for name in ["subs0.vtt", "a-b_c.vtt", "X.VTT"] { #expect(HLSRenditionFetch.isPlainFileName(name), "\(name)") }
        for name in ["", ".hidden.vtt", "../a.vtt", "dir/a.vtt", "a.vtt?x=1", "a%20b.vtt", "https://cdn/a.vtt", "é.vtt"] {
            #expect(!HLSRenditionFetch.isPlainFileName(name), "\(name)")
        }
    }
}
