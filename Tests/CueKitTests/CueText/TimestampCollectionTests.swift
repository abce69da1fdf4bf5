import CueKit
import CueKitTestSupport
import Testing

@Suite struct TimestampCollectionTests {
    func collect(_ text: String) -> (Result<CueTimestamp.Collected, CueTimestamp.CollectFailure>, end: Int) {
        var position = 0
        let result = Array(text.utf8).withUnsafeBytes { CueTimestamp.collect(from: $0, at: &position) }
        return (result, position)
    }

    @Test(arguments: [
        ("00:01.500", 1_500, 0, 9),
        ("01:02:03.004", 3_723_004, 2, 12),
        ("1:00:00.000", 3_600_000, 1, 11),
        ("100:00:00.000 -->", 360_000_000, 3, 13),
        ("59:59.999x", 3_599_999, 0, 9),
        ("00:00:00.000", 0, 2, 12),
    ])
    func collects(_ text: String, milliseconds: Int, hourDigits: Int, end: Int) throws {
        let (result, position) = collect(text)
        #expect(try result.get() == CueTimestamp.Collected(milliseconds: milliseconds, hourDigits: hourDigits))
        #expect(position == end)
    }

    @Test(arguments: [
        ("", CueTimestamp.CollectFailure.Reason.expectedDigit, 0),
        ("x0:00.000", .expectedDigit, 0),
        ("000:00.000", .expectedSeparator(UInt8(ascii: ":")), 6),
        ("00:0.000", .wrongDigitCount, 3),
        ("00:00.00", .wrongDigitCount, 6),
        ("00:00,000", .expectedSeparator(UInt8(ascii: ".")), 5),
        ("00:60.000", .componentAbove59, 3),
        ("00:60:00.000", .componentAbove59, 3),
        ("00:00:60.000", .componentAbove59, 6),
        ("99999999999999999999:00:00.000", .outOfRange, 0),
        ("9999999999999:00:00.000", .outOfRange, 0),
    ])
    func fails(_ text: String, reason: CueTimestamp.CollectFailure.Reason, offset: Int) {
        let (result, position) = collect(text)
        #expect(throws: CueTimestamp.CollectFailure(reason, at: offset)) { try result.get() }
        #expect(position == 0, "a failure does not move the position")
    }

    /// The common forms' fast path against the algorithm's steps, on strings of the characters a
    /// timestamp is made of (and a few it is not).
    @Test func theCommonFormsAgreeWithTheAlgorithm() {
        var random = SeededRandom(seed: 0x7135)
        let pieces = ["0", "1", "5", "6", "9", ":", ".", "00", "59", "60", "99", "00:", "12:", "59.", ":00", ".000", ".999", "x", " ", "/", ";", "-"]
        let forms = ["00:00:00.000", "99:59:59.999", "00:00.000", "59:59.999", "01:23:45.678"]
        var fast = 0
        for _ in 0..<20_000 {
            var text = ""
            if Bool.random(using: &random) {
                // A common form with one character changed, or none.
                var bytes = Array(forms.randomElement(using: &random)!.utf8)
                if Bool.random(using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = Array("0123456789:./;x".utf8).randomElement(using: &random)!
                }
                text = String(decoding: bytes, as: UTF8.self)
            }
            for _ in 0..<Int.random(in: 0...6, using: &random) { text += pieces.randomElement(using: &random)! }
            let bytes = Array(text.utf8)
            let offset = bytes.isEmpty ? 0 : Int.random(in: 0...min(2, bytes.count), using: &random)
            var fastPosition = offset, stepPosition = offset
            let byCommonForm = bytes.withUnsafeBytes { CueTimestamp.collect(from: $0, at: &fastPosition) }
            let bySteps = bytes.withUnsafeBytes { CueTimestamp.collectStepByStep(from: $0, at: &stepPosition) }
            #expect(byCommonForm == bySteps, "\(text.debugDescription) at \(offset)")
            #expect(fastPosition == stepPosition, "\(text.debugDescription) at \(offset)")
            var probe = offset
            if bytes.withUnsafeBytes({ CueTimestamp.collectCommonForm(from: $0, at: &probe) }) != nil { fast += 1 }
        }
        #expect(fast > 2_000)
    }

    @Test func secondsAreExactlyWhatWebVTTComputes() {
        #expect(CueTimestamp.seconds(3_599_999) == 3599.999)
        #expect(CueTimestamp.seconds(3_599_999) == 3599 + 999.0 / 1000)
        #expect(CueTimestamp.seconds(1) == 0.001)
        #expect(CueTimestamp.seconds(0).sign == .plus)
        #expect(CueTimestamp.seconds(360_000_000) == 360_000)
    }
}
