import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

/// Nothing a user has is lost: `cuekit` never writes its input, replaces an existing output whole
/// or leaves it untouched, leaves no temporary file behind, and its exit status says whether
/// anything failed.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"))
struct NothingLostTests {
    static let inputs = ["webvtt/valid.vtt", "webvtt/cue-text-errors.vtt", "subrip/font-color.srt", "subrip/utf16le-bom.srt", "ttml/billion-laughs.ttml"]

    static func cuekit(_ arguments: [String]) -> ExternalProcess.Result {
        ExternalProcess.run(CommandLineRun.executable.path, arguments)
    }

    /// A file's bytes, modification time and mode.
    struct Snapshot: Equatable {
        var bytes: [UInt8]
        var modified: Date
        var permissions: Int

        init(_ path: String) throws {
            bytes = try TestPaths.bytes(path)
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            modified = attributes[.modificationDate] as? Date ?? .distantPast
            permissions = attributes[.posixPermissions] as? Int ?? 0
        }
    }

    /// A read-only input is read, never written: its bytes, time and mode stay as they were
    /// after `convert` (to a file and to standard output) and `inspect`.
    @Test(arguments: inputs)
    func inputsAreNeverWritten(fixture: String) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let name = String(fixture.split(separator: "/").last!)
        let input = directory.file(name)
        ExternalProcess.writeBytes(try TestPaths.bytes(TestPaths.fixture(fixture)), to: input)
        chmod(input, 0o444)
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: input)
        let before = try Snapshot(input)

        for arguments in [["convert", input, "-o", directory.file("out.vtt")], ["convert", input], ["inspect", input], ["inspect", "--json", input]] {
            let result = Self.cuekit(arguments)
            #expect([0, 1].contains(result.status), "\(arguments): \(result.error)")
            #expect(try Snapshot(input) == before, "\(arguments) changed its input")
        }
        // A document refused as a whole (the entity bomb) makes no output at all.
        #expect(Set(directory.names).isSubset(of: [name, "out.vtt"]), "no other file was left: \(directory.names)")
    }

    /// Converting a file onto itself replaces it whole with the conversion.
    @Test func convertOntoItsInputReplacesItWhole() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("episode.vtt")
        ExternalProcess.writeBytes(try TestPaths.bytes(TestPaths.fixture("webvtt/valid.vtt")), to: path)
        let expected = Self.cuekit(["convert", path, "--line-ending", "crlf"])
        #expect(expected.status == 0, "\(expected.error)")

        let result = Self.cuekit(["convert", path, "-o", path, "--line-ending", "crlf"])
        #expect(result.status == 0, "\(result.error)")
        #expect(try TestPaths.bytes(path) == expected.standardOutput)
        #expect(directory.names == ["episode.vtt"])
    }

    /// An existing output is replaced whole by a conversion that succeeds (even over a longer
    /// file), and left untouched, with no temporary file beside it, by one that fails after some
    /// output was written: a reading limit hit after cues, a TTML document that stops being
    /// well-formed after paragraphs.
    @Test func existingOutputIsReplacedWholeOrLeftUntouched() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.file("out.vtt")
        let precious = "WEBVTT\n\nNOTE the user's own file, longer than what replaces it" + String(repeating: ".", count: 100_000) + "\n"

        // Success: the old content is gone entirely.
        directory.write(precious, to: "out.vtt")
        directory.write("WEBVTT\n\n00:00.000 --> 00:01.000\nnew\n", to: "small.vtt")
        let replaced = Self.cuekit(["convert", directory.file("small.vtt"), "-o", output])
        #expect(replaced.status == 0, "\(replaced.error)")
        // (A valid WebVTT input with nothing asked is written as its own bytes.)
        #expect(directory.read("out.vtt") == "WEBVTT\n\n00:00.000 --> 00:01.000\nnew\n")

        // Reading stops half-way (a limit, XML that is not well-formed): the output is made of every
        // cue read before the error, nothing after it, and the exit status says it stopped.
        var cues = "WEBVTT\n\n"
        for index in 0..<2000 { cues += "\(CueTimestamp.format(index * 1000)) --> \(CueTimestamp.format(index * 1000 + 500))\ncue \(index)\n\n" }
        directory.write(cues + "00:59:00.000 --> 00:59:01.000\n" + String(repeating: "a", count: 2 << 20) + "\n", to: "limit.vtt")
        var ttml = #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div>"#
        for index in 0..<2000 { ttml += #"<p begin="\#(index)s" end="\#(index).5s">cue \#(index)</p>"# }
        directory.write(ttml + "</div></oops></tt>\n", to: "broken.ttml")
        let failures: [(arguments: [String], code: String)] = [
            (["convert", directory.file("limit.vtt"), "-o", output, "--max-line-bytes", "1M"], "vtt-line-too-long"),
            (["convert", directory.file("broken.ttml"), "-o", output], "ttml-"),
        ]
        for failure in failures {
            directory.write(precious, to: "out.vtt")
            let result = Self.cuekit(failure.arguments)
            #expect(result.status == 1, "\(failure.arguments): \(result.error)")
            #expect(result.error.contains(failure.code), "\(result.error)")
            #expect(result.error.contains("note: reading stopped there; the output holds the 2000 cues read before it"), "\(result.error)")
            let kept = try WebVTTReader.read(fileAtPath: output)
            #expect(kept.track.cues.map(\.text) == (0..<2000).map { "cue \($0)" }, "\(failure.arguments)")
            #expect(directory.names == ["broken.ttml", "limit.vtt", "out.vtt", "small.vtt"], "no temporary file was left")
        }
    }

    /// The exit status says whether anything failed: 0 only when all went well, 1 for input with
    /// errors (the output written all the same) or input that is no track, 2 for a file that
    /// cannot be read or written; an output that cannot be made is never half made.
    @Test func exitStatusSaysWhetherAnythingFailed() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let valid = TestPaths.fixture("webvtt/valid.vtt")
        let cases: [(arguments: [String], status: Int32)] = [
            (["convert", valid, "-o", directory.file("ok.vtt")], 0),
            // Written all the same: input errors fail only with --strict.
            (["convert", TestPaths.fixture("webvtt/cue-text-errors.vtt"), "-o", directory.file("errors.vtt")], 0),
            (["convert", "--strict", TestPaths.fixture("webvtt/cue-text-errors.vtt"), "-o", directory.file("strict.vtt")], 1),
            (["convert", TestPaths.fixture("webvtt/signature-missing.vtt"), "-o", directory.file("none.vtt")], 1),
            (["convert", directory.file("missing.vtt"), "-o", directory.file("missing-out.vtt")], 2),
            (["convert", directory.path, "-o", directory.file("folder-out.vtt")], 2),
            (["convert", valid, "-o", directory.file("no/such/folder/out.vtt")], 2),
            (["inspect", directory.file("missing.vtt")], 2),
            (["inspect", TestPaths.fixture("webvtt/signature-missing.vtt")], 1),
        ]
        for (arguments, status) in cases {
            let result = Self.cuekit(arguments)
            #expect(result.status == status, "\(arguments): \(result.error)")
            if status == 2 { #expect(result.error.hasPrefix("cuekit: error:") || result.error.contains("error:"), "\(result.error)") }
        }
        #expect(directory.names == ["errors.vtt", "ok.vtt", "strict.vtt"], "failed conversions made no file")
    }
}
