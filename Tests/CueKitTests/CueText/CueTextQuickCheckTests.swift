import CueKitTestSupport
import Testing

@testable import CueKit

/// The checker's quick path for common markup against the parser: whenever it calls a text clean,
/// the parser reports nothing about it; and it does call most well-formed common markup clean.
@Suite struct CueTextQuickCheckTests {
    static let pieces = [
        "a", "Hello", " ", "  ", "\n", "é", "字", "😀", ">", "-", "<i>", "</i>", "<b>", "</b>", "<u>", "</u>", "<c>", "</c>", "<c.x>",
        "<c.x.y>", "<i.loud>", "<v Ann>", "<v.a Bob Smith>", "</v>", "<v >", "<v\tAnn>", "<v &amp;>", "<v Ann&x>", "<ruby>", "<rt>",
        "</rt>", "</ruby>", "<lang en>", "<lang x_y>", "</lang>", "<00:00:01.000>", "<1>", "&amp;", "&lt;", "&gt;", "&nbsp;", "&lrm;",
        "&rlm;", "&amp", "&bogus;", "&", "&#65;", "&#x;", "<", "<>", "</>", "</i >", "<i >", "<I>", "<x>", "</x>", "<c.>", "<c..x>",
        "<c. >", "<i", "</i", "<b.a\tb>", "<v>", "<v.x>", "<ruby.r>", "<rt.t>", "<lang>", "<lang >", "<lang en-GB>", "<lang.l fr>",
        "<lang zh-Hant-TW>", "<lang 123>", "<lang en--x>", "<lang en &amp;>", "<lang  en>", "<lang en >", "<ruby >", "<rt en>",
        "<ruby>a<rt>b</rt></ruby>", "<ruby>a<rt>b</ruby>", "<ruby>a</ruby>",
        // Tags longer than the check's byte-by-byte look for their `>` (16 bytes), and one left open.
        "<v Someone With A Long Name>", "<c.first.second.third.fourth>", "<lang zh-Hant-TW-x-private>", "<v Someone With A Long Name",
    ]

