import Testing

@testable import CueKitTTML

/// TTML2 section 12.3.1 time expressions, read exactly.
struct TTMLTimeExpressionTests {
    static func time(_ text: String, _ parameters: TTMLTimingParameters = TTMLTimingParameters()) -> TTMLTime? {
        guard case .success(let parsed) = TTMLTimeExpression.parse(Substring(text).utf8, parameters: parameters) else { return nil }
        return parsed.time
    }

    static func failure(_ text: String, _ parameters: TTMLTimingParameters = TTMLTimingParameters()) -> String? {
        guard case .failure(let failure) = TTMLTimeExpression.parse(Substring(text).utf8, parameters: parameters) else { return nil }
        return failure.reason
    }

    static var ntsc: TTMLTimingParameters {
        var parameters = TTMLTimingParameters()
        parameters.frameRate = 30
        parameters.frameRateSpecified = true
        parameters.frameRateMultiplier = (1000, 1001)
        return parameters
    }

    @Test func offsetTimes() {
        #expect(Self.time("1.5s") == TTMLTime(3, over: 2))
        #expect(Self.time("0.001h") == TTMLTime(18, over: 5))
        #expect(Self.time("0.25m") == TTMLTime(seconds: 15))
        #expect(Self.time("250ms") == TTMLTime(1, over: 4))
        #expect(Self.time("30f") == TTMLTime(seconds: 1))  // frame rate 30 by default
        #expect(Self.time("7t") == TTMLTime(seconds: 7))  // tick rate 1 without a frame rate
        #expect(Self.time("30f", Self.ntsc) == TTMLTime(1001, over: 1000))
    }

    /// TTML2 section 7.2.10: with a frame rate and no tick rate, ticks are sub-frames.
    @Test func tickRateDefaultsToSubFrames() {
        var parameters = TTMLTimingParameters()
        parameters.frameRate = 25
        parameters.frameRateSpecified = true
        parameters.subFrameRate = 4
        #expect(Self.time("250t", parameters) == TTMLTime(5, over: 2))
        parameters.specifiedTickRate = 10_000_000
        #expect(Self.time("12345678t", parameters) == TTMLTime(12_345_678, over: 10_000_000))
    }

    /// The hint about SMPTE's `;` comes only when a `;` is there; a `,` is explained as a decimal
    /// comma; other trailing characters get neither.
    @Test func failuresSayWhatIsWrongWithTheClockTime() {
        #expect(Self.failure("00:00:01;15")?.contains("SMPTE drop-frame notation") == true)
        #expect(Self.failure("00:00:01,500") == "a ',' is a decimal comma, which TTML does not read: fractions of a second follow a '.' (00:00:01.500)")
        #expect(Self.failure("00:00:01.5x") == "unexpected characters follow the clock time")
        #expect(Self.failure("00:00:01.5x")?.contains("SMPTE") == false)
    }

    @Test func clockTimesInTheMediaTimeBase() {
        #expect(Self.time("00:00:01.5") == TTMLTime(3, over: 2))
        #expect(Self.time("100:00:00") == TTMLTime(seconds: 360_000))
        #expect(Self.time("00:00:10:15") == TTMLTime(21, over: 2))
        #expect(Self.time("00:00:10:15", Self.ntsc) == TTMLTime(seconds: 10) + TTMLTime(15 * 1001, over: 30000))
        var subFrames = Self.ntsc
        subFrames.subFrameRate = 2
        #expect(Self.time("00:00:19:05.1", subFrames) == TTMLTime(seconds: 19) + TTMLTime(11 * 1001, over: 60000))
    }

    /// `HH:MM:SS.mmm` is read in one step; a fourth fraction digit, which changes no value, takes the
    /// general path: both give the same exact time, in the media and clock time bases, and the
    /// step leaves what it does not read (a leap second, SMPTE time codes) to that path.
    @Test func theCommonClockFormReadsAsTheGeneralPathDoes() {
        var random = SystemRandomNumberGenerator()
        var clock = TTMLTimingParameters()
        clock.timeBase = .clock
        for _ in 0..<2000 {
            func padded(_ value: Int, _ width: Int) -> String {
                let digits = String(value)
                return String(repeating: "0", count: width - digits.count) + digits
            }
            let text =
                "\(padded(Int.random(in: 0...99, using: &random), 2)):\(padded(Int.random(in: 0...59, using: &random), 2)):"
                + "\(padded(Int.random(in: 0...59, using: &random), 2)).\(padded(Int.random(in: 0...999, using: &random), 3))"
            for parameters in [TTMLTimingParameters(), clock] {
                let common = Self.time(text, parameters)
                #expect(common != nil && common == Self.time(text + "0", parameters), "\(text)")
            }
        }
        #expect(Self.time("01:02:03.456") == TTMLTime(seconds: 3723) + TTMLTime(456, over: 1000))
        #expect(Self.time("00:00:60.000", clock) == TTMLTime(seconds: 60))
        #expect(Self.failure("00:00:60.000") != nil)
        #expect(Self.failure("00:60:00.000") == "minutes must be 00 to 59")
        #expect(Self.time("0a:00:01.000") == nil)
    }

    /// SMPTE time codes are frame labels; drop-frame skips labels 00 and 01 each minute but every
    /// tenth (TTML2 section 7.2.4).
    @Test func smpteDropFrame() {
        var parameters = Self.ntsc
        parameters.timeBase = .smpte
        parameters.dropMode = .dropNTSC
        // 00:05:02;07 is frame 302 × 30 + 7 − 2 × 5 = 9057.
        #expect(Self.time("00:05:02:07", parameters) == TTMLTime(9057 * 1001, over: 30000))
        // 00:10:00;00 (minute 10 drops nothing): 600 × 30 − 2 × 9 = 17982.
        #expect(Self.time("00:10:00:00", parameters) == TTMLTime(17982 * 1001, over: 30000))
        parameters.dropMode = .nonDrop
        #expect(Self.time("00:05:02:07", parameters) == TTMLTime(9067 * 1001, over: 30000))
    }

    @Test func invalidExpressions() {
        #expect(Self.failure("1:2:3") != nil)
        #expect(Self.failure("-5s") != nil)
        #expect(Self.failure("1e1s") != nil)
        #expect(Self.failure("16 s") == "' s' is not a metric (h, m, s, ms, f or t)")
        #expect(Self.failure("25.s") == "a '.' must be followed by digits")
        #expect(Self.failure("00:00:60.000") != nil)
        #expect(Self.failure("00:00:10:30") == "frames must be below the frame rate (30)")
        #expect(Self.failure("00:00:12;10") != nil)
        #expect(Self.failure("") == "it is empty")
        #expect(Self.failure("10") == "an offset time needs a metric (h, m, s, ms, f or t)")
        #expect(Self.failure("wallclock(2019-01-01T00:00:05)")?.hasPrefix("wallclock times") == true)
        #expect(Self.failure("99999999999999999999s") == "the number is too large")
    }

    /// Seconds of 60 are a leap second, allowed only in the clock time base; frames never are.
    @Test func clockTimeBase() {
        var parameters = TTMLTimingParameters()
        parameters.timeBase = .clock
        #expect(Self.time("23:59:60", parameters) == TTMLTime(seconds: 86400))
        #expect(Self.failure("13:00:00:05", parameters) == "frames cannot be used in the clock time base")
    }
}
