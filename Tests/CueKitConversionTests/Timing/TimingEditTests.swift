import CueKit
import CueKitConversion
import Testing

@Suite struct TimingEditTests {
    @Test func scalesExactlyAndRoundsHalvesAwayFromZero() {
        let edit = TimingEdit(numerator: 1, denominator: 2, shift: 0)
        #expect(edit.apply(3) == 2)  // 1.5 → 2
        #expect(edit.apply(-3) == -2)  // -1.5 → -2
        #expect(edit.apply(5) == 3)
        let ntsc = TimingEdit(numerator: 1001, denominator: 1000, shift: -500)
        #expect(ntsc.apply(60_000) == 59_560)
        #expect(TimingEdit().isIdentity)
        #expect(!ntsc.isIdentity)
    }

    @Test func timesPastTheLatestAreRefused() {
        #expect(TimingEdit(shift: 1).apply(TimingEdit.latest) == nil)
        #expect(TimingEdit(numerator: 3, denominator: 1).apply(Int.max / 2) == nil)
        #expect(TimingEdit(shift: -1).apply(TimingEdit.latest) == TimingEdit.latest - 1)
    }

    @Test func aCueIsShiftedClampedOrLeftOut() throws {
        let cue = Cue(start: 1_000, end: 3_000, text: "a <00:00:02.000>b")
        guard case .edited(let earlier) = TimingEdit(shift: -1_500).apply(to: cue) else {
            Issue.record("the cue was left out")
            return
        }
        #expect(earlier.start == 0)
        #expect(earlier.end == 1_500)
        #expect(earlier.text == "a <00:00:00.500>b")
        guard case .endsBeforeZero = TimingEdit(shift: -3_000).apply(to: cue) else {
            Issue.record("a cue ending at 0 was kept")
            return
        }
        guard case .pastTheLatestTime = TimingEdit(shift: TimingEdit.latest).apply(to: cue) else {
            Issue.record("a cue past the latest time was kept")
            return
        }
    }

    @Test func readsDurationsScalesAndFrameRates() throws {
        #expect(try TimingEdit.parseDuration("-1.5s") == -1_500)
        #expect(try TimingEdit.parseDuration("+250ms") == 250)
        #expect(try TimingEdit.parseDuration("2m") == 120_000)
        #expect(try TimingEdit.parseDuration("00:00:01.500") == 1_500)
        #expect(try TimingEdit.parseDuration("-01:02.5") == -62_500)
        #expect(try TimingEdit.parseScale("1.001") == (1001, 1000))
        #expect(try TimingEdit.parseScale("25/24") == (25, 24))
        let rates = try TimingEdit.parseFrameRates("25:23.976")
        // 23.976 is NTSC's 24000/1001: the scale is 25 ÷ 24000/1001.
        #expect(rates.numerator * 24_000 == rates.denominator * 25 * 1_001)
    }

    @Test func badTextSaysHowToWriteIt() {
        #expect(throws: TimingEdit.ParseError.self) { try TimingEdit.parseDuration("soon") }
        do {
            _ = try TimingEdit.parseScale("-2")
            Issue.record("a negative scale was read")
        } catch {
            #expect(error.description.contains("e.g. 1.001 or 25/24"))
        }
        do {
            _ = try TimingEdit.parseDuration("2000000000000h")
            Issue.record("a duration past the latest time was read")
        } catch {
            #expect(error.description.contains("longer than any time a track can hold"))
        }
    }
}
