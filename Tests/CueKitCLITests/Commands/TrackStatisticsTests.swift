import CueKit
import CueKitSynthetic
import CueKitTestSupport
import CueKitWebVTT
import Testing

@testable import CueKitCLI

/// Statistics counted from the WebVTT reader's own parse of each cue text (streamed, on the same
/// thread) are those counted from a parse of their own (cues from a track read before).
struct TrackStatisticsTests {
    @Test func theReadersParseCountsTheSame() throws {
        var generator = TrackGenerator(options: .init(cues: 3000, seed: 3, format: .webVTT))
        var sink = MemorySink()
        try generator.write(to: &sink)
        let bytes = sink.bytes
        let cues = try WebVTTReader.read(bytes: bytes).track.cues

        var separate = TrackStatistics(maximumCharactersPerSecond: 12, maximumLineLength: 30)
        for cue in cues { separate.add(cue) }

        let cache = CueTextParseCache.current
        var streamed = TrackStatistics(maximumCharactersPerSecond: 12, maximumLineLength: 30)
        let usesBefore = cache.uses
        var reader = WebVTTReader()
        func take(_ event: TrackEvent) {
            if case .cue(let cue) = event { streamed.add(cue) }
        }
        try bytes.withUnsafeBytes { try reader.feed($0, to: take) }
        try reader.finish(to: take)

        #expect(cache.uses - usesBefore > 1000, "the reader's parse was used")
        #expect(streamed.text(name: "t", format: "WebVTT") == separate.text(name: "t", format: "WebVTT"))
        #expect(streamed.fastCount > 0 && streamed.longLineCount > 0)
    }
}
