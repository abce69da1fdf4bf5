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

    @Test func subRipCuesAreLocatedAtTheirTimingLines() throws {
        let srt = "1\n00:00:01,000 --> 00:00:01,200\nHi\n"
        let run = try CommandLineRun.cuekit(["validate", "--qc", "netflix", "--from", "srt", "-"], input: srt)
        #expect(
            run.standardOutput.hasPrefix("<stdin>:2:1: error: duration 0.200 s is under the minimum of 0.833 s [qc-duration-short]\n"),
            "\(run)")
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

/// `--shot-changes-from`: ffmpeg's scene detection on a video with hard cuts at known times.
@Suite(
    .enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed"))
struct ValidateQCShotChangeTests {
    @Test func cutsFoundByFFmpegFlagCuesJustOffThem() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let video = folder.file("cuts.webm")
        // Red for 2 s, blue for 3 s, white for 2 s, at 24 fps: cuts at 2 s and 5 s.
        let made = ExternalProcess.run(
            "/usr/bin/ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-y", "-filter_complex",
                "color=c=red:s=160x120:r=24:d=2[a];color=c=blue:s=160x120:r=24:d=3[b];color=c=white:s=160x120:r=24:d=2[c];[a][b][c]concat=n=3:v=1:a=0",
                "-c:v", "libvpx", "-b:v", "200k", video,
            ])
        #expect(made.status == 0, "\(made.error)")
        // One cue starts 3 frames after the first cut, one ends on the second.
        let track = "WEBVTT\n\n00:00:02.125 --> 00:00:03.500\nOff the cut\n\n00:00:04.000 --> 00:00:05.000\nOn the cut\n"
        let run = try CommandLineRun.cuekit(
            ["validate", "--qc", "netflix", "--frame-rate", "24", "--shot-changes-from", video, "--from", "vtt", "-"], input: track)
        let shotChanges = run.standardOutput.split(separator: "\n").filter { $0.hasSuffix("[qc-shot-change]") }
        #expect(
            shotChanges == [
                "<stdin>:3:1: warning: the cue starts 3 frames after the shot change at 00:00:02.000 (at 24 fps): put it on the shot change or at least 12 frames away [qc-shot-change]"
            ], "\(run)")
    }

    @Test func withoutFFmpegTheErrorSaysSo() throws {
        let run = try CommandLineRun.run(
            CommandLineRun.executable, ["validate", "--qc", "netflix", "--shot-changes-from", "movie.webm", "--from", "vtt", "-"],
            input: Array("WEBVTT\n".utf8), environment: ["PATH": "/nonexistent"])
        #expect(run.status == 2)
        #expect(run.standardError.hasPrefix("cuekit: error: --shot-changes-from needs ffmpeg, which is not on PATH"), "\(run)")
    }
}
