import CueKitTestSupport
import Foundation
import Testing

/// `cuekit validate --qc` and `cuekit convert --qc-fix` as a QA team runs them.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"))
struct ValidateQCCommandTests {
    static let track = """
        WEBVTT
        Language: en

        00:00:01.000 --> 00:00:01.500
        Too fast for anyone to read this

        00:00:01.520 --> 00:00:04.000
        This line is much too long for the Netflix limit

        """

    /// The `Language:` header line (which the WebVTT reader warns about: WebVTT ignores text there)
    /// picks the English rules: 20 characters per second.
    @Test func findingsAreLocatedAndSayTheValueAndTheLimit() throws {
        let run = try CommandLineRun.cuekit(["validate", "--qc", "netflix", "--from", "vtt", "-"], input: Self.track)
        #expect(run.status == 1, "\(run)")
        #expect(
            run.standardOutput == """
                <stdin>:2:1: warning: text on the lines after 'WEBVTT' is ignored; a blank line must follow the WEBVTT line [vtt-header-text]
                <stdin>:4:1: warning: reading speed 64 characters per second (32 characters in 0.500 s) is over the limit of 20 [qc-reading-speed]
                <stdin>:4:1: error: duration 0.500 s is under the minimum of 0.833 s [qc-duration-short]
                <stdin>:8:1: error: line 1 has 48 characters, over the limit of 42 [qc-line-length]
                <stdin>:4:1: error: the gap to the next cue (at 00:00:01.520) is 20 ms, 0.48 frames at 23.976 fps, under the minimum of 2 frames (84 ms) [qc-gap]
                1 file: 0 valid, 1 invalid (3 errors, 2 warnings)

                """, "\(run)")
    }

    @Test func theSummaryCountsEachRule() throws {
        let run = try CommandLineRun.cuekit(
            ["validate", "--qc", "netflix", "--qc-summary", "--frame-rate", "25", "--from", "vtt", "-"], input: Self.track)
        #expect(run.standardOutput.contains("<stdin>: qc: qc-gap: 1 of 2 cues (50%), worst 0.5 frames\n"), "\(run)")
        #expect(run.standardOutput.contains("<stdin>: qc: qc-reading-speed: 1 of 2 cues (50%), worst 64 characters per second\n"), "\(run)")
        #expect(run.standardOutput.contains("at 25 fps"), "\(run)")
    }

    @Test func sarifDescribesEachRuleWithItsHelp() throws {
        let run = try CommandLineRun.cuekit(["validate", "--qc", "netflix", "--format", "sarif", "--from", "vtt", "-"], input: Self.track)
        let log = try JSONSerialization.jsonObject(with: Data(run.outputBytes)) as? [String: Any]
        let runs = log?["runs"] as? [[String: Any]]
        let driver = (runs?.first?["tool"] as? [String: Any])?["driver"] as? [String: Any]
        let rules = driver?["rules"] as? [[String: Any]] ?? []
        let gap = rules.first { $0["id"] as? String == "qc-gap" }
        #expect(
            (gap?["help"] as? [String: Any])?["text"] as? String
                == "The time between the end of a cue and the start of the next is under the profile's minimum, counted in frames at the frame rate. End the earlier cue sooner, on a frame."
        )
        // The four QC rules that found something, and the reader's own code for the `Language:` line.
        #expect(
            rules.map { $0["id"] as? String } == ["qc-duration-short", "qc-gap", "qc-line-length", "qc-reading-speed", "vtt-header-text"])
    }

    @Test func aProfileWithAnUnknownKeyIsRefused() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(#"{"name":"x","title":"x","rules":{"lineLength":{"maximum":42}}}"#, to: "rules.json")
        let path = folder.file("rules.json")
        let run = try CommandLineRun.cuekit(["validate", "--qc-file", path, "--from", "vtt", "-"], input: Self.track)
        #expect(run.status == 2)
        #expect(
            run.standardError == "cuekit: error: \(path): rules.lineLength.maximum: unknown key (known here: maximumCharacters, severity)\n"
        )
    }

    @Test func subRipCuesAreNamedByNumberAndTime() throws {
        let srt = "1\n00:00:01,000 --> 00:00:01,200\nHi\n"
        let run = try CommandLineRun.cuekit(["validate", "--qc", "netflix", "--from", "srt", "-"], input: srt)
        #expect(
            run.standardOutput.hasPrefix(
                "<stdin>: error: duration 0.200 s is under the minimum of 0.833 s (cue 1 at 00:00:01.000) [qc-duration-short]\n"), "\(run)")
    }

    @Test func fixingThenCheckingFindsNoneOfTheFixedProblems() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let output = folder.file("fixed.vtt")
        let fix = try CommandLineRun.cuekit(["convert", "--qc-fix", "netflix", "--from", "vtt", "-", "-o", output], input: Self.track)
        #expect(fix.status == 0, "\(fix)")
        #expect(
            fix.standardError.contains(
                "<stdin>: qc-fix: cue 1: end moved from 00:00:01.500 to 00:00:01.419: 2 frames before the next cue [qc-gap]"), "\(fix)")
        #expect(fix.standardError.contains("<stdin>: qc-fix: cue 2: line split at its best break [qc-line-length]"), "\(fix)")
        let check = try CommandLineRun.cuekit(["validate", "--qc", "netflix", output])
        #expect(!check.standardOutput.contains("[qc-gap]"), "\(check)")
        #expect(!check.standardOutput.contains("[qc-line-length]"), "\(check)")
        #expect(check.standardOutput.contains("[qc-reading-speed]"), "the text is never changed: \(check)")
    }
}
