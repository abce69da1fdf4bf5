import CueKit
import CueKitSubRip
import CueKitTestSupport
import CueKitWebVTT
import Testing

@Suite struct GenerateCommandTests {
    @Test(arguments: ["vtt", "srt", "ttml"])
    func theSameSeedGivesTheSameBytes(format: String) throws {
        let first = CLIRun.cuekit(["generate", "--cues", "300", "--seed", "42", "--format", format])
        let second = CLIRun.cuekit(["generate", "--cues", "300", "--seed", "42", "--format", format, "-o", "-"])
        let other = CLIRun.cuekit(["generate", "--cues", "300", "--seed", "43", "--format", format])
        #expect(first.status == 0 && first.standardError.isEmpty, "\(first.error)")
        #expect(first.standardOutput.count > 300 * 50)
        #expect(first.standardOutput == second.standardOutput)
        #expect(first.standardOutput != other.standardOutput)
    }

    @Test func writesTheFileNamedByOutput() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let path = scratch.file("generated.srt")
        let run = CLIRun.cuekit(["generate", "--cues", "50", "--format", "srt", "-o", path])
        #expect(run.status == 0 && run.standardOutput.isEmpty)
        let written = try TestPaths.bytes(path)
        #expect(written == (CLIRun.cuekit(["generate", "--cues", "50", "--format", "srt"])).standardOutput)
    }

    @Test func theSubRipReaderReadsTheSubRipOutputCleanly() throws {
        let run = CLIRun.cuekit(["generate", "--cues", "2000", "--seed", "7", "--format", "srt"])
        var reader = SubRipReader()
        let result = try reader.read(run.standardOutput)
        #expect(result.track.cues.count == 2000)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.prefix(5))")
        #expect(result.track.cues.map(\.id) == (1...2000).map(String.init))
        // Tags, colours and {\an8} of the generated text reach the model.
        #expect(result.track.cues.contains { $0.text.contains("<i>") })
        #expect(result.track.cues.contains { $0.text.contains("<c.") })
        #expect(result.track.cues.contains { $0.settings.line == .number(0) })
        #expect(!result.track.stylesheets.isEmpty)
        // Times never go backwards by more than an overlap, and cues have a duration.
        #expect(result.track.cues.allSatisfy { $0.end > $0.start })
    }

    @Test func theWebVTTReaderReadsTheWebVTTOutputCleanly() throws {
        let run = CLIRun.cuekit(["generate", "--cues", "5000", "--seed", "3"])
        let result = try WebVTTReader.read(bytes: run.standardOutput)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.prefix(5))")
        #expect(result.track.cues.count == 5000)
        #expect(result.track.regions.map(\.id) == ["speaker", "top"])
        #expect(result.track.stylesheets.count == 1)
        #expect(result.track.notes.count > 1)
        #expect(result.track.cues.contains { $0.settings.region == "speaker" })
        #expect(result.track.header == "- cuekit generate: seed 3, 5000 cues")

        let plain = try WebVTTReader.read(
            bytes: CLIRun.cuekit(["generate", "--cues", "5000", "--seed", "3", "--no-style-region"]).standardOutput)
        #expect(plain.diagnostics.isEmpty, "\(plain.diagnostics.prefix(5))")
        #expect(plain.track.regions.isEmpty && plain.track.stylesheets.isEmpty)
        #expect(plain.track.cues.count == 5000)
        #expect(plain.track.cues.allSatisfy { $0.settings.region == nil })
    }

    @Test func theWebVTTOutputHasAboutAHundredBytesPerCueAndTheSameTimesAsSubRip() throws {
        let vtt = CLIRun.cuekit(["generate", "--cues", "3000", "--seed", "9", "--no-style-region"])
        let perCue = Double(vtt.standardOutput.count) / 3000
        #expect((90.0...110.0).contains(perCue), "\(perCue) bytes per cue")
        let timingLines = vtt.output.split(separator: "\n").filter { $0.contains(" --> ") }
        #expect(timingLines.count == 3000)
        #expect(!vtt.output.contains("\nSTYLE\n") && !vtt.output.contains("\nREGION\n") && !vtt.output.contains("region:"))

        let srt = CLIRun.cuekit(["generate", "--cues", "3000", "--seed", "9", "--format", "srt"])
        var reader = SubRipReader()
        let cues = try reader.read(srt.standardOutput).track.cues
        let subRipTimes = cues.map { "\(Timestamp.format($0.start)) --> \(Timestamp.format($0.end))" }
        let webVTTTimes = timingLines.map { String($0.prefix(29)) }
        #expect(subRipTimes == webVTTTimes)
    }

    @Test func theWebVTTOutputHoldsWhatRealTracksHold() throws {
        let text = CLIRun.cuekit(["generate", "--cues", "3000"]).output
        for needle in [
            "\nSTYLE\n", "\nREGION\n", "\nNOTE", "<v ", "<i>", "<b>", "<u>", "<c.", "<ruby>", "<lang ", "&amp;", "region:", "align:",
            "line:", "é", "字", "ש", "ع", "🎬",
        ] {
            #expect(text.contains(needle), "no \(needle.debugDescription) in 3000 cues")
        }
    }

    @Test(.enabled(if: CLIRun.isInstalled("ffmpeg"), "ffmpeg not installed"))
    func ffmpegReadsEveryCueWithoutStyleAndRegionBlocks() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let path = scratch.file("generated.vtt")
        #expect(CLIRun.cuekit(["generate", "--cues", "500", "--no-style-region", "-o", path]).status == 0)
        let converted = ExternalProcess.run("ffmpeg", ["-v", "error", "-i", path, "-f", "srt", "-"])
        #expect(converted.status == 0)
        #expect(converted.output.split(separator: "\n").filter { $0.contains(" --> ") }.count == 500)
    }

    @Test(.enabled(if: CLIRun.isInstalled("xmllint"), "xmllint not installed"))
    func theTTMLOutputIsWellFormed() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let path = scratch.file("generated.ttml")
        #expect(CLIRun.cuekit(["generate", "--cues", "2000", "--format", "ttml", "-o", path]).status == 0)
        #expect(ExternalProcess.run("xmllint", ["--noout", path]).status == 0)
        let paragraphs = ExternalProcess.run("xmllint", ["--xpath", "count(//*[local-name()='p'])", path])
        #expect(paragraphs.output.split(separator: "\n") == ["2000"])
    }

    @Test func zeroCuesGiveAnEmptyTrack() throws {
        #expect(CLIRun.cuekit(["generate", "--cues", "0", "--format", "srt"]).standardOutput.isEmpty)
        let vtt = CLIRun.cuekit(["generate", "--cues", "0", "--no-style-region"])
        #expect(vtt.status == 0 && vtt.output.hasPrefix("WEBVTT") && !vtt.output.contains("-->"))
    }

    @Test func refusesWrongUsageWithStatusTwo() throws {
        let negative = CLIRun.cuekit(["generate", "--cues=-1"])
        #expect(negative.status == 2)
        #expect(negative.error.contains("--cues must be 0 or more"))
        let unknownFormat = CLIRun.cuekit(["generate", "--format", "ass"])
        #expect(unknownFormat.status == 2)
        #expect(unknownFormat.error.contains("--format"))
        let mismatched = CLIRun.cuekit(["generate", "--format", "srt", "--no-style-region"])
        #expect(mismatched.status == 2)
        #expect(mismatched.error.contains("--no-style-region applies to --format vtt only"))
    }

    @Test func namesTheFileItCannotWrite() throws {
        let run = CLIRun.cuekit(["generate", "-o", "/nonexistent-directory/out.vtt"])
        #expect(run.status == 2)
        #expect(
            run.error
                == "cuekit: error: cannot write '/nonexistent-directory/out.vtt': No such file or directory; check that its directory exists and is writable\n"
        )
    }
}

/// The README shows `cuekit generate` output: it must be what the command prints.
@Suite struct GenerateReadmeExampleTests {
    @Test func readmeShowsWhatGeneratePrints() throws {
        let arguments = ["generate", "--cues", "3", "--seed", "7", "--format", "srt"]
        let documented = try #require(try ReadmeExampleTests.documentedOutput(of: "cuekit " + arguments.joined(separator: " ")))
        let run = CLIRun.cuekit(arguments)
        #expect(run.status == 0)
        #expect(run.output == documented)
    }
}
