import CueKit
import CueKitTestSupport
import Foundation
import Testing

/// Hostile and broken input given to the built `cuekit`, each in a child process whose address
/// space is capped and which a deadline kills: every input must end in a clean exit (0, 1 or 2)
/// with a diagnostic that names the problem, never a crash, a hang or memory that grows with the
/// input. Large inputs are generated here, streamed to a temporary folder, never committed.
///
/// The deadline is a guard against a hang, not a measurement; the cap (1 GiB of address space)
/// is far above what streaming needs and far below what holding such an input would take.
@Suite(
    .enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"),
    .enabled(if: BoundedProcess.isAvailable, "timeout or prlimit is not installed"),
    .tags(.slow), .skippableByTag
)
struct HostileInputTests {
    static let addressSpace = 1 << 30
    static let megabyte = 1 << 20

    /// Runs `cuekit arguments`, capped and bounded.
    static func cuekit(_ arguments: [String]) -> BoundedProcess.Result {
        BoundedProcess.run(CommandLineRun.executable.path, arguments, addressSpace: addressSpace, deadline: 300)
    }

    /// Converts the generated `input` with `--strict` (so that input errors show in the exit status:
    /// 1 for an input with errors, its output written all the same, or one that is not a track at
    /// all) and checks the run ended cleanly with `status`, printing `code`; returns the run.
    @discardableResult
    static func convert(
        _ input: String, in directory: TemporaryDirectory, extraArguments: [String] = [],
        expecting status: Int32, code: String?, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> BoundedProcess.Result {
        let result = cuekit(["convert", "--strict", directory.file(input), "-o", directory.file("out.vtt")] + extraArguments)
        #expect(!result.timedOut, "cuekit did not finish", sourceLocation: sourceLocation)
        #expect(!result.crashed, "cuekit crashed: \(result.error.suffix(2000))", sourceLocation: sourceLocation)
        #expect(result.status == status, "\(result.error.prefix(2000))", sourceLocation: sourceLocation)
        if let code {
            #expect(result.error.contains("[\(code)]"), "\(result.error.prefix(2000))", sourceLocation: sourceLocation)
        }
        return result
    }

    static let cueHeader = "WEBVTT\n\n00:00.000 --> 00:01.000\n"

    // MARK: - WebVTT

    /// A 200 MB line stops reading at the 16 MiB line limit with `vtt-line-too-long`; nothing is
    /// written.
    @Test func webVTTLineOfHundredsOfMegabytes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try GeneratedFile.write(to: directory.file("long-line.vtt")) { file in
            try file.append(Self.cueHeader)
            try file.append(UInt8(ascii: "a"), count: 200 * Self.megabyte)
            try file.append("\n")
        }
        let result = Self.convert("long-line.vtt", in: directory, expecting: 1, code: "vtt-line-too-long")
        #expect(result.error.contains("--max-line-bytes"), "the error says how to raise the limit")
        #expect(!TestPaths.exists(directory.file("out.vtt")))
    }

