import CueKitTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import CueKitServer

/// `/hls/NAME/subs.m3u8`: any track of the folder served as an HLS subtitle rendition, segmented on
/// request by the engine `cuekit segment` uses, cached like `/tracks`, each segment found from the
/// URI the playlist gives it.
@Suite(.tags(.network), .skippableByTag) struct RenditionServingTests {
    /// Four cues over 20 s, out of start-time order, one of them across two 4-second segments.
    static let track = """
        1
        00:00:09,000 --> 00:00:10,000
        Third

        2
        00:00:01,000 --> 00:00:02,000
        First

        3
        00:00:03,500 --> 00:00:05,000
        Second, across a boundary

        4
        00:00:18,000 --> 00:00:20,000
        Last

        """
    static let style = ##"{"foregroundColor":"#FFFF00FF"}"##

    /// The segment URIs of a media playlist.
    static func segmentURIs(_ playlist: String) -> [String] {
        playlist.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
    }

    @Test func theRenditionIsWhatCueKitSegmentWrites() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write(Self.track, to: "talk.srt")
        folder.write(Self.style, to: "style.json")
        let written = folder.path + "/written"
        let command = try CommandLineRun.cuekit([
            "segment", folder.path + "/talk.srt", "-o", written, "--segment-duration", "4", "--mpegts", "900000",
            "--style", folder.path + "/style.json", "-q",
        ])
        #expect(command.status == 0, "\(command)")
        let expectedPlaylist = try String(contentsOfFile: written + "/subs.m3u8", encoding: .utf8)
        let expectedNames = Self.segmentURIs(expectedPlaylist)
        #expect(expectedNames.count == 5)

        try await withServer(folder) { client, server in
            let playlist = try await client.execute(uri: "/hls/talk.srt/subs.m3u8?duration=4&mpegts=900000&style=style.json", method: .get) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/vnd.apple.mpegurl")
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                // The cues put in start-time order: a warning, as cuekit segment reports it.
                #expect(response.headers[HTTPField.Name("X-CueKit-Conversion")!] == "4 cues in 5 segments, 0 errors, 1 warnings")
                return response.text
            }
            // The same playlist, its segment URIs carrying what made them.
            let uris = Self.segmentURIs(playlist)
            #expect(uris == expectedNames.map { $0 + "?duration=4.000&mpegts=900000&style=style.json" })
            #expect(
                playlist.replacingOccurrences(of: "?duration=4.000&mpegts=900000&style=style.json", with: "") == expectedPlaylist)
            var tags: Set<String> = []
            for (uri, name) in zip(uris, expectedNames) {
                let expected = try String(contentsOfFile: written + "/" + name, encoding: .utf8)
                try await client.execute(uri: "/hls/talk.srt/" + uri, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "text/vtt; charset=utf-8")
                    #expect(response.text == expected, "\(name)")
                    tags.insert(response.headers[.eTag] ?? "")
                }
            }
            // Each file has its own entity tag; the whole rendition was made once.
            #expect(tags.count == expectedNames.count)
            #expect(await server.conversions.conversionsRun == 1)
            // The segment across the boundary is in both segments, its times whole.
            let second = try await client.execute(uri: "/hls/talk.srt/" + uris[1], method: .get) { $0.text }
            #expect(second.contains("00:00:03.500 --> 00:00:05.000\nSecond, across a boundary"))
            #expect(second.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n"))
        }
    }

    @Test func aSegmentAskedForAloneIsMadeAndRevalidated() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write(Self.track, to: "talk.srt")
        try await withServer(folder) { client, server in
            // A player that kept a segment URI asks for it before the playlist.
            let tag = try await client.execute(uri: "/hls/talk.srt/subs3.vtt", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("00:00:18.000 --> 00:00:20.000\nLast"))
                return response.headers[.eTag]!
            }
            try await client.execute(uri: "/hls/talk.srt/subs3.vtt", method: .get, headers: [.ifNoneMatch: tag]) { response in
                #expect(response.status == .notModified)
            }
            try await client.execute(uri: "/hls/talk.srt/subs.m3u8", method: .get) { response in
                #expect(response.status == .ok)
                // Without parameters, segment URIs are the bare names, 6-second segments.
                #expect(Self.segmentURIs(response.text) == ["subs0.vtt", "subs1.vtt", "subs2.vtt", "subs3.vtt"])
                #expect(response.text.contains("#EXT-X-TARGETDURATION:6\n"))
            }
            #expect(await server.conversions.conversionsRun == 1)
            // A changed track is segmented again.
            try await Task.sleep(for: .milliseconds(20))
            folder.write(Self.track.replacingOccurrences(of: "Last", with: "Final"), to: "talk.srt")
            try await client.execute(uri: "/hls/talk.srt/subs3.vtt", method: .get, headers: [.ifNoneMatch: tag]) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("Final"))
            }
        }
    }

    @Test func badRequestsAreRefusedWithTheReason() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write(Self.track, to: "talk.srt")
        folder.write("not a track\u{0}", to: "broken.vtt")
        try await withServer(folder) { client, _ in
            let refusals: [(String, HTTPResponse.Status, String)] = [
                ("/hls/talk.srt", .notFound, "/hls/NAME/subs.m3u8"),
                ("/hls/talk.srt/notes.txt", .notFound, "subs0.vtt"),
                ("/hls/missing.srt/subs.m3u8", .notFound, "no track named missing.srt"),
                ("/hls/talk.srt/subs9.vtt", .notFound, "no such segment (4 cues in 4 segments"),
                ("/hls/talk.srt/subs.m3u8?duration=0", .badRequest, "from 0.1 to 3600 seconds"),
                ("/hls/talk.srt/subs.m3u8?duration=abc", .badRequest, "duration=abc"),
                ("/hls/talk.srt/subs.m3u8?mpegts=8589934592", .badRequest, "2^33"),
                ("/hls/talk.srt/subs.m3u8?mpegts=1&align=video.ts", .badRequest, "give one"),
                ("/hls/talk.srt/subs.m3u8?align=english.vtt", .unprocessableContent, "align=english.vtt"),
                ("/hls/talk.srt/subs.m3u8?align=video.ts", .notFound, "align=video.ts"),
                ("/hls/broken.vtt/subs.m3u8", .unprocessableContent, "broken.vtt:1:1"),
            ]
            for (uri, status, words) in refusals {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == status, "\(uri)")
                    #expect(response.text.contains(words), "\(uri): \(response.text)")
                    #expect(!response.text.contains(folder.path), "\(uri) names the served folder")
                }
            }
        }
    }

    @Test func aFolderNamedHLSIsServedAsFiles() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write(Self.track, to: "talk.srt")
        try FileManager.default.createDirectory(atPath: folder.path + "/hls/talk.srt", withIntermediateDirectories: true)
        folder.write("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nvideo.m3u8\n", to: "hls/master.m3u8")
        folder.write("#EXTM3U\n# a file of the folder\n", to: "hls/talk.srt/subs.m3u8")
        try await withServer(folder) { client, server in
            try await client.execute(uri: "/hls/master.m3u8", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text.hasPrefix("#EXTM3U\n#EXT-X-STREAM-INF"))
            }
            // The file wins over the rendition of the same path.
            try await client.execute(uri: "/hls/talk.srt/subs.m3u8", method: .get) { response in
                #expect(response.text.contains("a file of the folder"))
            }
            #expect(await server.conversions.conversionsRun == 0)
            try await client.execute(uri: "/hls/talk.srt/subs0.vtt", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("First"))
            }
        }
    }

    @Test func renditionsAreEvictedWithTheirSegments() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write(Self.track, to: "talk.srt")
        try await withServer(folder, configure: { $0.conversions.maximumEntries = 1 }) { client, server in
            try await client.execute(uri: "/hls/talk.srt/subs.m3u8", method: .get) { #expect($0.status == .ok) }
            let cache = server.conversions.cacheFolder
            let held = { (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? [] }
            #expect(held().filter { $0.hasSuffix(".hls") }.count == 1)
            // The least recently used conversion goes, its folder and segments with it.
            try await client.execute(uri: "/tracks/talk.srt", method: .get) { #expect($0.status == .ok) }
            // Answers let go of their conversions as they end: the dropped folder goes then.
            for _ in 0..<100 where held().contains(where: { $0.hasSuffix(".hls") }) { try await Task.sleep(for: .milliseconds(50)) }
            #expect(held().filter { $0.hasSuffix(".hls") }.isEmpty, "\(held())")
            #expect(held().filter { $0.hasSuffix(".vtt") }.count == 1)
            #expect(await server.conversions.usage.entries == 1)
        }
    }

    @Test(.enabled(if: ExternalProcess.isInstalled("ffmpeg"), "ffmpeg not installed"))
    func alignedToAVideoOfTheFolderAsCueKitSegmentAlignsIt() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write(Self.track, to: "talk.srt")
        let made = ExternalProcess.run(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc=d=1:s=64x48:r=25", "-c:v", "libx264", "-f", "mpegts", folder.path + "/video.ts"])
        #expect(made.status == 0, "\(made.error)")
        let command = try CommandLineRun.cuekit([
            "segment", folder.path + "/talk.srt", "-o", folder.path + "/written", "--align-to", folder.path + "/video.ts", "-q",
        ])
        #expect(command.status == 0, "\(command)")
        let expected = try String(contentsOfFile: folder.path + "/written/subs0.vtt", encoding: .utf8)
        let map = try #require(expected.split(separator: "\n").dropFirst().first)
        #expect(map.hasPrefix("X-TIMESTAMP-MAP=MPEGTS:") && !map.hasPrefix("X-TIMESTAMP-MAP=MPEGTS:0,"))
        try await withServer(folder) { client, _ in
            let playlist = try await client.execute(uri: "/hls/talk.srt/subs.m3u8?align=video.ts", method: .get) { $0.text }
            let first = try #require(Self.segmentURIs(playlist).first)
            // The video's time, resolved once, is what the segments' URIs carry.
            #expect(first.hasPrefix("subs0.vtt?mpegts=") && !first.contains("align"))
            try await client.execute(uri: "/hls/talk.srt/" + first, method: .get) { #expect($0.text == expected) }
        }
    }
}
