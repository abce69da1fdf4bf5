import CueKitTestSupport
import Foundation
import Testing

@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"))
struct SegmentCommandTests {
    let srt =
        "1\n00:00:01,000 --> 00:00:02,000\nfirst\n\n2\n00:00:05,000 --> 00:00:07,500\n<i>across</i>\n\n3\n00:00:20,000 --> 00:00:21,000\nlast\n"

    @Test func writesThePlaylistAndSegmentsEachWithItsMap() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        scratch.write(srt, to: "en.srt")
        let run = try CommandLineRun.cuekit([
            "segment", scratch.file("en.srt"), "-o", scratch.file("hls"), "--mpegts", "900000", "--foreground", "#FFFF00",
        ])
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run)")
        #expect(scratch.names == ["en.srt", "hls/subs.m3u8", "hls/subs0.vtt", "hls/subs1.vtt", "hls/subs2.vtt", "hls/subs3.vtt"])
        #expect(scratch.read("hls/subs.m3u8")?.hasSuffix("#EXTINF:6.000,\nsubs2.vtt\n#EXTINF:3.000,\nsubs3.vtt\n#EXT-X-ENDLIST\n") == true)
        let second = try #require(scratch.read("hls/subs1.vtt"))
        #expect(second.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\nSTYLE\n"))
        #expect(second.hasSuffix("\n00:00:05.000 --> 00:00:07.500\n<i>across</i>\n"))
        #expect(scratch.read("hls/subs2.vtt") == "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n")
        // Each segment is a valid WebVTT file: the map under WEBVTT draws no warning.
        for index in 0..<4 {
            let validated = try CommandLineRun.cuekit(["validate", scratch.file("hls/subs\(index).vtt")])
            #expect(validated.status == 0 && validated.standardOutput == "1 file: 1 valid (0 errors, 0 warnings)\n", "\(validated)")
        }
    }

    @Test func aMalformedMapIsReportedByValidate() throws {
        let run = try CommandLineRun.cuekit(["validate", "Fixtures/webvtt/hls-timestamp-map-malformed.vtt"])
        #expect(run.status == 1)
        #expect(
            run.standardOutput.contains(
                "hls-timestamp-map-malformed.vtt:2:43: error: the X-TIMESTAMP-MAP line cannot be read (MPEGTS must be a whole number of 90 kHz ticks)"
            ))
    }

    @Test func runningAgainReplacesTheFolderAndRemovesSegmentsNoLongerListed() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        scratch.write(srt, to: "en.srt")
        #expect(
            try CommandLineRun.cuekit(["segment", scratch.file("en.srt"), "-o", scratch.file("hls"), "--segment-duration", "2.5"]).status
                == 0)
        #expect(scratch.names.count == 1 + 1 + 9)
        #expect(scratch.read("hls/subs.m3u8")?.contains("#EXT-X-TARGETDURATION:3\n") == true)
        scratch.write("keep me", to: "hls/notes.txt")
        let again = try CommandLineRun.cuekit(["segment", scratch.file("en.srt"), "-o", scratch.file("hls"), "--segment-duration", "10"])
        #expect(again.status == 0, "\(again)")
        #expect(scratch.names == ["en.srt", "hls/notes.txt", "hls/subs.m3u8", "hls/subs0.vtt", "hls/subs1.vtt", "hls/subs2.vtt"])
    }

    @Test func anInputThatIsNotATrackLeavesTheFolderAsItWas() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        scratch.write(srt, to: "en.srt")
        #expect(try CommandLineRun.cuekit(["segment", scratch.file("en.srt"), "-o", scratch.file("hls")]).status == 0)
        let before = scratch.names
        let playlist = scratch.read("hls/subs.m3u8")
        scratch.write("NOT A TRACK\n", to: "bad.vtt")
        let run = try CommandLineRun.cuekit(["segment", scratch.file("bad.vtt"), "-o", scratch.file("hls")])
        #expect(run.status == 1)
        #expect(run.standardError.contains("[vtt-no-signature]"))
        #expect(scratch.names == (before + ["bad.vtt"]).sorted())
        #expect(scratch.read("hls/subs.m3u8") == playlist)
    }

    @Test func aTransportStreamWithoutPESIsALocatedError() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        scratch.write(srt, to: "en.srt")
        // Null packets only (PID 0x1FFF): a transport stream with nothing to time.
        ExternalProcess.writeBytes(
            Array(repeating: [0x47, 0x1F, 0xFF, 0x10] + [UInt8](repeating: 0xFF, count: 184), count: 3).flatMap { $0 },
            to: scratch.file("empty.ts"))
        let run = try CommandLineRun.cuekit([
            "segment", scratch.file("en.srt"), "-o", scratch.file("hls"), "--align-to", scratch.file("empty.ts"),
        ])
        #expect(run.status == 1)
        #expect(
            run.standardError.contains("empty.ts: error: no PES packet with a presentation time (PTS) in the first 3 TS packets"), "\(run)")
        #expect(run.standardError.contains("[hls-no-presentation-time]"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("hls")))
    }

    @Test func aMasterThatIsNotAMultivariantPlaylistStopsBeforeAnySegmentIsWritten() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        scratch.write(srt, to: "en.srt")
        scratch.write("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.000,\nsubs0.vtt\n#EXT-X-ENDLIST\n", to: "media.m3u8")
        let run = try CommandLineRun.cuekit([
            "segment", scratch.file("en.srt"), "-o", scratch.file("hls"), "--master", scratch.file("media.m3u8"), "--language", "en",
        ])
        #expect(run.status == 1)
        #expect(run.standardError.contains("media.m3u8:1:1: error: the playlist has no #EXT-X-STREAM-INF line"), "\(run)")
        let missing = try CommandLineRun.cuekit([
            "segment", scratch.file("en.srt"), "-o", scratch.file("hls"), "--master", scratch.file("missing.m3u8"), "--language", "en",
        ])
        #expect(missing.status == 2)
        #expect(scratch.names == ["en.srt", "media.m3u8"])
    }

    @Test func inspectListsTheRenditionsOfAMultivariantPlaylistAndReadsTheOneNamed() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        scratch.write(srt, to: "en.srt")
        scratch.write("WEBVTT\n\n00:00:03.000 --> 00:00:04.000\nbonjour\n", to: "fr.vtt")
        scratch.write("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000\nvideo.m3u8\n", to: "master.m3u8")
        let segmented = try CommandLineRun.cuekit([
            "segment", scratch.file("en.srt"), scratch.file("fr.vtt"), "--language", "en,fr", "--name", "English,Français", "--master",
            scratch.file("master.m3u8"), "-o", scratch.file("hls"),
        ])
        #expect(segmented.status == 0, "\(segmented)")
        let inspected = try CommandLineRun.cuekit(["inspect", scratch.file("master.m3u8"), "--rendition", "fr"])
        #expect(inspected.status == 0, "\(inspected)")
        let lines = inspected.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).prefix(4).map(String.init)
        #expect(lines[0].hasSuffix("master.m3u8: HLS playlist of WebVTT segments, 1 cue from 00:00:03.000 to 00:00:04.000"), "\(lines)")
        #expect(lines[1] == "subtitle renditions (* read):")
        #expect(lines[2].hasPrefix("    English (en), group subs, default: "), "\(lines)")
        #expect(lines[3].hasPrefix("  * Français (fr), group subs: "), "\(lines)")
        let unknown = try CommandLineRun.cuekit(["convert", scratch.file("master.m3u8"), "--rendition", "de", "-o", "-"])
        #expect(unknown.status == 1, "\(unknown)")
        #expect(unknown.standardError.contains("no subtitle rendition is named 'de'"), "\(unknown)")
    }

    @Test func refusesWrongUsageWithStatusTwo() throws {
        for (arguments, message) in [
            (["segment", "a.srt", "-o", "out", "--mpegts", "1", "--align-to", "v.ts"], "either --mpegts or --align-to"),
            (["segment", "a.srt", "b.srt", "-o", "out", "--language", "en"], "give one per input"),
            (["segment", "a.srt", "-o", "out", "--master", "m.m3u8"], "--master needs --language"),
            (["segment", "a.srt", "-o", "out", "--segment-duration", "0"], "--segment-duration takes seconds"),
            (["segment", "a.srt", "-o", "out", "--playlist", "subs.txt"], "ending in .m3u8"),
        ] {
            let run = try CommandLineRun.cuekit(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.standardError.contains(message), "\(run)")
        }
    }
}

