import CueKit
import Testing

@Suite struct JSONTextTests {
    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (1, "1"), (-1, "-1"), (1.5, "1.5"), (0.001, "0.001"), (3599.999, "3599.999"), (100, "100"),
        (0x1p64, "18446744073709552000"), (1e21, "1e+21"), (1e34, "1e+34"), (1.7976931348623157e308, "1.7976931348623157e+308"),
        (.leastNonzeroMagnitude, "5e-324"), (0.000001, "0.000001"), (0.0000001, "1e-7"), (1.25e-7, "1.25e-7"),
        (123_456_789_012_345_683_968, "123456789012345680000"),
        (4294967295, "4294967295"), (41.125, "41.125"), (.infinity, "Infinity"), (.nan, "NaN"),
    ])
    func formatsAsJavaScriptDoes(_ value: Double, _ expected: String) {
        #expect(JSONText.javaScriptNumber(value) == expected)
    }

    @Test(arguments: [(Double.nan, "null"), (.infinity, "null"), (-.infinity, "null"), (1e-7, "1e-7"), (3, "3")])
    func numbersAreWhatJSONStringifyWrites(_ value: Double, _ expected: String) {
        #expect(JSONText.number(value) == expected)
    }

    @Test func stringsEscapeQuotesBackslashesAndControlCharactersOnly() {
        #expect(JSONText.quoted("plain é 😀") == "\"plain é 😀\"")
        #expect(JSONText.quoted("a\"b\\c\nd\re\tf\u{08}g\u{0C}h\u{01}i\u{7F}") == #""a\"b\\c\nd\re\tf\bg\fh\u0001i\u007F""#)
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        JSONText.appendString("x", to: &bytes)
        #expect(bytes == Array("[\"x\"".utf8))
    }
}
