import CueKit
@testable import CueKitQC
import Testing

/// Each rule on the smallest track that triggers it and the smallest that does not.
@Suite struct QCCheckerTests {
    /// The diagnostics of checking `cues` (located at line 10 × index, so that tests can tell them
    /// apart) against `rules`.
    static func check(_ cues: [Cue], _ rules: QCRules, frameRate: FrameRate = .film, shotChanges: [Int] = []) throws -> [Diagnostic] {
        var checker = try QCChecker(rules: rules, frameRate: frameRate, shotChanges: shotChanges)
        var found: [Diagnostic] = []
        for (index, cue) in cues.enumerated() {
            checker.check(cue, at: SourceLocation(line: 10 * (index + 1), column: 1)) { found.append($0) }
        }
        return found
    }

    static func cue(_ start: Int, _ end: Int, _ text: String = "Hi") -> Cue { Cue(start: start, end: end, text: text) }

    @Test func readingSpeedCountsWhatAViewerSees() throws {
        var rules = QCRules()
        rules.readingSpeed = .init(maximumCharactersPerSecond: 10, severity: .error)
        // 10 visible characters in one second: markup, the line break and `&amp;` as one.
        let atLimit = Self.cue(0, 1000, "<i>ab</i>&amp;cd\nefghi")
        #expect(try Self.check([atLimit], rules).isEmpty)
        let over = Self.cue(0, 1000, "<i>ab</i>&amp;cd\nefghij")
        let found = try Self.check([over], rules)
        #expect(found.map(\.code) == [QCRule.readingSpeed.code])
        #expect(found.first?.severity == .error)
        #expect(found.first?.location == SourceLocation(line: 10, column: 1))
        #expect(found.first?.message == "reading speed 11 characters per second (11 characters in 1.000 s) is over the limit of 10")
    }

    @Test func wordsPerMinute() throws {
        var rules = QCRules()
        rules.readingSpeed = .init(maximumWordsPerMinute: 120)
        #expect(try Self.check([Self.cue(0, 1000, "one two")], rules).isEmpty)
        let found = try Self.check([Self.cue(0, 1000, "one two three")], rules)
        #expect(found.map(\.code) == [QCRule.wordsPerMinute.code])
        #expect(found.first?.message.hasPrefix("reading speed 180 words per minute (3 words in 1.000 s) is over the limit of 120") == true)
    }

    @Test func lineLengthIsLocatedAtTheLine() throws {
        var rules = QCRules()
        rules.lineLength = .init(maximumCharacters: 5)
        #expect(try Self.check([Self.cue(0, 1000, "abcde\n<b>fghij</b>")], rules).isEmpty)
        let found = try Self.check([Self.cue(0, 1000, "abcde\nfghijk")], rules)
        #expect(found.map(\.code) == [QCRule.lineLength.code])
        #expect(found.first?.location == SourceLocation(line: 12, column: 1))
        #expect(found.first?.message == "line 2 has 6 characters, over the limit of 5")
    }

    @Test func nonLatinTextCountsScalarsAndNoBreakSpacesSeparateWords() throws {
        var rules = QCRules()
        rules.lineLength = .init(maximumCharacters: 5)
        rules.readingSpeed = .init(maximumWordsPerMinute: 120)
        #expect(try Self.check([Self.cue(0, 1000, "été字幕")], rules).isEmpty)
        #expect(try Self.check([Self.cue(0, 1000, "été 字幕")], rules).map(\.code) == [QCRule.lineLength.code])
        // Three words in one second: 180 a minute.
        #expect(try Self.check([Self.cue(0, 1000, "a\u{A0}b c")], rules).map(\.code) == [QCRule.wordsPerMinute.code])
        #expect(try Self.check([Self.cue(0, 1000, "a\u{A0}b")], rules).isEmpty)
    }

    @Test func lineCount() throws {
        var rules = QCRules()
        rules.lineCount = .init(maximum: 2)
        #expect(try Self.check([Self.cue(0, 1000, "a\nb")], rules).isEmpty)
        #expect(try Self.check([Self.cue(0, 1000, "a\nb\nc")], rules).map(\.code) == [QCRule.lineCount.code])
    }

