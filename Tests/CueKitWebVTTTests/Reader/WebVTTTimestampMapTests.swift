import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

@Suite struct WebVTTTimestampMapTests {
    /// `LOCAL` as section 4.2 spells a timestamp, split at its colons: the reference the one-pass
    /// reading is held to.
    static func referenceMilliseconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        func number(_ part: Substring, count: ClosedRange<Int>) -> Int? {
            count.contains(part.count) && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) ? Int(part) : nil
        }
        guard parts.count == 2 || parts.count == 3, let last = parts.last, last.count == 6, Array(last)[2] == "." else { return nil }
        guard let seconds = number(last.prefix(2), count: 2...2), seconds < 60, let fraction = number(last.suffix(3), count: 3...3),
            let minutes = number(Substring(parts[parts.count - 2]), count: 2...2), minutes < 60,
            let hours = parts.count == 3 ? number(Substring(parts[0]), count: 2...10) : 0
        else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + fraction
    }

    @Test func localTimestampsReadAsTheirSpelling() throws {
        var random = SeededRandom(seed: 9)
        let alphabet = Array("0123456789:.x5")
        var read = 0
        for round in 0..<20_000 {
            var text: String
            if round % 2 == 0 {
                // Near-valid: a valid timestamp with one character changed, dropped or added.
                let hours = String(Int.random(in: 0...99_999, using: &random))
                text = "\(hours.count < 2 ? "0" + hours : hours):\(Int.random(in: 10...69, using: &random)):\(Int.random(in: 10...69, using: &random)).\(Int.random(in: 100...999, using: &random))"
                if round % 4 == 0 { text = String(text.dropFirst(Int.random(in: 0...3, using: &random))) }
                if round % 8 == 2 { text.append(alphabet.randomElement(using: &random)!) }
            } else {
                text = String((0..<Int.random(in: 0...14, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            }
            let map = try? WebVTTTimestampMap.parse("X-TIMESTAMP-MAP=MPEGTS:0,LOCAL:\(text)".utf8)
            #expect(map?.local == Self.referenceMilliseconds(text), "\(text)")
            if map != nil { read += 1 }
        }
        #expect(read > 2_000)
    }

    @Test func readsBothOrdersAndShortTimestamps() throws {
        let map = try WebVTTTimestampMap.parse("X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:01.500".utf8)
        #expect(map == WebVTTTimestampMap(mpegTimestamp: 900_000, local: 1_500))
        #expect(
            try WebVTTTimestampMap.parse("X-TIMESTAMP-MAP=LOCAL:01:02.003,MPEGTS:0".utf8)
                == WebVTTTimestampMap(mpegTimestamp: 0, local: 62_003))
        #expect(map.headerLine == "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:01.500")
        #expect(try WebVTTTimestampMap.parse(map.headerLine.utf8) == map)
    }

    @Test(arguments: [
        ("X-TIMESTAMP-MAP=MPEGTS:abc,LOCAL:00:00:00.000", 24),
        ("X-TIMESTAMP-MAP=MPEGTS:1", 17),
        ("X-TIMESTAMP-MAP=LOCAL:00:00:00.000", 17),
        ("X-TIMESTAMP-MAP=MPEGTS:1,LOCAL:0:00.000", 32),
        ("X-TIMESTAMP-MAP=MPEGTS:1,LOCAL:00:00:00.000,OFFSET:2", 45),
        ("X-TIMESTAMP-MAP=MPEGTS:1,MPEGTS:2,LOCAL:00:00:00.000", 26),
    ])
    func aMalformedMapSaysWhere(line: String, column: Int) {
        #expect(throws: WebVTTTimestampMap.Malformation.self) { try WebVTTTimestampMap.parse(line.utf8) }
        do {
            _ = try WebVTTTimestampMap.parse(line.utf8)
        } catch {
            #expect(error.column == column, "\(line): \(error.reason)")
        }
    }
}
