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

    /// `xml:id` values: the ASCII fast path says what the NCName rules (as the writer reads them) say.
    @Test func asciiIdentifiersAreJudgedAsTheNameRulesSay() {
        func reference(_ text: String) -> Bool {
            guard let first = text.unicodeScalars.first else { return false }
            func isStart(_ scalar: Unicode.Scalar) -> Bool {
                scalar == "_" || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || (scalar.value >= 0xC0 && scalar.value != 0xD7 && scalar.value != 0xF7)
            }
            guard isStart(first) else { return false }
            return text.unicodeScalars.allSatisfy { isStart($0) || $0 == "-" || $0 == "." || ("0"..."9").contains($0) || $0 == "\u{B7}" }
        }
        var samples = [""]
        for first in 0..<128 {
            for second in 0..<128 { samples.append(String(decoding: [UInt8(first), UInt8(second)], as: UTF8.self)) }
        }
        samples += ["c10", "_x", "a-b.c9", "9a", "a b", "é1", "aé", "a·b", "x\u{D7}"]
        for sample in samples {
            #expect(TTMLDocumentBuilder.isXMLName(sample) == reference(sample), "\(sample.debugDescription)")
        }
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

    /// The lowest flagged byte of a word is the first that needs attention, whatever follows it:
    /// the writer copies the bytes before it and reads on from just after it.
    @Test func theLowestFlaggedByteIsTheFirstThatNeedsAttention() {
        let bytes: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x26, 0x27, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F, 0x61, 0xBF, 0xEE, 0xEF, 0xF0, 0xFF]
        func needs(_ byte: UInt8) -> Bool { byte < 0x20 || [0x26, 0x3C, 0x3E, 0xEF].contains(byte) }
        var random = SeededRandom(seed: 9)
        for _ in 0..<20000 {
            let word = (0..<8).map { _ in bytes.randomElement(using: &random)! }
            let value = word.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
            let mask = TTMLDocumentBuilder.attentionMask(value)
            let first = word.firstIndex(where: needs)
            #expect((mask == 0 ? nil : mask.trailingZeroBitCount / 8) == first, "\(word)")
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
