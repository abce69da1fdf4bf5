import CueKit
import Testing

@testable import CueKitTTML

/// A paragraph's direction comes from its first strong character, as WebVTT lays cues out. The
/// writer answers common scripts from their ranges; the answer must be the properties' answer.
@Suite struct TTMLTextDirectionTests {
    /// Every scalar below U+20000, alone and after markup and neutral characters.
    @Test func rangesAgreeWithUnicodePropertiesOnEveryScalar() {
        var disagreements: [String] = []
        for value in UInt32(0x80)..<0x20000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = TTMLDocumentBuilder.directionByProperties(of: scalar)
            if TTMLDocumentBuilder.direction(of: scalar) != expected {
                disagreements.append(String(value, radix: 16))
                continue
            }
            let text = "<v Bob>1. \"" + String(scalar) + "x"
            let rightToLeft = TTMLDocumentBuilder.startsRightToLeft(text)
            if rightToLeft != (expected == .rightToLeft) { disagreements.append("text with U+\(String(value, radix: 16))") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    @Test(arguments: [
        ("שלום", true), ("مرحبا <b>bold</b>", true), ("<i>hello</i> שלום", false), ("- 42 ¿qué?", false),
        ("가요 네", false), ("«مرحبا»", true), ("", false), ("123 ...", false), ("<c.x>𐤀</c>", true),
    ])
    func firstStrongCharacterDecides(text: String, rightToLeft: Bool) {
        #expect(TTMLDocumentBuilder.startsRightToLeft(text) == rightToLeft, "\(text)")
    }
}
