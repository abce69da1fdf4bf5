import CueKit
import CueKitWebVTT
import Testing

@Suite struct WebVTTTimestampMapTests {
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
