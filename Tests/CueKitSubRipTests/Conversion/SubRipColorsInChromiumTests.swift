import CueKit
import CueKitSubRip
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// `<font color>` read from SubRip and written as WebVTT shows in colour in Chromium (what Cast
/// receivers run), and only thanks to the style sheet rules the reader makes: without them, even
/// WebVTT's default colour classes show white.
@Suite(.enabled(if: Chromium.isInstalled && ExternalProcess.find("ffmpeg") != nil, "chromium or ffmpeg not installed"), .tags(.chromium), .skippableByTag)
struct SubRipColorsInChromiumTests {
    static let subRip =
        "1\n00:00:00,000 --> 00:00:04,000\n<font color=\"yellow\">YELLOW YELLOW</font> <font color=\"#FF8000\">ORANGE ORANGE</font>\n"

    /// The screenshot's pixels as RGB triples, of a page showing `vtt` over a grey video.
    private func renderedPixels(_ vtt: String, in scratch: TemporaryDirectory) throws -> [UInt8] {
        scratch.write(vtt, to: "track.vtt")
        scratch.write(
            """
            <!doctype html><body style="margin:0;background:#000">
            <video id=v src="video.webm" width=640 height=360 muted><track default kind=subtitles src="track.vtt"></video>
            <script>const v = document.getElementById('v'); v.textTracks[0].mode = 'showing'; v.currentTime = 1;</script>
            </body>
            """, to: "page.html")
        let shot = try Chromium.run([
            "--allow-file-access-from-files", "--virtual-time-budget=4000", "--window-size=700,420",
            "--screenshot=" + scratch.file("shot.png"), "file://" + scratch.file("page.html"),
        ]).get()
        try #require(TestPaths.exists(scratch.file("shot.png")), "no screenshot: \(shot.error.suffix(500))")
        let raw = ExternalProcess.run(
            "ffmpeg", ["-v", "error", "-i", scratch.file("shot.png"), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        try #require(raw.status == 0 && !raw.standardOutput.isEmpty, "ffmpeg could not decode the screenshot: \(raw.error)")
        return raw.standardOutput
    }

    /// How many pixels are yellow and orange.
    private func count(_ pixels: [UInt8]) -> (yellow: Int, orange: Int) {
        var yellow = 0
        var orange = 0
        var index = 0
        while index + 2 < pixels.count {
            let (r, g, b) = (pixels[index], pixels[index + 1], pixels[index + 2])
            if r > 200, g > 200, b < 100 { yellow += 1 }
            if r > 200, (90...170).contains(g), b < 80 { orange += 1 }
            index += 3
        }
        return (yellow, orange)
    }

    @Test func fontColoursShowInChromiumThroughTheirRules() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let video = ExternalProcess.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=640x360:d=4", "-c:v", "libvpx", "-b:v", "100k",
                scratch.file("video.webm"),
            ])
        try #require(video.status == 0, "ffmpeg could not make a video: \(video.error)")

        var reader = SubRipReader()
        let track = try reader.read(Array(Self.subRip.utf8)).track
        #expect(track.stylesheets.count == 2)
        var writer = WebVTTWriter(to: MemorySink())
        try writer.write(track)
        let styled = count(try renderedPixels(writer.sink.string, in: scratch))
        #expect(styled.yellow > 30 && styled.orange > 30, "\(styled)")

        var unstyledTrack = track
        unstyledTrack.stylesheets = []
        var unstyledWriter = WebVTTWriter(to: MemorySink())
        try unstyledWriter.write(unstyledTrack)
        let unstyled = count(try renderedPixels(unstyledWriter.sink.string, in: scratch))
        #expect(unstyled.yellow == 0 && unstyled.orange == 0, "\(unstyled)")
    }
}
