import CueKit
import CueKitSubRip
import CueKitTestSupport
import CueKitWebVTT
import Testing

@Suite struct GenerateCommandTests {
    @Test(arguments: ["vtt", "srt", "ttml"])
    func theSameSeedGivesTheSameBytes(format: String) throws {
        let first = try CommandLineRun.cuekit(["generate", "--cues", "300", "--seed", "42", "--format", format])
        let second = try CommandLineRun.cuekit(["generate", "--cues", "300", "--seed", "42", "--format", format, "-o", "-"])
        let other = try CommandLineRun.cuekit(["generate", "--cues", "300", "--seed", "43", "--format", format])
        #expect(first.status == 0 && first.standardError.isEmpty, "\(first.standardError)")
        #expect(first.outputBytes.count > 300 * 50)
        #expect(first.outputBytes == second.outputBytes)
        #expect(first.outputBytes != other.outputBytes)
    }

    @Test func writesTheFileNamedByOutput() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let path = scratch.file("generated.srt")
        let run = try CommandLineRun.cuekit(["generate", "--cues", "50", "--format", "srt", "-o", path])
        #expect(run.status == 0 && run.outputBytes.isEmpty)
        let written = try TestPaths.bytes(path)
        #expect(written == (try CommandLineRun.cuekit(["generate", "--cues", "50", "--format", "srt"])).outputBytes)
    }

    @Test func theSubRipReaderReadsTheSubRipOutputCleanly() throws {
        let run = try CommandLineRun.cuekit(["generate", "--cues", "2000", "--seed", "7", "--format", "srt"])
        var reader = SubRipReader()
        let result = try reader.read(run.outputBytes)
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
        let run = try CommandLineRun.cuekit(["generate", "--cues", "5000", "--seed", "3"])
        let result = try WebVTTReader.read(bytes: run.outputBytes)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.prefix(5))")
        #expect(result.track.cues.count == 5000)
        #expect(result.track.regions.map(\.id) == ["speaker", "top"])
        #expect(result.track.stylesheets.count == 1)
        #expect(result.track.notes.count > 1)
        #expect(result.track.cues.contains { $0.settings.region == "speaker" })
        #expect(result.track.header == "- cuekit generate: seed 3, 5000 cues")

        let plain = try WebVTTReader.read(
            bytes: try CommandLineRun.cuekit(["generate", "--cues", "5000", "--seed", "3", "--no-style-region"]).outputBytes)
        #expect(plain.diagnostics.isEmpty, "\(plain.diagnostics.prefix(5))")
        #expect(plain.track.regions.isEmpty && plain.track.stylesheets.isEmpty)
        #expect(plain.track.cues.count == 5000)
        #expect(plain.track.cues.allSatisfy { $0.settings.region == nil })
    }

    @Test func theWebVTTOutputHasAboutAHundredBytesPerCueAndTheSameTimesAsSubRip() throws {
        let vtt = try CommandLineRun.cuekit(["generate", "--cues", "3000", "--seed", "9", "--no-style-region"])
        let perCue = Double(vtt.outputBytes.count) / 3000
        #expect((90.0...110.0).contains(perCue), "\(perCue) bytes per cue")
        let timingLines = vtt.standardOutput.split(separator: "\n").filter { $0.contains(" --> ") }
        #expect(timingLines.count == 3000)
        #expect(!vtt.standardOutput.contains("\nSTYLE\n") && !vtt.standardOutput.contains("\nREGION\n") && !vtt.standardOutput.contains("region:"))

        let srt = try CommandLineRun.cuekit(["generate", "--cues", "3000", "--seed", "9", "--format", "srt"])
        var reader = SubRipReader()
        let cues = try reader.read(srt.outputBytes).track.cues
        let subRipTimes = cues.map { "\(CueTimestamp.format($0.start)) --> \(CueTimestamp.format($0.end))" }
        let webVTTTimes = timingLines.map { String($0.prefix(29)) }
        #expect(subRipTimes == webVTTTimes)
    }

    @Test func theWebVTTOutputHoldsWhatRealTracksHold() throws {
        let text = try CommandLineRun.cuekit(["generate", "--cues", "3000"]).standardOutput
        for needle in [
            "\nSTYLE\n", "\nREGION\n", "\nNOTE", "<v ", "<i>", "<b>", "<u>", "<c.", "<ruby>", "<lang ", "&amp;", "region:", "align:",
            "line:", "é", "字", "ש", "ع", "🎬",
        ] {
            #expect(text.contains(needle), "no \(needle.debugDescription) in 3000 cues")
        }
    }

    @Test(.enabled(if: ExternalProcess.isInstalled("ffmpeg"), "ffmpeg not installed"), .tags(.peers), .skippableByTag)
    func ffmpegReadsEveryCueWithoutStyleAndRegionBlocks() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let path = scratch.file("generated.vtt")
        #expect(try CommandLineRun.cuekit(["generate", "--cues", "500", "--no-style-region", "-o", path]).status == 0)
        let converted = ExternalProcess.run("ffmpeg", ["-v", "error", "-i", path, "-f", "srt", "-"])
        #expect(converted.status == 0)
        #expect(converted.output.split(separator: "\n").filter { $0.contains(" --> ") }.count == 500)
    }

    @Test(.enabled(if: ExternalProcess.isInstalled("xmllint"), "xmllint not installed"), .tags(.peers), .skippableByTag)
    func theTTMLOutputIsWellFormed() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let path = scratch.file("generated.ttml")
        #expect(try CommandLineRun.cuekit(["generate", "--cues", "2000", "--format", "ttml", "-o", path]).status == 0)
        #expect(ExternalProcess.run("xmllint", ["--noout", path]).status == 0)
        let paragraphs = ExternalProcess.run("xmllint", ["--xpath", "count(//*[local-name()='p'])", path])
        #expect(paragraphs.output.split(separator: "\n") == ["2000"])
    }

    @Test func zeroCuesGiveAnEmptyTrack() throws {
        #expect(try CommandLineRun.cuekit(["generate", "--cues", "0", "--format", "srt"]).outputBytes.isEmpty)
        let vtt = try CommandLineRun.cuekit(["generate", "--cues", "0", "--no-style-region"])
        #expect(vtt.status == 0 && vtt.standardOutput.hasPrefix("WEBVTT") && !vtt.standardOutput.contains("-->"))
    }

    @Test func refusesWrongUsageWithStatusTwo() throws {
        let negative = try CommandLineRun.cuekit(["generate", "--cues=-1"])
        #expect(negative.status == 2)
        #expect(negative.standardError.contains("--cues must be 0 or more"))
        let unknownFormat = try CommandLineRun.cuekit(["generate", "--format", "mcc"])
        #expect(unknownFormat.status == 2)
        #expect(unknownFormat.standardError.contains("--format"))
        let mismatched = try CommandLineRun.cuekit(["generate", "--format", "srt", "--no-style-region"])
        #expect(mismatched.status == 2)
        #expect(mismatched.standardError.contains("--no-style-region applies to --format vtt only"))
    }

    @Test func namesTheFileItCannotWrite() throws {
        let run = try CommandLineRun.cuekit(["generate", "-o", "/nonexistent-directory/out.vtt"])
        #expect(run.status == 2)
        #expect(
            run.standardError
                == "cuekit: error: cannot write '/nonexistent-directory/out.vtt': No such file or directory; check that its directory exists and is writable\n"
        )
    }
}

/// The README shows `cuekit generate` output: it must be what the command prints.
@Suite struct GenerateReadmeExampleTests {
    @Test func readmeShowsWhatGeneratePrints() throws {
        let arguments = ["generate", "--cues", "1", "--seed", "7", "--format", "srt"]
        let documented = try #require(try ReadmeExampleTests.documentedOutput(of: "cuekit " + arguments.joined(separator: " ")))
        let run = try CommandLineRun.cuekit(arguments)
        #expect(run.status == 0)
        #expect(run.standardOutput == documented)
    }
}
