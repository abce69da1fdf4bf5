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

    @Test func linesMayEndInCRLF() throws {
        #expect(try QCShotChanges.parse("# cuts\r\n12.5\r\n\r\n00:00:10:12\r\n", frameRate: .film) == [10_511, 12_500])
        #expect(throws: QCShotChangeError(line: 2, text: "soon")) { try QCShotChanges.parse("1\r\nsoon\r\n") }
    }

    @Test func aLineThatIsNoTimeIsLocated() {
        #expect(throws: QCShotChangeError(line: 2, text: "soon")) { try QCShotChanges.parse("1\nsoon\n") }
        // Frames past the nominal rate are not a timecode.
        #expect(throws: QCShotChangeError(line: 1, text: "00:00:01:24")) { try QCShotChanges.parse("00:00:01:24") }
    }
}

extension QCShotChangesTests {
    @Test func readsFFmpegShowinfoLines() {
        let output = """
            [Parsed_showinfo_1 @ 0x55] config in time_base: 1/1000, frame_rate: 24/1
            [Parsed_showinfo_1 @ 0x55] n:   0 pts:   2000 pts_time:2       duration: 42 fmt:yuv420p
            frame=  168 fps=0.0 q=-0.0 size=N/A time=00:00:07.00
            [Parsed_showinfo_1 @ 0x55] n:   1 pts:   5042 pts_time:5.042   duration: 42 fmt:yuv420p
            """
        #expect(QCShotChanges.parse(ffmpegShowinfo: output) == [2000, 5042])
    }
}
