import CueKitTestSupport
import Foundation
import Testing

/// The README shows `cuekit inspect` on a real file: its output must be what the command prints.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"))
struct ReadmeExampleTests {
    /// The lines of the console block that follows `$ command` in README.md.
    static func documentedOutput(of command: String) throws -> String? {
        let readme = String(decoding: try TestPaths.bytes(TestPaths.packageRoot + "/README.md"), as: UTF8.self)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == "$ " + command }) else { return nil }
        let output = lines[(start + 1)...].prefix { $0 != "```" }
        return output.joined(separator: "\n") + "\n"
    }

    @Test(arguments: [
        ["inspect", "Fixtures/webvtt/interview.vtt"],
        ["convert", "Fixtures/ttml/speakers-and-styles.ttml", "-o", "-"],
    ])
    func readmeShowsWhatTheCommandPrints(_ arguments: [String]) throws {
        let documented = try #require(try Self.documentedOutput(of: "cuekit " + arguments.joined(separator: " ")))
        let run = try CommandLineRun.cuekit(arguments)
        #expect(run.status == 0)
        #expect(run.standardOutput == documented)
    }

    @Test func readmeShowsWhatValidatePrints() throws {
        let arguments = ["validate", "Fixtures/webvtt/interview.vtt", "Fixtures/subrip/tags.srt", "Fixtures/cast/load-invalid.json", "missing.vtt"]
        let documented = try #require(try Self.documentedOutput(of: "cuekit " + arguments.joined(separator: " ")))
        let run = try CommandLineRun.cuekit(arguments)
        #expect(run.status == 2)
        #expect(documented == run.standardOutput + "$ echo $?\n2\n")
    }
}
