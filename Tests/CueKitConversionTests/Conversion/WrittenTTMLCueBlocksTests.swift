import CueKit
import CueKitConversion
import CueKitTTML
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// A conversion from WebVTT to TTML writes the cue blocks the reader reads whole as paragraphs
/// straight from their bytes (``TrackConversion/Options/copiesCueBlocks``): on random files, in
/// every profile, with inner timestamps painted on and times in frames, the output and what the
/// conversion reports are the same as with every cue built and written from its event. The files
/// hold what the block path must refuse and leave to the line-by-line reader: CR LF line ends,
/// `-->` in cue text, timing lines that do not read, a cue identifier with `-->`.
struct WrittenTTMLCueBlocksTests {
    static let timingLines = [
        "00:00:0S.000 --> 00:00:0E.500", "00:00:0S.250 --> 00:00:0E.000 line:50% position:20%,line-left size:80% align:start",
        "00:00:0S.000 --> 00:00:0E.000 size:60% line:-2", "00:0S.000 --> 00:0E.000", "00:00:0S.000 --> 00:00:0E.000 region:r1",
        "00:00:0S.000 --> 00:00:0S.000", "00:00:0S.000 --> 00:00:0E.000 align:end vertical:rl", "00:00:0S.000 --> 00:00:0E.000 line:0",
        "00:00:0S.000 --> 00:00:0E.000 line:90% align:right", "00:00:0S.000 -> 00:00:0E.000",
    ]
    /// Identifiers: names `xml:id` takes, and near misses it refuses (a leading underscore or
    /// digit, a space, a repeat, characters outside names).
    static let identifiers = ["c", "_c", "1c", "é-name", "a b", "dup", "x→y", "名前", "c.d", "a-->b"]
    static let pieces = [
        "plain words", "<b>bold</b>", " &amp; ", "가요 네", "\n", "<v Ann>", "<v.loud Bob Lee>", "</v>", "<i>", "</i>", "<c.a>", "</c>",
        "<u>", "</u>", "<lang fr>", "</lang>", "&bogus;", "&lt;", "<ruby>漢<rt>kan</rt></ruby>", "<00:00:0S.500>", "שלום", "<bad>", ">",
        "<", "&", "\u{1}", "\t", " --> ", "<v>", "\u{FFFE}", "é",
    ]

    /// A random file: cues with random identifiers, settings and markup, notes, a region and a
    /// style, here and there a CR LF line end.
    static func randomFile(_ random: inout SeededRandom) -> [UInt8] {
        var text = "WEBVTT title\n\n"
        if Bool.random(using: &random) { text += "REGION\nid:r1 width:40%\n\nSTYLE\n::cue { color: lime }\n::cue(.a) { color: red }\n\n" }
        var second = 1
        for index in 0..<Int.random(in: 1...80, using: &random) {
            second = max(0, min(8, second + Int.random(in: -1...2, using: &random)))
            if Int.random(in: 0..<12, using: &random) == 0 { text += "NOTE before -- \(index)\n\n" }
            if Bool.random(using: &random) {
                let identifier = identifiers.randomElement(using: &random)!
                text += identifier == "c" ? "c\(index)\n" : identifier + "\n"
            }
            text += timingLines.randomElement(using: &random)!.replacingOccurrences(of: "S", with: "\(second)")
                .replacingOccurrences(of: "E", with: "\(second + 1)")
            text += Int.random(in: 0..<20, using: &random) == 0 ? "\r\n" : "\n"
            let cueText = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
                .replacingOccurrences(of: "S", with: "\(second)")
            // A line of the text that is empty would end the cue: the pieces' line feeds are kept
            // between words.
            let lines = cueText.split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "\n")
            if !lines.isEmpty { text += lines + "\n" }
            text += "\n"
        }
        return Array(text.utf8)
    }

    @Test(arguments: 1...25)
    func cuesWrittenFromTheirBlocksGiveTheOutputOfTheirEvents(seed: Int) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var random = SeededRandom(seed: UInt64(seed) &* 0x51ED)
        let file = Self.randomFile(&random)
        ExternalProcess.writeBytes(file, to: directory.file("in.vtt"))
        let cues = try WebVTTReader.read(bytes: file).track.cues.count
        let variants: [(TTMLProfile, TTMLWriterOptions.InnerTimestamps, TTMLWriterOptions.FrameRate?)] = [
            (.imsc11, .wholeCue, nil), (.ebuTTD, .wholeCue, nil), (.ttml1, .paintOn, nil),
            (.imsc11, .paintOn, TTMLWriterOptions.FrameRate(frames: 25)),
        ]
        for (profile, timestamps, frameRate) in variants {
            var options = TrackConversion.Options(format: .ttml)
            options.ttml.profile = profile
            options.ttml.innerTimestamps = timestamps
            options.ttml.frameRate = frameRate
            var fromBlocks = options
            fromBlocks.copiesCueBlocks = true
            options.copiesCueBlocks = false
            let expected = try CopiedCueBlocksTests.convert(directory.file("in.vtt"), directory.file("events.ttml"), options)
            let actual = try CopiedCueBlocksTests.convert(directory.file("in.vtt"), directory.file("blocks.ttml"), fromBlocks)
            #expect(actual.bytes == expected.bytes, "seed \(seed), \(profile)")
            #expect(actual.report == expected.report, "seed \(seed), \(profile)")
            #expect(expected.copied == 0)
            if cues >= 10 { #expect(actual.copied > 0, "seed \(seed), \(profile)") }
            #expect(actual.copied <= cues)
        }
    }
}
