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

    /// The fixed-place path reads digit pairs from a table: every value of every field, against
    /// the digits worked out one by one.
    @Test func everyFieldValueIsWrittenAsItsDigits() {
        func digits(_ value: Int, _ count: Int) -> String {
            String(repeating: "0", count: max(0, count - String(value).count)) + String(value)
        }
        for hours in 0..<100 {
            for (minutes, seconds, millis) in [(hours % 60, (hours * 7) % 60, hours * 10 + 9), (59, 59, 999), (0, 0, 0)] {
                for millis in [millis % 1000, (millis * 13) % 1000, hours] {
                    let time = ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis
                    let expected = "\(digits(hours, 2)):\(digits(minutes, 2)):\(digits(seconds, 2)).\(digits(millis, 3))"
                    #expect(CueTimestamp.format(time) == expected)
                }
            }
        }
        for value in 0..<1000 {
            #expect(CueTimestamp.format(value).hasSuffix(".\(digits(value, 3))"))
            #expect(CueTimestamp.format(value % 60 * 1000, hours: .whenNeeded) == "00:\(digits(value % 60, 2)).000")
        }
    }
}
