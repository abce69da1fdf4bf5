import CueKit
import CueKitTestSupport
import Testing

@Suite struct ByteScanningTests {
    /// The word-at-a-time search for `-->` finds the same first arrow as a search byte by byte,
    /// on 20,000 random lines of dashes, `>` and letters of every length up to 40 (arrows across
    /// words, in the tail, at the very start and end).
    @Test func firstArrowIsTheFirstArrowAByteByByteSearchFinds() {
        var random = SeededRandom(seed: 0xA770_0003)
        let alphabet: [UInt8] = Array("-->a- >".utf8)
        var found = 0
        for _ in 0..<20_000 {
            let line = (0..<Int(random.next() % 41)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            var expected: Int?
            for start in line.indices.dropLast(2) where line[start] == 0x2D && line[start + 1] == 0x2D && line[start + 2] == 0x3E {
                expected = start
                break
            }
            if expected != nil { found += 1 }
            let actual = line.withUnsafeBytes { ByteScanning.firstArrow(in: $0) }
            #expect(actual == expected, "\(String(decoding: line, as: UTF8.self))")
        }
        #expect(found > 2_000 && found < 18_000, "\(found) of 20,000 lines hold an arrow")
    }

    @Test func equalsComparesBytesWithAKeyword() {
        for (text, expected) in [("ruby", true), ("rub", false), ("rubyx", false), ("Ruby", false), ("", false)] {
            #expect(Array(text.utf8).withUnsafeBytes { ByteScanning.equals($0, "ruby") } == expected, "\(text)")
        }
        #expect([UInt8]().withUnsafeBytes { ByteScanning.equals($0, "") })
    }
}
