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

    /// The word-at-a-time counts equal counts taken byte by byte, on random bytes weighted
    /// towards line feeds, NULs, continuation and lead bytes (and runs of each across words), and
    /// the scalars up to each line's end from every start.
    @Test func countsEqualByteByByteCounts() {
        var random = SeededRandom(seed: 0xA770_0004)
        let alphabet: [UInt8] = [0x0A, 0x0A, 0x00, 0x80, 0xBF, 0xC3, 0xE5, 0x7F, 0x41, 0x09, 0xFF, 0x40]
        for round in 0..<20_000 {
            // Some long.
            let length = round % 100 == 0 ? Int(random.next() % 3_000) : Int(random.next() % 70)
            let bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let lineFeeds = bytes.filter { $0 == 0x0A }.count
            let characters = bytes.filter { $0 & 0xC0 != 0x80 && $0 != 0 }.count
            #expect(bytes.withUnsafeBytes { ByteScanning.count(of: 0x0A, in: $0) } == lineFeeds)
            #expect(bytes.withUnsafeBytes { ByteScanning.count(of: 0x00, in: $0) } == bytes.filter { $0 == 0 }.count)
            #expect(bytes.withUnsafeBytes { ByteScanning.characterStartCount(in: $0) } == characters)
            let continuations = bytes.filter { $0 & 0xC0 == 0x80 }.count
            #expect(bytes.withUnsafeBytes { ByteScanning.continuationByteCount(in: $0) } == continuations)
            // Line by line, from every start.
            for from in 0...bytes.count {
                let end = bytes[from...].firstIndex(of: 0x0A) ?? bytes.count
                let scalars = bytes[from..<end].filter { $0 & 0xC0 != 0x80 }.count
                let found = bytes.withUnsafeBytes { ByteScanning.scalarsToLineEnd(in: $0, from: from) }
                #expect(found.scalars == scalars && found.end == end, "\(bytes) from \(from)")
            }
        }
    }
}