/// Against real HLS media made by ffmpeg: the map is the video's first PTS as ffprobe reports it,
/// and the Python m3u8 package reads the playlists and sees the subtitle rendition on every variant.
@Suite(
    .enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"),
    .enabled(if: ExternalProcess.isInstalled("ffmpeg") && ExternalProcess.isInstalled("ffprobe"), "ffmpeg not installed"),
    .tags(.peers), .skippableByTag)
struct SegmentCommandPeerTests {
    /// A 10-second H.264 video (B-frames, so its first PTS is not ffmpeg's 1.4 s start) in TS
    /// segments, as ffmpeg's HLS muxer writes them, and a multivariant playlist with two variants.
    static func makeVideo(in scratch: TemporaryDirectory) {
        let made = ExternalProcess.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=d=10:s=320x240:r=25", "-c:v", "libx264", "-g", "50", "-f", "hls", "-hls_time",
                "4",
                "-hls_playlist_type", "vod", "-hls_segment_type", "mpegts", scratch.file("hls/video.m3u8"),
            ])
        #expect(made.status == 0, "\(made.error)")
        // ffmpeg 5.1's -master_pl_name writes a multivariant playlist without its variant here: two
        // variants of the video, as a packager lists them.
        scratch.write(
            """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x240,CODECS="avc1.64000d"
            video.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=320x240,CODECS="avc1.64000d"
            video.m3u8

            """, to: "hls/master.m3u8")
    }

    @Test func theMapIsTheFirstVideoPTSFfprobeReports() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.file("hls"), withIntermediateDirectories: true)
        Self.makeVideo(in: scratch)
        scratch.write("1\n00:00:01,000 --> 00:00:02,000\nhello\n", to: "en.srt")
        let probe = ExternalProcess.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", "-read_intervals", "%+#1",
                scratch.file("hls/video0.ts"),
            ])
        // ffprobe's CSV may end the value with a comma.
        let pts = try #require(UInt64(probe.output.prefix { $0.isNumber }), "ffprobe: \(probe.output) \(probe.error)")
        for media in ["hls/video.m3u8", "hls/master.m3u8", "hls/video0.ts"] {
            let run = try CommandLineRun.cuekit([
                "segment", scratch.file("en.srt"), "-o", scratch.file("hls/subs"), "--align-to", scratch.file(media),
            ])
            #expect(run.status == 0, "\(run)")
            #expect(
                scratch.read("hls/subs/subs0.vtt")?.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(pts),LOCAL:00:00:00.000\n") == true,
                "\(media)")
        }
    }

    @Test(.enabled(if: PythonPeers.hasM3U8, "m3u8 is not installed: run .ci/setup (it installs m3u8 6.0.0 into .venv)"))
    func theM3U8PackageSeesTheRenditionsOnEveryVariant() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.file("hls"), withIntermediateDirectories: true)
        Self.makeVideo(in: scratch)
        scratch.write("1\n00:00:01,000 --> 00:00:05,000\nhello\n", to: "en.srt")
        scratch.write("WEBVTT\n\n00:00:03.000 --> 00:00:04.000\nbonjour\n", to: "fr.vtt")
        let run = try CommandLineRun.cuekit([
            "segment", scratch.file("en.srt"), scratch.file("fr.vtt"), "--language", "en,fr", "--name", "English,Français", "--master",
            scratch.file("hls/master.m3u8"), "-o", scratch.file("hls/subs"), "--segment-duration", "4", "--align-to",
            scratch.file("hls/video.m3u8"),
        ])
        #expect(run.status == 0, "\(run)")
        let read = ExternalProcess.run(PythonPeers.python, [PythonPeers.script("m3u8_renditions.py"), scratch.file("hls/master.m3u8")])
        #expect(read.status == 0, "\(read.error)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(read.standardOutput)) as? [String: Any])
        #expect(seen["is_variant"] as? Bool == true)
        let variants = try #require(seen["variants"] as? [[String: Any]])
        #expect(variants.count == 2)
        #expect(variants.allSatisfy { $0["subtitles"] as? String == "subs" })
        let renditions = try #require(seen["renditions"] as? [[String: Any]])
        #expect(renditions.map { $0["language"] as? String } == ["en", "fr"])
        #expect(renditions.map { $0["name"] as? String } == ["English", "Français"])
        #expect(renditions.map { $0["default"] as? String } == ["YES", "NO"])
        #expect(renditions.map { $0["uri"] as? String } == ["subs/en/subs.m3u8", "subs/fr/subs.m3u8"])
        for rendition in renditions {
            #expect(rendition["version"] as? Int == 3)
            #expect(rendition["target_duration"] as? Int == 4)
            #expect(rendition["media_sequence"] as? Int == 0)
            #expect(rendition["playlist_type"] as? String == "vod")
            #expect(rendition["is_endlist"] as? Bool == true)
        }
        let english = try #require(renditions[0]["segments"] as? [[Any]])
        #expect(english.map { $0[0] as? String } == ["subs0.vtt", "subs1.vtt"])
        #expect(english.map { $0[1] as? Double } == [4.0, 1.0])
        let french = try #require(renditions[1]["segments"] as? [[Any]])
        #expect(french.map { $0[1] as? Double } == [4.0])
    }

    /// With `--single-file`, the m3u8 package sees version 4 and a byte range a segment; the
    /// ranges it reads tile `subs.vtt`, each a WebVTT file with its map.
    @Test(.enabled(if: PythonPeers.hasM3U8, "m3u8 is not installed: run .ci/setup (it installs m3u8 6.0.0 into .venv)"))
    func theM3U8PackageReadsTheByteRangesOfOneFile() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let srt = SegmentCommandTests().srt
        scratch.write(srt, to: "en.srt")
        scratch.write("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000\nvideo.m3u8\n", to: "master.m3u8")
        let run = try CommandLineRun.cuekit([
            "segment", scratch.file("en.srt"), "--single-file", "--language", "en", "--master", scratch.file("master.m3u8"), "-o",
            scratch.file("subs"),
        ])
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run)")
        #expect(scratch.names == ["en.srt", "master.m3u8", "subs/subs.m3u8", "subs/subs.vtt"])
        let read = ExternalProcess.run(PythonPeers.python, [PythonPeers.script("m3u8_renditions.py"), scratch.file("master.m3u8")])
        #expect(read.status == 0, "\(read.error)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(read.standardOutput)) as? [String: Any])
        let rendition = try #require((seen["renditions"] as? [[String: Any]])?.first)
        #expect(rendition["version"] as? Int == 4)
        let segments = try #require(rendition["segments"] as? [[Any]])
        #expect(segments.map { $0[0] as? String } == Array(repeating: "subs.vtt", count: 4))
        #expect(segments.map { $0[1] as? Double } == [6.0, 6.0, 6.0, 3.0])
        let file = Array(try #require(scratch.read("subs/subs.vtt")).utf8)
        var next = 0
        for segment in segments {
            let parts = try #require((segment[2] as? String)?.split(separator: "@").compactMap { Int($0) })
            #expect(parts.count == 2 && parts[1] == next, "\(segment)")
            guard parts.count == 2, parts[1] + parts[0] <= file.count else { break }
            let bytes = String(decoding: file[parts[1]..<(parts[1] + parts[0])], as: UTF8.self)
            #expect(bytes.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n"), "\(bytes)")
            next = parts[1] + parts[0]
        }
        #expect(next == file.count)
        // Read back range by range, the cues are the source's.
        let back = try CommandLineRun.cuekit(["convert", scratch.file("subs/subs.m3u8"), "-o", "-", "--to", "srt"])
        let source = try CommandLineRun.cuekit(["convert", scratch.file("en.srt"), "-o", "-", "--to", "srt"])
        #expect(back.status == 0 && !back.standardOutput.isEmpty && back.standardOutput == source.standardOutput, "\(back)")
    }
}

