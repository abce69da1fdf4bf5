import CueKitCast
import CueKitServer
import CueKitTestSupport
import Foundation
import Testing

@testable import CueKitCastV2

/// pychromecast, an independent Cast sender, drives the device as it drives a Chromecast: it
/// connects by host and port, launches the Default Media Receiver, plays media with a subtitle
/// track, switches the track on and off, and reads the statuses (`Tests/Peers/pychromecast_session.py`).
@Suite(.enabled(if: PythonPeers.hasPychromecast, "pychromecast is not installed: run .ci/setup (it installs pychromecast 14.0.7 into .venv)"))
struct PychromecastPeerTests {
    @Test func pychromecastPlaysMediaWithSubtitlesAndSwitchesThem() async throws {
        let session = CastReceiverSession()
        var configuration = CastV2Device.Configuration()
        configuration.port = 0
        let device = CastV2Device(configuration: configuration, application: session)
        let port = try await device.start()
        let running = Task { try await device.run() }
        defer { running.cancel() }

        let arguments = [
            PythonPeers.script("pychromecast_session.py"), "127.0.0.1", String(port),
            "http://127.0.0.1:8000/movie.mp4", "http://127.0.0.1:8000/movie.en.vtt",
        ]
        // The script blocks; it runs off the concurrency pool, which the device needs.
        let result = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: ExternalProcess.run(PythonPeers.python, arguments)) }
        }
        #expect(result.status == 0, "\(result.error)")
        let steps = result.output.split(separator: "\n").compactMap { line in
            (try? CastJSONDocument(parsing: String(line)))?.value.objectValue
        }
        func step(_ name: String) -> CastJSONObject? { steps.first { $0["step"]?.stringValue == name } }
        // Before the launch the device runs no application; after it, the media receiver.
        #expect(step("connected")?["app_id"] == .null)
        let loaded = try #require(step("loaded"), "\(result.output)")
        #expect(loaded["app_id"]?.stringValue == "CC1AD845")
        #expect(loaded["content_id"]?.stringValue == "http://127.0.0.1:8000/movie.mp4")
        #expect(loaded["subtitle_tracks"]?.arrayValue == [1])
        #expect(step("enabled")?["active"]?.arrayValue == [1])
        #expect(step("disabled")?["active"]?.arrayValue == [])
        #expect(step("done") != nil)
        // What pychromecast did is what CueKit's receiver holds.
        let status = try #require(await session.status)
        #expect(status.activeTrackIds == [])
        #expect(status.media?.contentId == "http://127.0.0.1:8000/movie.mp4")
        #expect((status.media?.tracks ?? []).map(\.trackContentType) == ["text/vtt"])
    }
}