    /// `--max-line-bytes` and `--max-block-bytes` raise the limits: a 20 MiB cue line reads.
    @Test func webVTTLimitsRaisedByOption() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try GeneratedFile.write(to: directory.file("long-cue.vtt")) { file in
            try file.append(Self.cueHeader)
            try file.append(UInt8(ascii: "a"), count: 20 * Self.megabyte)
            try file.append("\n")
        }
        Self.convert("long-cue.vtt", in: directory, expecting: 1, code: "vtt-line-too-long")
        Self.convert(
            "long-cue.vtt", in: directory, extraArguments: ["--max-line-bytes", "32M", "--max-block-bytes", "64M"],
            expecting: 0, code: nil)
        let size = (try? FileManager.default.attributesOfItem(atPath: directory.file("out.vtt"))[.size] as? Int) ?? 0
        #expect(size > 20 * Self.megabyte)
    }

    /// A STYLE block of 200 MB stops at the 64 MiB block limit with `vtt-block-too-long`.
    @Test func webVTTStyleBlockOfHundredsOfMegabytes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try GeneratedFile.write(to: directory.file("style.vtt")) { file in
            try file.append("WEBVTT\n\nSTYLE\n")
            let rule = "::cue(.speaker) { color: #ffff00; background: rgba(0, 0, 0, 0.8); }\n"
            try file.append(rule, times: 200 * Self.megabyte / rule.utf8.count)
            try file.append("\n00:00.000 --> 00:01.000\nhello\n")
        }
        Self.convert("style.vtt", in: directory, expecting: 1, code: "vtt-block-too-long")
        #expect(!TestPaths.exists(directory.file("out.vtt")))
    }

    /// A million cues stream through in the memory of one: the output has them all.
    @Test func webVTTMillionsOfCues() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cues = 1_000_000
        try GeneratedFile.write(to: directory.file("many.vtt")) { file in
            try file.append("WEBVTT\n")
            for index in 0..<cues {
                try file.append("\n\(CueTimestamp.format(index)) --> \(CueTimestamp.format(index + 1))\nx\n")
            }
        }
        Self.convert("many.vtt", in: directory, expecting: 0, code: nil)
        let tail = try lastBytes(of: directory.file("out.vtt"), count: 64)
        #expect(tail.hasSuffix("\(CueTimestamp.format(cues - 1)) --> \(CueTimestamp.format(cues))\nx\n"), "\(tail)")
    }

    /// Tags nested a million deep: spans past 128 levels are ignored and reported once.
    @Test func webVTTTagsNestedAMillionDeep() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try GeneratedFile.write(to: directory.file("nested.vtt")) { file in
            try file.append(Self.cueHeader)
            try file.append("<b>", times: 1_000_000)
            try file.append("deep\n")
        }
        let result = Self.convert("nested.vtt", in: directory, expecting: 1, code: "vtt-nesting-too-deep")
        #expect(result.error.components(separatedBy: "vtt-nesting-too-deep").count == 2, "reported once")
        // The cue text is written as it was read (a lossless round trip); the tree stops at 128.
        let inspected = Self.cuekit(["inspect", "--json", directory.file("nested.vtt")])
        #expect(inspected.status == 0, "\(inspected.error.prefix(500))")
        #expect(inspected.output.components(separatedBy: "\"b\"").count - 1 == CueText.maximumNestingDepth)
    }

    /// A million classes on one tag are kept (the line is under the limit) without trouble.
    @Test func webVTTAMillionClassesOnOneTag() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try GeneratedFile.write(to: directory.file("classes.vtt")) { file in
            try file.append(Self.cueHeader)
            try file.append("<c")
            try file.append(".k", times: 1_000_000)
            try file.append(">text</c>\n")
        }
        Self.convert("classes.vtt", in: directory, expecting: 0, code: nil)
        let output = directory.read("out.vtt") ?? ""
        #expect(output.components(separatedBy: ".k").count - 1 == 1_000_000)
    }

    /// Timestamps past any sane duration: a cue or a timestamp tag whose time does not fit in
    /// milliseconds is reported, the rest of the file is read.
    @Test func webVTTTimestampsPastAnySaneDuration() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(
            """
            WEBVTT

            99999999999999999999:00:00.000 --> 99999999999999999999:00:01.000
            dropped

            2562047788015:00:00.000 --> 2562047788016:00:00.000
            dropped too

            00:00.000 --> 00:01.000
            kept <99999999999999999:00:00.000>tag ignored

            """, to: "times.vtt")
        Self.convert("times.vtt", in: directory, expecting: 1, code: "vtt-timestamp-out-of-range")
        let output = directory.read("out.vtt") ?? ""
        #expect(output.contains("kept"))
        #expect(!output.contains("dropped"))
    }

    /// UTF-16 is not WebVTT (which is UTF-8 only): a UTF-16 file with its byte order mark is
    /// refused without reading further; bytes that are not UTF-8 become U+FFFD and are reported.
    @Test func webVTTUTF16AndInvalidBytes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let utf16 = utf16LittleEndian(Self.cueHeader + "hello\n")
        ExternalProcess.writeBytes(utf16, to: directory.file("utf16.vtt"))
        Self.convert("utf16.vtt", in: directory, extraArguments: ["--from", "vtt"], expecting: 1, code: "vtt-no-signature")

        var invalid = Array(Self.cueHeader.utf8)
        for byte in 0x80...0xFF { invalid += [UInt8(byte), UInt8(ascii: "x")] }
        invalid += [0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0xC0, 0xAF, 0x0A]
        ExternalProcess.writeBytes(invalid, to: directory.file("invalid.vtt"))
        Self.convert("invalid.vtt", in: directory, expecting: 1, code: "vtt-invalid-utf8")
        let output = try TestPaths.bytes(directory.file("out.vtt"))
        #expect(String(validating: output, as: UTF8.self) != nil, "the output is UTF-8")
    }

    // MARK: - SubRip

    /// A SubRip line of 128 MiB: what is past the line limit is dropped and reported; memory
    /// stays bounded.
    @Test func subRipLineOfHundredsOfMegabytes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try GeneratedFile.write(to: directory.file("long-line.srt")) { file in
            try file.append("1\n00:00:00,000 --> 00:00:01,000\n")
            try file.append(UInt8(ascii: "a"), count: 128 * Self.megabyte)
            try file.append("\n\n2\n00:00:01,000 --> 00:00:02,000\nnext\n")
        }
        Self.convert("long-line.srt", in: directory, expecting: 1, code: "srt-too-long")
        #expect(directory.read("out.vtt")?.contains("next") == true)
    }

    /// A million SubRip cues stream through.
    @Test func subRipMillionsOfCues() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cues = 1_000_000
        try GeneratedFile.write(to: directory.file("many.srt")) { file in
            for index in 0..<cues {
                try file.append("\(index + 1)\n\(Self.subRipTime(index)) --> \(Self.subRipTime(index + 1))\nx\n\n")
            }
        }
        Self.convert("many.srt", in: directory, expecting: 0, code: nil)
        let tail = try lastBytes(of: directory.file("out.vtt"), count: 64)
        #expect(tail.hasSuffix("\(CueTimestamp.format(cues - 1)) --> \(CueTimestamp.format(cues))\nx\n"), "\(tail)")
    }

    /// SubRip timestamps past any sane duration are reported; the file is still read.
    @Test func subRipTimestampsPastAnySaneDuration() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(
            """
            1
            99999999999999999999:00:00,000 --> 99999999999999999999:00:01,000
            dropped

            2
            00:00:01,000 --> 00:00:02,000
            kept

            """, to: "times.srt")
        let result = Self.convert("times.srt", in: directory, expecting: 1, code: nil)
        #expect(result.error.contains("srt-"))
        #expect(directory.read("out.vtt")?.contains("kept") == true)
    }

    /// UTF-16 SubRip is read; bytes that are not UTF-8 (nor UTF-16) are reported.
    @Test func subRipUTF16AndInvalidBytes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let text = "1\n00:00:00,000 --> 00:00:01,000\nhéllo\n"
        ExternalProcess.writeBytes(utf16LittleEndian(text), to: directory.file("utf16.srt"))
        Self.convert("utf16.srt", in: directory, expecting: 0, code: nil)
        #expect(directory.read("out.vtt")?.contains("héllo") == true)

        var invalid = Array("1\n00:00:00,000 --> 00:00:01,000\n".utf8)
        invalid += [0xC3, 0x28, 0xFF, 0xFE, 0xED, 0xA0, 0x80, 0x0A]
        ExternalProcess.writeBytes(invalid, to: directory.file("invalid.srt"))
        let result = Self.convert("invalid.srt", in: directory, extraArguments: ["--from", "srt"], expecting: 1, code: nil)
        #expect(result.error.contains("srt-"))
        #expect(String(validating: try TestPaths.bytes(directory.file("out.vtt")), as: UTF8.self) != nil)
    }

    // MARK: - TTML

    static let ttmlStart = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en"><body><div>

        """

    /// XML nested a million deep stops at the reader's depth limit (256) with one clean error.
    @Test func ttmlNestedAMillionDeep() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try GeneratedFile.write(to: directory.file("nested.ttml")) { file in
            try file.append(Self.ttmlStart + "<p begin=\"0s\" end=\"1s\">")
            try file.append("<span>", times: 1_000_000)
            try file.append("deep")
            try file.append("</span>", times: 1_000_000)
            try file.append("</p></div></body></tt>\n")
        }
        Self.convert("nested.ttml", in: directory, expecting: 1, code: "ttml-nesting-too-deep")
    }

    /// An attribute of 128 MiB is refused by libxml2's limit on one value (10 MB).
    @Test func ttmlAttributeOfHundredsOfMegabytes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try GeneratedFile.write(to: directory.file("attribute.ttml")) { file in
            try file.append(Self.ttmlStart + "<p begin=\"0s\" end=\"1s\" xml:id=\"")
            try file.append(UInt8(ascii: "a"), count: 128 * Self.megabyte)
            try file.append("\">text</p></div></body></tt>\n")
        }
        let result = Self.convert("attribute.ttml", in: directory, expecting: 1, code: nil)
        #expect(result.error.contains("ttml-"), "\(result.error.prefix(500))")
        #expect(!TestPaths.exists(directory.file("out.vtt")))
    }

    /// A text node of 128 MiB is refused at the reader's limit on a paragraph's text.
    @Test func ttmlTextOfHundredsOfMegabytes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try GeneratedFile.write(to: directory.file("text.ttml")) { file in
            try file.append(Self.ttmlStart + "<p begin=\"0s\" end=\"1s\">")
            try file.append(UInt8(ascii: "a"), count: 128 * Self.megabyte)
            try file.append("</p></div></body></tt>\n")
        }
        Self.convert("text.ttml", in: directory, expecting: 1, code: "ttml-paragraph-too-long")
    }

    /// Entity bombs and external entities: nothing is expanded, nothing is fetched or read.
    @Test(arguments: [
        "ttml/billion-laughs.ttml", "ttml/quadratic-blowup.ttml", "ttml/xxe-external-file.ttml",
        "ttml/xxe-parameter-entity.ttml", "ttml/external-dtd.ttml",
    ])
    func ttmlEntityAttacks(fixture: String) {
        let result = Self.cuekit(["convert", TestPaths.fixture(fixture), "-o", "-"])
        #expect(!result.timedOut && !result.crashed, "\(result.error.suffix(2000))")
        #expect([0, 1].contains(result.status), "\(result.error.prefix(2000))")
        #expect(!result.output.contains("root:"), "no file was read")
        #expect(result.output.utf8.count < 1 << 20, "no entity was expanded")
    }

    /// Timestamps past any sane duration in TTML are reported; the cue is not kept.
    @Test func ttmlTimestampsPastAnySaneDuration() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(
            Self.ttmlStart + """
            <p begin="99999999999999999999h" end="999999999999999999999999h">dropped</p>
            <p begin="99999999999999999999:00:00" end="99999999999999999999:00:01">dropped too</p>
            <p begin="1s" end="2s">kept</p>
            </div></body></tt>

            """, to: "times.ttml")
        let result = Self.convert("times.ttml", in: directory, expecting: 1, code: nil)
        #expect(result.error.contains("ttml-"))
        #expect(directory.read("out.vtt")?.contains("kept") == true)
    }

    /// Paragraphs of one span each, every span with a colour of its own (`tts:color="#rrggbb"`):
    /// each inline style set is new, and ten times the spans take less than fifteen times as long
    /// (a table that hashed those sets alike grew as the square of their number). Each size runs
    /// three times, in turn with the other, and the best time of each is compared.
    @Test func ttmlSpansOfDistinctColoursScaleLinearly() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let small = 4_000
        for count in [small, small * 10] {
            try GeneratedFile.write(to: directory.file("colours-\(count).ttml")) { file in
                try file.append(
                    #"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><body><div>"# + "\n")
                for index in 0..<count {
                    let digits = String(index, radix: 16)
                    let color = "#" + String(repeating: "0", count: 6 - digits.count) + digits
                    try file.append("<p begin=\"\(index)s\" end=\"\(index).5s\"><span tts:color=\"\(color)\">c</span></p>\n")
                }
                try file.append("</div></body></tt>\n")
            }
        }
        // CPU time, not time on the wall: the suite's other tests share the cores.
        var best: [Int: Double] = [:]
        for _ in 0..<3 {
            for count in [small, small * 10] {
                let (result, seconds) = Self.cuekitCPUTime(["convert", "-q", directory.file("colours-\(count).ttml"), "-o", directory.file("out.vtt")])
                #expect(result.status == 0, "\(result.error.prefix(2000))")
                guard let seconds else { continue }
                best[count] = min(best[count] ?? seconds, seconds)
            }
        }
        let output = directory.read("out.vtt") ?? ""
        #expect(output.components(separatedBy: " --> ").count - 1 == small * 10, "every span is a cue")
        #expect(output.contains("color: #009c3f;"), "the last colour has its class")
        let smallTime = try #require(best[small])
        let largeTime = try #require(best[small * 10])
        #expect(largeTime < max(smallTime, 0.01) * 15, "\(small * 10) spans took \(largeTime) s of CPU, \(small) took \(smallTime) s: more than 15 times as long")
    }

    /// Runs `cuekit` as ``cuekit(_:)`` does, with the CPU time (user and system) it took, as
    /// bash's `time` reports it: nil when the report cannot be read.
    static func cuekitCPUTime(_ arguments: [String]) -> (result: BoundedProcess.Result, seconds: Double?) {
        let script = #"TIMEFORMAT='cpu-time %3U %3S'; time "$@""#
        let result = BoundedProcess.run(
            "/bin/bash", ["-c", script, "bash", CommandLineRun.executable.path] + arguments, addressSpace: addressSpace, deadline: 300)
        let report = result.error.split(separator: "\n").last { $0.hasPrefix("cpu-time ") }
        let fields = report?.split(separator: " ").dropFirst().compactMap { Double($0) } ?? []
        return (result, fields.count == 2 ? fields[0] + fields[1] : nil)
    }

    /// TTML in UTF-16 is read (XML declares its encoding); bytes that are not UTF-8 in a UTF-8
    /// document are a clean error.
    @Test func ttmlUTF16AndInvalidBytes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let document = Self.ttmlStart.replacingOccurrences(of: "UTF-8", with: "UTF-16")
            + "<p begin=\"1s\" end=\"2s\">héllo</p></div></body></tt>\n"
        ExternalProcess.writeBytes(utf16LittleEndian(document), to: directory.file("utf16.ttml"))
        Self.convert("utf16.ttml", in: directory, extraArguments: ["--from", "ttml"], expecting: 0, code: nil)
        #expect(directory.read("out.vtt")?.contains("héllo") == true)

        var invalid = Array((Self.ttmlStart + "<p begin=\"1s\" end=\"2s\">").utf8)
        invalid += [0xC3, 0x28, 0xFF, 0xFE]
        invalid += Array("</p></div></body></tt>\n".utf8)
        ExternalProcess.writeBytes(invalid, to: directory.file("invalid.ttml"))
        let result = Self.convert("invalid.ttml", in: directory, expecting: 1, code: nil)
        #expect(result.error.contains("ttml-"), "\(result.error.prefix(500))")
    }

    // MARK: - Helpers

    static func subRipTime(_ milliseconds: Int) -> String {
        CueTimestamp.format(milliseconds).replacingOccurrences(of: ".", with: ",")
    }
}

/// The last `count` bytes of a file, as UTF-8.
private func lastBytes(of path: String, count: Int) throws -> String {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let size = try handle.seekToEnd()
    try handle.seek(toOffset: size > UInt64(count) ? size - UInt64(count) : 0)
    return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
}

/// `text` in UTF-16, little-endian, after its byte order mark.
private func utf16LittleEndian(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    return bytes
}
