import CueKitTestSupport
import Testing

@testable import CueKitTTML

/// Lists separated by XML white space (`style="a b"`, `tts:extent="80% 20%"`): split on the four
/// white space code points only, every other character kept whole, empty pieces dropped.
@Suite struct TTMLStyleValuesTests {
    @Test(arguments: [
        ("a b", .max, ["a", "b"]),
        ("  a\t\tb\n c\r", .max, ["a", "b", "c"]),
        ("", .max, []),
        (" \t\n\r ", .max, []),
        ("s1 s2 s3 s4", 2, ["s1", "s2"]),
        ("s1 s2", 1, ["s1"]),
        ("80% 20%", .max, ["80%", "20%"]),
        ("é\u{A0}字 😀", .max, ["é\u{A0}字", "😀"]),
        // A combining mark after white space is not white space: the space still separates.
        ("a \u{301}b", .max, ["a", "\u{301}b"]),
        ("a\r\nb", .max, ["a", "b"]),
    ] as [(String, Int, [String])])
    func componentsAreSeparatedByXMLWhiteSpace(_ text: String, _ limit: Int, _ expected: [String]) {
        #expect(TTMLStyleValues.components(Substring(text), atMost: limit).map(String.init) == expected)
    }

    /// On random lists, the pieces are those of splitting the Unicode scalars.
    @Test func componentsSplitScalarsNotCharacters() {
        let pieces = ["a", "é", "\u{301}", " ", "\t", "\n", "\r", "\r\n", "字", "\u{A0}", "x1"]
        var generator = SeededRandom(seed: 0x577E_0001)
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let expected = text.unicodeScalars.split(whereSeparator: { [" ", "\t", "\n", "\r"].contains($0) }).map { String(String.UnicodeScalarView($0)) }
            #expect(TTMLStyleValues.components(Substring(text)).map(String.init) == expected, "\(text.debugDescription)")
        }
    }

    /// XML white space (XML 1.0 production S) is the space, tab, line feed and carriage return;
    /// no other byte.
    @Test func xmlWhiteSpaceIsFourBytes() {
        for byte in UInt8.min...UInt8.max {
            #expect(TTMLStyleValues.isXMLWhiteSpace(byte) == [0x20, 0x09, 0x0A, 0x0D].contains(byte), "\(byte)")
        }
    }
}