/// Each segment is read by Chromium, as a `<track>`, with the cues expected at its interval: those
/// that overlap it, with their whole times.
@Suite(
    .enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"),
    .enabled(if: Chromium.isInstalled, "chromium not installed"), .tags(.chromium), .skippableByTag)
struct SegmentCommandChromiumTests {
    @Test func chromiumReadsEverySegmentWithTheCuesOfItsInterval() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let cues: [(id: String, start: Int, end: Int, text: String)] = [
            ("a", 500, 1_500, "one"), ("b", 3_000, 9_000, "<b>spans two</b>"), ("c", 4_000, 4_500, "inside"),
            ("d", 17_000, 18_000, "after a gap"), ("e", 18_500, 30_000, "spans four"),
        ]
        func block(_ cue: (id: String, start: Int, end: Int, text: String)) -> String {
            "\(cue.id)\n\(Self.time(cue.start)) --> \(Self.time(cue.end)) align:start\n\(cue.text)\n\n"
        }
        scratch.write("WEBVTT\n\n" + cues.map(block).joined(), to: "track.vtt")
        let run = try CommandLineRun.cuekit(
            [
                "segment", scratch.file("track.vtt"), "-o", scratch.file("hls"), "--segment-duration", "4", "--mpegts", "126000",
                "--background", "#00000080",
            ])
        #expect(run.status == 0, "\(run)")
        let count = 8  // 30 s in 4-second segments
        #expect(scratch.names.filter { $0.hasSuffix(".vtt") && $0.hasPrefix("hls/") }.count == count)
        var pairs: [(String, String)] = []
        for index in 0..<count {
            let expected = cues.filter { $0.start < (index + 1) * 4_000 && $0.end > index * 4_000 }
            scratch.write("WEBVTT\n\n" + expected.map(block).joined(), to: "hls/expected\(index).vtt")
            pairs.append(("subs\(index).vtt", "expected\(index).vtt"))
        }
        let comparisons = try Chromium.compare(pairs, in: scratch.file("hls")).get()
        for comparison in comparisons { #expect(comparison.isSame, "\(comparison)") }
        // An empty segment loads as a track with no cue.
        #expect(comparisons[3].cueCounts == (0, 0))
        #expect(comparisons[2].cueCounts == (1, 1))
    }

    static func time(_ milliseconds: Int) -> String {
        let seconds = milliseconds / 1000
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = String(milliseconds % 1000)
        return "00:\(two(seconds / 60)):\(two(seconds % 60)).\(String(repeating: "0", count: 3 - fraction.count) + fraction)"
    }
}
