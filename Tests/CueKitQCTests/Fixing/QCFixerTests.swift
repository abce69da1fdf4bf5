import CueKit
import CueKitQC
import CueKitTestSupport
import PropertyBased
import Testing

@Suite struct QCFixerTests {
    static func netflixRules() throws -> QCRules {
        try QCProfile.builtIn(named: "netflix").rules(language: "en")
    }

    @Test func widensAGapByEndingTheEarlierCueOnAFrame() throws {
        let fixer = try QCFixer(rules: Self.netflixRules())
        let (cues, changes) = fixer.fix([Cue(start: 0, end: 2000, text: "a"), Cue(start: 2020, end: 4000, text: "b")])
        // Two frames before 2,020 ms at 23.976 is 1,936 ms; the frame showing then starts at 1,919.
        #expect(cues.map(\.end) == [1919, 4000])
        #expect(FrameRate.film.start(of: FrameRate.film.frame(at: 1919)) == 1919)
        #expect(changes.map(\.rule) == [.gap])
        #expect(cues.map(\.text) == ["a", "b"])
    }

    @Test func extendsAShortCueOnlyWhereTheNextCueLeavesRoom() throws {
        let fixer = try QCFixer(rules: Self.netflixRules())
        let roomy = fixer.fix([Cue(start: 0, end: 400, text: "a"), Cue(start: 3000, end: 4000, text: "b")])
        #expect(roomy.cues[0].end == 833)
        #expect(roomy.changes.map(\.rule) == [.durationTooShort])
        let tight = fixer.fix([Cue(start: 0, end: 400, text: "a"), Cue(start: 800, end: 4000, text: "b")])
        #expect(tight.cues[0].end == 400)
        #expect(tight.changes.isEmpty)
    }

    @Test func splitsALongLineAfterPunctuationElseNearTheMiddle() throws {
        let fixer = try QCFixer(rules: Self.netflixRules())
        let punctuated = "I told you already, we are leaving at dawn tomorrow"
        let split = fixer.fix([Cue(start: 0, end: 6000, text: punctuated)])
        #expect(split.cues[0].text == "I told you already,\nwe are leaving at dawn tomorrow")
        let plain = "<i>one two three four five six seven eight nine ten</i>"
        #expect(
            fixer.fix([Cue(start: 0, end: 6000, text: plain)]).cues[0].text == "<i>one two three four five\nsix seven eight nine ten</i>")
        // Two lines already: a third is not allowed, so nothing is split.
        let twoLines = "short\n" + punctuated
        #expect(fixer.fix([Cue(start: 0, end: 6000, text: twoLines)]).changes.isEmpty)
    }

    /// Random tracks: checking the fixed track with the same rules reports nothing the fixer says it
    /// fixed, and the words of every cue are the same.
    @Test func checkingTheFixedTrackFindsNothingTheFixerClaims() async throws {
        let rules = try Self.netflixRules()
        let fixer = try QCFixer(rules: rules)
        let words = ["I", "told", "you,", "we", "leave", "at", "dawn.", "<i>Now</i>", "qu'il", "&amp;", "été", "字幕"]
        let track = Generator<[Cue], Shrink.None<[Cue]>> { rng in
            var start = 0
            return (0..<Int.random(in: 1...12, using: &rng)).map { _ in
                // Gaps from an overlap of 200 ms to 2.8 s; many under two frames.
                start = max(
                    0,
                    start + Int.random(in: -200...2_800, using: &rng) * (Bool.random(using: &rng) ? 1 : 0)
                        + Int.random(in: 0...90, using: &rng))
                let duration = Int.random(in: 1...3_000, using: &rng)
                let text = (0..<Int.random(in: 0...14, using: &rng)).map { _ in words[Int.random(in: 0..<words.count, using: &rng)] }
                let cue = Cue(start: start, end: start + duration, text: text.joined(separator: " "))
                start += duration
                return cue
            }
        }
        await propertyCheck(count: 2_000, input: track) { cues in
            let (fixed, changes) = fixer.fix(cues)
            var checker = try QCChecker(rules: rules)
            var found: [(index: Int, rule: QCRule)] = []
            for (index, cue) in fixed.enumerated() {
                checker.check(cue, at: nil) { diagnostic in
                    guard let rule = QCRule(code: diagnostic.code) else { return }
                    // A gap is reported with the cue after it: it belongs to the one before.
                    found.append((rule == .gap ? index - 1 : index, rule))
                }
            }
            for change in changes {
                #expect(!found.contains { $0.index == change.cueIndex && $0.rule == change.rule }, "\(change) in \(fixed)")
            }
            let before = cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
            #expect(fixed.map { Self.words($0.text) } == before.map { Self.words($0.text) })
        }
    }

    static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    }
}
