import CueKitTestSupport
import Foundation
import Testing

/// `Examples/ConvertAnything`, the library in use, is built with the tests and run as a user runs it.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: CommandLineRun.product("ConvertAnything").path), "ConvertAnything is not built"))
struct ConvertAnythingTests {
    let program = CommandLineRun.product("ConvertAnything")

    @Test func convertsSubRipWithItsColoursAndACastStyle() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(##"{"foregroundColor": "#FFFF00FF", "edgeType": "OUTLINE", "edgeColor": "#000000FF"}"##, to: "style.json")
        let run = try CommandLineRun.run(program, ["Fixtures/subrip/font-color.srt", folder.file("style.json")])
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.hasPrefix("WEBVTT\n"))
        // The Cast style and the file's own colours, both before the first cue.
        let firstCue = try #require(run.standardOutput.range(of: "-->"))
        let castRule = try #require(run.standardOutput.range(of: "/* Cast TextTrackStyle */\n::cue {"))
        let colourRule = try #require(run.standardOutput.range(of: "::cue(."))
        #expect(castRule.lowerBound < firstCue.lowerBound && colourRule.lowerBound < firstCue.lowerBound)
        #expect(run.standardOutput.components(separatedBy: " --> ").count - 1 == 3)
    }

    @Test func aFileThatCannotBeReadIsAnErrorAndNoUsageIsExitTwo() throws {
        let missing = try CommandLineRun.run(program, ["no-such-file.srt"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("no-such-file.srt"))
        #expect(missing.standardOutput.isEmpty)
        #expect(try CommandLineRun.run(program, []).status == 2)
    }

    @Test func theExampleStaysShort() throws {
        let source = String(decoding: try TestPaths.bytes(TestPaths.packageRoot + "/Examples/ConvertAnything/main.swift"), as: UTF8.self)
        #expect(source.split(separator: "\n", omittingEmptySubsequences: false).count <= 30)
        #expect(!source.contains("import CueKitWebVTT") && !source.contains("import CueKitTTML"))
    }
}
