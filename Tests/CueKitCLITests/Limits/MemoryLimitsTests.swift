import CueKit
import CueKitTestSupport
import Testing

/// Each input that once took memory many times its size, or time growing faster than it, now stops
/// at a documented limit with a located error (or, for colours, a warning), under the address-space
/// cap (1 GiB) and the deadline of ``HostileInputTests``.
@Suite(
    .enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"),
    .enabled(if: BoundedProcess.isAvailable, "timeout or prlimit is not installed"),
    .tags(.slow), .skippableByTag
)
struct MemoryLimitsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let file: String
        let prefix: String
        let unit: String
        let count: Int
        let suffix: String
        let code: String
        let status: Int32
        var testDescription: String { name }
    }

    static let tt = #"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling">"#
    static let paragraph = #"<body><div><p begin="1s" end="2s">"#
    static let close = "</p></div></body></tt>"

    static let cases: [Case] = [
        Case(name: "a paragraph of 5 million br", file: "br.ttml", prefix: tt + paragraph, unit: "<br/>", count: 5_000_000, suffix: close, code: "ttml-limit", status: 1),
        Case(name: "a paragraph of 2 million one-letter spans", file: "spans.ttml", prefix: tt + paragraph, unit: "<span>a</span>", count: 2_000_000, suffix: close, code: "ttml-limit", status: 1),
        Case(name: "a paragraph of 2 million empty spans", file: "empty.ttml", prefix: tt + paragraph, unit: "<span/>", count: 2_000_000, suffix: close, code: "ttml-limit", status: 1),
        Case(name: "60,000 timed spans", file: "timed.ttml", prefix: tt + #"<body><div><p begin="0s" end="100000s">"#, unit: #"<span begin="1s" end="2s">w</span>"#, count: 60_000, suffix: close, code: "ttml-limit", status: 1),
        Case(name: "a style list of 2 million references", file: "refs.ttml", prefix: tt + #"<head><styling><style xml:id="s" tts:color="red"/></styling></head><body><div><p begin="1s" end="2s" style=""#, unit: "s ", count: 2_000_000, suffix: #"">x</p></div></body></tt>"#, code: "ttml-limit", status: 1),
        Case(name: "1.2 million head styles", file: "styles.ttml", prefix: tt + "<head><styling>", unit: #"<style xml:id="s" tts:color="red"/>"#, count: 1_200_000, suffix: "</styling></head><body/></tt>", code: "ttml-limit", status: 1),
        Case(name: "an element of 30,000 attributes", file: "attributes.ttml", prefix: tt + #"<body><div><p begin="1s" end="2s""#, unit: #" a="v""#, count: 30_000, suffix: ">x" + close, code: "ttml-too-many-attributes", status: 1),
        Case(name: "40 STYLE blocks of a megabyte", file: "styles.vtt", prefix: "WEBVTT\n\n", unit: "STYLE\n::cue { color: red; } /*" + String(repeating: "x", count: 1 << 20) + "*/\n\n", count: 40, suffix: "00:01.000 --> 00:02.000\nx\n", code: "vtt-styles-too-long", status: 1),
        Case(name: "200,000 REGION blocks sharing an id", file: "regions.vtt", prefix: "WEBVTT\n\n", unit: "REGION\nid:r width:40%\n\n", count: 200_000, suffix: "00:01.000 --> 00:02.000 region:r\nx\n", code: "vtt-duplicate-region-identifier", status: 1),
    ]

    @Test(arguments: cases)
    func stopsAtItsLimit(_ item: Case) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try GeneratedFile.write(to: directory.file(item.file)) { file in
            try file.append(item.prefix)
            try file.append(item.unit, times: item.count)
            try file.append(item.suffix)
        }
        let run = HostileInputTests.cuekit(["validate", directory.file(item.file)])
        #expect(!run.timedOut && !run.crashed, "\(run.error.suffix(500))")
        #expect(run.status == item.status, "\(run.output.prefix(500))")
        if !item.code.isEmpty {
            #expect(run.output.contains(directory.file(item.file) + ":"), "located: \(run.output.prefix(500))")
            #expect(run.output.contains("[\(item.code)]"), "\(run.output.prefix(500))")
        }
    }

    /// A SubRip file of 50,000 distinct colours: the first 1,000 get a style rule, the rest are
    /// reported once and shown in the default colour; the text is all kept.
    @Test func distinctSubRipColoursAreBounded() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try GeneratedFile.write(to: directory.file("colours.srt")) { file in
            for index in 0..<50_000 {
                let hex = String(index, radix: 16)
                try file.append("\(index + 1)\n00:00:01,000 --> 00:00:02,000\n<font color=\"#\(String(repeating: "0", count: 6 - hex.count) + hex)\">c\(index)</font>\n\n")
            }
        }
        let run = HostileInputTests.cuekit(["convert", directory.file("colours.srt"), "-o", directory.file("out.vtt")])
        #expect(run.status == 0, "\(run.error.prefix(500))")
        #expect(run.error.components(separatedBy: "[srt-too-many-colors]").count == 2, "reported once")
        let output = directory.read("out.vtt") ?? ""
        #expect(output.components(separatedBy: "::cue(.").count - 1 == 1000)
        #expect(output.contains("c49999"))
    }
}
