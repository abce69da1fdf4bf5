import CueKit
import CueKitTestSupport
import Foundation
import Testing

/// `cuekit segment` against webvtt-py 0.6.0's `segment()` (pinned in `.ci/setup`), both read back
/// by webvtt-py: where its fixed options allow (whole seconds, one MPEGTS), every segment holds
/// the same cues; where the two differ, the test says which is right.
@Suite(
    .enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"),
    .enabled(if: PythonPeers.hasWebVTTPy, "webvtt-py is not installed: run .ci/setup (it installs webvtt-py 0.6.0 into .venv)"),
    .tags(.peers), .skippableByTag)
struct SegmentWebVTTPyPeerTests {
    /// Each segment's cues as webvtt-py reads them: `[start, end, text]`.
    typealias Segments = [[[String]]]

    /// Segments `track` both ways into `scratch` with `seconds`-second segments.
    func segmentBothWays(_ track: String, seconds: Int, in scratch: TemporaryDirectory) throws -> (webVTTPy: Segments, cueKit: Segments) {
        scratch.write(track, to: "in.vtt")
        let theirs = ExternalProcess.run(
            PythonPeers.python,
            [PythonPeers.script("webvtt_segments.py"), "segment", scratch.file("in.vtt"), scratch.file("py"), String(seconds), "900000"])
        #expect(theirs.status == 0, "\(theirs.error)")
        let ours = try CommandLineRun.cuekit([
            "segment", scratch.file("in.vtt"), "-o", scratch.file("ck"), "--segment-duration", String(seconds), "--mpegts", "900000",
        ])
        #expect(ours.status == 0, "\(ours)")
        let read = ExternalProcess.run(PythonPeers.python, [PythonPeers.script("webvtt_segments.py"), "read", scratch.file("ck/subs.m3u8")])
        #expect(read.status == 0, "\(read.error)")
        let decode = { (bytes: [UInt8]) in try JSONDecoder().decode(Segments.self, from: Data(bytes)) }
        return (try decode(theirs.standardOutput), try decode(read.standardOutput))
    }

    @Test func everySegmentHoldsTheSameCues() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        // Cues of 0.3 to 9 s, overlapping at times, none starting or ending on a second.
        var random = SeededRandom(seed: 42)
        var track = "WEBVTT\n\n"
        var start = 500
        for index in 0..<300 {
            start += 1 + Int.random(in: 0..<3_000, using: &random)
            var end = start + 300 + Int.random(in: 0..<8_700, using: &random)
            if start % 1_000 == 0 { start += 1 }
            if end % 1_000 == 0 { end += 1 }
            track += "\(CueTimestamp.format(start)) --> \(CueTimestamp.format(end))\ncue \(index)\n\n"
        }
        for seconds in [2, 4, 10] {
            let (theirs, ours) = try segmentBothWays(track, seconds: seconds, in: scratch)
            #expect(ours.count == theirs.count, "\(seconds) s: \(ours.count) segments against webvtt-py's \(theirs.count)")
            for (index, (mine, other)) in zip(ours, theirs).enumerated() {
                #expect(mine.map { $0.joined(separator: " ") }.sorted() == other.map { $0.joined(separator: " ") }.sorted(), "\(seconds) s, segment \(index)")
            }
            #expect(ours.contains { $0.count > 1 }, "the track fills its segments")
        }
    }

    /// A cue that ends where a segment starts is not shown in it (a cue is shown while its start
    /// ≤ t < its end, WebVTT section 6.1 and the HTML text track rules): CueKit leaves it out of the
    /// segment; webvtt-py puts it in (it takes the segment of the end time), and adds a segment
    /// after the track for a last cue that ends on a boundary. CueKit is right: a player that
    /// starts at 4 s shows nothing until the next cue.
    @Test func aCueEndingOnABoundaryIsNotInTheNextSegment() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let track = "WEBVTT\n\n00:00:02.000 --> 00:00:04.000\nends at 4 s\n\n00:00:05.000 --> 00:00:08.000\nends at 8 s\n"
        let (theirs, ours) = try segmentBothWays(track, seconds: 4, in: scratch)
        #expect(ours.map { $0.map { $0[2] } } == [["ends at 4 s"], ["ends at 8 s"]])
        #expect(theirs.map { $0.map { $0[2] } } == [["ends at 4 s"], ["ends at 4 s", "ends at 8 s"], ["ends at 8 s"]])
    }
}
