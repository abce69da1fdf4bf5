import CueKit
import Testing

@Suite struct TimestampTests {
    @Test(arguments: [
        (0, CueTimestamp.HoursStyle.always, "00:00:00.000"),
        (0, .whenNeeded, "00:00.000"),
        (61_001, .whenNeeded, "01:01.001"),
        (3_599_999, .always, "00:59:59.999"),
        (3_600_000, .whenNeeded, "01:00:00.000"),
        (359_999_999, .always, "99:59:59.999"),
        (360_000_000, .whenNeeded, "100:00:00.000"),
        (360_000_000_000, .always, "100000:00:00.000"),
        (Int.max, .always, "2562047788015:12:55.807"),
        (-5, .always, "00:00:00.000"),
    ])
    func formats(milliseconds: Int, style: CueTimestamp.HoursStyle, expected: String) {
        #expect(CueTimestamp.format(milliseconds, hours: style) == expected)
    }

    @Test func appendsWithAnotherSeparator() {
        var bytes: [UInt8] = []
        CueTimestamp.append(3_723_004, separator: UInt8(ascii: ","), to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "01:02:03,004")
    }
}
