import CueKit
import CueKitHLS
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// The segmenter formats what segments start with once and copies it: each segment must still be
/// what a writer of its own writes (header and map, the regions its cues name, the style sheets,
/// its cues), on random tracks whose regions and style sheets come before and between cues.
@Suite struct HLSSegmentPreambleTests {
    /// What a segment of `cues` is, written by a writer of its own, and what that writer changed.
    static func expected(
        _ cues: [Cue], regions: [CueRegion], stylesheets: [CueStylesheet], header: String, options: WebVTTWriterOptions
    ) throws -> (text: String, diagnostics: [Diagnostic]) {
        var writerOptions = options
        writerOptions.notes = .drop
        var writer = WebVTTWriter(to: MemorySink(), options: writerOptions)
        try writer.write(.header(header))
        if !cues.isEmpty {
            let named = Set(cues.compactMap(\.settings.region))
            for region in regions where named.contains(region.id) { try writer.write(.region(region)) }
            for sheet in stylesheets { try writer.write(.stylesheet(sheet)) }
            for cue in cues { try writer.write(.cue(cue)) }
        }
        try writer.finish()
        return (writer.sink.string, writer.diagnostics)
    }

    @Test(arguments: 0..<40)
    func everySegmentIsWhatAWriterOfItsOwnWrites(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let regionIDs = ["left", "right", "top"]
        var events: [TrackEvent] = [.header("")]
        var time = 0
        for index in 0..<Int.random(in: 5...60, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                var region = CueRegion(id: regionIDs.randomElement(using: &random)!)
                region.width = Double(Int.random(in: 10...100, using: &random))
                events.append(.region(region))
            case 1:
                events.append(.stylesheet(CueStylesheet("::cue(.c\(index)) { color: lime; }")))
            default:
                time += Int.random(in: 0...4_000, using: &random)
                var settings = CueSettings()
                if Bool.random(using: &random) { settings.region = regionIDs.randomElement(using: &random)! }
                let text = Bool.random(using: &random) ? "cue \(index)" : "cue\n\n\(index) --> with what the writer changes"
                events.append(.cue(Cue(start: time, end: time + Int.random(in: 1...9_000, using: &random), settings: settings, text: text)))
            }
        }
        var options = HLSSegmentOptions(segmentDuration: Int.random(in: 500...6_000, using: &random))
        options.segmentsInOneFile = Bool.random(using: &random)
        var segmenter = HLSSegmenter(options: options, to: HLSMemoryDestination())
        for event in events { try segmenter.take(event) }
        try segmenter.finish()

        // The same segments, each written alone from what had come when it was written.
        var expected = ""
        // Each segment's changes, each kept once (the first 100 segments' worth or so).
        var expectedDiagnostics: [Diagnostic] = []
        var regions: [CueRegion] = []
        var stylesheets: [CueStylesheet] = []
        var cues: [Cue] = []
        let timeline = HLSSegmentTimeline(segmentDuration: options.segmentDuration)
        let header = "\n" + options.timestampMap.headerLine
        var segment = 0
        func close(upTo last: Int) throws {
            while segment < last {
                let end = timeline.start(ofSegment: segment + 1)
                let inSegment = cues.filter { $0.start < end && HLSSegmentTimeline.effectiveEnd(of: $0) > timeline.start(ofSegment: segment) }
                let alone = try Self.expected(
                    inSegment, regions: regions, stylesheets: stylesheets, header: header, options: options.webVTT)
                expected += alone.text
                if expectedDiagnostics.count < 100 {
                    for diagnostic in alone.diagnostics where !expectedDiagnostics.contains(diagnostic) {
                        expectedDiagnostics.append(diagnostic)
                    }
                }
                segment += 1
            }
        }
        var trackEnd = 0
        for event in events {
            switch event {
            case .region(let region):
                regions.removeAll { $0.id == region.id }
                regions.append(region)
            case .stylesheet(let sheet):
                stylesheets.append(sheet)
            case .cue(let cue):
                try close(upTo: timeline.segment(containing: cue.start))
                cues.append(cue)
                trackEnd = max(trackEnd, HLSSegmentTimeline.effectiveEnd(of: cue))
            default:
                break
            }
        }
        try close(upTo: timeline.segmentCount(coveringUpTo: trackEnd))
        let written = segmenter.destination.segments.map(\.text).joined()
        #expect(written == expected, "seed \(seed)")
        #expect(segmenter.diagnostics == expectedDiagnostics, "seed \(seed)")
        #expect(segmenter.counts.segments == segment)
    }
}
