import CueKitCast
import CueKitTestSupport
import Foundation
import Testing

/// The README's "Serve and cast" section, followed word for word in headless Chromium: its
/// command starts the server (on a free port of 127.0.0.1 here), the receiver and sender pages are
/// opened at the addresses it gives, the style it names is chosen, Load is pressed, and the
/// receiver draws the text it quotes in the Cast style: yellow, outlined, with none of the track's
/// own lime.
@Suite(
    .serialized, .enabled(if: CommandLineRun.isBuilt && ChromiumCaptionRenderer.isAvailable, "cuekit, chromium or ffmpeg missing"),
    .tags(.chromium, .network), .skippableByTag)
struct ReadmeServeAndCastChromiumTests {
    /// What the section says to do.
    struct Steps {
        var command: [String]
        var pages: [String]
        var style: String
        var button: String
        var drawnText: String
    }

    /// Reads the steps from README.md's "Serve and cast" section.
    static func steps() throws -> Steps {
        let readme = String(decoding: try TestPaths.bytes(TestPaths.packageRoot + "/README.md"), as: UTF8.self)
        let start = try #require(readme.range(of: "## Serve and cast\n"))
        let rest = readme[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        let blocks = section.components(separatedBy: "```")
        #expect(blocks.count >= 3, "the section has no code block")
        let commandLine = try #require(blocks[1].split(separator: "\n").first { $0.hasPrefix("cuekit ") })
        let command = commandLine.prefix { $0 != "#" }.split(separator: " ").map(String.init)
        let prose = blocks[2...].joined(separator: " ").replacingOccurrences(of: "\n", with: " ")
        let pages = prose.split(separator: " ").filter { $0.hasPrefix("http://") }.map { String($0) }
        func between(_ open: String, _ close: String, after marker: String) throws -> String {
            let markerRange = try #require(prose.range(of: marker), "the section does not say '\(marker)'")
            let opening = try #require(prose[markerRange.upperBound...].range(of: open))
            let closing = try #require(prose[opening.upperBound...].range(of: close))
            return String(prose[opening.upperBound..<closing.lowerBound])
        }
        return Steps(
            command: command, pages: pages, style: try between("`", "`", after: "Choose"), button: try between("**", "**", after: "press"),
            drawnText: try between("\"", "\"", after: "draws"))
    }

    @Test func theSectionLoadsStyledSubtitlesOnTheReceiver() async throws {
        let steps = try Self.steps()
        #expect(steps.command.first == "cuekit" && steps.command.dropFirst().first == "serve", "\(steps.command)")
        #expect(steps.pages.count == 2, "\(steps.pages)")
        let receiverPage = try #require(steps.pages.first { $0.hasSuffix("/receiver") }, "\(steps.pages)")
        let senderPage = try #require(steps.pages.first { $0.hasSuffix("/sender") }, "\(steps.pages)")

        // The command as written, on a free port.
        let server = try RunningCommand(Array(steps.command.dropFirst()) + ["--port", "0"], in: TestPaths.packageRoot, standardError: .nullDevice)
        defer { server.stop() }
        #expect(server.wait(seconds: 60) { $0.contains("\n") }, "cuekit serve printed nothing")
        let line = String(server.text.prefix { $0 != "\n" })
        let range = try #require(line.range(of: "http://127.0.0.1:"), "\(line)")
        let port = try #require(Int(line[range.upperBound...].prefix { $0.isNumber }), "\(line)")
        func onThisPort(_ url: String) -> String { url.replacingOccurrences(of: "127.0.0.1:8000", with: "127.0.0.1:\(port)") }

        guard let browser = try await DevToolsBrowser.launch() else { return }
        defer { browser.close() }
        let receiver = try await browser.open(onThisPort(receiverPage))
        let sender = try await browser.open(onThisPort(senderPage))
        #expect(try await receiver.wait(until: "window.cuekit && cuekit.state !== null"))
        #expect(try await sender.wait(until: "window.cuekit && cuekit.offer !== null && cuekit.socket.readyState === 1"))
        #expect(try await sender.evaluate("cuekit.offer.media.map(m => m.name).join()") == "movie.webm")

        // "Choose STYLE as the Style": the control labelled Style.
        let chosen = try await sender.evaluate(
            """
            (() => {
              const label = Array.from(document.querySelectorAll('label')).find(l => l.textContent.trim() === 'Style');
              const select = document.getElementById(label.htmlFor);
              const option = Array.from(select.options).find(o => o.textContent === \(Self.quoted(steps.style)));
              if (!option) return false;
              select.value = option.value;
              select.dispatchEvent(new Event('change'));
              return true;
            })()
            """)
        #expect(chosen == true, "the sender page offers no style named \(steps.style)")
        #expect(try await sender.wait(until: "document.getElementById('load-json').value.includes('textTrackStyle')"))
        // "press Load".
        let pressed = try await sender.evaluate(
            "(() => { const b = Array.from(document.querySelectorAll('button')).find(b => b.textContent === \(Self.quoted(steps.button))); if (b) b.click(); return Boolean(b); })()")
        #expect(pressed == true, "no button named \(steps.button)")

        #expect(try await sender.wait(until: "cuekit.messages.some(m => m.type === 'MEDIA_STATUS' && m.status.length && m.status[0].playerState === 'PLAYING')"))
        #expect(try await sender.evaluate("cuekit.failure") == .null)
        #expect(try await sender.evaluate("cuekit.status.activeTrackIds") == [1])
        // The cue is shown from 1 s to 4 s of a 10-second video: the video is held at 2 s, so that
        // the checks below, slow on a loaded machine, still find it on screen.
        _ = try await receiver.evaluate("(() => { const p = document.getElementById('player'); p.pause(); p.currentTime = 2; return true; })()")
        var drawn: [DevToolsPage.DrawnCue] = []
        let shown = try await ChromiumReceiverTests().waitForDrawnCues(receiver) { cues in
            if !cues.isEmpty { drawn = cues }
            return cues.contains { $0.text.contains(steps.drawnText) && $0.style["color"] == "rgb(255, 255, 0)" }
        }
        let player = try await receiver.evaluate(
            "JSON.stringify({time: document.getElementById('player').currentTime, ready: document.getElementById('player').readyState, reports: cuekit.reports, tracks: Array.from(document.querySelectorAll('track')).map(t => [t.src, t.track.mode, t.readyState, (t.track.cues || []).length])})")
        #expect(shown, "\(steps.drawnText) is not drawn yellow: \(drawn.map { ($0.text, $0.style["color"] ?? "") }); the receiver: \(player)")
        let screenshot = try await receiver.screenshot()
        let cue = try #require(drawn.first { $0.text.contains(steps.drawnText) })
        #expect(cue.style["text-shadow"]?.contains("rgb(0, 0, 0)") == true, "no outline: \(cue.style["text-shadow"] ?? "none")")

        // The pixels: yellow text with a black outline, and none of the track's own lime.
        let image = try Self.image(fromPNG: screenshot)
        let yellowRegion = image.region { $0.red > 200 && $0.green > 200 && $0.blue < 80 }
        let yellow = yellowRegion.count
        let lime = image.region { $0.red < 80 && $0.green > 200 && $0.blue < 80 }.count
        // Black around the text only: the page letterboxes the video in black.
        let black =
            yellow == 0
            ? 0
            : image.crop(x: yellowRegion.minX, y: yellowRegion.minY, width: yellowRegion.maxX - yellowRegion.minX + 1, height: yellowRegion.maxY - yellowRegion.minY + 1)
                .region { $0.red < 5 && $0.green < 5 && $0.blue < 5 }.count
        #expect(yellow > 300, "\(yellow) yellow pixels")
        #expect(lime < 20, "\(lime) lime pixels: the track's own colour is drawn")
        #expect(black > 100, "\(black) outline pixels")
        if let folder = ProcessInfo.processInfo.environment["CUEKIT_SCREENSHOT_DIR"] {
            try screenshot.write(to: URL(fileURLWithPath: folder).appendingPathComponent("readme-serve-and-cast.png"))
            try await sender.screenshot().write(to: URL(fileURLWithPath: folder).appendingPathComponent("readme-sender.png"))
        }
        browser.close()
        #expect(server.interrupt() == 0)
    }

    /// `text` as a JavaScript string literal.
    static func quoted(_ text: String) -> String { CastJSONValue.string(text).serialized(.compact) }

    /// A PNG read through ffmpeg as the RGB image the pixel checks take.
    static func image(fromPNG png: Data) throws -> Image {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        try png.write(to: URL(fileURLWithPath: folder.file("shot.png")))
        let result = ExternalProcess.run(
            "ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", folder.file("shot.png"), "-f", "image2", "-c:v", "ppm", "-pix_fmt", "rgb24", "-y", folder.file("shot.ppm")])
        guard result.status == 0, let data = FileManager.default.contents(atPath: folder.file("shot.ppm")) else {
            throw DevToolsBrowser.Failure("ffmpeg cannot read the screenshot: \(result.error)")
        }
        return try Image(ppm: data)
    }
}
