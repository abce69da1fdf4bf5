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

    /// Random texts of every length, control bytes few or many, with bytes beyond ASCII around
    /// them: the answer is a byte-by-byte one's.
    @Test func theWordTestAgreesWithABytewiseOneOnRandomTexts() {
        var random = SeededRandom(seed: 0xC7A1)
        let rare: [UInt8] = [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0xC2, 0xC3, 0x80, 0xA0, 0x20, 0x7E]
        for round in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &random)
            let density = Int.random(in: 1...60, using: &random)
            let text = (0..<length).map { _ in
                Int.random(in: 0..<density, using: &random) == 0 ? rare.randomElement(using: &random)! : UInt8.random(in: 0x21...0x7E, using: &random)
            }
            let expected = text.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
            #expect(text.withUnsafeBytes { DiagnosticLineWriter.mayHoldControl($0) } == expected, "round \(round): \(text)")
        }
    }
}
