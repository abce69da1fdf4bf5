import CueKit
import PropertyBased
import Testing

@testable import CueKitQC

/// The two ways a cue's text is measured (eight bytes at a time, and scalar by scalar where words
/// are counted) count the same on any text, and the checker's first look at a cue passes only
/// cues its detailed check finds nothing in.
@Suite struct CueTextMeasurementTests {
    /// Pieces random texts are made of: ASCII, Latin-1, CJK, combining marks, emoji, controls,
    /// markup (allowed, forbidden, timestamps, unclosed), character references (known, unknown,
    /// numeric, broken), and line breaks (LF, and the CR of a CR LF).
    static let pieces = [
        "a", "Hi", "word", " ", "  ", "\t", "`", "~", "\u{7F}", "\u{1}", "\0", "\n", "\r\n", "\r",
        "é", "ß", "ñ", "Ñ", "\u{A0}", "¿", "«»", "字幕", "한국어", "日本語のテキスト", "e\u{301}", "a\u{308}\u{323}",
        "👍🏽", "👨‍👩‍👧", "🇫🇷", "♪", "—", "\u{200E}",
        "<i>", "</i>", "<b>", "</b>", "<u>", "<c.yellow.bg_blue>", "</c>", "<v Bob>", "<v.loud Mary Ann>", "</v>", "<ruby>", "<rt>",
        "<lang en-GB>", "<00:00:01.500>", "<1>", "<", "<i", "</", "<>", "<font color=red>", "<i.x>", "<I>", ">",
        "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&nbsp;", "&lrm;", "&rlm;", "&eacute;", "&#233;", "&#xE9;", "&#X1F600;", "&#96;",
        "&#;", "&#xZZ;", "&#99999999999;", "&", "& ", "&&", "&amp", "&;", "&abcdefghijklmnopqrstuvwxyzabcdefghij;",
    ]

    static let texts = Generator<String, Shrink.None<String>> { rng in
        (0..<Int.random(in: 0...24, using: &rng)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }.joined()
    }

    /// Every field but the words, which only the scalar-by-scalar way counts.
    static func fields(_ measurement: CueTextMeasurement) -> [String] {
        [
            "characters \(measurement.characters)", "lines \(measurement.lineCount)",
            "longest \(measurement.longestLine) at \(measurement.longestLineIndex)",
            "first \(measurement.firstLine) second \(measurement.secondLine)",
            "disallowed \(measurement.disallowedScalar.map { String($0, radix: 16) } ?? "none") \(measurement.disallowedCount) at \(measurement.disallowedLine):\(measurement.disallowedColumn)",
            "tag \(measurement.forbiddenTagName.map { "\($0)" } ?? "none") at \(measurement.forbiddenTagLine):\(measurement.forbiddenTagColumn)",
        ]
    }

    @Test func eightBytesAtATimeCountsAsScalarByScalarDoes() async {
        let sets: [QCCharacterSet?] = [nil, .cea608, .printableASCII]
        let tagLists: [[[UInt8]]?] = [nil, [Array("i".utf8)], [Array("i".utf8), Array("u".utf8), Array("c".utf8)], []]
        // One measurement measures every text in turn, as a checker's does.
        var fast = CueTextMeasurement()
        await propertyCheck(count: 3_000, input: Self.texts) { text in
            var copy = text
            copy.withUTF8 { utf8 in
                let bytes = UnsafeRawBufferPointer(utf8)
                // Without markup only when the text holds neither `<` nor `&`, as the reader promises.
                let markupChoices = utf8.contains(UInt8(ascii: "<")) || utf8.contains(UInt8(ascii: "&")) ? [true] : [true, false]
                for hasMarkup in markupChoices {
                    for allowed in sets {
                        for tags in tagLists {
                            fast.measure(bytes, hasMarkup: hasMarkup, allowed: allowed, allowedTags: tags, countsWords: false)
                            let reference = CueTextMeasurement(
                                scalarByScalar: bytes, hasMarkup: hasMarkup, allowed: allowed, allowedTags: tags)
                            #expect(
                                Self.fields(fast) == Self.fields(reference),
                                "\(text.debugDescription) markup \(hasMarkup) set \(String(describing: allowed)) tags \(String(describing: tags))"
                            )
                        }
                    }
                }
            }
        }
    }

    @Test func countsWhatAViewerSees() {
        var text = "<i>été</i> &amp; 字幕\n<u>x</u>y"
        let measurement = text.withUTF8 {
            CueTextMeasurement(
                UnsafeRawBufferPointer($0), hasMarkup: true, allowed: .printableASCII, allowedTags: [Array("i".utf8)], countsWords: false)
        }
        // é t é, space, &, space, 字 幕 on the first line; x y on the second.
        #expect(measurement.characters == 10)
        #expect(measurement.lineCount == 2)
        #expect((measurement.longestLine, measurement.firstLine, measurement.secondLine) == (8, 8, 2))
        #expect(measurement.disallowedScalar == 0xE9 && measurement.disallowedCount == 4 && measurement.disallowedColumn == 4)
        #expect(measurement.forbiddenTagName == 27..<28 && measurement.forbiddenTagLine == 1 && measurement.forbiddenTagColumn == 1)
    }

    /// Random tracks against every built-in profile, in several languages: the findings are the
    /// same whether or not the first look passes clean cues.
    @Test func theFirstLookPassesOnlyCuesWithoutFindings() async throws {
        let words = ["I", "told", "you,", "we", "leave", "at", "dawn.", "<i>Now</i>", "<b>no</b>", "&amp;", "été", "字幕", "`", "\n"]
        let track = Generator<[Cue], Shrink.None<[Cue]>> { rng in
            var start = 0
            return (0..<Int.random(in: 1...12, using: &rng)).map { _ in
                start = max(0, start + Int.random(in: -400...2_000, using: &rng))
                let duration = Int.random(in: -100...9_000, using: &rng)
                let text = (0..<Int.random(in: 0...16, using: &rng)).map { _ in words[Int.random(in: 0..<words.count, using: &rng)] }
                let cue = Cue(start: start, end: start + duration, text: text.joined(separator: " "))
                start += max(0, duration)
                return cue
            }
        }
        var rulesToCheck: [QCRules] = []
        for name in QCProfile.builtInNames {
            let profile = try QCProfile.builtIn(named: name)
            for language in [nil, "en", "fr", "ja"] { rulesToCheck.append(profile.rules(language: language)) }
        }
        let checked = rulesToCheck
        await propertyCheck(count: 300, input: track) { cues in
            for rules in checked {
                var quick = try QCChecker(rules: rules)
                var detailed = quick
                detailed.decidesCleanCuesQuickly = false
                var quickFound: [String] = []
                var detailedFound: [String] = []
                for (index, cue) in cues.enumerated() {
                    let location = SourceLocation(line: 10 * (index + 1), column: 1)
                    quick.check(cue, at: location) { quickFound.append("\($0)") }
                    detailed.check(cue, at: location) { detailedFound.append("\($0)") }
                }
                #expect(quickFound == detailedFound, "\(cues)")
                #expect(quick.summary == detailed.summary)
            }
        }
    }
}
