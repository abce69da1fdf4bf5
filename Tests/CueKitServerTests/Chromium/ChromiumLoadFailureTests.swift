import CueKit
import CueKitCast
import CueKitCastSender
import CueKitTestSupport
import Foundation
import Testing

@testable import CueKitServer

extension ChromiumReceiverTests {
    /// A LOAD whose media or track does not load reaches every connected sender as `LOAD_FAILED`
    /// with the reason (found by the receiver page in Chromium, or by the server for its own
    /// files), each sender page shows it, and nobody is told `PLAYING`.
    @Test(.enabled(if: Chromium.isInstalled, "needs chromium; bash .ci/setup installs it"))
    func aLoadThatFailsReachesEverySenderWithTheReason() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try FileManager.default.copyItem(atPath: TestPaths.fixture("cast/movie.webm"), toPath: folder.directory.file("movie.webm"))
        folder.write(ServedFolder.english.replacingOccurrences(of: "English", with: "French"), to: "movie.fr.vtt")
        guard let browser = try await DevToolsBrowser.launch() else { return }
        defer { browser.close() }
        try await withServer(folder) { client, _ in
            let port = try #require(client.port)
            let base = "http://127.0.0.1:\(port)"
            let receiver = try await browser.open(base + "/receiver")
            let first = try await browser.open(base + "/sender")
            let second = try await browser.open(base + "/sender")
            #expect(try await receiver.wait(until: "window.cuekit && cuekit.state !== null"))
            for page in [first, second] {
                #expect(try await page.wait(until: "window.cuekit && cuekit.offer !== null && cuekit.socket.readyState === 1"))
            }
            // The LOAD the page builds: the tracks named after the media, the first on.
            let built = try await first.evaluate(
                "(() => { const m = JSON.parse(document.getElementById('load-json').value); return [m.media.contentId, m.media.tracks.map(t => t.trackContentId), m.activeTrackIds]; })()")
            #expect(built == [.string(base + "/movie.webm"), [.string(base + "/tracks/movie.fr.vtt?as=vtt")], [1]])
            let swift = try await RemoteMediaClient.connect(to: "ws://127.0.0.1:\(port)/cast")
            let recorder = RemoteMediaClientTests.Recorder()
            let updates = await swift.updates()
            let listening = Task { for await update in updates { await recorder.record(update) } }
            defer { listening.cancel() }

            func load(media: String, track: String) -> String {
                """
                cuekit.send({type: 'LOAD', media: {contentId: '\(media)', contentType: 'video/webm', streamType: 'BUFFERED',
                  tracks: [{trackId: 1, type: 'TEXT', subtype: 'SUBTITLES', trackContentId: '\(track)', trackContentType: 'text/vtt', language: 'en'}]},
                  activeTrackIds: [1]})
                """
            }
            /// Sends a LOAD from the first page; both pages get LOAD_FAILED, the asker with its
            /// request id; both show it; the reason contains `expected`.
            func expectFailure(_ script: String, saying expected: String, code: Int) async throws {
                let before = try await first.evaluate("cuekit.messages.length").numberValue ?? 0
                let secondBefore = try await second.evaluate("cuekit.messages.length").numberValue ?? 0
                let requestID = try await first.evaluate(script)
                let failed = "cuekit.messages.slice(%d).find(m => m.type === 'LOAD_FAILED')"
                #expect(try await first.wait(until: String(format: failed, Int(before)) + " !== undefined"), "no LOAD_FAILED for \(expected)")
                #expect(try await second.wait(until: String(format: failed, Int(secondBefore)) + " !== undefined"))
                let toAsker = try await first.evaluate(String(format: failed, Int(before))).objectValue
                let toOther = try await second.evaluate(String(format: failed, Int(secondBefore))).objectValue
                #expect(toAsker?["requestId"] == requestID)
                #expect(toOther?["requestId"] == 0)
                for message in [toAsker, toOther] {
                    #expect(message?["reason"] == "GENERIC_LOAD_ERROR")
                    #expect(message?["detailedErrorCode"] == .number(Double(code)))
                    let reason = message?["customData"]?.objectValue?["message"]?.stringValue ?? ""
                    #expect(reason.contains(expected), "\(reason)")
                }
                for page in [first, second] {
                    // Shown at the top of the page, where a person sees it.
                    let shown = try await page.evaluate(
                        "(() => { const box = document.getElementById('failure'); return box.hidden ? '' : box.innerText; })()")
                    #expect(shown.stringValue?.contains(expected) == true, "the sender page shows \(shown)")
                    #expect(
                        try await page.evaluate(
                            "cuekit.messages.slice(\(Int(page === first ? before : secondBefore))).some(m => m.type === 'MEDIA_STATUS' && m.status.length && m.status[0].playerState === 'PLAYING')")
                            == false, "PLAYING was sent for media that failed")
                }
                #expect(try await receiver.wait(until: "document.getElementById('status').textContent.includes('Could not play')"))
            }

            // The receiver page finds these: a missing video, a missing track, a SubRip track
            // named directly (absolute URLs, which only the receiver can try).
            try await expectFailure(load(media: base + "/missing.webm", track: base + "/english.vtt"), saying: "missing.webm could not be played", code: 104)
            try await expectFailure(load(media: base + "/movie.webm", track: base + "/gone.vtt"), saying: "gone.vtt) could not be loaded (HTTP 404)", code: 905)
            try await expectFailure(load(media: base + "/movie.webm", track: base + "/german.srt"), saying: "name it as /tracks/german.srt?as=vtt", code: 905)
            if let shots = ProcessInfo.processInfo.environment["CUEKIT_SCREENSHOT_DIR"] {
                try await first.screenshot().write(to: URL(fileURLWithPath: shots).appendingPathComponent("sender-load-failed.png"))
            }
            // The server finds this one itself: a path on it naming nothing.
            try await expectFailure(load(media: "/missing.webm", track: "/english.vtt"), saying: "/missing.webm is not in the served folder", code: 905)
            // A Swift sender's load fails with the same error, typed.
            do {
                try await swift.load(
                    CastLoadRequest(media: MediaInformation(contentID: base + "/missing.webm", contentType: "video/webm", streamType: .buffered)))
                Issue.record("the load of a missing file succeeded")
            } catch let error as CastRequestError {
                #expect(error.type == .loadFailed)
                #expect(error.message.contains("missing.webm"), "\(error.message)")
            }
            #expect(await recorder.take().allSatisfy { update in
                if case .mediaStatus(let status) = update { return status.playerState != .playing }
                return true
            })

            // And what is there plays: the receiver answers PLAYING once it has loaded it.
            _ = try await first.evaluate(load(media: base + "/movie.webm", track: base + "/tracks/german.srt?as=vtt"))
            #expect(try await first.wait(until: "cuekit.status && cuekit.status.playerState === 'PLAYING'"))
            #expect(try await first.evaluate("document.getElementById('failure').hidden") == true)
            #expect(try await receiver.wait(until: "cuekit.reports.some(r => r.type === 'LOADED')"))
            await swift.disconnect()
            browser.close()
        }
    }
}
