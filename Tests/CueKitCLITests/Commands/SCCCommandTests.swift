import CueKitTestSupport
import Testing

/// `cuekit convert` to and from SCC: `--to scc` and `.scc` outputs, `--frame-rate`,
/// `--non-drop-frame`, and the SCC reading flags.
@Suite struct SCCCommandTests {
    static let track = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nHello there\n\n00:00:04.000 --> 00:00:06.000 line:0\nTop line\n"

    @Test func convertsToSCCAndBack() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        ExternalProcess.writeBytes(Array(Self.track.utf8), to: folder.file("in.vtt"))
        let written = try CommandLineRun.cuekit(["convert", folder.file("in.vtt"), "-o", folder.file("out.scc")])
        #expect(written.status == 0, "\(written)")
        let scc = String(decoding: try TestPaths.bytes(folder.file("out.scc")), as: UTF8.self)
        #expect(scc.hasPrefix("Scenarist_SCC V1.0\n\n00:00:00;16\t"))
        let back = try CommandLineRun.cuekit(["convert", folder.file("out.scc"), "-o", "-"])
        #expect(back.status == 0, "\(back)")
        #expect(back.standardOutput.contains("00:00:01.001 --> 00:00:03.003"))
        #expect(back.standardOutput.contains("Hello there"))
        let nonDrop = try CommandLineRun.cuekit(["convert", folder.file("in.vtt"), "--to", "scc", "--non-drop-frame", "-o", "-"])
        #expect(nonDrop.standardOutput.contains("00:00:00:16\t"))
        // At 30 frames a second, frame 30 is 1.000 s exactly.
        let thirty = try CommandLineRun.cuekit([
            "convert", folder.file("in.vtt"), "--to", "scc", "--frame-rate", "30", "-o", folder.file("thirty.scc"),
        ])
        #expect(thirty.status == 0, "\(thirty)")
        let thirtyBack = try CommandLineRun.cuekit(["convert", folder.file("thirty.scc"), "--scc-frame-rate", "30", "-o", "-"])
        #expect(thirtyBack.standardOutput.contains("00:00:01.000 --> 00:00:03.000"), "\(thirtyBack)")
        // --frame-rate alone reads SCC input at that rate too, as --scc-frame-rate does.
        let thirtyRead = try CommandLineRun.cuekit(["convert", folder.file("thirty.scc"), "--frame-rate", "30", "-o", "-"])
        #expect(thirtyRead.status == 0, "\(thirtyRead)")
        #expect(thirtyRead.standardOutput == thirtyBack.standardOutput)
        let defaultRead = try CommandLineRun.cuekit(["convert", folder.file("thirty.scc"), "-o", "-"])
        #expect(!defaultRead.standardOutput.contains("00:00:01.000 --> 00:00:03.000"), "\(defaultRead)")
        let wrongRate = try CommandLineRun.cuekit(["convert", folder.file("in.vtt"), "--to", "scc", "--frame-rate", "31", "-o", "-"])
        #expect(wrongRate.status == 2)
        #expect(wrongRate.standardError.contains("is not a rate SCC timecodes count at"))
    }

    @Test func readsAnotherChannelAndFrameRate() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let scc =
            "Scenarist_SCC V1.0\n\n00:00:01:00\t9420 9420 c1c1 942f 942f 1c20 1c20 c2c2 1c2f 1c2f\n\n00:00:03:00\t942c 942c 1c2c 1c2c\n"
        ExternalProcess.writeBytes(Array(scc.utf8), to: folder.file("two.scc"))
        let one = try CommandLineRun.cuekit(["convert", folder.file("two.scc"), "-o", "-"])
        #expect(one.standardOutput.contains("\nAA\n"))
        #expect(one.standardError.contains("scc-channels"))
        let two = try CommandLineRun.cuekit(["convert", folder.file("two.scc"), "--channel", "cc2", "--scc-frame-rate", "30", "-o", "-"])
        // The EOC on CC2 is the 9th pair: frame 38 at 30 a second; its EDM the 3rd pair at 3 s.
        #expect(two.standardOutput.contains("00:00:01.267 --> 00:00:03.067"), "\(two)")
        #expect(two.standardOutput.contains("\nBB\n"))
        let inspected = try CommandLineRun.cuekit(["inspect", folder.file("two.scc")])
        #expect(inspected.standardOutput.contains("CC1, CC2") || inspected.standardError.contains("CC1, CC2"), "\(inspected)")
    }
}
