import CueKit
import CueKitCast
import CueKitConversion
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// A conversion from WebVTT to WebVTT copies the cue blocks the writer would write unchanged
/// (``TrackConversion/Options/copiesCueBlocks``): on random files, with cues out of order, notes between
/// them, a window small enough to spill late cues, a style, a timing edit, the output and what the
/// conversion reports are the same as with every cue built and written again.
struct CopiedCueBlocksTests {
    static let timingLines = [
        "00:00:0S.000 --> 00:00:0E.500", "00:00:0S.250 --> 00:00:0E.000 line:50% position:20%,line-left size:80% align:start",
        "00:00:0S.000 --> 00:00:0E.000 size:60% line:-2", "00:0S.000 --> 00:0E.000", "00:00:0S.000 --> 00:00:0E.000 region:r1",
        "00:00:0S.000 --> 00:00:0S.000", "00:00:0S.000 --> 00:00:0E.000 align:middle vertical:lr", "00:00:0S.000 --> 00:00:0E.000 position:101%",
    ]
    static let texts = ["plain words", "<b>bold</b> &amp; more", "가요 네", "two\nlines", "<v Ann>voice", "", "a &bogus; b"]

    /// A random track: cues whose starts wander back now and then, notes, a region and a style,
    /// and here and there a CRLF line end (where the reader leaves its fast path).
    static func randomFile(_ random: inout SeededRandom) -> [UInt8] {
        var text = "WEBVTT\n\n"
        if Bool.random(using: &random) { text += "REGION\nid:r1 width:40%\n\nSTYLE\n::cue { color: lime }\n\n" }
        var second = 1
        for index in 0..<Int.random(in: 1...120, using: &random) {
            second = max(0, min(8, second + Int.random(in: -2...2, using: &random)))
            if Int.random(in: 0..<12, using: &random) == 0 { text += "NOTE before \(index)\n\n" }
            if Bool.random(using: &random) { text += "c\(index)\n" }
            text += timingLines.randomElement(using: &random)!.replacingOccurrences(of: "S", with: "\(second)").replacingOccurrences(of: "E", with: "\(second + 1)")
            text += Int.random(in: 0..<20, using: &random) == 0 ? "\r\n" : "\n"
            let cueText = texts.randomElement(using: &random)!
            if !cueText.isEmpty { text += cueText + "\n" }
            text += "\n"
        }
        return Array(text.utf8)
    }

    /// Converts `input` to `output` with `options`; the output's bytes and what the conversion reported.
    static func convert(_ input: String, _ output: String, _ options: TrackConversion.Options) throws -> (bytes: [UInt8], report: String, copied: Int) {
        var reported: [ConversionDiagnostic] = []
        let outcome = try TrackConversion(source: try TrackSource(path: input), options: options).write(toFileAt: output) { reported.append($0) }
        let report =
            "errors \(outcome.inputErrors), edits \(outcome.edits), reordered \(outcome.reordered), style \(outcome.styleDiagnostics), stopped \(String(describing: outcome.stoppedBy)), reported \(reported)"
        return (try TestPaths.bytes(output), report, outcome.cuesCopied)
    }

    @Test(arguments: 1...30)
    func copiedBlocksGiveTheOutputOfTheCuesTheyReplace(seed: Int) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var random = SeededRandom(seed: UInt64(seed) &* 0x9E37)
        let file = Self.randomFile(&random)
        ExternalProcess.writeBytes(file, to: directory.file("in.vtt"))
        let cues = try WebVTTReader.read(bytes: file).track.cues.count
        let style = TextTrackStyle(foregroundColor: CastColor(red: 255, green: 255, blue: 0))
        for variant in 0..<4 {
            var options = TrackConversion.Options()
            // The canonical form, so that valid files are written by the writer too.
            options.keepsValidInputUnchanged = false
            if variant == 1 {
                options.orderingWindowSize = 3
                options.orderingRunLength = 2
            }
            if variant == 2 { options.style = style }
            if variant == 3 { options.timing = TimingEdit(shift: 250) }
            var copying = options
            copying.copiesCueBlocks = true
            options.copiesCueBlocks = false
            let expected = try Self.convert(directory.file("in.vtt"), directory.file("rebuilt.vtt"), options)
            let actual = try Self.convert(directory.file("in.vtt"), directory.file("copied.vtt"), copying)
            #expect(actual.bytes == expected.bytes, "seed \(seed), variant \(variant)")
            #expect(actual.report == expected.report, "seed \(seed), variant \(variant)")
            #expect(expected.copied == 0)
            // Blocks are copied where no edit changes cues (after the first cue, with a style);
            // a timing edit changes every cue.
            if variant == 3 { #expect(actual.copied == 0) } else if cues >= 10 { #expect(actual.copied > 0, "seed \(seed), variant \(variant)") }
        }
    }
}
