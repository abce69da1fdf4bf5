import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// `cuekit convert` writes cues in start-time order, as WebVTT requires, with memory bounded: a
/// window for nearly sorted input, sorted runs in temporary files (removed after) for the rest.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"))
struct ConvertOrderingTests {
    static func starts(_ output: String) throws -> [Int] {
        try WebVTTReader.read(output).track.cues.map(\.start)
    }

    @Test func anUnsortedSubRipFileIsWrittenInOrderAndReportedOnce() throws {
        let run = try CommandLineRun.cuekit(["convert", "Fixtures/subrip/unsorted.srt"])
        #expect(run.status == 0)
        #expect(try Self.starts(run.standardOutput) == [1_000, 3_000, 5_000])
        #expect(try WebVTTReader.read(run.standardOutput).track.cues.map(\.text) == ["First", "Second", "Third"])
        let reports = run.standardError.split(separator: "\n").filter { $0.contains("[cue-order]") }
        #expect(
            reports == [
                "Fixtures/subrip/unsorted.srt: warning: 2 cues start before a cue ahead of them; they are written in start-time order, as WebVTT requires [cue-order]"
            ])
    }

    @Test func aTTMLDocumentWithTimedDivsIsWrittenInOrder() throws {
        let run = try CommandLineRun.cuekit(["convert", "Fixtures/ttml/timed-divs-out-of-order.ttml"])
        #expect(run.status == 0)
        #expect(try Self.starts(run.standardOutput) == [1_000, 4_000, 10_000])
        let validated = try CommandLineRun.cuekit(["validate", "--from", "vtt", "-"], input: Array(run.standardOutput.utf8))
        #expect(!validated.standardOutput.contains("vtt-start-before-previous"), "\(validated.standardOutput)")
    }

    /// A reversed track with a window of 10 cues and runs of 7: nearly every cue is late, spilled in
    /// over a hundred runs (more than one merge reads at once), and merged back in order; no
    /// temporary file is left, to a file or to standard output.
    @Test func cuesTooLateForTheWindowAreSpilledAndMergedBack() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let count = 1000
        var text = ""
        for index in 0..<count {
            let second = count - index
            text += "\(index + 1)\n00:\(second / 600 % 10)\(second / 60 % 10):\(second % 60 / 10)\(second % 10),000 --> "
            text += "00:\(second / 600 % 10)\(second / 60 % 10):\(second % 60 / 10)\(second % 10),500\n"
            text += "cue \(second)\n\n"
        }
        ExternalProcess.writeBytes(Array(text.utf8), to: directory.file("reversed.srt"))
        let small = ["--ordering-window", "10", "--ordering-run-length", "7"]
        let toFile = try CommandLineRun.cuekit(["convert", directory.file("reversed.srt"), "-o", directory.file("out.vtt")] + small)
        #expect(toFile.status == 0, "\(toFile.standardError)")
        #expect(toFile.standardError.contains("(989 cues merged back from sorted runs in temporary files)"), "\(toFile.standardError)")
        let written = try WebVTTReader.read(fileAtPath: directory.file("out.vtt"))
        #expect(written.track.cues.map(\.start) == (1...count).map { $0 * 1000 })
        #expect(written.track.cues.map(\.text) == (1...count).map { "cue \($0)" })
        #expect(written.diagnostics.isEmpty)
        #expect(directory.names == ["out.vtt", "reversed.srt"], "no run file left beside the output")

        let toStandardOutput = try CommandLineRun.cuekit(["convert", directory.file("reversed.srt")] + small)
        #expect(toStandardOutput.status == 0)
        #expect(try Self.starts(toStandardOutput.standardOutput) == (1...count).map { $0 * 1000 })
        // A device cannot be read back either: the same path as standard output.
        let toDevice = try CommandLineRun.cuekit(["convert", directory.file("reversed.srt"), "-o", "/dev/stdout"] + small)
        #expect(toDevice.status == 0)
        #expect(try Self.starts(toDevice.standardOutput) == (1...count).map { $0 * 1000 })
    }
}
