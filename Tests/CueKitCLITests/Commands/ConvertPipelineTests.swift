import CueKitTestSupport
import Foundation
import Testing

/// `cuekit convert` in pipelines: formats, batches, timing edits, styles and interruption, run as the
/// built binary.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"))
struct ConvertPipelineTests {
    static let track = """
        WEBVTT

        1
        00:00:01.000 --> 00:00:02.000
        one <00:00:01.500>two

        2
        00:00:03.000 --> 00:00:04.000
        <i> </i>

        3
        00:01:00.000 --> 00:01:02.000 align:start
        <b>bold</b> &amp; plain

        """

    @Test func subRipInWebVTTOutThroughPipes() throws {
        let srt = "1\r\n00:00:01,000 --> 00:00:02,500\r\n<font color=\"#ff8000\">Hi</font> <i>there</i>\r\n"
        let run = try CommandLineRun.cuekit(["convert", "-", "-o", "-"], input: Array(srt.utf8))
        #expect(run.status == 0)
        #expect(
            run.standardOutput == """
                WEBVTT

                STYLE
                ::cue(.color-ff8000) { color: #ff8000; }

                1
                00:00:01.000 --> 00:00:02.500
                <c.color-ff8000>Hi</c> <i>there</i>

                """)
    }

    @Test func webVTTInSubRipOut() throws {
        let run = try CommandLineRun.cuekit(["convert", "-", "--to", "srt", "--line-ending", "lf"], input: Array(Self.track.utf8))
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("1\n00:00:01,000 --> 00:00:02,000\none two\n\n2\n00:00:03,000 --> 00:00:04,000\n<i> </i>\n\n"))
        #expect(run.standardOutput.contains("3\n00:01:00,000 --> 00:01:02,000\n{\\an1}<b>bold</b> & plain\n"))
        #expect(run.standardError.contains("[srt-write-unsupported]"))
    }

    @Test func theOutputExtensionChoosesTheFormat() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(Self.track, to: "in.vtt")
        let run = try CommandLineRun.cuekit(["convert", directory.file("in.vtt"), "-o", directory.file("out.srt")])
        #expect(run.status == 0)
        #expect(directory.read("out.srt")?.hasPrefix("1\r\n00:00:01,000 --> 00:00:02,000\r\n") == true)
    }

    @Test func shiftMovesCuesAndInnerTimestampsAndDropsWhatEndsBeforeZero() throws {
        let run = try CommandLineRun.cuekit(["convert", "-", "--shift", "-1.2s"], input: Array(Self.track.utf8))
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("1\n00:00:00.000 --> 00:00:00.800\none <00:00:00.300>two\n"))
        #expect(run.standardOutput.contains("3\n00:00:58.800 --> 00:01:00.800 align:start\n"))
        let gone = try CommandLineRun.cuekit(["convert", "-", "--shift", "-00:00:04.000"], input: Array(Self.track.utf8))
        #expect(!gone.standardOutput.contains("one"))
        #expect(gone.standardError.contains("<stdin>: note: left out 2 cues that end at or before 00:00:00.000 after the timing edit"))
    }

    @Test func frameRateConversionIsExact() throws {
        // 25 fps to 24000/1001: 1 s becomes 25 × 1001 / 24000 s = 1.04270833… s.
        let run = try CommandLineRun.cuekit(["convert", "-", "--frame-rate", "25:23.976"], input: Array(Self.track.utf8))
        #expect(run.standardOutput.contains("00:00:01.043 --> 00:00:02.085\none <00:00:01.564>two\n"))
        #expect(run.standardOutput.contains("00:01:02.563 --> 00:01:04.648 align:start"))
        let scaled = try CommandLineRun.cuekit(["convert", "-", "--scale", "2", "--shift", "250ms"], input: Array(Self.track.utf8))
        #expect(scaled.standardOutput.contains("00:00:02.250 --> 00:00:04.250\none <00:00:03.250>two\n"))
    }

    @Test func anOutputExtensionNoFormatHasIsAUsageErrorUnlessToSaysTheFormat() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        // Formats cuekit reads but does not write are named as such; others are unknown.
        for (name, message) in [
            ("x.ass", "reads ASS but does not write it"), ("x.ssa", "reads ASS but does not write it"),
            ("x.stl", "reads EBU-STL but does not write it"), ("x.sub", "names no format cuekit writes"),
            ("x.txt", "names no format cuekit writes"),
        ] {
            let refused = try CommandLineRun.cuekit(["convert", "-", "-o", folder.file(name)], input: Array(Self.track.utf8))
            #expect(refused.status == 2, "\(name)")
            #expect(refused.standardError.contains(message), "\(name): \(refused.standardError)")
            #expect(!TestPaths.exists(folder.file(name)), "\(name) was written")
        }
        let forced = try CommandLineRun.cuekit(["convert", "-", "-o", folder.file("x.txt"), "--to", "srt"], input: Array(Self.track.utf8))
        #expect(forced.status == 0, "\(forced)")
        #expect(String(decoding: try TestPaths.bytes(folder.file("x.txt")), as: UTF8.self).contains(" --> "))
    }

    @Test func aValidFileIsKeptAsItIsUnlessTheCanonicalFormIsAsked() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let valid = TestPaths.fixture("webvtt/valid.vtt")
        let kept = try CommandLineRun.cuekit(["convert", valid, "-o", folder.file("kept.vtt")])
        #expect(kept.status == 0 && kept.standardError.isEmpty, "\(kept)")
        #expect(try TestPaths.bytes(folder.file("kept.vtt")) == TestPaths.bytes(valid))
        let normalized = try CommandLineRun.cuekit(["convert", valid, "-o", folder.file("normal.vtt"), "--normalize"])
        #expect(normalized.status == 0, "\(normalized)")
        #expect(try TestPaths.bytes(folder.file("normal.vtt")) != TestPaths.bytes(valid))
    }

    @Test func badTimingArgumentsAreUsageErrors() throws {
        for arguments in [["--shift", "soon"], ["--scale", "-2"], ["--frame-rate", "25"], ["--scale", "2", "--frame-rate", "25:24"]] {
            let run = try CommandLineRun.cuekit(["convert", "-"] + arguments, input: Array(Self.track.utf8))
            #expect(run.status == 2, "\(arguments)")
            #expect(run.standardOutput == "")
        }
    }

    @Test func dropEmptyLeavesOutCuesWithNothingToShow() throws {
        let run = try CommandLineRun.cuekit(["convert", "-", "--drop-empty"], input: Array(Self.track.utf8))
        #expect(run.status == 0)
        #expect(!run.standardOutput.contains("<i> </i>"))
        #expect(run.standardOutput.contains("bold"))
        #expect(run.standardError == "<stdin>: note: 1 empty cue left out, as asked [empty-cues-left-out]\n")
    }

    @Test func styleFlagsWriteACastStyle() throws {
        let run = try CommandLineRun.cuekit(
            ["convert", "-", "--foreground", "#FFFF00", "--edge-type", "OUTLINE", "--edge-color", "#000000"], input: Array(Self.track.utf8))
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("STYLE\n"))
        #expect(run.standardOutput.contains("color: rgba(255, 255, 0, 1)") || run.standardOutput.contains("color: rgb"))
        let subRip = try CommandLineRun.cuekit(["convert", "-", "--to", "srt", "--foreground", "#FFFF00"], input: Array(Self.track.utf8))
        #expect(subRip.status == 2)
    }

    @Test func aBatchConvertsEveryGoodFileAndReportsTheBadOne() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for index in 0..<12 { directory.write(Self.track, to: "good-\(index).vtt") }
        directory.write("1\n00:00:01,000 --> 00:00:02,000\nsub\n", to: "sub.srt")
        directory.write("not a caption file\n", to: "bad.vtt")
        let inputs = (0..<6).map { directory.file("good-\($0).vtt") } + [directory.file("bad.vtt"), directory.file("sub.srt")]
            + (6..<12).map { directory.file("good-\($0).vtt") } + [directory.file("missing.vtt")]
        let run = try CommandLineRun.cuekit(["convert"] + inputs + ["--output-dir", directory.file("out/nested"), "--jobs", "2"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("\(directory.file("bad.vtt")):1:1: error: "))
        #expect(!run.standardError.contains("cuekit: error: \(directory.file("bad.vtt"))"), "one prefix per message")
        #expect(run.standardError.contains("cuekit: error: cannot read '\(directory.file("missing.vtt"))': No such file or directory"))
        #expect(run.standardError.contains("cuekit: 13 of 15 files converted; 2 failed, 0 with errors in the input"))
        let written = directory.names.filter { $0.hasPrefix("out/") }
        #expect(written == ((0..<12).map { "out/nested/good-\($0).vtt" } + ["out/nested/sub.vtt"]).sorted())
        #expect(directory.read("out/nested/good-7.vtt") == directory.read("out/nested/good-0.vtt"))
        #expect(directory.read("out/nested/sub.vtt")?.contains("00:00:01.000 --> 00:00:02.000\nsub") == true)
    }

    /// Files converted side by side print their diagnostics as whole lines, each the line a
    /// conversion of that file alone prints: none cut into another's.
    @Test func diagnosticsOfFilesConvertedSideBySideStayWholeLines() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let inputs = (0..<6).map { directory.file("track-\($0).vtt") }
        var expected: [String] = []
        for (index, input) in inputs.enumerated() {
            let made = try CommandLineRun.cuekit(["generate", "--cues", "400", "--seed", "\(index + 1)", "--shape", "diagnostics", "-o", input])
            #expect(made.status == 0)
            let alone = try CommandLineRun.cuekit(["convert", input, "-o", directory.file("alone-\(index).vtt")])
            expected += alone.standardError.split(separator: "\n").map(String.init)
        }
        // Each file prints some 50 lines: several writes each, from three conversions at once.
        #expect(expected.count > 250)
        let batch = try CommandLineRun.cuekit(["convert"] + inputs + ["--output-dir", directory.file("out"), "--jobs", "3"])
        let lines = batch.standardError.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("cuekit: ") }
        #expect(lines.sorted() == expected.sorted())
    }

    @Test func batchArgumentsAreChecked() throws {
        let tooMany = try CommandLineRun.cuekit(["convert", "a.vtt", "b.vtt", "-o", "x.vtt"])
        #expect(tooMany.status == 2)
        #expect(tooMany.standardError.contains("--output-dir"))
        let clash = try CommandLineRun.cuekit(["convert", "x/a.vtt", "y/a.srt", "--output-dir", "out"])
        #expect(clash.status == 2)
        #expect(clash.standardError.contains("would both be written to 'out/a.vtt'"))
    }

    @Test func noProgressBarOnAPipe() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for index in 0..<40 { directory.write(Self.track, to: "t\(index).vtt") }
        let run = try CommandLineRun.cuekit(
            ["convert"] + (0..<40).map { directory.file("t\($0).vtt") } + ["--output-dir", directory.file("out"), "--jobs", "1"])
        #expect(run.status == 0)
        #expect(run.standardError == "")
        #expect(run.standardOutput == "")
    }

    /// Ctrl-C in the middle of a batch: the process exits 130 and leaves no temporary file.
    @Test func anInterruptedBatchLeavesNoTemporaryFiles() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let generated = try CommandLineRun.cuekit(["generate", "--cues", "150000", "--seed", "7", "-o", directory.file("big.vtt")])
        #expect(generated.status == 0)
        let inputs = (0..<6).map { index -> String in
            let path = directory.file("big\(index).vtt")
            link(directory.file("big.vtt"), path)
            return path
        }
        let output = directory.file("out")
        let conversion = try RunningCommand(["convert", "-q", "--jobs", "2", "--output-dir", output] + inputs, standardError: .nullDevice)
        // Wait until a temporary file exists: the conversion is under way.
        var waited = 0
        while waited < 60_000, (try? FileManager.default.contentsOfDirectory(atPath: output))?.contains(where: { $0.hasPrefix(".") }) != true {
            usleep(10_000)
            waited += 10
        }
        #expect(conversion.interrupt() == 130)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        #expect(left.allSatisfy { !$0.hasPrefix(".") }, "temporary files left: \(left)")
        for name in left { #expect(name.hasPrefix("big") && name.hasSuffix(".vtt")) }
    }
}
