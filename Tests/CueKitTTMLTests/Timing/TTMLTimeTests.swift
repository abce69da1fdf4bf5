import Testing

@testable import CueKitTTML

/// Exact time arithmetic and the one rounding step.
struct TTMLTimeTests {
    @Test func fractionsStayExact() {
        // 1001 frames at 30000/1001 frames per second is exactly 33.4 seconds... and then some.
        var sum = TTMLTime.zero
        for _ in 0..<30000 { sum = sum + TTMLTime(1001, over: 30000) }
        #expect(sum == TTMLTime(seconds: 1001))
        #expect(TTMLTime(1, over: 3) + TTMLTime(1, over: 6) == TTMLTime(1, over: 2))
        #expect(TTMLTime(5, over: 4) - TTMLTime(1, over: 4) == TTMLTime(seconds: 1))
    }

    /// Nearest millisecond, a tie to the even one: 0.5005 s (12 frames at 24000/1001) is 500 ms,
    /// 8.5085 s (255 frames at 30000/1001) is 8508 ms.
    @Test func roundsToNearestMillisecondTiesToEven() {
        #expect(TTMLTime(12 * 1001, over: 24000).milliseconds == 500)
        #expect(TTMLTime(255 * 1001, over: 30000).milliseconds == 8508)
        #expect(TTMLTime(3, over: 2000).milliseconds == 2)  // 1.5 ms: to the even 2
        #expect(TTMLTime(5, over: 2000).milliseconds == 2)  // 2.5 ms: to the even 2
        #expect(TTMLTime(7001, over: 10000).milliseconds == 700)  // 700.1 ms
        #expect(TTMLTime(7007, over: 10000).milliseconds == 701)  // 700.7 ms
        #expect(TTMLTime.indefinite.milliseconds == nil)
    }

    /// A time made from milliseconds is the fraction `milliseconds / 1000` in lowest terms, the
    /// same numerator and denominator the general constructor finds.
    @Test func millisecondsAreReducedAsFractionsAre() {
        var values = Array(Int64(-3000)...3000)
        values += [999_999, 1_000_000, 86_400_000, 3_600_000_000_000, 1 << 40, (1 << 53) - 1, 1 << 53, Int64.max, Int64.min + 1, Int64.min]
        values += [8, 16, 125, 250, 625, 40_000, 3125 * 1024]
        for milliseconds in values {
            let time = TTMLTime(milliseconds: milliseconds)
            let general = TTMLTime(milliseconds, over: 1000)
            #expect(time.numerator == general.numerator && time.denominator == general.denominator, "\(milliseconds)")
        }
    }

    /// A time whose denominator divides 1000 is a whole number of milliseconds, given exactly;
    /// others are rounded (``roundsToNearestMillisecondTiesToEven``).
    @Test(arguments: [Int64(1), 2, 4, 5, 8, 10, 20, 25, 40, 50, 100, 125, 200, 250, 500, 1000])
    func millisecondsAreExactWhereTheDenominatorDividesAThousand(denominator: Int64) {
        let scale = 1000 / denominator
        for numerator in [Int64(0), 1, -1, 7, -7, 123_456_789, -123_456_789, (1 << 53) / scale, -((1 << 53) / scale)] {
            #expect(TTMLTime(numerator, over: denominator).milliseconds == Int(numerator * scale), "\(numerator)/\(denominator)")
        }
        // Past 2^53 milliseconds, the product would pass 64 bits: rounded as any fraction is.
        #expect(TTMLTime(seconds: TTMLTime.latestHours * 3600).milliseconds == Int(TTMLTime.latestHours * 3_600_000))
        #expect(TTMLTime(seconds: Int64.max).milliseconds == Int.max)
        #expect(TTMLTime(seconds: -Int64.max).milliseconds == -Int.max)
    }

    /// Rounding keeps order: a cue never ends before it starts because of it.
    @Test func roundingIsMonotonic() {
        var previous = Int.min
        for numerator in 0..<5000 {
            let milliseconds = TTMLTime(Int64(numerator) * 1001, over: 30000).milliseconds!
            #expect(milliseconds >= previous)
            previous = milliseconds
        }
    }

    @Test func indefiniteIsLaterThanEverything() {
        #expect(TTMLTime(seconds: 1_000_000_000) < .indefinite)
        #expect(TTMLTime.indefinite + TTMLTime(seconds: 1) == .indefinite)
        #expect(min(TTMLTime.indefinite, TTMLTime(seconds: 2)) == TTMLTime(seconds: 2))
    }

    /// Denominators too large for 64 bits fall back to the nearest nanosecond.
    @Test func overflowFallsBackToNanoseconds() {
        let big = TTMLTime(1, over: 999_999_999_999_999_989)
        let other = TTMLTime(1, over: 999_999_999_999_999_967)
        let sum = big + other
        #expect(sum.milliseconds == 0)
        #expect(sum >= .zero)
    }

    @Test func comparesAcrossDenominators() {
        #expect(TTMLTime(1001, over: 30000) < TTMLTime(1, over: 29))
        #expect(TTMLTime(1, over: 30) < TTMLTime(1001, over: 30000))
    }

    /// Within reach means between the negative and the positive of ``TTMLTime/latest``, bounds
    /// included, as comparing the fractions says, also where the bound times a denominator is
    /// past 64 bits.
    @Test(arguments: [Int64(1), 3, 1000, 30000, 10_000_000, 999_999_999_999_999_989, Int64.max])
    func withinReachIsBetweenTheBounds(denominator: Int64) {
        let latest = TTMLTime.latestHours * 3600
        let (scaled, overflow) = latest.multipliedReportingOverflow(by: denominator)
        var numerators: [Int64] = [0, 1, -1, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, latest, -latest]
        if !overflow { numerators += [scaled, scaled - 1, scaled + 1, -scaled, -scaled + 1, -scaled - 1] }
        for numerator in numerators {
            let time = TTMLTime(numerator, over: denominator)
            let expected = time <= TTMLTime.latest && TTMLTime.zero - TTMLTime.latest <= time
            #expect(time.isWithinReach == expected, "\(numerator)/\(denominator)")
        }
        #expect(TTMLTime.indefinite.isWithinReach)
    }
}
