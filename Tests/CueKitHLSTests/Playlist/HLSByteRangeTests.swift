import CueKit
import CueKitConversion
import CueKitHLS
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

/// Segments that are byte ranges of one file (`EXT-X-BYTERANGE`, RFC 8216 section 4.3.2.2):
/// written by `cuekit segment --single-file`, read back range by range, refused at their line when
/// a range cannot be placed or read.
@Suite struct HLSByteRangeTests {
    static let cues = [
        Cue(id: "1", start: 500, end: 1_500, text: "first"),
        Cue(id: "2", start: 1_000, end: 9_500, text: "long, over <b>many</b>"),
        Cue(start: 5_900, end: 6_100, text: "across a boundary"),
        Cue(start: 20_000, end: 21_000, text: "after a gap"),
    ]

    /// Every event of the playlist at `path`.
    func read(_ path: String) throws -> [TrackEvent] {
        var events: [TrackEvent] = []
        try TrackSource(path: path).stream { events.append($0) }
        return events
    }

    func cues(of events: [TrackEvent]) -> [Cue] {
        events.compactMap { if case .cue(let cue) = $0 { cue } else { nil } }
    }

    /// `cues` segmented as `cuekit segment` does, into `directory`.
    func segment(into directory: TemporaryDirectory, oneFile: Bool) throws -> HLSMemoryDestination {
        var options = HLSSegmentOptions(segmentDuration: 2_000, timestampMap: WebVTTTimestampMap(mpegTimestamp: 900_000))
        options.segmentsInOneFile = oneFile
        var segmenter = HLSSegmenter(options: options, to: HLSMemoryDestination())
        try segmenter.take(.header(""))
        for cue in Self.cues { try segmenter.take(.cue(cue)) }
        try segmenter.finish()
        for segment in segmenter.destination.segments { directory.write(segment.text, to: segment.name) }
        directory.write(segmenter.destination.playlist, to: "subs.m3u8")
        return segmenter.destination
    }