    static func randomText(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    @Test func whatItCallsCleanTheParserFindsClean() {
        var random = SeededRandom(seed: 0xC1EA)
        var clean = 0
        for _ in 0..<50_000 {
            let text = Self.randomText(&random)
            let bytes = Array(text.utf8)
            let quick = bytes.withUnsafeBytes { CueTextQuickCheck.isClean($0) }
            guard quick else { continue }
            clean += 1
            var checker = CueText.Checker()
            let diagnostics = bytes.withUnsafeBytes {
                checker.diagnosticsByParsing($0, context: CueText.Context(cueStart: 0, cueEnd: 10_000))
            }
            #expect(diagnostics.isEmpty, "\(text.debugDescription): \(diagnostics)")
        }
        #expect(clean > 2_000)
    }

    /// Timestamp tags, checked against the cue's times: whenever the check calls a text with them
    /// clean, the parser reports nothing about it; tags in order inside the cue, it calls clean.
    @Test func withTheCuesTimesWhatItCallsCleanTheParserFindsClean() {
        var random = SeededRandom(seed: 0x7143)
        let stamps = [
            "<00:00:01.000>", "<00:00:02.500>", "<00:00:04.999>", "<00:00:05.000>", "<00:00:00.999>", "<00:00:01.001>", "<00:03.000>",
            "<1:00:00.000>", "<00:00:03.00>", "<00:00:3.000>", "<00:60:00.000>", "<00:00:03.000 >", "<00:00:03.000x>", "<0>",
            "<99999999999:00:00.000>", "<00:00:03.000",
        ]
        var clean = 0, cleanWithStamps = 0
        for _ in 0..<40_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                let stamp = Int.random(in: 0..<3, using: &random) == 0
                text += stamp ? stamps.randomElement(using: &random)! : Self.pieces.randomElement(using: &random)!
            }
            let bytes = Array(text.utf8)
            guard bytes.withUnsafeBytes({ CueTextQuickCheck.isClean($0, cueStart: 1_000, cueEnd: 5_000) }) else { continue }
            clean += 1
            if text.contains("<0") { cleanWithStamps += 1 }
            var checker = CueText.Checker()
            let context = CueText.Context(cueStart: 1_000, cueEnd: 5_000)
            let diagnostics = bytes.withUnsafeBytes { checker.diagnosticsByParsing($0, context: context) }
            #expect(diagnostics.isEmpty, "\(text.debugDescription): \(diagnostics)")
        }
        #expect(clean > 2_000 && cleanWithStamps > 500, "\(clean) clean, \(cleanWithStamps) of them with timestamp tags")
        for text in ["a<00:00:01.001>b<00:00:02.000>c", "<i>a<00:00:04.999></i>", "<00:03.000>x"] {
            #expect(Array(text.utf8).withUnsafeBytes { CueTextQuickCheck.isClean($0, cueStart: 1_000, cueEnd: 5_000) }, "\(text)")
        }
        for text in ["a<00:00:02.000>b<00:00:02.000>c", "<00:00:01.000>", "<00:00:05.000>", "<00:00:3.000>", "<00:00:03.000 >"] {
            #expect(!Array(text.utf8).withUnsafeBytes { CueTextQuickCheck.isClean($0, cueStart: 1_000, cueEnd: 5_000) }, "\(text)")
        }
    }

    /// The text it hands out of a clean text is the text of the parser's events.
    @Test func itsTextIsThatOfTheParsersEvents() {
        var random = SeededRandom(seed: 0x7E47)
        var events = CueTextEvents()
        var compared = 0
        for _ in 0..<20_000 {
            let text = Self.randomText(&random)
            let bytes = Array(text.utf8)
            var walked: [UInt8] = []
            guard bytes.withUnsafeBytes({ raw in CueTextQuickCheck.isClean(raw, text: { walked += $0 }) }) else { continue }
            var parsed = CueTextEvents.Parsed()
            events.parse(text, into: &parsed)
            var parsedText: [UInt8] = []
            for case .text(let range) in parsed.events { parsedText += parsed.bytes[range] }
            #expect(walked == parsedText, "\(text.debugDescription)")
            compared += 1
        }
        #expect(compared > 1_000)
    }

    /// The two ways of finding the marks (bit masks from one vector pass, for texts up to 1 KiB;
    /// a scan from each mark to the next, beyond) give the same answer and hand out the same text,
    /// on short texts and on texts of several mask words, a long run of plain text before them or not.
    @Test func theMaskedAndTheScanningCheckAgree() {
        var random = SeededRandom(seed: 0x3A5C)
        var clean = 0, longClean = 0
        for round in 0..<30_000 {
            var text = ""
            // Texts of up to about 1,100 bytes, so that the masks' last words and the 1 KiB edge are crossed.
            let runs = Int.random(in: 1...8, using: &random)
            let wellFormed = ["<i>word</i> ", "<b>two words</b> ", "<v Ann>hi</v> ", "&amp; ", "<c.x.y>z</c> ", "字 ", "<ruby>a<rt>b</rt></ruby> "]
            for _ in 0..<runs {
                if Int.random(in: 0..<4, using: &random) == 0 { text += String(repeating: "word ", count: Int.random(in: 0...60, using: &random)) }
                if round % 2 == 0 {
                    // Markup the check calls clean, long enough to pass 1 KiB now and then.
                    for _ in 0..<Int.random(in: 0...40, using: &random) { text += wellFormed.randomElement(using: &random)! }
                } else {
                    text += Self.randomText(&random)
                }
            }
            let bytes = Array(text.utf8)
            var maskedText: [UInt8] = [], scannedText: [UInt8] = []
            let masked = bytes.withUnsafeBytes { raw in CueTextQuickCheck.isClean(raw, text: { maskedText += $0 }) }
            let scanned = bytes.withUnsafeBytes { raw in CueTextQuickCheck.isCleanByScanning(raw, text: { scannedText += $0 }) }
            #expect(masked == scanned, "round \(round): \(text.debugDescription)")
            if masked {
                clean += 1
                if bytes.count > 1024 { longClean += 1 }
                #expect(maskedText == scannedText, "round \(round): \(text.debugDescription)")
            }
            let skipping = bytes.withUnsafeBytes { CueTextQuickCheck.isClean($0, skipsTimestampTags: true, text: { _ in }) }
            let skippingScanned = bytes.withUnsafeBytes { CueTextQuickCheck.isCleanByScanning($0, skipsTimestampTags: true) }
            #expect(skipping == skippingScanned, "round \(round), timestamps skipped: \(text.debugDescription)")
        }
        #expect(clean > 5_000 && longClean > 200, "\(clean) clean, \(longClean) of them past 1 KiB")
    }

    @Test(arguments: [
        "plain", "<i>a</i> b", "<v Ann>whole cue voice", "<v Ann><i>a</i> b", "<c.a.b>x</c> &amp; <b><u>y</u></b>", "<v.x Bob Smith>hi</v>",
        "a &lt;b&gt; &nbsp;", "<ruby>日本<rt>にほん</rt></ruby>", "<ruby>a<rt>b</ruby>", "<ruby.r>a<rt>b</rt>c<rt>d</rt></ruby>",
        "<lang en>a</lang>", "<v Ann><lang zh-Hant-TW>字</lang> <ruby><i>x</i><rt>y</rt></ruby>", "<lang.l sgn-BE-FR>a</lang>",
    ])
    func commonMarkupIsClean(_ text: String) {
        #expect(Array(text.utf8).withUnsafeBytes { CueTextQuickCheck.isClean($0) })
    }

    @Test(arguments: [
        "<i>a", "</i>", "<i>a</b></i>", "<v Ann>a</v><v Bob>b", "a<v Ann>b", "<x>a</x>", "<ruby>a</ruby>", "<rt>a</rt>", "<ruby><i><rt>",
        "<ruby>a<rt>b</rt>", "<ruby>a<rt>b", "<lang>a</lang>", "<lang 123>a</lang>", "<lang en >a</lang>", "<lang en&amp;>a</lang>",
        "<ruby>a<rt>b</rt></rt></ruby>", "a &bogus; b", "a & b", "<c.>a</c>", "<i >a</i>", "<00:00:01.000>a", "<v >a</v>",
    ])
    func otherMarkupGoesToTheParser(_ text: String) {
        #expect(!Array(text.utf8).withUnsafeBytes { CueTextQuickCheck.isClean($0) })
    }
}
