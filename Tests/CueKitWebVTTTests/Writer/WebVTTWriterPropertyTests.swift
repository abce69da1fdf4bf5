import CueKit
import CueKitTestSupport
import CueKitWebVTT
import PropertyBased
import Testing

/// Random tracks through the writer and back through the reader, thousands per run.
@Suite struct WebVTTWriterPropertyTests {
    static let runs = 2_500

    static func write(_ track: Track, _ options: WebVTTWriterOptions) throws -> (bytes: [UInt8], diagnostics: [Diagnostic]) {
        var writer = WebVTTWriter(to: MemorySink(), options: options)
        try writer.write(track)
        return (writer.sink.bytes, writer.diagnostics)
    }

    /// Errors a reader reports for what a track itself holds: its cue texts' own, and cues that do
    /// not end after they start.
    static func contentErrors(of track: Track) -> [DiagnosticCode] {
        var codes: [DiagnosticCode] = []
        for cue in track.cues {
            if cue.end <= cue.start { codes.append(.vttEndNotAfterStart) }
            var text = cue.text
            let diagnostics = text.withUTF8 {
                CueText.diagnostics(forUTF8: UnsafeRawBufferPointer($0), context: CueText.Context(cueStart: cue.start, cueEnd: cue.end))
            }
            codes += diagnostics.filter { $0.severity == .error }.map(\.code)
        }
        return codes.sorted()
    }

    /// A track WebVTT can carry comes back exactly, with every cue text tree, and the writer has
    /// nothing to report.
    @Test func expressibleTracksComeBackExactly() async {
        await propertyCheck(
            count: Self.runs, input: RandomTrack.generator(.expressible), Gen<WebVTTWriterOptions.LineEnding>.case,
            Gen<CueTimestamp.HoursStyle>.case
        ) { sample, lineEnding, hours in
            let options = WebVTTWriterOptions(lineEnding: lineEnding, hours: hours)
            let written = try Self.write(sample.track, options)
            let text = String(decoding: written.bytes, as: UTF8.self)
            #expect(written.diagnostics.isEmpty, "\(written.diagnostics)\n\(text)")
            let reread = try WebVTTReader.read(bytes: written.bytes)
            #expect(reread.track.firstDifference(from: sample.track) == nil, "\(text)")
            // Raw cue text may carry its own errors (`<` alone); the writer adds none.
            let errors = reread.diagnostics.filter { $0.severity == .error }
            #expect(errors.map(\.code).sorted() == Self.contentErrors(of: reread.track), "\(errors)\n\(text)")
            for (index, tree) in sample.trees.enumerated() {
                guard let tree, index < reread.track.cues.count else { continue }
                let cue = reread.track.cues[index]
                #expect(cue.nodes() == tree, "cue \(index): \(cue.text.debugDescription)")
                #expect(Self.contentErrors(of: Track(cues: [cue])).isEmpty, "cue \(index): \(cue.text.debugDescription)")
            }
            #expect(try Self.write(reread.track, options).bytes == written.bytes, "\(text)")
        }
    }

    /// Any track at all: the output is read as WebVTT with no error its content does not explain,
    /// writing what was read gives the same bytes, and whatever did not come back as it was is in
    /// the writer's diagnostics.
    @Test func anyTrackGivesValidOutputAndNoSilentChange() async {
        await propertyCheck(
            count: Self.runs, input: RandomTrack.generator(.hostile), Gen<WebVTTWriterOptions.LineEnding>.case,
            Gen<CueTimestamp.HoursStyle>.case
        ) { sample, lineEnding, hours in
            let options = WebVTTWriterOptions(lineEnding: lineEnding, hours: hours)
            let written = try Self.write(sample.track, options)
            let text = String(decoding: written.bytes, as: UTF8.self)
            let reread = try WebVTTReader.read(bytes: written.bytes)
            let errors = reread.diagnostics.filter { $0.severity == .error }
            #expect(errors.map(\.code).sorted() == Self.contentErrors(of: reread.track), "\(errors)\n\(text)")
            #expect(try Self.write(reread.track, options).bytes == written.bytes, "\(text)")
            if written.diagnostics.isEmpty {
                #expect(reread.track.firstDifference(from: Self.inEventOrder(sample.track)) == nil, "changed silently:\n\(text)")
            }
        }
    }

    /// The track as ``Track/events`` hands it out: comments ordered by the cue they precede, and
    /// anchored to a cue that exists.
    static func inEventOrder(_ track: Track) -> Track {
        var result = track
        result.notes = track.notes.enumerated()
            .sorted { ($0.element.cueIndex, $0.offset) < ($1.element.cueIndex, $1.offset) }
            .map { CueNote($0.element.text, cueIndex: min(max(0, $0.element.cueIndex), track.cues.count)) }
        return result
    }
}
