import CueKit
import CueKitHLS
import CueKitWebVTT
import Testing

@Suite struct HLSSegmenterTests {
    /// Segments `events` into memory with `options`.
    func segment(_ events: [TrackEvent], _ options: HLSSegmentOptions = HLSSegmentOptions()) throws -> HLSSegmenter<HLSMemoryDestination> {
        var segmenter = HLSSegmenter(options: options, to: HLSMemoryDestination())
        for event in events { try segmenter.take(event) }
        try segmenter.finish()
        return segmenter
    }

    /// The cues a segment holds, read back by CueKit's WebVTT reader with every check on: the
    /// segment must read without a diagnostic.
    func cues(in segment: HLSMemoryDestination.Segment) throws -> [Cue] {
        let read = try WebVTTReader.read(segment.text)
        #expect(read.diagnostics.isEmpty, "\(segment.name): \(read.diagnostics)")
        return read.track.cues
    }

    @Test func aCueStraddlingABoundaryIsInBothSegmentsWithItsWholeTimes() throws {
        let straddling = Cue(start: 5_000, end: 7_500, text: "across")
        let segmenter = try segment([.header(""), .cue(Cue(start: 1_000, end: 2_000, text: "first")), .cue(straddling)])
        let segments = segmenter.destination.segments
        #expect(segments.map(\.name) == ["subs0.vtt", "subs1.vtt"])
        #expect(try cues(in: segments[0]) == [Cue(start: 1_000, end: 2_000, text: "first"), straddling])
        #expect(try cues(in: segments[1]) == [straddling])
        #expect(segmenter.counts.cuePlacements == 3)
        #expect(
            segmenter.destination.playlist == """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:6
                #EXT-X-MEDIA-SEQUENCE:0
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXTINF:6.000,
                subs0.vtt
                #EXTINF:1.500,
                subs1.vtt
                #EXT-X-ENDLIST

                """)
    }

    @Test func segmentsNoCueOverlapsAreWrittenWithTheirHeaderAndMap() throws {
        var options = HLSSegmentOptions(segmentDuration: 2_000)
        options.timestampMap = WebVTTTimestampMap(mpegTimestamp: 900_000)
        let segmenter = try segment(
            [.cue(Cue(start: 500, end: 1_000, text: "a")), .cue(Cue(start: 8_200, end: 9_000, text: "b"))], options)
        let segments = segmenter.destination.segments
        #expect(segments.count == 5)
        #expect(segmenter.counts.emptySegments == 3)
        let empty = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n"
        #expect(segments[1...3].map(\.text) == [empty, empty, empty])
        for segment in segments { #expect(segment.text.hasPrefix(empty)) }
        #expect(try cues(in: segments[4]).map(\.text) == ["b"])
        // Every segment lasts 2 s but the last, which ends with the last cue.
        #expect(segmenter.destination.playlist.split(separator: "\n").filter { $0 == "#EXTINF:2.000," }.count == 4)
        #expect(segmenter.destination.playlist.contains("#EXTINF:1.000,\nsubs4.vtt\n"))
    }

    @Test func aLongCueIsInEverySegmentItSpansAndNowhereElse() throws {
        let long = Cue(start: 1_000, end: 13_000, text: "long")
        let segmenter = try segment(
            [.cue(long), .cue(Cue(start: 14_000, end: 15_000, text: "after"))], HLSSegmentOptions(segmentDuration: 4_000))
        let held = try segmenter.destination.segments.map { try cues(in: $0).map(\.text) }
        #expect(held == [["long"], ["long"], ["long"], ["long", "after"]])
    }

    @Test func aCueEndingOnABoundaryStaysOutOfTheNextSegment() throws {
        let segmenter = try segment([.cue(Cue(start: 0, end: 6_000, text: "exact")), .cue(Cue(start: 6_000, end: 6_500, text: "next"))])
        let held = try segmenter.destination.segments.map { try cues(in: $0).map(\.text) }
        #expect(held == [["exact"], ["next"]])
    }

    @Test func theTargetDurationIsTheSegmentDurationRoundedToTheNearestSecond() throws {
        for (duration, target) in [(2_500, 3), (2_499, 2), (400, 1), (6_000, 6), (10_001, 10)] {
            let segmenter = try segment([.cue(Cue(start: 0, end: 30_000, text: "x"))], HLSSegmentOptions(segmentDuration: duration))
            let playlist = segmenter.destination.playlist
            #expect(playlist.contains("#EXT-X-TARGETDURATION:\(target)\n"), "\(duration) ms")
            // RFC 8216, 4.3.3.1: every EXTINF rounded to the nearest integer is at most the target.
            let durations = playlist.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.compactMap {
                Double($0.dropFirst(8).dropLast())
            }
            #expect(durations.count == segmenter.counts.segments)
            #expect(durations.allSatisfy { Int($0.rounded()) <= target }, "\(duration) ms: \(durations)")
            #expect(abs(durations.reduce(0, +) - 30) < 0.0005)
        }
    }

    @Test func theMapWrapsModuloTwoToThe33() throws {
        let map = WebVTTTimestampMap(mpegTimestamp: (1 << 33) + 126_000)
        #expect(map.mpegTimestamp == 126_000)
        #expect(map.headerLine == "X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000")
        #expect(WebVTTTimestampMap(mpegTimestamp: (1 << 33) - 1).mpegTimestamp == (1 << 33) - 1)
        let segmenter = try segment([.cue(Cue(start: 0, end: 1_000, text: "x"))], HLSSegmentOptions(timestampMap: map))
        #expect(segmenter.destination.segments[0].text.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n\n"))
    }

    @Test func stylesGoIntoEverySegmentWithCuesAndRegionsWhereTheirCuesAre() throws {
        let region = CueRegion(id: "top")
        var inRegion = Cue(start: 7_000, end: 8_000, text: "up")
        inRegion.settings.region = "top"
        let segmenter = try segment([
            .header(""), .region(region), .stylesheet(CueStylesheet("::cue { color: yellow; }")),
            .cue(Cue(start: 0, end: 1_000, text: "plain")), .cue(inRegion), .cue(Cue(start: 13_000, end: 14_000, text: "later")),
        ])
        let texts = segmenter.destination.segments.map(\.text)
        #expect(texts.count == 3)
        #expect(texts.allSatisfy { $0.contains("STYLE\n::cue { color: yellow; }") })
        #expect(texts.map { $0.contains("REGION\nid:top") } == [false, true, false])
        #expect(try cues(in: segmenter.destination.segments[1]).first?.settings.region == "top")
    }

    @Test func eachSegmentCarriesTheRegionsItsOwnCuesNameWhateverCameBefore() throws {
        // Six sets of named regions, more than the segmenter keeps formatted, coming back in a
        // random order: each segment must hold exactly the regions its cues name.
        let ids = ["a", "b", "c"]
        let sets: [[String]] = [[], ["a"], ["b"], ["c"], ["a", "b"], ["a", "b", "c"]]
        var generator = SystemRandomNumberGenerator()
        var events: [TrackEvent] = [.header(""), .stylesheet(CueStylesheet("::cue { color: lime; }"))]
        events += ids.map { .region(CueRegion(id: $0)) }
        var expected: [[String]] = []
        for segment in 0..<60 {
            let named = sets.randomElement(using: &generator)!
            expected.append(named)
            // One cue a region inside the segment, plus one in none.
            for (offset, id) in ([nil] + named.map(Optional.some)).enumerated() {
                var cue = Cue(start: segment * 6_000 + offset * 100, end: segment * 6_000 + offset * 100 + 50, text: "cue \(segment).\(offset)")
                cue.settings.region = id
                events.append(.cue(cue))
            }
        }
        let segmenter = try segment(events)
        let segments = segmenter.destination.segments
        #expect(segments.count == 60)
        for (segment, named) in zip(segments, expected) {
            let read = try WebVTTReader.read(segment.text)
            #expect(read.diagnostics.isEmpty, "\(segment.name): \(read.diagnostics)")
            #expect(read.track.regions.map(\.id) == named, "\(segment.name)")
            #expect(read.track.stylesheets.count == 1)
        }
    }

    @Test func anEmptyTrackIsOneEmptySegment() throws {
        let segmenter = try segment([.header("")])
        #expect(segmenter.destination.segments.count == 1)
        #expect(segmenter.destination.playlist.contains("#EXTINF:6.000,\nsubs0.vtt\n#EXT-X-ENDLIST\n"))
    }

    @Test func cuesOutOfOrderAreRefused() throws {
        var segmenter = HLSSegmenter(to: HLSMemoryDestination())
        try segmenter.take(.cue(Cue(start: 9_000, end: 10_000, text: "late")))
        #expect(throws: HLSSegmentingError.self) { try segmenter.take(.cue(Cue(start: 1_000, end: 2_000, text: "early"))) }
    }

    @Test func onlyTheCuesOfTheOpenSegmentAreHeld() throws {
        // A million-second track of short cues: what the segmenter holds never grows past one
        // segment's cues (memory is measured by the benchmark; here the hand-over is checked).
        var segmenter = HLSSegmenter(options: HLSSegmentOptions(segmentDuration: 1_000), to: CountingDestination())
        for index in 0..<20_000 {
            try segmenter.take(.cue(Cue(start: index * 500, end: index * 500 + 400, text: "cue \(index)")))
            // Every segment before the one the cue starts in is already written.
            #expect(segmenter.destination.segments == index / 2)
        }
        try segmenter.finish()
        #expect(segmenter.destination.segments == 10_000)
        #expect(segmenter.counts.cuePlacements == 20_000)
    }
}

/// Counts segments without keeping them.
struct CountingDestination: HLSSegmentDestination {
    var segments = 0
    mutating func writeSegment(named name: String, _ bytes: [UInt8]) throws { segments += 1 }
    mutating func appendSegment(_ bytes: [UInt8], toFileNamed name: String) throws { segments += 1 }
    mutating func appendToPlaylist(_ bytes: [UInt8]) throws {}
}
