import CueKitTestSupport
import Foundation
import Testing

/// `cuekit serve` as a process, driven by `cuekit cast send`, and stopped by a signal.
@Suite(.tags(.network), .skippableByTag) struct ServeCommandTests {
    /// A running `cuekit serve` on a free port.
    struct Serving {
        let command: RunningCommand
        let port: Int

        init(folder: String, arguments: [String] = []) throws {
            command = try RunningCommand(["serve", folder, "--port", "0"] + arguments, standardError: .nullDevice)
            // The first line names the address once the server accepts connections.
            _ = command.wait(seconds: 60) { $0.contains("\n") }
            let line = String(command.text.prefix { $0 != "\n" })
            guard let range = line.range(of: "127.0.0.1:"), let port = Int(line[range.upperBound...].prefix { $0.isNumber }) else {
                command.stop()
                throw Failure(description: "cuekit serve printed no address: \(line)")
            }
            self.port = port
        }

        struct Failure: Error, CustomStringConvertible { let description: String }

        /// Sends SIGINT and waits for the exit status (at most 10 s).
        func interrupt() -> Int32? { command.interrupt() }
    }

    static let load = """
        {"type":"LOAD","media":{"contentId":"https://cdn.example.com/m.webm","contentType":"video/webm",
        "tracks":[{"trackId":1,"type":"TEXT","subtype":"SUBTITLES","trackContentId":"https://cdn.example.com/en.vtt","trackContentType":"text/vtt","language":"en"}]},
        "activeTrackIds":[1]}
        """

    @Test func castSendLoadsSwitchesAndIsRefusedWithTheReceiversReasons() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(Self.load, to: "load.json")
        let server = try Serving(folder: folder.path, arguments: ["--quiet"])
        let socket = "ws://127.0.0.1:\(server.port)/cast"

        let loaded = try CommandLineRun.cuekit(["cast", "send", "--to", socket, folder.file("load.json")])
        #expect(loaded.status == 0, "\(loaded)")
        #expect(loaded.standardOutput.contains(#""type": "MEDIA_STATUS""#))
        // cast send gave the message a request id, and the answer carries it.
        #expect(loaded.standardOutput.contains(#""requestId": "#))
        #expect(!loaded.standardOutput.contains(#""requestId": 0"#))
        #expect(loaded.standardOutput.contains(#""media""#))

        let off = try CommandLineRun.cuekit(["cast", "send", "--to", socket, "-"], input: #"{"type":"EDIT_TRACKS_INFO","requestId":5,"activeTrackIds":[]}"#)
        #expect(off.status == 0, "\(off)")
        #expect(off.standardOutput.contains(#""requestId": 5"#))
        #expect(!off.standardOutput.contains(#""media""#))

        let unknown = try CommandLineRun.cuekit(["cast", "send", "--to", socket, "-"], input: #"{"type":"EDIT_TRACKS_INFO","requestId":6,"activeTrackIds":[4]}"#)
        #expect(unknown.status == 1, "\(unknown)")
        #expect(unknown.standardOutput.contains(#""type": "INVALID_REQUEST""#))
        #expect(unknown.standardError.contains("no track has id 4"))

        // A message a receiver would refuse is not sent at all.
        let tracks = try CommandLineRun.cuekit(["cast", "send", "--to", socket, "-"], input: #"{"type":"EDIT_TRACKS_INFO","requestId":7,"tracks":[]}"#)
        #expect(tracks.status == 1)
        #expect(tracks.standardError.contains("-:1:"))
        #expect(tracks.standardError.contains("cast-tracks-not-editable"))
        #expect(tracks.standardError.contains("not sent"))

        #expect(server.interrupt() == 0, "cuekit serve did not stop cleanly on SIGINT")
    }

    @Test func nothingToReachIsAnIOErrorAndAMissingFolderStopsTheServer() throws {
        let unreachable = try CommandLineRun.cuekit(["cast", "send", "--to", "ws://127.0.0.1:1/cast", "-"], input: #"{"type":"GET_STATUS","requestId":1}"#)
        #expect(unreachable.status == 2)
        #expect(unreachable.standardError.contains("cannot connect"))
        let missing = try CommandLineRun.cuekit(["serve", "/nonexistent/folder", "--port", "0"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("/nonexistent/folder"))
    }

    @Test func castCheckChecksActiveTracksAgainstTheLoadedMedia() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(Self.load, to: "load.json")
        folder.write(#"{"type":"EDIT_TRACKS_INFO","requestId":2,"activeTrackIds":[1,3]}"#, to: "edit.json")
        folder.write(#"{"type":"MEDIA_STATUS","requestId":0,"status":[{"mediaSessionId":1,"playerState":"PLAYING","activeTrackIds":[1]}]}"#, to: "status.json")
        let edit = try CommandLineRun.cuekit(["cast", "check", "--media", folder.file("load.json"), folder.file("edit.json")])
        #expect(edit.status == 1)
        #expect(edit.standardOutput.contains("edit.json:1:62: error: $.activeTrackIds[1]: no track has id 3; the media's tracks are 1"))
        let status = try CommandLineRun.cuekit(["cast", "check", "--media", folder.file("load.json"), folder.file("status.json")])
        #expect(status.status == 0, "\(status)")
        let alone = try CommandLineRun.cuekit(["cast", "check", folder.file("edit.json")])
        #expect(alone.status == 0, "\(alone)")
    }
}
