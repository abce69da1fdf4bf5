import CueKitTestSupport
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing

/// `cuekit cast emulate` as a process, driven by pychromecast (an independent Cast sender, run as
/// it would drive a Chromecast: `Tests/Peers/pychromecast_session.py`) and by `cuekit cast play`,
/// `tracks` and `restyle`, then asked by `cuekit cast send` over the receiver's WebSocket what it
/// plays.
@Suite(.tags(.network), .skippableByTag) struct CastEmulateCommandTests {
    /// A running `cuekit cast emulate` on free ports.
    struct Emulating {
        let command: RunningCommand
        let castPort: Int
        let httpPort: Int
        let mdnsPort: Int?
        /// Where the emulator writes what happened to each connection.
        let errorLog: String
        /// What the emulator wrote to standard error so far.
        var log: String { (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "" }

        init(folder: String, arguments: [String] = []) throws {
            errorLog = folder + "/emulator.log"
            _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
            command = try RunningCommand(
                ["cast", "emulate", "--port", "0", "--http-port", "0", "--folder", folder] + arguments,
                standardError: FileHandle(forWritingAtPath: errorLog))
            // Two lines name the ports once both listen (three with --announce).
            let lines = arguments.contains("--announce") ? 3 : 2
            _ = command.wait(seconds: 60) { $0.filter { $0 == "\n" }.count >= lines }
            let text = command.text
            func port(after marker: String) -> Int? {
                guard let range = text.range(of: marker) else { return nil }
                return Int(text[range.upperBound...].prefix { $0.isNumber })
            }
            guard let cast = port(after: "Cast device on 127.0.0.1:"), let http = port(after: "http://127.0.0.1:") else {
                command.stop()
                throw Failure(description: "cuekit cast emulate printed no ports: \(text)")
            }
            castPort = cast
            httpPort = http
            mdnsPort = port(after: "UDP port ")
        }

        struct Failure: Error, CustomStringConvertible { let description: String }

        func stop() { command.stop() }

        /// What the receiver holds, asked over its WebSocket: the first status of a `MEDIA_STATUS`.
        func status() throws -> [String: Any] {
            let asked = try CommandLineRun.cuekit(
                ["cast", "send", "--to", "ws://127.0.0.1:\(httpPort)/cast", "-"], input: Array(#"{"type":"GET_STATUS","requestId":7}"#.utf8))
            let answer = (try? JSONSerialization.jsonObject(with: Data(asked.standardOutput.utf8))) as? [String: Any]
            guard let status = (answer?["status"] as? [[String: Any]])?.first else {
                throw Failure(description: "no media status: \(asked.standardOutput) \(asked.standardError)")
            }
            return status
        }
    }

    /// The body of a GET, as text; nil when it fails.
    static func get(_ url: String) -> String? {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var body: String?
        URLSession.shared.dataTask(with: URL(string: url)!) { data, response, _ in
            if let data, (response as? HTTPURLResponse)?.statusCode == 200 { body = String(decoding: data, as: UTF8.self) }
            done.signal()
        }.resume()
        done.wait()
        return body
    }

    static func castFolder() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        folder.write("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nHello\n", to: "movie.de.vtt")
        try FileManager.default.copyItem(atPath: TestPaths.fixtures + "/subrip/windows-1252.srt", toPath: folder.file("movie.en.srt"))
        try FileManager.default.copyItem(atPath: TestPaths.fixtures + "/ttml/speakers-and-styles.ttml", toPath: folder.file("movie.fr.ttml"))
        folder.write("not really a movie", to: "movie.mp4")
        return folder
    }

    @Test func playThenTracksThenRestyleActOnThePlayingSession() throws {
        let folder = try Self.castFolder()
        defer { folder.remove() }
        let device = try Emulating(folder: folder.path)
        defer { device.stop() }
        let address = "127.0.0.1:\(device.castPort)"
        let play = try RunningCommand(
            ["cast", "play", "--device", address, "movie.mp4", "--track", "movie.en.srt", "--track", "movie.fr.ttml", "--active", "1", "--foreground", "#FFFF00FF"],
            in: folder.path)
        #expect(play.waitFor("active tracks [1]"), "\(play.text)")

        // The load: the movie and both tracks, served as WebVTT by the track server `play` runs.
        let loaded = try device.status()
        #expect(loaded["activeTrackIds"] as? [Int] == [1])
        let media = try #require(loaded["media"] as? [String: Any])
        #expect((media["contentId"] as? String)?.hasSuffix("/movie.mp4") == true)
        let tracks = try #require(media["tracks"] as? [[String: Any]])
        #expect(tracks.map { $0["trackContentType"] as? String } == ["text/vtt", "text/vtt"])
        #expect(tracks.map { $0["language"] as? String } == ["en", "fr"])
        #expect((media["textTrackStyle"] as? [String: Any])?["foregroundColor"] as? String == "#FFFF00FF")
        // The converted track is really served, as WebVTT, with CORS.
        let trackURL = try #require(tracks[1]["trackContentId"] as? String)
        let fetched = try #require(Self.get(trackURL))
        #expect(fetched.hasPrefix("WEBVTT"), "\(fetched.prefix(80))")

        let second = try CommandLineRun.cuekit(["cast", "tracks", "--device", address, "--active", "2"])
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardOutput.contains("active tracks [2]"))
        #expect(play.waitFor("active tracks [2]"), "play prints the status another sender caused: \(play.text)")
        #expect(try device.status()["activeTrackIds"] as? [Int] == [2])

        let off = try CommandLineRun.cuekit(["cast", "tracks", "--device", address, "--off"])
        #expect(off.status == 0, "\(off.standardError)")
        #expect(try device.status()["activeTrackIds"] as? [Int] == [])

        let restyled = try CommandLineRun.cuekit(["cast", "restyle", "--device", address, "--edge-type", "outline", "--background", "#000080FF"])
        #expect(restyled.status == 0, "\(restyled.standardError)")
        let style = try #require((try device.status()["media"] as? [String: Any])?["textTrackStyle"] as? [String: Any])
        #expect(style["edgeType"] as? String == "OUTLINE")
        #expect(style["backgroundColor"] as? String == "#000080FF")
        #expect(play.waitFor("OUTLINE"), "\(play.text)")

        // Ctrl-C: a clean stop.
        #expect(play.interrupt() == 0, "\(play.text)")
    }

    @Test func playReportsADeviceThatGoesAwayAndExitsNonZero() throws {
        let folder = try Self.castFolder()
        defer { folder.remove() }
        let device = try Emulating(folder: folder.path)
        let play = try RunningCommand(["cast", "play", "--device", "127.0.0.1:\(device.castPort)", "movie.mp4", "--track", "movie.de.vtt"], in: folder.path)
        #expect(play.waitFor("active tracks [1]"), "\(play.text)")
        device.stop()
        #expect(play.exitStatus() == 2, "\(play.text)")
        #expect(play.text.contains("went away"), "\(play.text)")
    }

    /// Without --active the first track is on; `--active none` leaves every track off; an id
    /// that names no track is a usage error.
    @Test func playSwitchesOnTheFirstTrackUnlessToldOtherwise() throws {
        let folder = try Self.castFolder()
        defer { folder.remove() }
        let device = try Emulating(folder: folder.path)
        defer { device.stop() }
        let address = "127.0.0.1:\(device.castPort)"
        let first = try RunningCommand(["cast", "play", "--device", address, "movie.mp4", "--track", "movie.fr.ttml", "--track", "movie.de.vtt"], in: folder.path)
        #expect(first.waitFor("active tracks [1]"), "\(first.text)")
        let loaded = try device.status()
        #expect(loaded["activeTrackIds"] as? [Int] == [1])
        let tracks = try #require((loaded["media"] as? [String: Any])?["tracks"] as? [[String: Any]])
        #expect(tracks.first?["language"] as? String == "fr")
        #expect(first.interrupt() == 0, "\(first.text)")

        let none = try RunningCommand(
            ["cast", "play", "--device", address, "movie.mp4", "--track", "movie.fr.ttml", "--track", "movie.de.vtt", "--active", "none"], in: folder.path)
        #expect(none.waitFor("active tracks []"), "\(none.text)")
        #expect(try device.status()["activeTrackIds"] as? [Int] == [])
        #expect(none.interrupt() == 0, "\(none.text)")

        let both = try RunningCommand(
            ["cast", "play", "--device", address, "movie.mp4", "--track", "movie.fr.ttml", "--track", "movie.de.vtt", "--active", "2,1"], in: folder.path)
        #expect(both.waitFor("active tracks [2, 1]"), "\(both.text)")
        #expect(both.interrupt() == 0, "\(both.text)")

        let unknown = try CommandLineRun.cuekit(["cast", "play", "--device", address, "movie.mp4", "--track", "movie.de.vtt", "--active", "2"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("--active 2 names no track: the tracks are 1 to 1"), "\(unknown.standardError)")
    }

    @Test func devicesFindsAnAnnouncedEmulator() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let device = try Emulating(folder: folder.path, arguments: ["--announce", "--mdns-port", "0", "--name", "Test TV"])
        defer { device.stop() }
        let mdnsPort = try #require(device.mdnsPort)
        let found = try CommandLineRun.cuekit(["cast", "devices", "--mdns-server", "127.0.0.1:\(mdnsPort)", "--timeout", "1"])
        #expect(found.status == 0, "\(found.standardError)")
        #expect(found.standardOutput == "Test TV\t127.0.0.1:\(device.castPort)\tCueKit Cast emulator\n")
        let json = try CommandLineRun.cuekit(["cast", "devices", "--mdns-server", "127.0.0.1:\(mdnsPort)", "--timeout", "1", "--json"])
        #expect(json.standardOutput.contains(#""name":"Test TV","host":"127.0.0.1","port":\#(device.castPort)"#), "\(json.standardOutput)")
        // A device named, not addressed: discovery finds it (case aside), and the command reaches it.
        let named = try CommandLineRun.cuekit(["cast", "tracks", "--device", "test tv", "--mdns-server", "127.0.0.1:\(mdnsPort)", "--off"])
        #expect(named.standardError.contains("127.0.0.1:\(device.castPort)") && named.standardError.contains("nothing is playing"), "\(named.standardError)")
        let unknown = try CommandLineRun.cuekit(["cast", "tracks", "--device", "Kitchen Radio", "--mdns-server", "127.0.0.1:\(mdnsPort)", "--off"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("devices that answered: Test TV"), "\(unknown.standardError)")
        // Nobody answers on a port where nothing listens.
        let none = try CommandLineRun.cuekit(["cast", "devices", "--mdns-server", "127.0.0.1:9", "--timeout", "0.5"])
        #expect(none.status == 1)
        #expect(none.standardError.contains("no Cast device answered"), "\(none.standardError)")
    }

    @Test func tracksWithNothingPlayingSaysSo() throws {
        let folder = try Self.castFolder()
        defer { folder.remove() }
        let device = try Emulating(folder: folder.path)
        defer { device.stop() }
        let result = try CommandLineRun.cuekit(["cast", "tracks", "--device", "127.0.0.1:\(device.castPort)", "--active", "1"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("nothing is playing"), "\(result.standardError)")
        let unreachable = try CommandLineRun.cuekit(["cast", "tracks", "--device", "127.0.0.1:1", "--off"])
        #expect(unreachable.status == 2)
        #expect(unreachable.standardError.contains("cannot connect"), "\(unreachable.standardError)")
    }

    @Test(.enabled(if: PythonPeers.hasPychromecast, "pychromecast is not installed: run .ci/setup (it installs pychromecast 14.0.7 into .venv)"), .tags(.peers), .skippableByTag)
    func pychromecastPlaysMediaWithSubtitlesAndSwitchesThem() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let device = try Emulating(folder: folder.path)
        defer { device.stop() }

        let media = "http://127.0.0.1:\(device.httpPort)/movie.mp4"
        let result = ExternalProcess.run(
            PythonPeers.python, [PythonPeers.script("pychromecast_session.py"), "127.0.0.1", String(device.castPort), media, "http://127.0.0.1:\(device.httpPort)/movie.en.vtt"])
        #expect(result.status == 0, "\(result.error)\nemulator: \(device.log)")
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
