import CueKit
import CueKitSubRip
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// SubRip read into the model and written as WebVTT gives a WebVTT file that reads back as the
/// same cues and colour rules, whole or streamed in two passes.
@Suite struct SubRipToWebVTTTests {
    static let fixtures = TestPaths.files(in: TestPaths.fixtures + "/subrip", suffixes: [".srt"])

    @Test func everyFixtureConvertsToWebVTTThatReadsBackTheSame() throws {
        #expect(Self.fixtures.count >= 20)
        for path in Self.fixtures {
            var reader = SubRipReader()
            let track = try reader.read(TestPaths.bytes(path)).track
            var writer = WebVTTWriter(to: MemorySink())
            try writer.write(track)
            // Only what the cues carry is reported again: a cue that does not end after it starts.
            #expect(writer.diagnostics.filter { $0.code != "vtt-write-end-not-after-start" }.isEmpty, "\(path): \(writer.diagnostics)")
            let back = try WebVTTReader.read(bytes: writer.sink.bytes)
            #expect(back.track.cues == track.cues, "\(path)")
            #expect(back.track.stylesheets == track.stylesheets, "\(path)")
            let errors = back.diagnostics.filter { $0.severity == .error && $0.code != "vtt-end-not-after-start" }
            #expect(errors.isEmpty, "\(path): \(errors)")
        }
    }

    /// The streaming recipe of ``SubRipReader``'s documentation: a first pass for the colour rules,
    /// then every other event, gives the bytes of writing the whole track.
    @Test func twoStreamingPassesWriteWhatTheWholeTrackWrites() throws {
        for path in Self.fixtures {
            let bytes = try TestPaths.bytes(path)
            var whole = WebVTTWriter(to: MemorySink())
            var reader = SubRipReader()
            try whole.write(reader.read(bytes).track)

            var streamed = WebVTTWriter(to: MemorySink())
            var secondPass = SubRipReader(prescan: SubRipReader.prescan(bytes: bytes))
            let handler: (TrackEvent) throws -> Void = { event in
                if case .diagnostic = event { return }
                try streamed.write(event)
            }
            try secondPass.feed(bytes, to: handler)
            try secondPass.finish(to: handler)
            try streamed.finish()
            #expect(streamed.sink.string == whole.sink.string, "\(path)")
            #expect(streamed.diagnostics == whole.diagnostics, "\(path)")
        }
    }
}
