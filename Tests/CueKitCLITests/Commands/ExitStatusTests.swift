import CueKitTestSupport
import Foundation
import Testing

/// The exit statuses the README and each command's `--help` promise are the ones the commands
/// give: 0 success, 1 invalid input, 2 a usage or I/O error; and an empty file is invalid input
/// in every format.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"))
struct ExitStatusTests {
    /// The sentence that starts with "Exit status:" in `text`, with line breaks as spaces.
    static func exitStatusSentence(in text: String) -> String? {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        guard let start = flat.range(of: "Exit status: ") else { return nil }
        let rest = flat[start.upperBound...]
        let end = rest.range(of: ". ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test func theREADMEAndEveryHelpSayWhatEachStatusMeans() throws {
        let readme = String(decoding: try TestPaths.bytes(TestPaths.packageRoot + "/README.md"), as: UTF8.self)
        let promised = try #require(Self.exitStatusSentence(in: readme))
        #expect(promised.hasPrefix("0 success, 1 invalid input"), "\(promised)")
        #expect(promised.contains("2 a usage or I/O error"), "\(promised)")
        for command in [["validate"], ["inspect"], ["convert"], ["segment"], ["style"], ["cast", "check"]] {
            let help = try CommandLineRun.cuekit(command + ["--help"])
            let sentence = try #require(Self.exitStatusSentence(in: help.standardOutput), "\(command) --help states no exit status")
            for status in ["0 ", "1 ", "2 "] {
                #expect(sentence.contains(status), "\(command) --help: '\(sentence)' says nothing of status \(status)")
            }
        }
    }

    @Test func eachCommandGivesTheStatusItPromises() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for name in ["empty.vtt", "empty.srt", "empty.ttml"] { directory.write("", to: name) }
        let valid = [TestPaths.fixture("cast/movie.en.vtt"), TestPaths.fixture("subrip/tags.srt"), TestPaths.fixture("ttml/speakers-and-styles.ttml")]
        let empty = ["empty.vtt", "empty.srt", "empty.ttml"].map(directory.file)
        let missing = directory.file("missing.vtt")
        func status(_ arguments: [String]) throws -> Int32 { try CommandLineRun.cuekit(arguments).status }

        for file in valid {
            #expect(try status(["validate", file]) == 0, "\(file)")
            #expect(try status(["inspect", file]) == 0, "\(file)")
            #expect(try status(["convert", file, "-o", directory.file("out.vtt")]) == 0, "\(file)")
        }
        // Empty input is no track, whatever its format: invalid input, and nothing is written.
        for file in empty {
            #expect(try status(["validate", file]) == 1, "\(file)")
            #expect(try status(["inspect", file]) == 1, "\(file)")
            #expect(try status(["convert", file, "-o", directory.file("empty-out.vtt")]) == 1, "\(file)")
        }
        #expect(!directory.names.contains("empty-out.vtt"))
        for command in [["validate"], ["inspect"], ["cast", "check"]] {
            #expect(try status(command + [missing]) == 2, "\(command) on a missing file")
        }
        #expect(try status(["convert", missing, "-o", directory.file("x.vtt")]) == 2)
        #expect(try status(["convert", "--no-such-flag"]) == 2)
        #expect(try status(["cast", "check", TestPaths.fixture("cast/edit-tracks-info.json")]) == 0)
        #expect(try status(["cast", "check", TestPaths.fixture("cast/load-invalid.json")]) == 1)
        #expect(try status(["validate", TestPaths.fixture("webvtt/interview.vtt")]) == 1, "a file with errors is invalid")
    }
}
