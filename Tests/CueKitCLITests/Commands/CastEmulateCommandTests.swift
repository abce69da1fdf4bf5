import CueKitTestSupport
import Foundation
import Testing

/// `cuekit cast emulate` as a process, driven by pychromecast (an independent Cast sender, run as
/// it would drive a Chromecast: `Tests/Peers/pychromecast_session.py`), then asked by `cuekit cast
/// send` over the receiver's WebSocket what it plays.
@Suite(.enabled(if: PythonPeers.hasPychromecast, "pychromecast is not installed: run .ci/setup (it installs pychromecast 14.0.7 into .venv)"))
struct CastEmulateCommandTests {
    /// A running `cuekit cast emulate` on free ports.
    final class Emulating {
        let process = Process()
        let output = Pipe()
        var castPort = 0
        var httpPort = 0

        init(folder: String) throws {
            process.executableURL = URL(fileURLWithPath: CommandLineRun.executable.path)
            process.arguments = ["cast", "emulate", "--port", "0", "--http-port", "0", "--folder", folder]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Two lines name the ports once both listen.
            var seen = Data()
            while String(decoding: seen, as: UTF8.self).filter({ $0 == "\n" }).count < 2 {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                seen.append(chunk)
            }
            let text = String(decoding: seen, as: UTF8.self)
            func port(after marker: String) -> Int? {
                guard let range = text.range(of: marker) else { return nil }
                return Int(text[range.upperBound...].prefix { $0.isNumber })
            }
            guard let cast = port(after: "Cast device on 127.0.0.1:"), let http = port(after: "http://127.0.0.1:") else {
                process.terminate()
                throw Failure(description: "cuekit cast emulate printed no ports: \(text)")
            }
            castPort = cast
            httpPort = http
        }

        struct Failure: Error, CustomStringConvertible { let description: String }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    @Test func pychromecastPlaysMediaWithSubtitlesAndSwitchesThem() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let device = try Emulating(folder: folder.path)
        defer { device.stop() }

        let media = "http://127.0.0.1:\(device.httpPort)/movie.mp4"
        let result = ExternalProcess.run(
            PythonPeers.python, [PythonPeers.script("pychromecast_session.py"), "127.0.0.1", String(device.castPort), media, "http://127.0.0.1:\(device.httpPort)/movie.en.vtt"])
        #expect(result.status == 0, "\(result.error)")
        let steps = result.output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        func step(_ name: String) -> [String: Any]? { steps.first { $0["step"] as? String == name } }
        // Before the launch the device runs no application; after it, the media receiver.
        #expect(step("connected")?["app_id"] is NSNull)
        let loaded = try #require(step("loaded"), "\(result.output)")
        #expect(loaded["app_id"] as? String == "CC1AD845")
        #expect(loaded["content_id"] as? String == media)
        #expect(loaded["subtitle_tracks"] as? [Int] == [1])
        #expect(step("enabled")?["active"] as? [Int] == [1])
        #expect(step("disabled")?["active"] as? [Int] == [])
        #expect(step("done") != nil)

        // The receiver behind the WebSocket is the one pychromecast drove.
        let asked = try CommandLineRun.cuekit(
            ["cast", "send", "--to", "ws://127.0.0.1:\(device.httpPort)/cast", "-"], input: Array(#"{"type":"GET_STATUS","requestId":7}"#.utf8))
        #expect(asked.status == 0, "\(asked.standardError)")
        let answer = try #require((try? JSONSerialization.jsonObject(with: Data(asked.standardOutput.utf8))) as? [String: Any], "\(asked.standardOutput)")
        let status = try #require((answer["status"] as? [[String: Any]])?.first)
        #expect(status["activeTrackIds"] as? [Int] == [])
        let loadedMedia = try #require(status["media"] as? [String: Any])
        #expect(loadedMedia["contentId"] as? String == media)
        #expect((loadedMedia["tracks"] as? [[String: Any]])?.map { $0["trackContentType"] as? String } == ["text/vtt"])
    }
}
