import CueKit
import CueKitTestSupport
import Testing

@testable import CueKitTTML

/// Text in a paragraph: the writer's word-at-a-time escaping against a plain reading of the rules.
@Suite struct TTMLTextEscapingTests {
    /// The rules, one scalar at a time.
    static func reference(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\n": result += "<br/>"
            case "\t", "\r": result += " "
            case "\u{00}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func written(_ text: String) -> String {
        var builder = TTMLDocumentBuilder(options: TTMLWriterOptions())
        builder.appendText(text)
        return String(decoding: builder.line.bytes, as: UTF8.self)
    }

    @Test func everyByteAtEveryPlaceOfAWord() {
        let safe: [UInt8] = Array("aZ9?é".utf8)
        for byte in UInt8.min...UInt8.max {
            let expected = byte < 0x20 || [0x26, 0x3C, 0x3E, 0xEF].contains(byte)
            for place in 0..<8 {
                var bytes = (0..<8).map { safe[$0 % safe.count] }
                bytes[place] = byte
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                #expect(TTMLDocumentBuilder.needsAttention(word) == expected, "byte \(byte) at \(place)")
            }
        }
    }

    @Test func randomTextIsEscapedAsTheRulesSay() {
        let pieces = ["a", "word ", "é", "漢字", "🎵", "&", "<", ">", "\n", "\t", "\r", "\u{1}", "\u{1F}", "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{EFFF}", "ï", "&amp;", "12345678"]
        var random = SeededRandom(seed: 5)
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...24, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(Self.written(text) == Self.reference(text), "\(text.debugDescription)")
        }
    }
}
