import CueKitTestSupport
import Foundation
import Testing

/// The README's 30-second example, run as written, draws what it promises in Chromium (what Cast
/// receivers are built on): yellow text with a black outline. The same commands on a TTML file
/// (whose body style is the track's own white) draw yellow too: the Cast style wins over the
/// track's base style, as it does on a receiver.
@Suite(
    .serialized, .enabled(if: CommandLineRun.isBuilt && ChromiumCaptionRenderer.isAvailable, "cuekit, chromium or ffmpeg missing"),
    .tags(.chromium), .skippableByTag)
struct ReadmeQuickStartChromiumTests {
    /// The `cuekit` lines of the README's "In 30 seconds" block, split into arguments as a shell
    /// would (single quotes; a comment starts at ` #`).
    static func quickStartCommands() throws -> [[String]] {
        let readme = String(decoding: try TestPaths.bytes(TestPaths.packageRoot + "/README.md"), as: UTF8.self)
        let section = try #require(readme.range(of: "## In 30 seconds"))
        let block = readme[section.upperBound...].split(separator: "```", maxSplits: 2, omittingEmptySubsequences: false)[1]
        return block.split(separator: "\n").filter { $0.hasPrefix("cuekit ") }.map { Self.words(String($0)) }
    }

    static func words(_ line: String) -> [String] {
        var words: [String] = [], word = "", quoted = false, previous: Character = " "
        for character in line {
            if character == "'" {
                quoted.toggle()
            } else if !quoted, character == "#", previous == " " {
                break
            } else if !quoted, character == " " {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
            previous = character
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    static func isYellow(_ p: Image.Pixel) -> Bool { p.red > 200 && p.green > 200 && p.blue < 80 }
    static func isWhite(_ p: Image.Pixel) -> Bool { p.red > 220 && p.green > 220 && p.blue > 220 }
    /// The outline's black, darker than the translucent black box behind cue text on grey.
    static func isOutlineBlack(_ p: Image.Pixel) -> Bool { p.red < 5 && p.green < 5 && p.blue < 5 }

    @Test func theQuickStartDrawsYellowOutlinedTextForSubRipAndTTML() async throws {
        let commands = try Self.quickStartCommands()
        let generate = try #require(commands.first { $0.dropFirst().first == "generate" })
        let convert = try #require(commands.first { $0.dropFirst().first == "convert" })
        #expect(generate.contains("demo.srt") && convert.contains("demo.vtt") && convert.contains("outline"), "\(commands)")

        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = URL(fileURLWithPath: directory.path)
        func run(_ words: [String]) throws {
            let result = try CommandLineRun.run(CommandLineRun.executable, Array(words.dropFirst()), in: folder)
            #expect(result.status == 0, "\(words.joined(separator: " ")): \(result)")
        }
        func replacing(_ words: [String], _ old: String, _ new: String) -> [String] { words.map { $0 == old ? new : $0 } }
        // As written, on SubRip; then on TTML; then the TTML without the edge, as the control.
        try run(generate)
        try run(convert)
        try run(replacing(replacing(generate, "demo.srt", "demo.ttml"), "srt", "ttml"))
        try run(replacing(replacing(convert, "demo.srt", "demo.ttml"), "demo.vtt", "ttml.vtt"))
        var unedged = replacing(replacing(convert, "demo.srt", "demo.ttml"), "demo.vtt", "plain.vtt")
        if let edge = unedged.firstIndex(of: "--edge-type") { unedged.removeSubrange(edge...(edge + 1)) }
        try run(unedged)

        let renderer = try #require(try ChromiumCaptionRenderer.make())
        let keep = ProcessInfo.processInfo.environment["CUEKIT_KEEP_RENDERINGS"] != nil
        defer { if !keep { renderer.removeFiles() } }
        let where_ = keep ? "screenshot: \(renderer.screenshotPath)" : "set CUEKIT_KEEP_RENDERINGS=1 to keep the screenshot"
        let files = try ["demo.vtt", "ttml.vtt", "plain.vtt"].map { try #require(directory.read($0), "\($0) was not written") }
        // The second cue of `generate --seed 7` (Latin text, which every font draws) shows from
        // 6.5 s to 12 s.
        let images = try await renderer.render(files, at: 7)

        for (index, name) in [(0, "SubRip"), (1, "TTML")] {
            #expect(images[index].region(where: Self.isYellow).count > 300, "\(name): no yellow text; \(where_)")
            #expect(images[index].region(where: Self.isWhite).count < 20, "\(name): white text drawn; \(where_)")
        }
        let outline = images[1].region(where: Self.isOutlineBlack).count
        let control = images[2].region(where: Self.isOutlineBlack).count
        #expect(outline > control + 300, "outline pixels \(outline) against \(control) without an edge; \(where_)")
    }
}
