import CueKit
import Testing

@Suite struct TrackEventTests {
    let track = Track(
        header: "- Episode 1",
        stylesheets: [Stylesheet("::cue { color: red }")],
        regions: [Region(id: "top")],
        cues: [
            Cue(id: "1", start: 0, end: 1_000, text: "one"),
            Cue(id: "2", start: 1_000, end: 2_000, text: "two"),
        ],
        notes: [Note("after", cueIndex: 2), Note("between", cueIndex: 1), Note("top", cueIndex: 0)]
    )

    @Test func ordersEventsAsWebVTTWritesBlocks() {
        #expect(
            track.events == [
                .header("- Episode 1"),
                .note(Note("top", cueIndex: 0)),
                .region(Region(id: "top")),
                .stylesheet(Stylesheet("::cue { color: red }")),
                .cue(track.cues[0]),
                .note(Note("between", cueIndex: 1)),
                .cue(track.cues[1]),
                .note(Note("after", cueIndex: 2)),
            ]
        )
    }

    @Test func collectorRebuildsTheTrack() {
        var collector = TrackCollector()
        let warning = Diagnostic(.warning, "test-code", at: SourceLocation(line: 3, column: 1), "a warning")
        for event in track.events + [.diagnostic(warning)] { collector.collect(event) }
        var expected = track
        expected.notes = [Note("top", cueIndex: 0), Note("between", cueIndex: 1), Note("after", cueIndex: 2)]
        #expect(collector.result.track == expected)
        #expect(collector.result.diagnostics == [warning])
        #expect(!collector.result.hasErrors)
    }
}
