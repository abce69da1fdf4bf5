import CCueKitBytes
import CueKitTestSupport
import Testing

/// The vector scans of a SubRip block's text lines (`cuekit_scan_subrip_text`, AVX2 here; and
/// SSE2) against the byte-by-byte reference, on random blocks of every length around the 64-byte
/// steps, with LF and CR LF, lone CRs, markup, arrows, ASS breaks, NULs and bytes beyond ASCII at
/// every offset; and the reference against blocks whose shape is known.
@Suite struct SubRipTextScanTests {
    /// The fields of a shape, comparable.
    static func fields(_ shape: CueKitSubRipTextShape) -> [Int] {
        [
            shape.textEnd, shape.blockEnd, shape.lineCount, shape.longestLine, shape.carriageReturns,
            Int(shape.hasStrayCarriageReturn), Int(shape.hasMarkup), Int(shape.hasNonASCII), Int(shape.hasNUL), Int(shape.hasArrow),
            Int(shape.hasASSBreak), Int(shape.lineStartToCheck),
        ]
    }

    /// What `scan` finds in `bytes` from `start`: nil when the text does not end.
    static func scan(
        _ bytes: [UInt8], from start: Int,
        _ scan: (UnsafePointer<UInt8>, Int, Int, UnsafeMutablePointer<CueKitSubRipTextShape>) -> Bool
    ) -> [Int]? {
        var shape = CueKitSubRipTextShape()
        let found = bytes.withUnsafeBufferPointer { scan($0.baseAddress!, start, $0.count, &shape) }
        return found ? fields(shape) : nil
    }

    @Test func theVectorScansAgreeWithTheReference() {
        var random = SeededRandom(seed: 0x5B7)
        let alphabet: [UInt8] = Array("<>&{\\Nn- 0x\r\n\n\n\n\n\n".utf8) + [0x00, 0x09, 0x1A, 0xEF, 0xC3, 0xA9]
        var ended = 0
        for round in 0..<30_000 {
            let count = Int.random(in: 1...300, using: &random)
            let density = Int.random(in: 1...12, using: &random)
            // An empty byte at the end, so that a scan never reads past what it is given.
            var bytes = (0..<count).map { _ in
                Int.random(in: 0..<density, using: &random) == 0 ? alphabet.randomElement(using: &random)! : UInt8(ascii: "w")
            }
            bytes.append(0)
            let start = Int.random(in: 0..<count, using: &random)
            let given = Array(bytes[..<count])
            let reference = Self.scan(given, from: start) { cuekit_scan_subrip_text_portable($0, $1, $2, $3) }
            let vector = Self.scan(given, from: start) { cuekit_scan_subrip_text($0, $1, $2, $3) }
            let sse2 = Self.scan(given, from: start) { cuekit_scan_subrip_text_sse2($0, $1, $2, $3) }
            #expect(vector == reference && sse2 == reference, "round \(round): \(count) bytes from \(start)")
            if reference != nil { ended += 1 }
        }
        // Both outcomes came often.
        #expect(ended > 1_000 && ended < 29_000, "\(ended) texts ended")
    }

    @Test func findsTheShapeOfATwoLineText() throws {
        let text = Array("<i>caf\u{E9}</i>\r\nx-->y \\N\r\n\r\n2\n".utf8)
        let shape = try #require(Self.scan(text, from: 0) { cuekit_scan_subrip_text_portable($0, $1, $2, $3) })
        // Text end (before the second line's CR LF), block end (after the empty line), two
        // lines, the longest 12 bytes, one CR in the text, none lone; markup, beyond ASCII, no
        // NUL, an arrow, an ASS break, no start to look at.
        #expect(shape == [22, 26, 2, 12, 1, 0, 1, 1, 0, 1, 1, 0])
        let numbered = Array("one\n2 lines\n\n".utf8)
        #expect(Self.scan(numbered, from: 0) { cuekit_scan_subrip_text($0, $1, $2, $3) } == [11, 13, 2, 7, 0, 0, 0, 0, 0, 0, 0, 1])
        // No empty line: the text does not end in these bytes.
        #expect(Self.scan(Array("one\ntwo\n".utf8), from: 0) { cuekit_scan_subrip_text($0, $1, $2, $3) } == nil)
    }
}
