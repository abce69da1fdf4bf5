import CueKit
import CueKitCast
import CueKitCastSender
import CueKitTestSupport
import Foundation
import Testing

@testable import CueKitServer

/// HLS on the receiver page in real Chromium: a video ffmpeg cut into MPEG-2 TS segments, a subtitle
/// rendition `cuekit segment` aligned to it and named in the multivariant playlist, the LOAD
/// `cuekit cast media` builds from that playlist. Chromium plays the HLS video itself and exposes no
/// text track for the rendition; the LOAD names the rendition joined by `/tracks/…?as=vtt`, and that
/// is what the page draws.
@Suite(
    .serialized,
    .enabled(if: CommandLineRun.isBuilt && ChromiumReceiverTests.toolsInstalled, "needs cuekit, chromium and ffmpeg; bash .ci/setup installs them"),
    .tags(.chromium, .network), .skippableByTag)
struct ChromiumHLSReceiverTests {
    static let shownText = "Subtitles from the rendition"

    /// The folder: `hls/video.m3u8` and its TS segments, `hls/master.m3u8` naming it, and the
    /// rendition `hls/subs/subs.m3u8` added to the master.
    static func hlsFolder() throws -> ServedFolder {
        let folder = ServedFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/hls", withIntermediateDirectories: true)
        let made = ExternalProcess.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "color=c=0x3a4a5a:s=320x240:d=10:r=25", "-c:v", "libx264", "-g", "50", "-f", "hls",
                "-hls_time", "4", "-hls_playlist_type", "vod", "-hls_segment_type", "mpegts", folder.path + "/hls/video.m3u8",
            ])
        guard made.status == 0 else { throw DevToolsBrowser.Failure("ffmpeg failed: \(made.error)") }
        folder.write(
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=320x240,CODECS=\"avc1.64000d\"\nvideo.m3u8\n",
            to: "hls/master.m3u8")
        folder.write("1\n00:00:01,000 --> 00:00:07,000\n\(shownText)\n", to: "talk.srt")
        let segmented = try CommandLineRun.cuekit([
            "segment", folder.path + "/talk.srt", "-o", folder.path + "/hls/subs", "--align-to", folder.path + "/hls/video.m3u8",
            "--master", folder.path + "/hls/master.m3u8", "--language", "en", "--name", "English", "-q",
        ])
        guard segmented.status == 0 else { throw DevToolsBrowser.Failure("cuekit segment failed: \(segmented)") }
        return folder
    }

    @Test func chromiumPlaysTheHLSVideoAndDrawsItsSubtitleRendition() async throws {
        let folder = try Self.hlsFolder()
        defer { folder.remove() }
        guard let browser = try await DevToolsBrowser.launch() else { return }
        defer { browser.close() }
        try await withServer(folder) { client, _ in
            let port = try #require(client.port)
            let base = "http://127.0.0.1:\(port)"
            // The LOAD, as cuekit cast media builds it from the folder.
            let built = try CommandLineRun.run(
                CommandLineRun.product("cuekit"), ["cast", "media", "--base-url", base, "--content-id", "hls/master.m3u8"],
                in: URL(fileURLWithPath: folder.path))
            #expect(built.status == 0, "\(built)")
            let load = try CastLoadRequest(json: CastJSONDocument(parsing: Array(built.standardOutput.utf8)).value)
            #expect(load.media.contentType == "application/x-mpegurl")
            #expect(load.media.hlsVideoSegmentFormat == .mpeg2TS)
            let tracks = load.media.tracks ?? []
            #expect(tracks.map(\.trackContentID) == [base + "/tracks/hls/subs/subs.m3u8?as=vtt"])
            #expect(tracks.first?.language == "en" && tracks.first?.name == "English")
            #expect(load.activeTrackIDs == [1])

            let receiver = try await browser.open(base + "/receiver")
            #expect(try await receiver.wait(until: "window.cuekit && cuekit.state !== null"))
            let sender = try await RemoteMediaClient.connect(to: "ws://127.0.0.1:\(port)/cast")
            try await sender.load(load)
            #expect(
                try await receiver.wait(until: "cuekit.reports.some(r => r.type === 'LOADED' || r.type === 'LOAD_ERROR')"),
                "the receiver reported nothing")
            let reports = try await receiver.evaluate("JSON.stringify(cuekit.reports)")
            #expect(try await receiver.evaluate("cuekit.reports.some(r => r.type === 'LOADED')") == true, "\(reports)")
            // Chromium plays the HLS video: it has frames, and its time moves.
            #expect(try await receiver.wait(until: "document.getElementById('player').readyState >= 2"))
            // Held within the cue, whatever the page's timeline starts at.
            _ = try await receiver.evaluate("(() => { const p = document.getElementById('player'); p.pause(); p.currentTime = 3.5; return true; })()")
            var drawn: [DevToolsPage.DrawnCue] = []
            let shown = try await ChromiumReceiverTests().waitForDrawnCues(receiver) { cues in
                drawn = cues
                return cues.contains { $0.text.contains(Self.shownText) }
            }
            let player = try await receiver.evaluate(
                "JSON.stringify({time: document.getElementById('player').currentTime, textTracks: document.getElementById('player').textTracks.length, tracks: Array.from(document.querySelectorAll('track')).map(t => [t.src, t.track.mode, t.readyState, (t.track.cues || []).length])})")
            #expect(shown, "the rendition's cue is not drawn: \(drawn.map(\.text)); the receiver: \(player)")
            // The video's own text tracks: only the page's <track>, none for the rendition.
            #expect(try await receiver.evaluate("document.getElementById('player').textTracks.length") == 1, "\(player)")
            browser.close()
        }
    }
}
