import CueKit
import CueKitTestSupport
import Testing

/// `cuekit convert` writing TTML, run as the built binary: the profile, frames, batches, the
/// Cast style, and `validate` on what was written.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"))
struct ConvertTTMLOutputTests {
    static let webVTT = """
        WEBVTT

        00:00:01.000 --> 00:00:02.500 line:10%
        Hello <i>there</i>

        00:00:03.000 --> 00:00:04.000
        <v Ann>Bye</v>

        """

    static func run(_ arguments: [String], input: String = "") -> ExternalProcess.Result {
        ExternalProcess.run(CommandLineRun.executable.path, arguments, input: Array(input.utf8))
    }

    @Test func theOutputsExtensionChoosesTTMLAndTheDefaultProfileIsIMSC() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(Self.webVTT, to: "in.vtt")
        let result = Self.run(["convert", directory.file("in.vtt"), "-o", directory.file("out.ttml")])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        let text = try #require(directory.read("out.ttml"))
        #expect(text.contains("imsc1.1/text"))
        #expect(text.contains(#"<p begin="00:00:01.000" end="00:00:02.500""#))
        #expect(text.contains(#"<span ttm:agent="_a1">Bye</span>"#))
        let back = Self.run(["convert", directory.file("out.ttml"), "-o", "-"])
        #expect(back.status == 0)
        #expect(back.output.contains("<v Ann>Bye</v>"))
        #expect(back.output.contains("Hello <i>there</i>"))
    }

    @Test func standardInputToStandardOutputWithAProfileAndFrames() throws {
        let result = Self.run(["convert", "-", "--to", "ttml", "--frame-rate", "25", "--language", "fr"], input: Self.webVTT)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains(#"ttp:frameRate="25""#))
        #expect(result.output.contains(#"xml:lang="fr""#))
        #expect(result.output.contains(#"begin="00:00:01:00" end="00:00:02:13""#))

        let ebu = Self.run(["convert", "-", "--to", "ttml", "--ttml-profile", "ebu-tt-d", "--frame-rate", "25"], input: Self.webVTT)
        #expect(ebu.status == 0)
        #expect(ebu.output.contains("urn:ebu:tt:distribution:2014-01"))
        #expect(!ebu.output.contains("ttp:frameRate"))
        #expect(ebu.error.contains("EBU-TT-D has no frame-based times"))
        #expect(ebu.error.contains("EBU-TT-D has no ttm:agent"))
    }

    @Test func innerTimestampsAreWholeCueUnlessPaintOnIsAsked() throws {
        let input = "WEBVTT\n\n00:00:12.000 --> 00:00:14.000\nSome text <00:00:13.000>and some later text\n"
        let whole = try CommandLineRun.cuekit(["convert", "-", "-o", "-", "--to", "ttml"], input: input)
        #expect(whole.status == 0, "\(whole)")
        #expect(whole.standardOutput.contains(">Some text and some later text</span></p>"), "\(whole)")
        let paintOn = try CommandLineRun.cuekit(["convert", "-", "-o", "-", "--to", "ttml", "--timestamps", "paint-on"], input: input)
        #expect(paintOn.standardOutput.contains(#">Some text <span begin="00:00:01.000">and some later text</span></span></p>"#), "\(paintOn)")
        let bare = try CommandLineRun.cuekit(["convert", "-", "-o", "-", "--to", "ttml", "--ttml-look", "ttml"], input: input)
        #expect(bare.standardOutput.contains(#"style="_s1">Some text and some later text</p>"#), "\(bare)")
        let bad = try CommandLineRun.cuekit(["convert", "-", "-o", "-", "--to", "ttml", "--timestamps", "karaoke"], input: input)
        #expect(bad.status == 2)
    }

    @Test func aSingleFrameRateIsRefusedForOtherOutputs() {
        let result = Self.run(["convert", "-", "--to", "vtt", "--frame-rate", "25"], input: Self.webVTT)
        #expect(result.status == 2)
        #expect(result.error.contains("--frame-rate with one rate writes TTML times in frames"))
        let bad = Self.run(["convert", "-", "--to", "ttml", "--frame-rate", "24.5"], input: Self.webVTT)
        #expect(bad.status == 2)
        #expect(bad.error.contains("is not a frame rate TTML can write"))
    }

    @Test func aRetimingWritesFramesAtItsTargetRate() {
        let result = Self.run(["convert", "-", "--to", "ttml", "--frame-rate", "25:23.976"], input: Self.webVTT)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains(#"ttp:frameRate="24" ttp:frameRateMultiplier="1000 1001""#))
        // 1 s at 25 fps is 25 frames; at 23.976 fps they last 1.0427 s: 1 s and 1 frame.
        #expect(result.output.contains(#"begin="00:00:01:01""#))
    }

    @Test func batchesWriteOneDocumentPerInput() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(Self.webVTT, to: "a.vtt")
        directory.write("1\n00:00:01,000 --> 00:00:02,000\n<b>srt</b>\n", to: "b.srt")
        let result = Self.run([
            "convert", directory.file("a.vtt"), directory.file("b.srt"), "--output-dir", directory.file("out"), "--to", "ttml",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(directory.names.filter { $0.hasPrefix("out/") } == ["out/a.ttml", "out/b.ttml"])
        #expect(directory.read("out/b.ttml")?.contains(#"tts:fontWeight="bold""#) == true)
    }

    @Test func aCastStyleBecomesTTMLStyles() {
        let result = Self.run(["convert", "-", "--to", "ttml", "--foreground", "#FFFF00FF", "--edge-type", "DROP_SHADOW"], input: Self.webVTT)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains(##"tts:color="#ffff00ff""##))
        #expect(result.output.contains(##"tts:textShadow="0.08em 0.08em 0.08em #000000ff""##))
    }

    @Test func validateChecksWhatWasWrittenAgainstItsProfile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(Self.webVTT, to: "in.vtt")
        for profile in ["imsc1.1", "ebu-tt-d", "ttml1"] {
            let output = directory.file("\(profile).ttml")
            #expect(Self.run(["convert", directory.file("in.vtt"), "-o", output, "--ttml-profile", profile]).status == 0)
            let check = Self.run(["validate", "--strict", output])
            #expect(check.status == 0, "\(profile): \(check.output)")
        }
        // The IMSC document meets every EBU-TT-D constraint checked but the declaration.
        let wrong = Self.run(["validate", "--strict", "--ttml-profile", "ebu-tt-d", directory.file("imsc1.1.ttml")])
        #expect(wrong.status == 1)
        #expect(wrong.output.contains("ebuttm:conformsToStandard"))
    }
}
