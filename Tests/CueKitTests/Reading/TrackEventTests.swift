import CueKit
import Testing

@Suite struct TrackEventTests {
    let track = Track(
        header: "- Episode 1",
        stylesheets: [CueStylesheet("::cue { color: red }")],
        regions: [CueRegion(id: "top")],
        cues: [
            Cue(id: "1", start: 0, end: 1_000, text: "one"),
            Cue(id: "2", start: 1_000, end: 2_000, text: "two"),
        ],
        notes: [CueNote("after", cueIndex: 2), CueNote("between", cueIndex: 1), CueNote("top", cueIndex: 0)]
    )

    @Test func ordersEventsAsWebVTTWritesBlocks() {
        #expect(
            track.events == [
                .header("- Episode 1"),
                .note(CueNote("top", cueIndex: 0)),
                .region(CueRegion(id: "top")),
                .stylesheet(CueStylesheet("::cue { color: red }")),
                .cue(track.cues[0]),
                .note(CueNote("between", cueIndex: 1)),
                .cue(track.cues[1]),
                .note(CueNote("after", cueIndex: 2)),
            ]
        )
    }

    @Test func collectorRebuildsTheTrack() {
        var collector = TrackCollector()
        let warning = Diagnostic(.warning, "test-code", at: SourceLocation(line: 3, column: 1), "a warning")
        for event in track.events + [.diagnostic(warning)] { collector.collect(event) }
        var expected = track
        expected.notes = [CueNote("top", cueIndex: 0), CueNote("between", cueIndex: 1), CueNote("after", cueIndex: 2)]
        #expect(collector.result.track == expected)
        #expect(collector.result.diagnostics == [warning])
        #expect(!collector.result.hasErrors)
    }
}