    @Test func minimumAndMaximumDuration() throws {
        var rules = QCRules()
        rules.minimumDuration = .init(milliseconds: 833)
        rules.maximumDuration = .init(milliseconds: 7000)
        #expect(try Self.check([Self.cue(0, 833), Self.cue(10_000, 17_000)], rules).isEmpty)
        let found = try Self.check([Self.cue(0, 832), Self.cue(10_000, 17_001)], rules)
        #expect(found.map(\.code) == [QCRule.durationTooShort.code, QCRule.durationTooLong.code])
        #expect(found[0].message == "duration 0.832 s is under the minimum of 0.833 s")
        #expect(found[1].message == "duration 7.001 s is over the maximum of 7.000 s")
    }

    @Test func gapCountsFramesAtTheRateAndSaysIt() throws {
        var rules = QCRules()
        rules.gap = .init(minimumFrames: 2, severity: .error)
        // Two frames at 24000/1001 last 83.42 ms: 84 ms is enough, 83 is not, and an adjacent cue
        // (no gap at all) is flagged too.
        #expect(try Self.check([Self.cue(0, 1000), Self.cue(1084, 2000)], rules).isEmpty)
        let found = try Self.check([Self.cue(0, 1000), Self.cue(1083, 2000), Self.cue(2000, 3000)], rules)
        #expect(found.map(\.code) == [QCRule.gap.code, QCRule.gap.code])
        // Located at the earlier cue, whose end a fix moves.
        #expect(found.map(\.location) == [SourceLocation(line: 10, column: 1), SourceLocation(line: 20, column: 1)])
        #expect(
            found[0].message
                == "the gap to the next cue (at 00:00:01.083) is 83 ms, 1.99 frames at 23.976 fps, under the minimum of 2 frames (84 ms)")
        // At 25 fps two frames are 80 ms.
        #expect(try Self.check([Self.cue(0, 1000), Self.cue(1080, 2000)], rules, frameRate: FrameRate(numerator: 25)!).isEmpty)
    }

    @Test func overlapWhereForbidden() throws {
        var rules = QCRules()
        #expect(try Self.check([Self.cue(0, 1000), Self.cue(500, 2000)], rules).isEmpty)
        rules.overlap = .init(severity: .error)
        #expect(try Self.check([Self.cue(0, 1000), Self.cue(1000, 2000)], rules).isEmpty)
        // A long cue overlaps the one after the next too.
        let found = try Self.check([Self.cue(0, 5000), Self.cue(1000, 2000), Self.cue(3000, 4000)], rules)
        #expect(found.map(\.code) == [QCRule.overlap.code, QCRule.overlap.code])
    }

    @Test func charactersOutsideTheSetAreLocatedAtTheirColumn() throws {
        var rules = QCRules()
        rules.characters = .init(allowed: .cea608, severity: .error)
        #expect(try Self.check([Self.cue(0, 1000, "Señor, ¿qué? ♪ &amp;")], rules).isEmpty)
        let found = try Self.check([Self.cue(0, 1000, "ok\n<i>a</i>€ and ★")], rules)
        #expect(found.map(\.code) == [QCRule.character.code])
        // Line 2 of the text, after `<i>a</i>`: column 9.
        #expect(found.first?.location == SourceLocation(line: 12, column: 9))
        #expect(found.first?.message == "'€' (U+20AC) is not in the cea608 character set (and 1 more in this cue)")
        // 608's solid block (0x7F) is U+2588, as the SCC reader draws it; U+25A0 is no 608 character.
        #expect(try Self.check([Self.cue(0, 1000, "\u{2588}")], rules).isEmpty)
        #expect(try Self.check([Self.cue(0, 1000, "\u{25A0}")], rules).map(\.code) == [QCRule.character.code])
        // The one printable ASCII character 608 lacks.
        #expect(try Self.check([Self.cue(0, 1000, "it`s")], rules).map(\.location) == [SourceLocation(line: 11, column: 3)])
        // A character reference is checked as the character it stands for.
        #expect(try Self.check([Self.cue(0, 1000, "&#x20AC;")], rules).map(\.code) == [QCRule.character.code])
    }

    @Test func forbiddenMarkup() throws {
        var rules = QCRules()
        rules.markup = .init(allowedTags: ["i"])
        #expect(try Self.check([Self.cue(0, 1000, "<i>a</i> <00:00:00.500>b")], rules).isEmpty)
        let found = try Self.check([Self.cue(0, 1000, "a <b.loud>b</b>")], rules)
        #expect(found.map(\.code) == [QCRule.markup.code])
        #expect(found.first?.location == SourceLocation(line: 11, column: 3))
        #expect(found.first?.message == "the tag <b> is not allowed (allowed: <i>)")
    }

    @Test func lineBalanceIsANote() throws {
        var rules = QCRules()
        rules.lineBalance = .init(maximumTopToBottomRatio: 1.5)
        #expect(try Self.check([Self.cue(0, 1000, "short\nthe longer line")], rules).isEmpty)
        let found = try Self.check([Self.cue(0, 1000, "a much longer top line\nshort")], rules)
        #expect(found.map(\.code) == [QCRule.lineBalance.code])
        #expect(found.first?.severity == .note)
    }

    @Test func shotChangesNearButNotOn() throws {
        var rules = QCRules()
        rules.shotChanges = .init(windowFrames: 12)
        let rate = FrameRate(numerator: 24)!
        // Shot change at 10 s. A start on it, and an end 12 frames (500 ms) before it, pass.
        #expect(try Self.check([Self.cue(10_000, 11_000), Self.cue(8000, 9500)], rules, frameRate: rate, shotChanges: [10_000]).isEmpty)
        // A start 3 frames after it, and an end 1 frame before it, do not.
        let found = try Self.check([Self.cue(10_125, 11_000), Self.cue(9000, 9980)], rules, frameRate: rate, shotChanges: [10_000])
        #expect(found.map(\.code) == [QCRule.shotChange.code, QCRule.shotChange.code])
        #expect(found[0].message.hasPrefix("the cue starts 3 frames after the shot change at 00:00:10.000 (at 24 fps)"))
        #expect(found[1].message.hasPrefix("the cue ends 1 frame before the shot change"))
        #expect(try Self.check([Self.cue(10_125, 11_000)], rules, frameRate: rate).isEmpty, "no shot changes given, nothing to check")
    }

    @Test func summaryTalliesCountWorstAndShare() throws {
        var rules = QCRules()
        rules.readingSpeed = .init(maximumCharactersPerSecond: 1)
        rules.minimumDuration = .init(milliseconds: 1000)
        var checker = try QCChecker(rules: rules)
        for cue in [Self.cue(0, 1000, "ab"), Self.cue(2000, 3000, "abcd"), Self.cue(4000, 4500, "a"), Self.cue(6000, 7000, "")] {
            checker.check(cue, at: nil) { (_: Diagnostic) in }
        }
        #expect(checker.summary.cues == 4)
        #expect(checker.summary.rules[.readingSpeed] == QCSummary.Tally(count: 3, worst: 4))
        #expect(checker.summary.rules[.durationTooShort] == QCSummary.Tally(count: 1, worst: 500))
        #expect(checker.summary.share(.readingSpeed) == 0.75)
    }

    @Test func aCueWithoutLocationIsNamedInTheMessage() throws {
        var rules = QCRules()
        rules.lineCount = .init(maximum: 1)
        var checker = try QCChecker(rules: rules)
        var found: [Diagnostic] = []
        checker.check(Self.cue(61_500, 62_000, "a\nb"), at: nil) { found.append($0) }
        #expect(found.first?.location == nil)
        #expect(found.first?.message == "the cue has 2 lines, over the limit of 1 (cue 1 at 00:01:01.500)")
    }
}

extension QCCheckerTests {
    /// The summary counts rules by their place among all rules: each rule has its own.
    @Test func everyRuleHasItsOwnPlaceInTheSummary() {
        #expect(QCRule.allCases.map(\.ordinal) == Array(QCRule.allCases.indices))
        var summary = QCSummary()
        for (index, rule) in QCRule.allCases.enumerated() {
            for _ in 0...index { summary.tally(rule, value: Double(index)) }
        }
        #expect(summary.rules.count == QCRule.allCases.count)
        for (index, rule) in QCRule.allCases.enumerated() { #expect(summary.rules[rule] == QCSummary.Tally(count: index + 1, worst: Double(index))) }
    }
}
