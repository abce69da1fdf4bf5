import CueKitTestSupport
import Foundation
import Testing

/// `cuekit validate --qc` picks a profile's per-language rules from the track itself when
/// `--language` is not given, and locates findings on SubRip and TTML cues in their files.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"))
struct ValidateQCTrackLanguageTests {
    /// Ten characters in one second: over Netflix's Japanese limit (4 per second), under the
    /// English one (20).
    static let japanese = "あいうえおかきくけこ"

    static let ttml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xml:lang="ja">
          <body>
            <div>
              <p begin="00:00:01.000" end="00:00:02.000">\(japanese)</p>
            </div>
          </body>
        </tt>

        """

    /// The QC findings of one run (lines ending in a `qc-` code).
    private func findings(_ arguments: [String]) throws -> [String] {
        let run = try CommandLineRun.cuekit(["validate", "--qc", "netflix"] + arguments)
        #expect(run.standardError.isEmpty, "\(run)")
        return run.standardOutput.split(separator: "\n").map(String.init).filter {
            $0.range(of: #"\[qc-[a-z-]+\]$"#, options: .regularExpression) != nil
        }
    }

    @Test func aTTMLRootsLanguagePicksTheRulesAndFindingsAreAtTheParagraph() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(Self.ttml, to: "episode.ttml")
        let path = folder.file("episode.ttml")
        // Located at the p element as the XML layer locates elements: just after its start tag.
        #expect(
            try findings([path]) == [
                "\(path):5:49: warning: reading speed 10 characters per second (10 characters in 1.000 s) is over the limit of 4 [qc-reading-speed]"
            ])
        // --language wins over the document's.
        #expect(try findings(["--language", "en", path]).isEmpty)
    }

    @Test func aFileNamesLanguageAsItsCastTrackWouldHaveIt() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let srt = "1\n00:00:01,000 --> 00:00:02,000\n\(Self.japanese)\n"
        folder.write(srt, to: "episode.ja.srt")
        folder.write(srt, to: "episode.srt")
        #expect(
            try findings([folder.file("episode.ja.srt")]) == [
                "\(folder.file("episode.ja.srt")):2:1: warning: reading speed 10 characters per second (10 characters in 1.000 s) is over the limit of 4 [qc-reading-speed]"
            ])
        #expect(try findings([folder.file("episode.srt")]).isEmpty)
        // A WebVTT `Language:` header line wins over the name.
        folder.write("WEBVTT\nLanguage: en\n\n00:00:01.000 --> 00:00:02.000\n\(Self.japanese)\n", to: "episode.ja.vtt")
        #expect(try findings([folder.file("episode.ja.vtt")]).isEmpty)
    }

    @Test func subRipFindingsAreAtTheTimingLineAndTheOffendingTextLine() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let srt = """
            1
            00:00:01,000 --> 00:00:01,200
            Hi

            2
            00:00:03,000 --> 00:00:06,000
            Short
            This second line is much too long for the Netflix limit

            """
        folder.write(srt, to: "episode.en.srt")
        let path = folder.file("episode.en.srt")
        #expect(
            try findings([path]) == [
                "\(path):2:1: error: duration 0.200 s is under the minimum of 0.833 s [qc-duration-short]",
                "\(path):8:1: error: line 2 has 55 characters, over the limit of 42 [qc-line-length]",
            ])
    }
}
