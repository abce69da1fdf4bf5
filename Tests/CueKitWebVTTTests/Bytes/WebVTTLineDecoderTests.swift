import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

@Suite struct WebVTTLineDecoderTests {
    struct DecodedLine: Equatable, CustomStringConvertible {
        var number: Int
        var text: String
        var repairs: WebVTTLineDecoder.Repairs
        var description: String { "\(number): \(text.debugDescription)\(repairs.isEmpty ? "" : " \(repairs)")" }
    }

    /// Decodes `bytes` cut into chunks of the given sizes (the rest as one chunk).
    func decode(_ bytes: [UInt8], chunks sizes: [Int] = [], maximumLineLength: Int = 1 << 20) throws -> [DecodedLine] {
        var decoder = WebVTTLineDecoder(maximumLineLength: maximumLineLength)
        var lines: [DecodedLine] = []
        let collect: (WebVTTLineDecoder.Line) -> Void = { line in
            lines.append(DecodedLine(number: line.number, text: String(decoding: line.bytes, as: UTF8.self), repairs: line.repairs))
        }
        var offset = 0
        for size in sizes + [bytes.count] where offset < bytes.count {
            let end = min(bytes.count, offset + size)
            try bytes[offset..<end].withUnsafeBytes { try decoder.decode($0, collect) }
            offset = end
        }
        try decoder.finish(collect)
        return lines
    }

    func texts(_ bytes: [UInt8], chunks: [Int] = []) throws -> [String] {
        try decode(bytes, chunks: chunks).map(\.text)
    }

    @Test func crLfAndCrLfEachEndALine() throws {
        #expect(try texts(Array("a\nb\rc\r\nd".utf8)) == ["a", "b", "c", "d"])
        #expect(try texts(Array("a\n\r\nb\r\r".utf8)) == ["a", "", "b", ""])
        #expect(try texts(Array("\n".utf8)) == [""])
        #expect(try texts(Array("".utf8)) == [])
    }

    @Test func crAtTheEndOfAChunkAndLfAtTheStartOfTheNextAreOneTerminator() throws {
        let bytes = Array("one\r\ntwo\r\n\r\nthree".utf8)
        for cut in 0...bytes.count {
            #expect(try texts(bytes, chunks: [cut]) == ["one", "two", "", "three"], "cut at \(cut)")
        }
        #expect(try texts(bytes, chunks: Array(repeating: 1, count: bytes.count)) == ["one", "two", "", "three"])
        // A CR ending the input is a terminator on its own.
        #expect(try texts(Array("a\r".utf8), chunks: [2]) == ["a"])
    }

    @Test func skipsOneByteOrderMarkEvenWhenSplit() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("WEBVTT\nx".utf8)
        for cut in 0...4 {
            #expect(try texts(bytes, chunks: [cut]) == ["WEBVTT", "x"], "cut at \(cut)")
        }
        let two: [UInt8] = [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("W".utf8)
        #expect(try texts(two, chunks: [1, 1, 1, 1]) == ["\u{FEFF}W"])
        // The start of a mark that is not one is text (invalid UTF-8 on its own).
        #expect(try texts([0xEF, 0xBB, 0x0A], chunks: [1]) == ["\u{FFFD}"])
        #expect(try texts([0xEF]) == ["\u{FFFD}"])
    }

    @Test func replacesNullAndInvalidUTF8AndSaysWhere() throws {
        let bytes: [UInt8] = Array("é a".utf8) + [0x00, 0x62, 0xC3, 0x28, 0xF0, 0x9F, 0x98] + Array("\nok".utf8)
        let lines = try decode(bytes)
        #expect(lines[0].text == "é a\u{FFFD}b\u{FFFD}(\u{FFFD}")
        #expect(
            lines[0].repairs == WebVTTLineDecoder.Repairs(nullCharacters: 1, invalidSequences: 2, firstNullColumn: 4, firstInvalidColumn: 6)
        )
        #expect(lines[1] == DecodedLine(number: 2, text: "ok", repairs: .none))
    }

    @Test func replacesInvalidSequencesAsTheEncodingStandardDoes() throws {
        // Maximal subparts: each becomes one U+FFFD (Encoding Standard, UTF-8 decoder).
        let cases: [([UInt8], String)] = [
            ([0xC0, 0x80], "\u{FFFD}\u{FFFD}"),
            ([0xE0, 0x80, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),
            ([0xE0, 0xA0], "\u{FFFD}"),
            ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),
            ([0xF4, 0x90, 0x80, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
            ([0xF0, 0x9F, 0x98, 0x80], "😀"),
            ([0xF0, 0x9F, 0x41], "\u{FFFD}A"),
            ([0xFF, 0xFE], "\u{FFFD}\u{FFFD}"),
        ]
        for (bytes, expected) in cases {
            #expect(try texts(bytes) == [expected], "\(bytes)")
            #expect(try texts(bytes, chunks: [1, 1, 1]) == [expected], "\(bytes) in single bytes")
        }
    }

    @Test func numbersLines() throws {
        let lines = try decode(Array("a\r\n\rb\nc".utf8), chunks: [2, 1])
        #expect(lines.map(\.number) == [1, 2, 3, 4])
    }

    @Test func refusesALineLongerThanTheLimit() throws {
        let bytes = Array("short\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 40) + Array("\nend".utf8)
        for chunks in [[], [3, 3, 3], Array(repeating: 1, count: 60)] {
            let error = try #require(throws: ReadError.self) { try decode(bytes, chunks: chunks, maximumLineLength: 39) }
            #expect(error.diagnostic.code == .vttLineTooLong)
            #expect(error.diagnostic.location == SourceLocation(line: 2, column: 1))
        }
        #expect(try texts(bytes).count == 3)
    }
}
