import CueKit
import CueKitConversion
import CueKitHLS
import CueKitTestSupport
import CueKitWebVTT
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Segmenting streams from the conversion's first pass (`TrackConversion.stream(directlyInto:)`):
/// the segments, the playlist, the writers' diagnostics and every report must be those of the
/// conversion written to a file and read back, on random files with cues out of order, regions,
/// style sheets, notes and edits; and cues too late for the ordering window must end in the
/// read-back, with each input diagnostic reported once.
@Suite struct HLSSegmentationDirectStreamTests {
    /// `text` with some neighbouring cue blocks swapped, so that cues come out of order.
    static func swappingCues(_ text: String, _ random: inout SeededRandom) -> String {
        var blocks = text.components(separatedBy: "\n\n")
        let cueIndices = blocks.indices.filter { index in
            let block = blocks[index]
            return block.contains("-->") && !block.hasPrefix("NOTE") && !block.hasPrefix("WEBVTT")
        }
        guard cueIndices.count > 2 else { return text }
        for _ in 0..<max(1, cueIndices.count / 5) {
            let at = Int.random(in: 0..<(cueIndices.count - 1), using: &random)
            blocks.swapAt(cueIndices[at], cueIndices[at + 1])
        }
        return blocks.joined(separator: "\n\n")
    }

    static func randomConversionOptions(_ random: inout SeededRandom) -> TrackConversion.Options {
        var options = TrackConversion.Options()
        if Int.random(in: 0..<4, using: &random) == 0 { options.timing = TimingEdit(shift: 1_500) }
        // A small window sometimes, so that cues come too late for it.
        if Int.random(in: 0..<3, using: &random) == 0 { options.orderingWindowSize = 2 }
        return options
    }

    @Test(arguments: 0..<60)
    func theFirstPassMakesTheSegmentsAFileReadBackMakes(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(5_000 + seed))
        var (text, _) = HLSSegmenterBlockPathTests.randomFile(&random)
        if Bool.random(using: &random) { text = Self.swappingCues(text, &random) }
        let options = HLSSegmenterBlockPathTests.randomOptions(&random)
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(text, to: "track.vtt")
        let conversion = TrackConversion(
            source: try TrackSource(path: folder.file("track.vtt")), options: Self.randomConversionOptions(&random))

        var readBack = HLSSegmenter(options: options, to: HLSMemoryDestination())
        var readBackReports: [ConversionDiagnostic] = []
        let readBackOutcome = try conversion.stream(convertedInto: &readBack) { readBackReports.append($0) }
        try readBack.finish()

