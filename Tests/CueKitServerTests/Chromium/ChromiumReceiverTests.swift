import CueKit
import CueKitCast
import CueKitCastSender
import CueKitTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import CueKitServer

/// The receiver page in real Chromium, with its media and tracks on another origin (another
/// port), so that Chromium enforces CORS; a Swift sender and the sender page in Chromium drive it.
@Suite(.serialized, .tags(.chromium, .network), .skippableByTag) struct ChromiumReceiverTests {
    static let toolsInstalled = Chromium.isInstalled && ExternalProcess.find("ffmpeg") != nil

    /// A media folder: a 12-second grey WebM (Chromium plays VP8) and the two tracks.
    static func mediaFolder() throws -> ServedFolder {
        let folder = ServedFolder()
        let result = ExternalProcess.run(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=0x3a4a5a:s=640x360:d=12:r=10", "-c:v", "libvpx",
                "-b:v", "200k", "-g", "10", "-y", folder.directory.file("movie.webm"),
            ])
        guard result.status == 0 else { throw DevToolsBrowser.Failure("ffmpeg failed: \(result.error)") }
        return folder
    }

    static func load(mediaPort: Int) -> CastLoadRequest {
        CastLoadRequest(
            media: RemoteMediaClientTests.media(base: "http://127.0.0.1:\(mediaPort)"), autoplay: false, currentTime: 1, activeTrackIDs: [1])
    }

    /// Runs `test` with Chromium, a media server (with `mediaOrigins` as its CORS) and a receiver
    /// server on another port; Chromium ends before the servers stop, which wait for its
    /// connections.
    func withReceiver(
        mediaOrigins: AllowedOrigins, _ test: @Sendable (DevToolsBrowser, _ receiverPort: Int, _ mediaPort: Int, TrackServer) async throws -> Void
    ) async throws {
        let media = try Self.mediaFolder()
        defer { media.remove() }
        let pages = ServedFolder()
        defer { pages.remove() }
        guard let browser = try await DevToolsBrowser.launch() else { return }
        defer { browser.close() }
        try await withServer(media, configure: { $0.allowedOrigins = mediaOrigins }) { mediaClient, _ in
            let mediaPort = try #require(mediaClient.port)
            try await withServer(pages) { receiverClient, server in
                let port = try #require(receiverClient.port)
                try await test(browser, port, mediaPort, server)
                browser.close()
            }
        }
    }

    /// The modes of the receiver's tracks, by track id.
    static let modes = "Object.fromEntries(Array.from(document.querySelectorAll('track')).map(t => [t.id, t.track.mode]))"

    @Test(.enabled(if: toolsInstalled, "needs chromium and ffmpeg; bash .ci/setup installs them"))
    func twoSendersSwitchAndRestyleATrackThatChromiumDraws() async throws {
        try await withReceiver(mediaOrigins: .any) { browser, port, mediaPort, server in
            let receiver = try await browser.open("http://127.0.0.1:\(port)/receiver")
            let senderPage = try await browser.open("http://127.0.0.1:\(port)/sender")
            #expect(try await receiver.wait(until: "window.cuekit && cuekit.state !== null"))
            #expect(try await senderPage.wait(until: "window.cuekit && cuekit.messages.length >= 1"))
            let swift = try await RemoteMediaClient.connect(to: "ws://127.0.0.1:\(port)/cast")
            let recorder = RemoteMediaClientTests.Recorder()
            let updates = await swift.updates()
            let listening = Task { for await update in updates { await recorder.record(update) } }
            defer { listening.cancel() }

            // LOAD: both senders get a status; the receiver draws track 1.
            try await swift.load(Self.load(mediaPort: mediaPort))
            #expect(RemoteMediaClientTests.kinds(try await recorder.take(count: 2)) == ["metadata", "status"])
            #expect(try await senderPage.wait(until: "cuekit.messages.some(m => m.type === 'MEDIA_STATUS' && m.status.length && m.status[0].media)"))
            #expect(
                try await receiver.wait(until: "(() => { const t = document.getElementById('track-1'); return t && t.track.mode === 'showing' && t.track.activeCues && t.track.activeCues.length > 0 })()"))
            #expect(try await receiver.evaluate("cuekit.trackErrors.length") == 0)
            var unstyledSize: Double?
            let english = try await waitForDrawnCues(receiver) { cues in
                unstyledSize = cues.first.flatMap { Self.pixels($0.style["font-size"]) }
                return cues.contains { $0.text.contains("Hello from the English track") }
            }
            #expect(english, "the English cue is not drawn")

            // Track 2: exactly one status each, no metadata; Chromium shows track 2's cues.
            let before = try await senderPage.evaluate("cuekit.messages.length").numberValue ?? 0
            try await swift.setActiveTrackIDs([2])
            let swiftUpdates = try await recorder.take(count: 1)
            #expect(try await senderPage.wait(until: "cuekit.messages.length >= \(Int(before) + 1)"))
            try await Task.sleep(for: .milliseconds(300))
            #expect(RemoteMediaClientTests.kinds(swiftUpdates + (await recorder.take())) == ["status"])
            #expect(try await senderPage.evaluate("cuekit.messages.length").numberValue == before + 1)
            let pageStatus = try await senderPage.evaluate("cuekit.messages[cuekit.messages.length - 1].status[0]")
            #expect(pageStatus.objectValue?["activeTrackIds"] == [2])
            #expect(pageStatus.objectValue?["media"] == nil)
            #expect(
                try await receiver.wait(until: "(() => { const m = \(Self.modes); return m['track-1'] === 'disabled' && m['track-2'] === 'showing' })()"))
            let german = try await waitForDrawnCues(receiver) { cues in
                cues.contains { $0.text.contains("Hallo aus der deutschen Spur") } && !cues.contains { $0.text.contains("English") }
            }
            #expect(german, "the German cue is not drawn alone")

            // No tracks: every track is off and nothing is drawn.
            try await swift.setActiveTrackIDs([])
            // Its status is taken here, so that it is not taken for the next step's.
            _ = try await recorder.take(count: 1)
            #expect(
                try await receiver.wait(until: "Object.values(\(Self.modes)).every(mode => mode === 'disabled')"))
            #expect(try await waitForDrawnCues(receiver) { $0.isEmpty }, "cues are still drawn with every track off")

            // A style: metadata and status to both; the drawn cue's computed style is the style.
            try await swift.setActiveTrackIDs([1])
            _ = try await recorder.take(count: 1)
            #expect(
                try await senderPage.wait(
                    until: "JSON.stringify(cuekit.messages[cuekit.messages.length - 1].status[0].activeTrackIds) === '[1]'"))
            let beforeStyle = try await senderPage.evaluate("cuekit.messages.length").numberValue ?? 0
            let style = TextTrackStyle(
                foregroundColor: CastColor(red: 255, green: 255, blue: 0), backgroundColor: CastColor(red: 0, green: 0, blue: 128, alpha: 255),
                edgeType: .outline, edgeColor: .black, fontScale: 1.5, fontGenericFamily: .monospacedSansSerif, fontStyle: .boldItalic,
                windowType: .roundedCorners, windowColor: CastColor(red: 0, green: 0, blue: 0, alpha: 128), windowRoundedCornerRadius: 12)
            try await swift.setTextTrackStyle(style)
            #expect(RemoteMediaClientTests.kinds(try await recorder.take(count: 2)) == ["metadata", "status"])
            #expect(try await senderPage.wait(until: "cuekit.messages.length >= \(Int(beforeStyle) + 1)"))
            let styledStatus = try await senderPage.evaluate("cuekit.messages[\(Int(beforeStyle))].status[0]")
            #expect(styledStatus.objectValue?["media"]?.objectValue?["textTrackStyle"] == style.json)
            var drawn: [DevToolsPage.DrawnCue] = []
            let styled = try await waitForDrawnCues(receiver) { cues in
                drawn = cues
                return cues.first?.style["color"] == "rgb(255, 255, 0)"
            }
            #expect(styled, "the drawn cue is not yellow: \(drawn.first?.style["color"] ?? "no cue")")
            if let cue = drawn.first {
                #expect(cue.style["background-color"] == "rgb(0, 0, 128)")
                #expect(cue.style["font-weight"] == "700")
                #expect(cue.style["font-style"] == "italic")
                #expect(cue.style["font-family"]?.contains("monospace") == true)
                #expect(cue.style["text-shadow"]?.contains("rgb(0, 0, 0)") == true)
                // fontScale 1.5: one and a half times the size Chromium draws unstyled cues at.
                let size = try #require(Self.pixels(cue.style["font-size"]))
                let unstyled = try #require(unstyledSize)
                #expect(abs(size / unstyled - 1.5) < 0.01, "font-size \(size)px against \(unstyled)px unstyled")
            }

            // The sender page tries to change the track list: refused, nothing changes.
            let statusBefore = await server.session.status
            let beforeRefusal = try await senderPage.evaluate("cuekit.messages.length").numberValue ?? 0
            _ = try await senderPage.evaluate(
                "cuekit.send({type: 'EDIT_TRACKS_INFO', tracks: [{trackId: 3, type: 'TEXT', trackContentId: 'x.vtt'}], activeTrackIds: [3]})")
            #expect(try await senderPage.wait(until: "cuekit.messages.length > \(Int(beforeRefusal))"))
            #expect(try await senderPage.evaluate("cuekit.messages[cuekit.messages.length - 1].type") == "INVALID_REQUEST")
            #expect(await server.session.status == statusBefore)
            #expect(await recorder.take().isEmpty)

            if let folder = ProcessInfo.processInfo.environment["CUEKIT_SCREENSHOT_DIR"] {
                try await receiver.screenshot().write(to: URL(fileURLWithPath: folder).appendingPathComponent("receiver.png"))
            }
            await swift.disconnect()
        }
    }

    @Test(.enabled(if: toolsInstalled, "needs chromium and ffmpeg; bash .ci/setup installs them"))
    func withoutCORSTheLoadFailsWithTheReason() async throws {
        try await withReceiver(mediaOrigins: .none) { browser, port, mediaPort, server in
            let receiver = try await browser.open("http://127.0.0.1:\(port)/receiver")
            #expect(try await receiver.wait(until: "window.cuekit && cuekit.state !== null"))
            let swift = try await RemoteMediaClient.connect(to: "ws://127.0.0.1:\(port)/cast")
            // The receiver page cannot fetch them: the load fails, saying why.
            do {
                try await swift.load(Self.load(mediaPort: mediaPort))
                Issue.record("Chromium loaded media and tracks served without CORS")
            } catch let error as CastRequestError {
                #expect(error.type == .loadFailed)
                #expect(error.message.contains("CORS"), "\(error.message)")
            }
            #expect(await server.session.status == nil)
            #expect(try await receiver.drawnCues().isEmpty)
            await swift.disconnect()
        }
    }

    /// `47.5px` as 47.5.
    static func pixels(_ value: String?) -> Double? {
        guard let value, value.hasSuffix("px") else { return nil }
        return Double(value.dropLast(2))
    }

    /// Polls the drawn cues until `condition` holds (at most 10 s).
    func waitForDrawnCues(_ page: DevToolsPage, _ condition: ([DevToolsPage.DrawnCue]) -> Bool) async throws -> Bool {
        for _ in 0..<50 {
            if condition(try await page.drawnCues()) { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }
}
