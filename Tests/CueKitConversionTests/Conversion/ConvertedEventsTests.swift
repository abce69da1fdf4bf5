import CueKit
import CueKitCast
import CueKitConversion
import CueKitTestSupport
import Testing

/// `TrackConversion.stream(convertedInto:)`: the events of the converted track, as a writer that is
/// not one file (HLS segments) takes them.
@Suite struct ConvertedEventsTests {
    struct Recorder: TrackEventConsumer {
        var events: [TrackEvent] = []
        mutating func take(_ event: TrackEvent) throws { events.append(event) }
    }

    @Test func cuesComeInStartTimeOrderEvenPastTheWindowAndTheStyleBeforeThem() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        // Fifty cues in reverse order: with a window of 4, most are late, spilled and merged back.
        var srt = ""
        for index in 0..<50 {
            let start = (50 - index) * 1_000
            srt += "\(index + 1)\n00:00:\(start / 1000 < 10 ? "0" : "")\(start / 1000),000 --> 00:01:40,000\ncue \(50 - index)\n\n"
        }
        scratch.write(srt, to: "reversed.srt")
        var options = TrackConversion.Options(
            format: .subRip, style: TextTrackStyle(foregroundColor: CastColor(red: 255, green: 255, blue: 0)))
        options.orderingWindowSize = 4
        options.orderingRunLength = 8
        let conversion = TrackConversion(source: try TrackSource(path: scratch.file("reversed.srt")), options: options)
        var recorder = Recorder()
        var found: [ConversionDiagnostic] = []
        let outcome = try conversion.stream(convertedInto: &recorder) { found.append($0) }
        let starts = recorder.events.compactMap { event -> Int? in if case .cue(let cue) = event { cue.start } else { nil } }
        #expect(starts == (1...50).map { $0 * 1_000 })
        #expect(outcome.lateCues > 0)
        #expect(found.map(\.diagnostic.code) == [.conversionReordered])
        let firstCue = try #require(recorder.events.firstIndex { if case .cue = $0 { true } else { false } })
        #expect(recorder.events[..<firstCue].contains { if case .stylesheet = $0 { true } else { false } })
        #expect(!recorder.events.contains { if case .diagnostic = $0 { true } else { false } })
        // Nothing is left in the temporary folder.
        #expect(!TemporaryFiles.paths.contains { $0.contains("cuekit-events") })
    }
}