        var direct = HLSSegmenter(options: options, to: HLSMemoryDestination())
        var directReports: [ConversionDiagnostic] = []
        #expect(conversion.streamsDirectly)
        switch try conversion.stream(directlyInto: &direct, report: { directReports.append($0) }) {
        case .streamed(let outcome):
            try direct.finish()
            #expect(readBackOutcome.lateCues == 0, "seed \(seed)")
            #expect(direct.destination == readBack.destination, "seed \(seed)")
            #expect(direct.diagnostics == readBack.diagnostics, "seed \(seed)")
            #expect(direct.counts == readBack.counts, "seed \(seed)")
            #expect(directReports == readBackReports, "seed \(seed)")
            #expect(outcome.reordered == readBackOutcome.reordered && outcome.cuesCopied == readBackOutcome.cuesCopied, "seed \(seed)")
            #expect(outcome.inputErrors == readBackOutcome.inputErrors && outcome.edits == readBackOutcome.edits, "seed \(seed)")
            if WebVTTWriter<MemorySink>.copiesCueBlocks(with: options.webVTT), readBackOutcome.cuesCopied > 3 {
                // The blocks the pass copied went to the segmenter as they were.
                #expect(direct.blocksCopied > 0, "seed \(seed)")
            }
        case .needsSecondPass(let reported):
            #expect(readBackOutcome.lateCues > 0, "seed \(seed)")
            // What was reported is the input's, as the read-back reported it first.
            #expect(directReports.count == reported, "seed \(seed)")
            #expect(Array(readBackReports.prefix(reported)) == directReports, "seed \(seed)")
            #expect(directReports.allSatisfy { $0.origin == .input })
        }
    }

    /// A cue block that names a region goes to the segmenter as it is, like any other, and the
    /// segments its cue overlaps carry that region's definition, and no other's.
    @Test func blocksInARegionAreTakenAsTheyAreAndTheirSegmentsDefineIt() throws {
        var text = "WEBVTT\n\nREGION\nid:left\nwidth:40%\n\nREGION\nid:top\nlines:2\n\n"
        let regions = ["", " region:left", " region:top align:start", ""]
        for index in 0..<40 {
            text += HLSSegmenterBlockPathTests.timestamp(index * 1_000, fullForm: true) + " --> "
            text += HLSSegmenterBlockPathTests.timestamp(index * 1_000 + 900, fullForm: true) + regions[index % 4] + "\ncue \(index)\n\n"
        }
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(text, to: "track.vtt")
        let conversion = TrackConversion(source: try TrackSource(path: folder.file("track.vtt")))
        let options = HLSSegmentOptions(segmentDuration: 2_000)

        var direct = HLSSegmenter(options: options, to: HLSMemoryDestination())
        guard case .streamed(let outcome) = try conversion.stream(directlyInto: &direct) else {
            Issue.record("no cue is late")
            return
        }
        try direct.finish()
        var readBack = HLSSegmenter(options: options, to: HLSMemoryDestination())
        try conversion.stream(convertedInto: &readBack)
        try readBack.finish()

        // Every block the pass copied went to the segmenter as it was, half of them in a region,
        // but the first in a region: the reader hands on the header's regions with the first cue
        // it reads, so that block is read.
        #expect(outcome.cuesCopied == 40)
        #expect(direct.blocksCopied == 39)
        #expect(direct.destination == readBack.destination)
        // Segment n holds cues 2n and 2n + 1: one names `left` when n is even, `top` when odd.
        for (index, segment) in direct.destination.segments.enumerated() {
            #expect(segment.text.contains("id:left") == index.isMultiple(of: 2), "segment \(index): \(segment.text)")
            #expect(segment.text.contains("id:top") == !index.isMultiple(of: 2), "segment \(index): \(segment.text)")
        }
    }

    /// Through `HLSSegmentation`, as every door segments: a track whose cues come too late for
    /// the window is segmented again from a file, into the same folder a read-back writes, and its
    /// input diagnostics are reported once.
    @Test func lateCuesAreSegmentedAgainAndReportedOnce() throws {
        var text = "WEBVTT\n\n"
        // A bad cue setting first (an input error), then cues in reverse order.
        text += "00:00:00.000 --> 00:00:01.000 align:sideways\nfirst\n\n"
        for index in (1...40).reversed() {
            text += HLSSegmenterBlockPathTests.timestamp(index * 2_000, fullForm: true) + " --> "
            text += HLSSegmenterBlockPathTests.timestamp(index * 2_000 + 1_500, fullForm: true) + "\ncue \(index)\n\n"
        }
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(text, to: "track.vtt")
        var options = TrackConversion.Options()
        options.orderingWindowSize = 4
        let conversion = TrackConversion(source: try TrackSource(path: folder.file("track.vtt")), options: options)

        var reports: [ConversionDiagnostic] = []
        let outcome = try HLSSegmentation(conversion: conversion).write(toFolder: folder.file("direct")) { reports.append($0) }
        #expect(outcome.conversion.lateCues > 0)

        let destination = try HLSFolderDestination(folder: folder.file("read-back"), playlistName: "subs.m3u8")
        var segmenter = HLSSegmenter(to: destination)
        var readBackReports: [ConversionDiagnostic] = []
        try conversion.stream(convertedInto: &segmenter) { readBackReports.append($0) }
        try segmenter.finish()
        try destination.commit()

        #expect(reports == readBackReports)
        #expect(reports.filter { $0.diagnostic.code == "vtt-bad-setting-value" }.count == 1, "\(reports)")
        let names = (0..<outcome.counts.segments).map { "subs\($0).vtt" } + ["subs.m3u8"]
        for name in names {
            #expect(folder.read("direct/" + name) == folder.read("read-back/" + name), "\(name)")
        }
        // Cue 39 starts at 78 s, in the segment of 78 s to 84 s.
        #expect(folder.read("direct/subs13.vtt")?.contains("cue 39") == true)
    }
}
