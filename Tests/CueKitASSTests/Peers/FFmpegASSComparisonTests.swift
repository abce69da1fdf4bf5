import CueKit
import CueKitASS
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// CueKit against ffmpeg 5.1 on the public scripts of `Fixtures/conformance/ass` and the synthetic
/// scripts pysubs2 is compared on: ffmpeg's WebVTT shows the same text at every instant (see
/// ``ShownText``).
@Suite(.tags(.peers), .skippableByTag, .enabled(if: ExternalProcess.isInstalled("ffmpeg"), "ffmpeg not installed"))
struct FFmpegASSComparisonTests {
    /// Where ffmpeg (expected) and CueKit (actual) show different text.
    static func differences(path: String) throws -> [ShownText.Difference] {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let run = ExternalProcess.run("ffmpeg", ["-v", "error", "-i", path, "-f", "webvtt", folder.file("out.vtt")])
        #expect(run.status == 0, "\(run.error)")
        let expected = ShownText.shown(try WebVTTReader.read(fileAtPath: folder.file("out.vtt")).track.cues)
        let actual = ShownText.shown(try ASSReader.read(fileAtPath: path).track.cues).map { shown in
            var copy = shown
            copy.lines = shown.lines.map { $0.replacingNoBreakSpaces() }
            return copy
        }
        let horizon = (expected + actual).map(\.end).max().map { $0 + 1 } ?? 0
        return ShownText.differences(expected: expected, actual: actual, horizon: horizon)
    }

    @Test("CueKit shows ffmpeg's text at every instant", arguments: PySubs2ComparisonTests.corpus)
    func publicScriptsShowFFmpegText(_ path: String) throws {
        let differences = try Self.differences(path: path)
        #expect(differences.isEmpty, "\(path):\n\(differences.prefix(5).map { "  \($0)" }.joined(separator: "\n"))")
    }

    static func differences(synthetic name: String) throws -> [ShownText.Difference] {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(PySubs2ComparisonTests.synthetic[name]!, to: name + ".ass")
        return try differences(path: folder.file(name + ".ass"))
    }

    @Test("CueKit shows ffmpeg's text at every instant", arguments: PySubs2ComparisonTests.synthetic.keys.sorted().filter { $0 != "tags" })
    func syntheticScriptsShowFFmpegText(_ name: String) throws {
        let differences = try Self.differences(synthetic: name)
        #expect(differences.isEmpty, "\(name):\n\(differences.prefix(5).map { "  \($0)" }.joined(separator: "\n"))")
    }

    /// Where ffmpeg is wrong: its WebVTT carries three pieces of an ASS line as they are written.
    /// `\h` is ASS's hard space, which ffmpeg leaves as the two characters; `{comment}` is an
    /// override block without a tag, which ASS renderers (libass, VSFilter) hide and ffmpeg shows;
    /// `<` and `&` are written unescaped, so that a WebVTT reader takes `< y & z` for a tag and
    /// drops it (WebVTT section 4.2.2: `<` and `&` in cue text start markup and character
    /// references). CueKit shows a space, hides the comment and escapes both.
    @Test func ffmpegCopiesHardSpacesCommentsAndMarkupCharactersAsWritten() throws {
        let differences = try Self.differences(synthetic: "tags")
        #expect(differences.map(\.expected) == [["lines\\hand hard space", "two"], ["a, b, c, {comment}and d"], ["x"]])
        #expect(differences.map(\.actual) == [["lines and hard space", "two"], ["a, b, c, and d"], ["x < y & z"]])
    }
}
