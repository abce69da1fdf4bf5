import CueKit
import CueKitCast
import CueKitConversion
import Testing

@Suite struct TrackPipelineTests {
    let events: [TrackEvent] = [
        .header(""),
        .stylesheet(CueStylesheet("::cue(.a) { color: red; }")),
        .cue(Cue(start: 500, end: 1_000, text: "gone before zero")),
        .diagnostic(Diagnostic(.warning, "x-test", at: nil, "passes through")),
        .cue(Cue(start: 2_000, end: 3_000, text: "<i> </i>")),
        .cue(Cue(start: 4_000, end: 5_000, text: "kept")),
    ]

    @Test func editsTimesLeavesOutWhatItMustAndCountsIt() throws {
        var pipeline = TrackPipeline(timing: TimingEdit(shift: -1_000), dropsEmptyCues: true)
        var out: [TrackEvent] = []
        for event in events { try pipeline.process(event) { out.append($0) } }
        try pipeline.finish { out.append($0) }
        #expect(out.count == 4)
        #expect(out.last == .cue(Cue(start: 3_000, end: 4_000, text: "kept")))
        #expect(pipeline.counts.droppedBeforeZero == 1)
        #expect(pipeline.counts.droppedEmpty == 1)
        #expect(pipeline.counts.cuesPassed == 1)
        #expect(out.contains { if case .diagnostic = $0 { true } else { false } })
    }

    @Test func aStyleGoesInAfterTheFilesOwnSheetsAndBeforeTheFirstCue() throws {
        let style = TextTrackStyle(foregroundColor: CastColor(red: 255, green: 255, blue: 0))
        var pipeline = TrackPipeline(style: style)
        var out: [TrackEvent] = []
        for event in events { try pipeline.process(event) { out.append($0) } }
        try pipeline.finish { out.append($0) }
        let sheets = out.indices.filter { if case .stylesheet = out[$0] { true } else { false } }
        let firstCue = try #require(out.firstIndex { if case .cue = $0 { true } else { false } })
        #expect(sheets.count == 2 && sheets.allSatisfy { $0 < firstCue })
        #expect(pipeline.stylesheet?.text.hasPrefix(CastStylesheet.marker) == true)
        #expect(pipeline.counts.cuesPassed == 3)
    }

    @Test func aTimeTooLateForATrackIsLeftOutAndTheFirstKept() throws {
        var pipeline = TrackPipeline(timing: TimingEdit(shift: TimingEdit.latest))
        var out: [TrackEvent] = []
        for event in events { try pipeline.process(event) { out.append($0) } }
        #expect(pipeline.counts.droppedPastTheLatestTime == 3)
        #expect(pipeline.counts.firstPastTheLatestTime?.text == "gone before zero")
        #expect(!out.contains { if case .cue = $0 { true } else { false } })
    }
}
