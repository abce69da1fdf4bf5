import CueKit
import CueKitCast
import CueKitConversion
import CueKitSynthetic
import CueKitTestSupport
import Testing

/// From SubRip to WebVTT, cues the reader reads whole and the conversion writes as blocks
/// (``TrackConversion/Options/copiesCueBlocks``) give the output and the report of every cue built
/// and written: on generated tracks of every shape, and on random tracks with malformed blocks,
/// cues out of order, CR LF, markup and entities, with a window small enough to spill late cues,
/// a style and a timing edit.
struct WrittenSubRipCuesTests {
    /// The output and report of converting `file` with blocks written and with cues built, under
    /// each variant of the options; fails the test where they differ.
    static func expectSameOutput(_ file: [UInt8], _ label: String) throws -> Int {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        ExternalProcess.writeBytes(file, to: directory.file("in.srt"))
        let style = TextTrackStyle(foregroundColor: CastColor(red: 255, green: 255, blue: 0))
        var written = 0
        for variant in 0..<4 {
            var options = TrackConversion.Options()
            if variant == 1 {
                options.orderingWindowSize = 3
                options.orderingRunLength = 2
            }
            if variant == 2 { options.style = style }
            if variant == 3 { options.timing = TimingEdit(shift: 250) }
            var writing = options
            writing.copiesCueBlocks = true
            options.copiesCueBlocks = false
            let expected: (bytes: [UInt8], report: String, copied: Int)
            do {
                expected = try CopiedCueBlocksTests.convert(directory.file("in.srt"), directory.file("built.vtt"), options)
            } catch {
                // A file that cannot be read fails the same way either way.
                #expect(throws: Error.self) {
                    try CopiedCueBlocksTests.convert(directory.file("in.srt"), directory.file("written.vtt"), writing)
                }
                return 0
            }
            let actual = try CopiedCueBlocksTests.convert(directory.file("in.srt"), directory.file("written.vtt"), writing)
            #expect(actual.bytes == expected.bytes, "\(label), variant \(variant)")
            #expect(actual.report == expected.report, "\(label), variant \(variant)")
            #expect(expected.copied == 0)
            if variant == 3 { #expect(actual.copied == 0) }
            written += actual.copied
        }
        return written
    }

    @Test(arguments: TrackGenerator.Shape.allCases.filter { $0.supports(.subRip) })
    func generatedTracksOfEveryShape(shape: TrackGenerator.Shape) throws {
        var generator = TrackGenerator(options: .init(cues: 400, seed: 11, format: .subRip, shape: shape))
        var sink = MemorySink()
        try generator.write(to: &sink)
        #expect(try Self.expectSameOutput(sink.bytes, "\(shape)") > 0, "\(shape)")
    }

    @Test(arguments: 1...40)
    func randomTracks(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) &* 0x5851_F42D)
        _ = try Self.expectSameOutput(RandomSubRipTrack.bytes(&random), "seed \(seed)")
    }
}
