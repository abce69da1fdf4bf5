import CueKitQC
import Testing

@Suite struct FrameRateTests {
    @Test func parsesFractionsDecimalsAndWholeRates() {
        #expect(FrameRate(parsing: "24000/1001") == .film)
        #expect(FrameRate(parsing: "23.976") == .film)
        #expect(FrameRate(parsing: "29.97") == FrameRate(numerator: 30000, denominator: 1001))
        #expect(FrameRate(parsing: "25") == FrameRate(numerator: 25))
        #expect(FrameRate(parsing: "0") == nil)
        #expect(FrameRate(parsing: "25/0") == nil)
        #expect(FrameRate(parsing: "fast") == nil)
    }

    @Test func nominalRateAndDescription() {
        #expect(FrameRate.film.nominal == 24)
        #expect(FrameRate.film.description == "23.976")
        #expect(FrameRate(numerator: 30000, denominator: 1001)!.description == "29.97")
        #expect(FrameRate(numerator: 25)!.description == "25")
    }

    @Test func framesAndTheirStartsAgree() {
        for rate in [FrameRate.film, FrameRate(numerator: 25)!, FrameRate(numerator: 30000, denominator: 1001)!] {
            for frame in 0..<500 {
                let start = rate.start(of: frame)
                #expect(rate.frame(at: start) == frame, "\(rate) frame \(frame)")
                #expect(rate.frame(at: start - 1) == frame - 1, "\(rate) frame \(frame)")
            }
        }
    }

    @Test func millisecondsForFramesIsTheFewestThatLastThatLong() {
        let rate = FrameRate.film
        let two = rate.milliseconds(forFrames: 2)
        #expect(two == 84)
        #expect(!rate.isShorter(two, thanFrames: 2))
        #expect(rate.isShorter(two - 1, thanFrames: 2))
    }
}
