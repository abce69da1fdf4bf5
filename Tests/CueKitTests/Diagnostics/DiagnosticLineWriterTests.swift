@testable import CueKit
import CueKitTestSupport
import Testing

/// The byte writer of compiler lines says what the whole line escaped says, on every part that
/// may hold a control character, a multi-byte character or a number of any size.
@Suite struct DiagnosticLineWriterTests {
    /// The line as a string is made: the parts joined, then the whole escaped.
    static func expected(_ diagnostic: Diagnostic, file: String?) -> String {
        var prefix = ""
        if let file { prefix += file + ":" }
        if let location = diagnostic.location { prefix += "\(location.line):\(location.column):" }
        if !prefix.isEmpty { prefix += " " }
        return "\(prefix)\(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code.rawValue)]".escapingControlCharacters
    }

    static let pieces = ["a", "ü", "字幕", "\t", "\n", "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}", "\u{1B}", " ", "Â", "¿", "-->", "😀"]

    static func text(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    @Test func writesWhatTheEscapedLineSays() {
        var random = SeededRandom(seed: 0xD1A6)
        let numbers = [0, 1, 9, 10, 99, 100, 12_345, Int(Int32.max), Int.max, -1, -40]
        for _ in 0..<3_000 {
            let location =
                Bool.random(using: &random)
                ? SourceLocation(line: numbers.randomElement(using: &random)!, column: numbers.randomElement(using: &random)!) : nil
            let diagnostic = Diagnostic(
                Diagnostic.Severity.allCases.randomElement(using: &random)!, DiagnosticCode(rawValue: "x-" + Self.text(&random)), at: location,
                Self.text(&random))
            let file: String? = Bool.random(using: &random) ? "dir/" + Self.text(&random) + ".vtt" : nil
            var bytes: [UInt8] = Array("kept".utf8)
            DiagnosticLineWriter(file: file).append(diagnostic, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "kept" + Self.expected(diagnostic, file: file), "\(diagnostic)")
            #expect(diagnostic.formatted(file: file) == Self.expected(diagnostic, file: file))
        }
    }

    /// The word-at-a-time test agrees with a byte-by-byte one on every byte value at every place.
    @Test func theWordTestFindsEveryControlByteAndNoOther() {
        for value in 0...255 {
            for length in 1...19 {
                for place in 0..<length {
                    var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    text[place] = UInt8(value)
                    let expected = value < 0x20 || value == 0x7F || value == 0xC2
                    #expect(text.withUnsafeBytes { DiagnosticLineWriter.mayHoldControl($0) } == expected, "byte \(value) at \(place) of \(length)")
                }
            }
        }
    }
}
