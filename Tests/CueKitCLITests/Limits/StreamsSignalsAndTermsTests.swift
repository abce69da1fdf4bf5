import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

/// The second round of hostile input, run as the built `cuekit` under the address-space cap and the
/// deadline of ``HostileInputTests``: inputs that are not regular files, endless streams, signals,
/// bytes that would drive a terminal, times that do not fit, and TTML whose bytes break half-way.
@Suite(
    .enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"),
    .enabled(if: BoundedProcess.isAvailable, "timeout or prlimit is not installed")
)
struct StreamsSignalsAndTermsTests {
    static let subRip = "1\n00:00:01,000 --> 00:00:02,000\nhello\n"

    /// Runs a shell line with `cuekit` on its PATH, capped and bounded like `cuekit` itself.
    static func shell(_ line: String, in directory: TemporaryDirectory) -> BoundedProcess.Result {
        let folder = CommandLineRun.executable.deletingLastPathComponent().path
        let script = "export PATH=\"\(folder):$PATH\" TMPDIR=\"\(directory.path)\"; cd \"\(directory.path)\"; \(line)"
        return BoundedProcess.run("/bin/bash", ["-c", script], addressSpace: HostileInputTests.addressSpace, deadline: 60)
    }

    // MARK: Inputs that are not regular files

