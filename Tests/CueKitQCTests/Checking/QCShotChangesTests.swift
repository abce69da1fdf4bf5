import CueKitQC
import Testing

@Suite struct QCShotChangesTests {
    @Test func readsSecondsClockTimesAndTimecodes() throws {
        let text = """
            # shot changes
            12.5
            00:01:02.250

            01:02.5
            00:00:10:12
            """
        let times = try QCShotChanges.parse(text, frameRate: .film)
        // 10 s and 12 frames counted at 24 (the nominal rate of 23.976): frame 252, which starts
        // at 252 × 1001/24 ms.
        #expect(times == [10_511, 12_500, 62_250, 62_500])
    }

    @Test func aLineThatIsNoTimeIsLocated() {
        #expect(throws: QCShotChangeError(line: 2, text: "soon")) { try QCShotChanges.parse("1\nsoon\n") }
        // Frames past the nominal rate are not a timecode.
        #expect(throws: QCShotChangeError(line: 1, text: "00:00:01:24")) { try QCShotChanges.parse("00:00:01:24") }
    }
}