    @Test func segmentsInOneFileTileItAndReadBackAsTheSegmentFilesDo() throws {
        let (one, files) = (TemporaryDirectory(), TemporaryDirectory())
        defer {
            one.remove()
            files.remove()
        }
        let written = try segment(into: one, oneFile: true)
        let separate = try segment(into: files, oneFile: false)
        #expect(written.segments.map(\.name) == ["subs.vtt"])
        #expect(written.playlist.contains("#EXT-X-VERSION:4\n"))
        // The ranges follow one another from byte 0 to the file's end, each one segment file's bytes.
        let file = Array(written.segments[0].text.utf8)
        let ranges = written.playlist.split(separator: "\n").compactMap { line -> Range<Int>? in
            guard line.hasPrefix("#EXT-X-BYTERANGE:") else { return nil }
            let parts = line.dropFirst(17).split(separator: "@").compactMap { Int($0) }
            return parts.count == 2 ? parts[1]..<(parts[1] + parts[0]) : nil
        }
        #expect(ranges.count == separate.segments.count)
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == file.count)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        for (range, segment) in zip(ranges, separate.segments) {
            #expect(String(decoding: file[range], as: UTF8.self) == segment.text)
        }
        let (fromOne, fromFiles) = (try read(one.file("subs.m3u8")), try read(files.file("subs.m3u8")))
        #expect(cues(of: fromOne) == Self.cues)
        #expect(fromOne == fromFiles)
    }

    /// A segment's lines, built as bytes, read as RFC 8216 writes them: `EXTINF` in seconds with
    /// three decimals, the range as `length@offset`.
    @Test func segmentLinesSpellDurationsAndRangesInDecimal() {
        var random = SeededRandom(seed: 41)
        // Every length of number, its ends included, then random ones.
        let edges = [0, 1, 9, 10, 99, 100, 101, 999, 1_000, 99_999_999, 100_000_000, 1 << 40, Int.max / 2 - 1]
        for index in 0..<2_000 + edges.count * edges.count {
            let duration = Int.random(in: 0...90_000_000, using: &random)
            var (offset, length) = (Int.random(in: 0...Int(Int32.max), using: &random), Int.random(in: 0...1_000_000, using: &random))
            if index < edges.count * edges.count { (offset, length) = (edges[index / edges.count], edges[index % edges.count]) }
            let fraction = String(duration % 1000)
            let seconds = "\(duration / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
            #expect(HLSMediaPlaylistText.segment(duration: duration, uri: "a b.vtt") == "#EXTINF:\(seconds),\na b.vtt\n")
            let expected = "#EXTINF:\(seconds),\n#EXT-X-BYTERANGE:\(length)@\(offset)\nsubs.vtt\n"
            #expect(HLSMediaPlaylistText.segment(duration: duration, byteRange: offset..<(offset + length), uri: "subs.vtt") == expected)
            // The lines made once for a duration and file give the same.
            var lines: [UInt8] = []
            HLSMediaPlaylistText.ByteRangeLines(duration: duration, uri: Array("subs.vtt".utf8)).append(byteRange: offset..<(offset + length), to: &lines)
            #expect(String(decoding: lines, as: UTF8.self) == expected)
        }
    }

    /// A range without `@offset` continues the one before it, in the same resource.
    @Test func aRangeWithoutAnOffsetFollowsThePreviousRange() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.writeByteRangeRendition(
            ["WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na\n", "WEBVTT\n\n00:00:07.000 --> 00:00:08.000\nb\n"], seconds: 6)
        let events = try read(directory.file("subs.m3u8"))
        #expect(cues(of: events).map(\.text) == ["a", "b"])
        #expect(!events.contains { if case .diagnostic = $0 { true } else { false } })
    }

    /// What cannot be placed or read is refused at its line and column.
    @Test(arguments: [
        ("#EXT-X-BYTERANGE:40\nother.vtt\n", "7:18", "not a range of other.vtt"),
        ("#EXT-X-BYTERANGE:4x@0\nall.vtt\n", "7:18", "is not a length in bytes"),
        ("#EXT-X-BYTERANGE:10@9999\nall.vtt\n", "8:1", "ends at byte"),
    ])
    func aRangeThatCannotBeReadIsRefusedAtItsLine(secondSegment: String, location: String, message: String) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let text = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na\n"
        directory.write(text, to: "all.vtt")
        directory.write(text, to: "other.vtt")
        // Line 7 is the second segment's range, line 8 its URI.
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n#EXT-X-BYTERANGE:\(text.utf8.count)@0\nall.vtt\n#EXTINF:6,\n" + secondSegment
        directory.write(playlist, to: "subs.m3u8")
        let error = try #require(throws: ReadError.self) { try read(directory.file("subs.m3u8")) }
        #expect(error.diagnostic.location.map { "\($0.line):\($0.column)" } == location, "\(error)")
        #expect(error.diagnostic.message.contains(message), "\(error)")
    }

    /// Byte ranges in a playlist that declares a version below 4 are read, with a warning.
    @Test func byteRangesBelowVersion4AreReadWithAWarning() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let text = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na\n"
        directory.write(text, to: "all.vtt")
        directory.write(
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n#EXT-X-BYTERANGE:\(text.utf8.count)@0\nall.vtt\n#EXT-X-ENDLIST\n",
            to: "subs.m3u8")
        let events = try read(directory.file("subs.m3u8"))
        let warnings = events.compactMap { if case .diagnostic(let diagnostic) = $0 { diagnostic } else { nil } }
        #expect(warnings.map(\.code) == [.hlsPlaylistMalformed])
        #expect(warnings.first?.message.contains("EXT-X-VERSION 4") == true)
        #expect(cues(of: events).map(\.text) == ["a"])
    }

    /// Into a folder an earlier run filled with a file a segment, one file replaces them all.
    @Test func oneFileReplacesTheSegmentFilesOfAnEarlierRun() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let input = directory.file("in.vtt")
        directory.write("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na\n\n00:00:20.000 --> 00:00:21.000\nb\n", to: "in.vtt")
        let folder = directory.file("out")
        var segmentation = HLSSegmentation(conversion: TrackConversion(source: try TrackSource(path: input)))
        try segmentation.write(toFolder: folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 5)
        segmentation.segments.segmentsInOneFile = true
        try segmentation.write(toFolder: folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["subs.m3u8", "subs.vtt"])
        #expect(cues(of: try read(folder + "/subs.m3u8")).map(\.text) == ["a", "b"])
    }
}
