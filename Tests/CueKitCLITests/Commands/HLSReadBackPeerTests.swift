import CueKitTestSupport
import Foundation
import Testing

/// HLS renditions read back as tracks, against media and renditions ffmpeg writes: CueKit's own
/// rendition gives back the source's cues, ffmpeg's shows what its muxer left out, and a Cast LOAD
/// of the media says how its segments are packed.
@Suite(
    .enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"),
    .enabled(if: ExternalProcess.isInstalled("ffmpeg"), "ffmpeg not installed"),
    .tags(.peers), .skippableByTag)
struct HLSReadBackPeerTests {
    static let source = """
        WEBVTT

        00:00:01.000 --> 00:00:02.000
        first

        00:00:03.500 --> 00:00:05.000
        across a boundary

        00:00:09.000 --> 00:00:10.000
        later

        """

    /// A 12-second video in HLS segments of `type` (`mpegts` or `fmp4`) under `hls/`, with a
    /// multivariant playlist naming it.
    static func makeVideo(_ type: String, in scratch: TemporaryDirectory) throws {
        try FileManager.default.createDirectory(atPath: scratch.file("hls"), withIntermediateDirectories: true)
        let made = ExternalProcess.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=d=12:s=320x240:r=25", "-c:v", "libx264", "-g", "50", "-f", "hls",
                "-hls_time", "4", "-hls_playlist_type", "vod", "-hls_segment_type", type, scratch.file("hls/video.m3u8"),
            ])
        #expect(made.status == 0, "\(made.error)")
        scratch.write("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000\nvideo.m3u8\n", to: "hls/master.m3u8")
    }

    @Test func cueKitsOwnRenditionReadsBackAsTheSourceTrack() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        try Self.makeVideo("mpegts", in: scratch)
        scratch.write(Self.source, to: "en.vtt")
        let segmented = try CommandLineRun.cuekit([
            "segment", scratch.file("en.vtt"), "-o", scratch.file("hls/subs"), "--segment-duration", "4", "--align-to",
            scratch.file("hls/video.m3u8"), "--master", scratch.file("hls/master.m3u8"), "--language", "en",
        ])
        #expect(segmented.status == 0, "\(segmented)")
        let original = try CommandLineRun.cuekit(["convert", scratch.file("en.vtt"), "-o", "-", "--normalize"])
        for input in ["hls/master.m3u8", "hls/subs/subs.m3u8"] {
            let read = try CommandLineRun.cuekit(["convert", scratch.file(input), "-o", "-"])
            #expect(read.status == 0, "\(read)")
            #expect(read.standardError.isEmpty, "\(input): \(read.standardError)")
            #expect(read.standardOutput == original.standardOutput, "\(input)")
            let validated = try CommandLineRun.cuekit(["validate", scratch.file(input)])
            #expect(validated.status == 0, "\(input): \(validated)")
            #expect(validated.standardOutput.hasSuffix("1 file: 1 valid (0 errors, 0 warnings)\n"), "\(input): \(validated)")
        }
    }

    @Test func ffmpegsRenditionReadsBackAndItsMissingCueIsReported() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        scratch.write(Self.source, to: "in.vtt")
        let made = ExternalProcess.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=d=12:s=320x240:r=25", "-i", scratch.file("in.vtt"), "-map", "0:v", "-map", "1",
                "-c:v", "libx264", "-g", "50", "-c:s", "webvtt", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
                "-var_stream_map", "v:0,s:0,sgroup:subs", "-master_pl_name", "master.m3u8", "-hls_segment_filename",
                scratch.file("v%v_%d.ts"), scratch.file("out_%v.m3u8"),
            ])
        #expect(made.status == 0, "\(made.error)")
        // ffmpeg leaves the cue that spans 4 s out of the second segment: a player that starts
        // there does not show it. Nothing is lost from the track itself.
        let validated = try CommandLineRun.cuekit(["validate", scratch.file("master.m3u8")])
        #expect(validated.standardOutput.contains("[hls-cue-missing-from-segment]"), "\(validated)")
        #expect(validated.standardOutput.contains("\"across a boundary\""), "\(validated)")
        let read = try CommandLineRun.cuekit(["convert", scratch.file("master.m3u8"), "-o", "-", "-q"])
        #expect(read.status == 0, "\(read)")
        let lines = read.standardOutput.split(separator: "\n")
        #expect(lines.filter { !$0.contains("-->") && $0 != "WEBVTT" } == ["first", "across a boundary", "later"])
        // ffmpeg also moves every cue by its video's start (80 ms here): within a few frames.
        let starts = lines.filter { $0.contains(" --> ") }.map { String($0.prefix(12)) }
        #expect(starts.count == 3)
        for (start, expected) in zip(starts, ["00:00:01", "00:00:03", "00:00:09"]) { #expect(start.hasPrefix(expected), "\(starts)") }
    }

    /// fMP4 media: the map is the earliest presentation time, as ffprobe reports the stream's
    /// start (its edit list applied: ffmpeg's `-output_ts_offset` is an empty edit), read through
    /// the playlist's EXT-X-MAP or from self-initializing media.
    @Test(.enabled(if: ExternalProcess.isInstalled("ffprobe"), "ffprobe not installed"), arguments: [0, 10])
    func theMapOfFragmentedMP4MediaIsItsStartAsFfprobeReportsIt(offset: Int) throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.file("hls"), withIntermediateDirectories: true)
        let made = ExternalProcess.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=d=10:s=320x240:r=25", "-c:v", "libx264", "-g", "50", "-output_ts_offset",
                String(offset), "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4",
                scratch.file("hls/video.m3u8"),
            ])
        #expect(made.status == 0, "\(made.error)")
        let whole = try Data(contentsOf: URL(fileURLWithPath: scratch.file("hls/init.mp4")))
            + Data(contentsOf: URL(fileURLWithPath: scratch.file("hls/video0.m4s")))
        try whole.write(to: URL(fileURLWithPath: scratch.file("whole.mp4")))
        let probe = ExternalProcess.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_time", "-of", "csv=p=0", scratch.file("whole.mp4")])
        let start = try #require(Double(probe.output.prefix { $0 != "\n" && $0 != "," }), "ffprobe: \(probe.output) \(probe.error)")
        let expected = Int((start * 90_000).rounded())
        scratch.write("1\n00:00:01,000 --> 00:00:02,000\nhello\n", to: "en.srt")
        for media in ["hls/video.m3u8", "whole.mp4"] {
            let run = try CommandLineRun.cuekit(["segment", scratch.file("en.srt"), "-o", scratch.file("subs"), "--align-to", scratch.file(media)])
            #expect(run.status == 0, "\(run)")
            #expect(
                scratch.read("subs/subs0.vtt")?.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(expected),LOCAL:00:00:00.000\n") == true,
                "\(media): \(scratch.read("subs/subs0.vtt") ?? "")")
        }
        #expect(offset == 0 || expected == offset * 90_000, "the offset is the stream's start")
    }

    @Test(arguments: [("mpegts", "ts", "mpeg2_ts"), ("fmp4", "fmp4", "fmp4")])
    func aCastLoadOfHLSMediaSaysHowItsSegmentsArePacked(type: String, segment: String, video: String) throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        try Self.makeVideo(type, in: scratch)
        for playlist in ["hls/master.m3u8", "hls/video.m3u8"] {
            let run = try CommandLineRun.cuekit(["cast", "media", "--content-id", scratch.file(playlist), "--compact"])
            #expect(run.status == 0, "\(run)")
            #expect(run.standardOutput.contains(#""hlsSegmentFormat":"\#(segment)""#), "\(playlist): \(run.standardOutput)")
            #expect(run.standardOutput.contains(#""hlsVideoSegmentFormat":"\#(video)""#), "\(playlist): \(run.standardOutput)")
            #expect(run.standardOutput.contains(#""contentType":"application/x-mpegurl""#), "\(run.standardOutput)")
        }
    }
}