    /// Process substitution gives `/dev/fd/N`, a pipe that cannot be opened twice: the bytes read
    /// to tell the format are not lost, and SubRip is not judged an empty file.
    @Test func processSubstitutionIsReadOnce() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(Self.subRip, to: "s.srt")
        directory.write("WEBVTT\n\n00:01.000 --> 00:02.000\nvtt\n", to: "a.vtt")
        let validated = Self.shell("cuekit validate <(cat s.srt)", in: directory)
        #expect(validated.status == 0, "\(validated.output)\(validated.error)")
        #expect(validated.output.hasSuffix("1 file: 1 valid (0 errors, 0 warnings)\n"), "\(validated.output)")
        let converted = Self.shell("cuekit convert <(cat a.vtt) -o -", in: directory)
        #expect(converted.status == 0, "\(converted.error)")
        #expect(converted.output.hasSuffix("00:00:01.000 --> 00:00:02.000\nvtt\n"))
        let subRip = Self.shell("cuekit convert <(cat s.srt)", in: directory)
        #expect(subRip.output.hasSuffix("00:00:01.000 --> 00:00:02.000\nhello\n"), "\(subRip.output)\(subRip.error)")
    }

    /// A FIFO holding TTML or SubRip (read twice, so spooled once) converts and does not hang.
    @Test func aFIFOIsSpooledOnce() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(Self.subRip, to: "s.srt")
        let run = Self.shell("mkfifo f; (cat s.srt > f &); cuekit convert f", in: directory)
        #expect(!run.timedOut)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasSuffix("hello\n"))
        #expect(directory.names == ["f", "s.srt"], "the spool is removed")
    }

    /// An endless stream stops at the spool limit with an error, in the time it takes to read it.
    @Test func anEndlessStreamStopsAtTheSpoolLimit() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for format in ["srt", "ttml"] {
            let run = Self.shell("cuekit convert --from \(format) --max-spool-bytes 1M /dev/zero -o out.vtt", in: directory)
            #expect(!run.timedOut && !run.crashed)
            #expect(run.status == 1, "\(run.error)")
            #expect(run.error.contains("[input-too-long]"), "\(run.error)")
            #expect(run.error.contains("--max-spool-bytes"))
            #expect(directory.names.isEmpty, "no output, no spool")
        }
    }

    /// SIGTERM while standard input is spooled: the spool is removed and the exit status is
    /// 128 + 15, for `validate` and `inspect` as for `convert`.
    @Test func aSignalRemovesTheSpool() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for command in ["validate --from srt -", "inspect --from srt -", "convert --from srt - -o out.vtt"] {
            let run = Self.shell(
                "yes hello | cuekit \(command) & pid=$!; sleep 1; kill -TERM $pid; wait $pid; echo status=$?",
                in: directory)
            #expect(run.output.contains("status=143"), "\(command): \(run.output) \(run.error)")
            #expect(directory.names.isEmpty, "\(command) left \(directory.names)")
        }
    }

    /// `--output-dir` refuses a symbolic link planted in the folder that points outside it; the
    /// file it points to is untouched, and the other inputs are converted.
    @Test func anOutputFolderLinkOutsideIsNotFollowed() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let run = Self.shell(
            """
            mkdir out other; echo precious > other/x.vtt; ln -s ../other/x.vtt out/a.vtt
            printf 'WEBVTT\n\n00:01.000 --> 00:02.000\nx\n' > a.vtt; cp a.vtt b.vtt
            cuekit convert a.vtt b.vtt --output-dir out; echo status=$?; cat other/x.vtt; ls out
            """, in: directory)
        #expect(run.output.contains("status=1"), "\(run.output)")
        #expect(run.output.contains("precious\na.vtt\nb.vtt\n"), "\(run.output)")
        #expect(run.error.contains("is a symbolic link to"), "\(run.error)")
        #expect(run.error.contains("outside the output folder"), "\(run.error)")
    }

    /// A full standard output is reported by every command alike: one `cuekit: error:` line, exit 2.
    @Test func aFullStandardOutputIsReportedAlike() throws {
        for command in [["validate"], ["inspect"], ["inspect", "--json"], ["convert"]] {
            let run = BoundedProcess.run(
                CommandLineRun.executable.path, command + [TestPaths.fixture("webvtt/valid.vtt")], standardOutputPath: "/dev/full")
            #expect(run.status == 2, "\(command): \(run.error)")
            #expect(run.error == "cuekit: error: cannot write '<stdout>': No space left on device\n", "\(command): \(run.error)")
        }
    }

    // MARK: Terminals

    /// Escape and control bytes copied from a file, or in a file name, are written as escapes: a
    /// diagnostic cannot set the terminal's title, clear its screen or split into two lines.
    @Test func diagnosticsEscapeControlCharacters() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("WEBVTT\n\nid\u{1B}[2J\n00:01.000 --> 00:02.000 align:\u{1B}]0;PWNED\u{07}\u{1B}[2J\nx\n", to: "evil.vtt")
        directory.write("WEBVTT\n\n00:01.000 --> 00:02.000 align:bad\nx\n", to: "new\nline.vtt")
        for command in ["validate", "inspect", "convert"] {
            let evil = HostileInputTests.cuekit([command, directory.file("evil.vtt")])
            // convert's standard output is the track itself, which keeps its identifier's bytes.
            let printed = command == "convert" ? evil.error : evil.output + evil.error
            #expect(!printed.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(command): \(printed.debugDescription)")
            #expect(printed.contains("align:\\u{1B}]0;PWNED\\u{7}\\u{1B}[2J"), "\(command): \(printed.debugDescription)")
            let named = HostileInputTests.cuekit([command, directory.file("new\nline.vtt")])
            let lines = (named.output + named.error).split(separator: "\n").filter { $0.contains("align:bad") }
            #expect(lines.count == 1, "\(command): \(lines)")
            #expect(lines.allSatisfy { $0.contains("new\\nline.vtt") }, "\(command): \(lines)")
        }
    }

    // MARK: Times that do not fit

    /// TTML times past a billion hours, on their own or added up through time containers: a
    /// located `ttml-bad-time`, the other paragraphs kept; no trap.
    @Test func ttmlTimesThatDoNotFit() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let paragraphs = [
            #"<p begin="0s" end="3000000000000h">x</p>"#,
            #"<p begin="9223372036854775s" dur="9223372036854775s">a</p>"#,
            #"<p begin="9000000000000h" end="9000000000001h">b</p>"#,
            #"<p begin="1s" end="99999999999999999t">c</p>"#,
            #"<div begin="900000000h"><div begin="900000000h"><p begin="1s" end="2s">sum</p></div></div>"#,
        ]
        for (index, paragraph) in paragraphs.enumerated() {
            let name = "times-\(index).ttml"
            directory.write(
                #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div>"# + paragraph + #"<p begin="1s" end="2s">kept</p></div></body></tt>"#,
                to: name)
            let run = HostileInputTests.convert(name, in: directory, expecting: 1, code: "ttml-bad-time")
            #expect(run.error.contains(".ttml:1:"), "located: \(run.error)")
            #expect(try WebVTTReader.read(fileAtPath: directory.file("out.vtt")).track.cues.map(\.text) == ["kept"])
        }
    }

    /// A timing edit past the latest time a track holds is reported and the cue left out, never
    /// clamped in silence; a flag too large to use is a usage error.
    @Test func timingEditsThatDoNotFit() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nearly\n\n1000000000:00:00.000 --> 1000000000:00:01.000\nlate\n", to: "in.vtt")
        let run = HostileInputTests.convert("in.vtt", in: directory, extraArguments: ["--scale", "10000"], expecting: 1, code: "timing-edit-out-of-range")
        #expect(run.error.contains("the timing edit takes 1 cue, the first the cue at 1000000000:00:00.000, past the latest time"), "\(run.error)")
        #expect(try WebVTTReader.read(fileAtPath: directory.file("out.vtt")).track.cues.map(\.text) == ["early"])
        for flags in [["--shift", "999999999999999h"], ["--shift", "99999999999999:00:00"]] {
            let usage = HostileInputTests.cuekit(["convert", directory.file("in.vtt")] + flags)
            #expect(usage.status == 2, "\(flags): \(usage.error)")
            #expect(usage.error.contains("is longer than any time a track can hold"), "\(usage.error)")
        }
    }

    // MARK: Cast messages

    /// A LOAD whose tracks share one id, or list as many active ids as tracks, is checked in
    /// linear time; a document past the message limit is refused unread.
    @Test(.tags(.slow), .skippableByTag) func largeCastMessages() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        func load(tracks: Int, sameID: Bool, active: Int) -> String {
            let list = (0..<tracks).map { index in
                #"{"trackId":\#(sameID ? 1 : index + 1),"type":"TEXT","trackContentId":"https://example.com/\#(index).vtt","trackContentType":"text/vtt","subtype":"SUBTITLES","name":"n","language":"en"}"#
            }
            let ids = (0..<active).map { String($0 + 1) }
            return #"{"type":"LOAD","requestId":1,"media":{"contentId":"https://example.com/m.mp4","contentType":"video/mp4","streamType":"BUFFERED","tracks":["#
                + list.joined(separator: ",") + #"]},"activeTrackIds":["# + ids.joined(separator: ",") + "]}"
        }
        directory.write(load(tracks: 20_000, sameID: true, active: 0), to: "same.json")
        directory.write(load(tracks: 20_000, sameID: false, active: 20_000), to: "active.json")
        let same = HostileInputTests.cuekit(["cast", "check", "--max-message-bytes", "64M", directory.file("same.json")])
        #expect(!same.timedOut && !same.crashed)
        #expect(same.output.components(separatedBy: "[cast-duplicate-track-id]").count - 1 == 19_999)
        let active = HostileInputTests.cuekit(["cast", "check", "--max-message-bytes", "64M", directory.file("active.json")])
        #expect(active.status == 0, "\(active.output.prefix(500))")
        let refused = HostileInputTests.cuekit(["cast", "check", directory.file("same.json")])
        #expect(refused.status == 1)
        #expect(refused.output.hasPrefix(directory.file("same.json") + ":1:1: error: the document is longer than 1048576 bytes"), "\(refused.output)")
        let validated = HostileInputTests.cuekit(["validate", directory.file("same.json")])
        #expect(validated.output.contains("[cast-message-too-large]"))
    }

    // MARK: TTML whose bytes break

    /// Bytes that are not in the document's encoding stop reading with a located
    /// `ttml-not-well-formed`: the paragraphs before are kept, libxml2's own lines never reach
    /// standard error, and the file is never called valid.
    @Test func ttmlEncodingErrorsKeepWhatCameBefore() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let head = Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8) + [0x0A]
        let body = Array(#"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">good one</p>"#.utf8) + [0x0A]
        let tail = Array("</div></body></tt>\n".utf8)
        let surrogate = Array(#"<p begin="3s" end="4s">bad "#.utf8) + [0xED, 0xA0, 0x80] + Array("</p>\n".utf8)
        let ascii = head.replacing(Array("UTF-8".utf8), with: Array("US-ASCII".utf8))
        let cases: [(name: String, bytes: [UInt8], kept: [String], location: String)] = [
            ("surrogate.ttml", head + body + surrogate + tail, ["good one"], ":3:"),
            ("nul-bytes.ttml", [0, 0, 0] + head + body + tail, [], ":1:1:"),
            ("ibm037.ttml", head.replacing(Array("UTF-8".utf8), with: Array("IBM037".utf8)) + body + tail, [], ":1:"),
            ("ascii.ttml", ascii + body + Array(#"<p begin="3s" end="4s">caf"#.utf8) + [0xE9] + Array("</p>".utf8) + tail, ["good one"], ":3:"),
        ]
        for item in cases {
            ExternalProcess.writeBytes(item.bytes, to: directory.file(item.name))
            let validated = HostileInputTests.cuekit(["validate", directory.file(item.name)])
            #expect(validated.status == 1, "\(item.name): \(validated.output)")
            #expect(validated.output.contains("[ttml-not-well-formed]"), "\(item.name): \(validated.output)")
            #expect(validated.output.contains(item.name + item.location), "\(item.name): \(validated.output)")
            #expect(!validated.error.contains("encoding error"), "\(item.name): \(validated.error)")
            unlink(directory.file("out.vtt"))
            let converted = HostileInputTests.convert(item.name, in: directory, expecting: 1, code: "ttml-not-well-formed")
            #expect(!converted.error.contains("encoding error") && !converted.error.contains("I/O error"), "\(converted.error)")
            let kept = (try? WebVTTReader.read(fileAtPath: directory.file("out.vtt")))?.track.cues.map(\.text) ?? []
            #expect(kept == item.kept, "\(item.name)")
        }
    }

    /// A second root element and UTF-32 get messages that say so.
    @Test func ttmlMessagesSayWhatIsWrong() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let document = #"<tt xmlns="http://www.w3.org/ns/ttml"><body/></tt>"#
        directory.write(document + "\n" + document + "\n", to: "two-roots.ttml")
        ExternalProcess.writeBytes([0xFF, 0xFE, 0, 0] + document.unicodeScalars.flatMap { s in (0..<4).map { UInt8((s.value >> (8 * $0)) & 0xFF) } }, to: directory.file("utf32.ttml"))
        let twoRoots = HostileInputTests.cuekit(["validate", directory.file("two-roots.ttml")])
        #expect(twoRoots.output.contains("content after the end of the root element"), "\(twoRoots.output)")
        let utf32 = HostileInputTests.cuekit(["validate", "--from", "ttml", directory.file("utf32.ttml")])
        #expect(utf32.output.contains("the document is UTF-32"), "\(utf32.output)")
    }
}
