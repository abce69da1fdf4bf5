import CueKit
import CueKitTestSupport
import Testing

/// The formats cuekit reads but does not write (ASS and SSA, EBU-STL), through the commands that read tracks.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"))
struct ReadOnlyFormatsCommandTests {
    static let script = """
        [Script Info]
        PlayResY: 480

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\k10}second
        Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,first

        """

    @Test func convertValidateAndInspectReadASS() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(Self.script, to: "in.txt")
        let converted = try CommandLineRun.cuekit(["convert", "--from", "ssa", folder.file("in.txt")])
        #expect(converted.status == 0, "\(converted)")
        #expect(converted.standardOutput.contains("00:00:01.000 --> 00:00:02.000"))
        #expect(converted.standardOutput.range(of: "first")!.lowerBound < converted.standardOutput.range(of: "second")!.lowerBound)
        #expect(converted.standardError.contains("[ass-unsupported]"))
        let validated = try CommandLineRun.cuekit(["validate", folder.file("in.txt")])
        #expect(validated.standardOutput.contains("[ass-unsupported]") || validated.standardError.contains("[ass-unsupported]"), "\(validated)")
        let inspected = try CommandLineRun.cuekit(["inspect", folder.file("in.txt")])
        #expect(inspected.status == 0, "\(inspected)")
        #expect(inspected.standardOutput.contains("ASS"), "\(inspected)")
    }

    /// ttconv's file whose start of programme (TCP) is 10:00:00:00, and whose one subtitle starts then.
    static let stl = TestPaths.conformance + "/stl/sandflow/test_tcp_processing.stl"

    @Test func convertAndKeepTCPReadEBUSTL() throws {
        let converted = try CommandLineRun.cuekit(["convert", "--from", "stl", Self.stl])
        #expect(converted.status == 0, "\(converted)")
        #expect(converted.standardOutput.contains("00:00:00.000 --> 00:00:01.960 line:83.04%\nStart of the program."), "\(converted)")
        #expect(converted.standardError.contains("[stl-before-programme]"))
        let kept = try CommandLineRun.cuekit(["convert", "--keep-tcp", Self.stl])
        #expect(kept.standardOutput.contains("10:00:00.000 --> 10:00:01.960"), "\(kept)")
        let inspected = try CommandLineRun.cuekit(["inspect", Self.stl])
        #expect(inspected.status == 0, "\(inspected)")
        #expect(inspected.standardOutput.contains("EBU-STL"), "\(inspected)")
        let refused = try CommandLineRun.cuekit(["convert", Self.stl, "--to", "stl"])
        #expect(refused.status == 2, "\(refused)")
    }

    @Test func convertingToAReadOnlyFormatIsAUsageError() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(Self.script, to: "in.ass")
        for arguments in [["-o", folder.file("out.ass")], ["--to", "ass"]] {
            let run = try CommandLineRun.cuekit(["convert", folder.file("in.ass")] + arguments)
            #expect(run.status == 2, "\(run)")
            #expect(run.standardError.contains("does not write it"), "\(run)")
        }
    }
}
