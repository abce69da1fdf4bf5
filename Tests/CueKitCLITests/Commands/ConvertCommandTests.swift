import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `cuekit convert`, run as the built binary: what it writes, what it prints, how it exits.
/// (Standard output goes through a file, so that a test can point it at `/dev/full`.)
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"))
struct ConvertCommandTests {
    static let sample = """
        WEBVTT - sample

        NOTE kept unless asked

        STYLE
        ::cue { color: lime }

        1
        00:00:01.000 --> 00:00:02.500 align:start
        <v Bob>Hello</v>

        00:01:00.000 --> 00:01:01.000
        two

        """

    static func run(_ arguments: [String], input: String = "", standardOutputPath: String? = nil) -> ExternalProcess.Result {
        ExternalProcess.run(CommandLineRun.executable.path, arguments, input: Array(input.utf8), standardOutputPath: standardOutputPath)
    }

    static func expectedOutput(of text: String, options: WebVTTWriterOptions = .init()) throws -> String {
        var reader = WebVTTReader()
        var writer = WebVTTWriter(to: MemorySink(), options: options)
        try reader.feed(Array(text.utf8)) { try writer.write($0) }
        try reader.finish { try writer.write($0) }
        try writer.finish()
        return writer.sink.string
    }

    @Test func convertsAFileAtomically() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(Self.sample, to: "in.vtt")
        directory.write("old", to: "out.vtt")
        let result = Self.run(["convert", directory.file("in.vtt"), "-o", directory.file("out.vtt")])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        #expect(result.output.isEmpty)
        #expect(directory.read("out.vtt") == (try Self.expectedOutput(of: Self.sample)))
        #expect(directory.names == ["in.vtt", "out.vtt"])
    }

    @Test func flagsChooseTheWriterOptions() throws {
        let result = Self.run(["convert", "-", "--line-ending", "crlf", "--hours", "when-needed", "--drop-notes"], input: Self.sample)
        #expect(result.status == 0, "\(result.error)")
        let options = WebVTTWriterOptions(lineEnding: .crlf, hours: .whenNeeded, notes: .drop)
        #expect(result.output == (try Self.expectedOutput(of: Self.sample, options: options)))
        #expect(result.output.contains("\r\n00:01.000 --> 00:02.500 align:start\r\n"))
        #expect(!result.output.contains("NOTE"))
    }

    @Test func rejectsUnknownFlagValues() {
        let result = Self.run(["convert", "-", "--hours", "sometimes"], input: Self.sample)
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
    }

    /// `--encoding` reads SubRip and WebVTT saved in another encoding; the Windows-1252 hint names it.
    @Test func readsTheEncodingItIsToldOf() throws {
        let srt = TestPaths.fixture("subrip/windows-1252.srt")
        let guessed = Self.run(["convert", srt])
        #expect(guessed.error.contains("read it with --encoding windows-1252 [srt-invalid-utf8]"), "\(guessed.error)")
        let told = Self.run(["convert", "--encoding", "windows-1252", srt])
        #expect(told.status == 0)
        #expect(told.error.isEmpty, "\(told.error)")
        #expect(told.output.contains("Café crème, naïve “quotes”"))

        let directory = TemporaryDirectory()
        defer { directory.remove() }
        ExternalProcess.writeBytes(Array("WEBVTT\n\n00:01.000 --> 00:02.000\nCaf".utf8) + [0xE9, 0x0A], to: directory.file("latin1.vtt"))
        let vtt = Self.run(["convert", "--encoding", "latin1", directory.file("latin1.vtt")])
        #expect(vtt.status == 0)
        #expect(vtt.output.hasSuffix("Café\n"))
        let validated = ExternalProcess.run(CommandLineRun.executable.path, ["validate", "--encoding", "latin1", directory.file("latin1.vtt")])
        #expect(validated.status == 0, "\(validated.output)")
    }

    @Test func printsInputDiagnosticsLikeACompilerAndStillWrites() throws {
        let input = "WEBVTT\n\n00:00:02.000 --> 00:00:01.000 line:x\n<b>text\n"
        let result = Self.run(["convert", "-"], input: input)
        #expect(result.status == 0, "the output was written; input errors fail only with --strict")
        #expect(result.output == (try Self.expectedOutput(of: input)))
        let strict = Self.run(["convert", "--strict", "-"], input: input)
        #expect(strict.status == 1, "the input has errors")
        #expect(strict.output == result.output)
        let lines = result.error.split(separator: "\n").map(String.init)
        #expect(
            lines.contains("<stdin>:3:1: error: the cue ends before it starts, so it is never shown [vtt-end-not-after-start]"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<stdin>:3:31: error: ") && $0.hasSuffix("[vtt-bad-setting-value]") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<stdout>: warning: cue 1 does not end after it starts") }, "\(lines)")
    }

    @Test func convertsAFileOntoItself() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(Self.sample, to: "track.vtt")
        let result = Self.run(["convert", directory.file("track.vtt"), "-o", directory.file("track.vtt"), "--hours", "when-needed"])
        #expect(result.status == 0, "\(result.error)")
        #expect(directory.read("track.vtt") == (try Self.expectedOutput(of: Self.sample, options: .init(hours: .whenNeeded))))
        #expect(directory.names == ["track.vtt"])
    }

    @Test func anUnreadableInputIsOneLineAndTouchesNothing() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("old", to: "out.vtt")
        let missing = directory.file("missing.vtt")
        let result = Self.run(["convert", missing, "-o", directory.file("out.vtt")])
        #expect(result.status == 2)
        #expect(result.error == "cuekit: error: cannot read '\(missing)': No such file or directory\n")
        #expect(directory.read("out.vtt") == "old")
        #expect(directory.names == ["out.vtt"])
    }

    /// Content in no format CueKit knows is read as WebVTT, whose reader says what is missing.
    @Test func aFileThatIsNotATrackWritesNothing() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("Dear diary,\nno captions here.\n", to: "in.txt")
        let result = Self.run(["convert", directory.file("in.txt"), "-o", directory.file("out.vtt")])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("\(directory.file("in.txt")):1:1: error: "))
        #expect(result.error.hasSuffix("[vtt-no-signature]\n"))
        #expect(directory.names == ["in.txt"])
    }

    @Test func aMissingFolderIsOneLine() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(Self.sample, to: "in.vtt")
        let output = directory.file("no-such-folder/out.vtt")
        let result = Self.run(["convert", directory.file("in.vtt"), "-o", output])
        #expect(result.status == 2)
        #expect(result.error == "cuekit: error: cannot write '\(output)': No such file or directory\n")
        #expect(directory.names == ["in.vtt"])
    }

    @Test(.enabled(if: TestPaths.exists("/dev/full"), "/dev/full not present"))
    func aFullStandardOutputIsOneLine() {
        let result = Self.run(["convert", "-"], input: Self.sample, standardOutputPath: "/dev/full")
        #expect(result.status == 2)
        #expect(result.error == "cuekit: error: cannot write '<stdout>': No space left on device\n")
    }

    /// A file that stops growing half-way: the shell's `ulimit -f` makes `write(2)` fail with
    /// EFBIG (SIGXFSZ ignored), the same failure path as a full disk, on any machine.
    @Test(.enabled(if: ExternalProcess.find("sh") != nil, "no shell"))
    func aFileThatCannotGrowLeavesTheOldOneAndNoTemporary() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(Self.largeTrack(cues: 5_000), to: "in.vtt")
        directory.write("old", to: "out.vtt")
        let command = "trap '' XFSZ; ulimit -f 64; exec \"$0\" convert \"$1\" -o \"$2\""
        let result = ExternalProcess.run(
            "sh", ["-c", command, CommandLineRun.executable.path, directory.file("in.vtt"), directory.file("out.vtt")])
        #expect(result.status == 2)
        #expect(result.error == "cuekit: error: cannot write '\(directory.file("out.vtt"))': File too large\n")
        #expect(directory.read("out.vtt") == "old")
        #expect(directory.names == ["in.vtt", "out.vtt"])
    }

    /// A real full disk: a 64 KiB tmpfs, where the machine lets tests mount one (root, not in a
    /// restricted container).
    @Test(.enabled(if: FullDisk.canMount, "cannot mount a tmpfs here (needs root and mount rights)"))
    func aFullDiskLeavesTheOldFileAndNoTemporary() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(Self.largeTrack(cues: 5_000), to: "in.vtt")
        let disk = try #require(FullDisk(kilobytes: 64))
        defer { disk.unmount() }
        ExternalProcess.writeBytes(Array("old".utf8), to: disk.path + "/out.vtt")
        let output = disk.path + "/out.vtt"
        let result = Self.run(["convert", directory.file("in.vtt"), "-o", output])
        #expect(result.status == 2)
        #expect(result.error == "cuekit: error: cannot write '\(output)': No space left on device\n")
        #expect(disk.folder.names == ["out.vtt"])
        #expect((try? TestPaths.bytes(output)) == Array("old".utf8))
    }

    static func largeTrack(cues: Int) -> String {
        var text = "WEBVTT\n"
        for index in 0..<cues {
            let second = index % 60, minute = index / 60 % 60, hour = index / 3600
            let time = "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute):\(second < 10 ? "0" : "")\(second)"
            text += "\n\(index)\n\(time).000 --> \(time).500\nCue number \(index), long enough to fill a disk\n"
        }
        return text
    }
}

/// A tiny tmpfs mounted in a temporary folder, to fill up for real.
struct FullDisk {
    let folder: TemporaryDirectory
    var path: String { folder.path }

    init?(kilobytes: Int) {
        folder = TemporaryDirectory()
        let result = ExternalProcess.run("mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder.path])
        guard result.status == 0 else {
            folder.remove()
            return nil
        }
    }

    func unmount() {
        _ = ExternalProcess.run("umount", [path])
        folder.remove()
    }

    static let canMount: Bool = {
        guard getuid() == 0, ExternalProcess.find("mount") != nil, let disk = FullDisk(kilobytes: 16) else { return false }
        disk.unmount()
        return true
    }()
}
