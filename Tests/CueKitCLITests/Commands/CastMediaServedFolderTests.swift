import CueKitTestSupport
import Foundation
import Testing

/// `cuekit cast media --base-url` for a folder `cuekit serve` serves: absolute URLs, tracks a
/// receiver can draw, a request id, the first track on; and every example of its help builds a
/// LOAD that `cuekit cast check` passes without a warning.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"))
struct CastMediaServedFolderTests {
    static let subRip = "1\n00:00:01,000 --> 00:00:04,000\nHallo\n"
    static let ttml = #"<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="fr"><body><div><p begin="1s" end="4s">Bonjour</p></div></body></tt>"#

    /// A folder with a track file for each name, in the format its extension says.
    static func folder(with names: [String]) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        for name in names {
            if name.hasSuffix(".vtt") {
                try FileManager.default.copyItem(atPath: TestPaths.fixture("cast/movie.en.vtt"), toPath: folder.file(name))
            } else {
                folder.write(name.hasSuffix(".srt") ? subRip : ttml, to: name)
            }
        }
        return folder
    }

    @Test func tracksOfAServedFolderAreAbsoluteWebVTTURLsAndTheFirstIsOn() throws {
        let folder = try Self.folder(with: ["movie.en.srt", "movie.fr.ttml", "movie 2.de.vtt"])
        defer { folder.remove() }
        let run = try CommandLineRun.run(
            CommandLineRun.executable,
            ["cast", "media", "movie.en.srt", "movie.fr.ttml", "movie 2.de.vtt", "--content-id", "/clip.webm", "--base-url", "https://media.example.com/", "--compact"],
            in: URL(fileURLWithPath: folder.path))
        #expect(run.status == 0, "\(run)")
        #expect(run.standardError == "", "no warning, cast-relative-url included")
        let expected = #"""
            {"type":"LOAD","requestId":1,"media":{"contentId":"https://media.example.com/clip.webm","contentType":"video/webm","streamType":"BUFFERED","tracks":[\#
            {"trackId":1,"type":"TEXT","subtype":"SUBTITLES","trackContentId":"https://media.example.com/tracks/movie.en.srt?as=vtt","trackContentType":"text/vtt","name":"en","language":"en"},\#
            {"trackId":2,"type":"TEXT","subtype":"SUBTITLES","trackContentId":"https://media.example.com/tracks/movie.fr.ttml?as=vtt","trackContentType":"text/vtt","name":"fr","language":"fr"},\#
            {"trackId":3,"type":"TEXT","subtype":"SUBTITLES","trackContentId":"https://media.example.com/movie%202.de.vtt","trackContentType":"text/vtt","name":"de","language":"de"}]},\#
            "activeTrackIds":[1]}

            """#
        #expect(run.standardOutput == expected)
    }

    @Test func activeNoneAndARequestIDAreKept() throws {
        let folder = try Self.folder(with: ["movie.en.srt"])
        defer { folder.remove() }
        let run = try CommandLineRun.run(
            CommandLineRun.executable,
            ["cast", "media", "movie.en.srt", "--content-id", "https://media.example.com/clip.webm", "--base-url", "https://media.example.com",
             "--active", "none", "--request-id", "9", "--compact"],
            in: URL(fileURLWithPath: folder.path))
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.hasPrefix(#"{"type":"LOAD","requestId":9,"#), "\(run.standardOutput)")
        #expect(run.standardOutput.hasSuffix(#""activeTrackIds":[]}"# + "\n"), "\(run.standardOutput)")
        // Without --base-url the file is named as given, which a receiver resolves against its own page.
        let bare = try CommandLineRun.run(
            CommandLineRun.executable, ["cast", "media", "movie.en.srt", "--content-id", "https://media.example.com/clip.webm"],
            in: URL(fileURLWithPath: folder.path))
        #expect(bare.standardError.contains("[cast-relative-url]"), "\(bare.standardError)")
    }

    @Test func everyHelpExampleBuildsALoadThatCastCheckPasses() throws {
        let help = try CommandLineRun.cuekit(["cast", "media", "--help"])
        let examples = HelpAndCompletionTests.examples(in: help.standardOutput)
        #expect(examples.count >= 3, "\(help.standardOutput)")
        for example in examples {
            let tracks = example.filter { [".vtt", ".srt", ".ttml"].contains(where: $0.hasSuffix) }
            let folder = try Self.folder(with: tracks)
            defer { folder.remove() }
            let directory = URL(fileURLWithPath: folder.path)
            let built = try CommandLineRun.run(CommandLineRun.executable, example + ["-o", "load.json"], in: directory)
            #expect(built.status == 0, "\(example): \(built)")
            #expect(built.standardError == "", "\(example): \(built.standardError)")
            let checked = try CommandLineRun.run(CommandLineRun.executable, ["cast", "check", "load.json"], in: directory)
            #expect(checked.status == 0, "\(example): \(checked)")
            #expect(checked.standardOutput == "1 file: 1 valid (0 errors, 0 warnings)\n", "\(example): \(checked.standardOutput)")
            if !example.contains("--media-only") {
                let load = try #require(folder.read("load.json"))
                #expect(load.contains(#""requestId": "#), "\(example): \(load)")
                #expect(load.contains("\"activeTrackIds\": [\n    1\n  ]"), "\(example): \(load)")
            }
        }
    }
}
