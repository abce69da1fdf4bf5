import CueKit
import CueKitConversion
import CueKitHLS
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// A subtitle playlist read as one track (`HLSPlaylistReader`, through `TrackSource` as every
/// command reads it): segments joined, maps applied, repeats removed, and what cannot be read
/// refused at its line.
@Suite struct HLSPlaylistReadingTests {
    /// Every event of the input at `path`.
    func read(_ path: String, rendition: String? = nil) throws -> (cues: [Cue], events: [TrackEvent]) {
        var options = TrackSource.Options()
        options.hlsRendition = rendition
        let source = try TrackSource(path: path, options: options)
        #expect(source.isHLSPlaylist)
        var events: [TrackEvent] = []
        try source.stream { events.append($0) }
        let cues = events.compactMap { event -> Cue? in
            if case .cue(let cue) = event { return cue }
            return nil
        }
        return (cues, events)
    }

    /// Segments `cues` into `directory` (playlist `subs.m3u8`) as `cuekit segment` does.
    func segment(_ cues: [Cue], into directory: TemporaryDirectory, _ options: HLSSegmentOptions) throws {
        var segmenter = HLSSegmenter(options: options, to: HLSMemoryDestination())
        try segmenter.take(.header(""))
        for cue in cues { try segmenter.take(.cue(cue)) }
        try segmenter.finish()
        for segment in segmenter.destination.segments { directory.write(segment.text, to: segment.name) }
        directory.write(segmenter.destination.playlist, to: "subs.m3u8")
    }

    static let atTheTop: CueSettings = {
        var settings = CueSettings()
        settings.line = .percentage(10)
        return settings
    }()

    @Test(arguments: [2_000, 6_000, 1_000])
    func aSegmentedTrackReadsBackAsTheSameCues(segmentDuration: Int) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cues = [
            Cue(id: "1", start: 500, end: 1_500, text: "first"),
            Cue(id: "2", start: 1_000, end: 9_500, settings: Self.atTheTop, text: "long, over <b>many</b>"),
            Cue(start: 5_900, end: 6_100, text: "across a boundary"),
            Cue(start: 5_900, end: 6_100, text: "across a boundary, twice"),
            Cue(start: 20_000, end: 21_000, text: "after a gap"),
        ]
        var options = HLSSegmentOptions(segmentDuration: segmentDuration)
        options.timestampMap = WebVTTTimestampMap(mpegTimestamp: 900_000)
        try segment(cues, into: directory, options)
        let read = try read(directory.file("subs.m3u8"))
        #expect(read.cues == cues)
        #expect(!read.events.contains { if case .diagnostic = $0 { true } else { false } })
        // The joined track is one timeline: no map in its header.
        #expect(read.events.first == .header(""))
    }

    /// A playlist whose lines end in CR LF (as RFC 8216 allows) reads as one whose lines end in
    /// LF, line numbers included.
    @Test func aPlaylistWithCRLFLineEndsReadsAsOneWithLF() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na\n", to: "0.vtt")
        directory.write("WEBVTT\n\n00:00:07.000 --> 00:00:08.000\nb\n", to: "1.vtt")
        let lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:6", "#EXTINF:6,", "0.vtt", "#EXTINF:6,", "1.vtt", "#EXTINF:6,", "2.vtt", "#EXT-X-ENDLIST", ""]
        directory.write(lines.joined(separator: "\r\n"), to: "crlf.m3u8")
        directory.write(lines.joined(separator: "\n"), to: "lf.m3u8")
        let playlist = try HLSPlaylist.parse(lines.joined(separator: "\r\n"))
        guard case .media(let media) = playlist else { return #expect(Bool(false), "\(playlist)") }
        #expect(media.segments.map(\.uri) == ["0.vtt", "1.vtt", "2.vtt"])
        #expect(media.segments.map(\.line) == [4, 6, 8])
        #expect(media.hasEndList)
        // The missing third segment is refused at its line, in both.
        for name in ["crlf.m3u8", "lf.m3u8"] {
            let error = #expect(throws: ReadError.self) { try read(directory.file(name)) }
            #expect(error?.diagnostic.location?.line == 8, "\(name)")
        }
        directory.write("#EXTM3U\r\n#EXTINF:6,\r\n0.vtt\r\n#EXTINF:6,\r\n1.vtt\r\n", to: "two.m3u8")
        #expect(try read(directory.file("two.m3u8")).cues.map(\.text) == ["a", "b"])
    }

    @Test func segmentsWithTheirOwnMapsAreMovedOntoTheFirstSegmentsTimeline() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Segment 1 counts its cues from its own start, 6 s (540,000 ticks) later; segment 2 says
        // the same with LOCAL; segment 3 crosses the 33-bit clock's wrap.
        let wrap = (UInt64(1) << 33) - 90_000
        directory.write("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(wrap),LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:02.000\na\n", to: "0.vtt")
        directory.write("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(wrap + 540_000 - (1 << 33)),LOCAL:00:00:00.000\n\n00:00:00.500 --> 00:00:01.000\nb\n", to: "1.vtt")
        directory.write("WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:01:00.000,MPEGTS:\(wrap)\n\n00:01:12.000 --> 00:01:13.000\nc\n", to: "2.vtt")
        directory.write("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n0.vtt\n#EXTINF:6,\n1.vtt\n#EXTINF:6,\n2.vtt\n#EXT-X-ENDLIST\n", to: "subs.m3u8")
        let read = try read(directory.file("subs.m3u8"))
        #expect(read.cues.map(\.start) == [1_000, 6_500, 12_000])
        #expect(read.cues.map(\.text) == ["a", "b", "c"])
    }

    @Test func aMultivariantPlaylistReadsItsDefaultRenditionOrTheOneNamed() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for language in ["en", "fr"] {
            directory.write("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\(language)\n", to: "\(language)0.vtt")
            directory.write("#EXTM3U\n#EXTINF:6,\n\(language)0.vtt\n#EXT-X-ENDLIST\n", to: "\(language).m3u8")
        }
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,URI="en.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français",LANGUAGE="fr",DEFAULT=YES,URI="fr.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,SUBTITLES="subs"
            video.m3u8

            """
        directory.write(master, to: "master.m3u8")
        #expect(try read(directory.file("master.m3u8")).cues.map(\.text) == ["fr"])
        #expect(try read(directory.file("master.m3u8"), rendition: "EN").cues.map(\.text) == ["en"])
        #expect(try read(directory.file("master.m3u8"), rendition: "Français").cues.map(\.text) == ["fr"])
        let error = #expect(throws: ReadError.self) { try read(directory.file("master.m3u8"), rendition: "de") }
        #expect(error?.diagnostic.code == .hlsNoRendition)
        #expect(error?.description.contains("English (en), group subs") == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("https://cdn.example/0.vtt", "is remote", 3),
        ("missing.vtt", "cannot be read", 3),
        ("subs.m3u8", "is a playlist", 3),
    ])
    func aSegmentThatCannotBeReadIsRefusedAtItsLine(uri: String, reason: String, line: Int) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("#EXTM3U\n#EXTINF:6,\n\(uri)\n#EXT-X-ENDLIST\n", to: "subs.m3u8")
        let error = #expect(throws: ReadError.self) { try read(directory.file("subs.m3u8")) }
        #expect(error?.diagnostic.code == .hlsSegmentUnreadable)
        #expect(error?.diagnostic.location?.line == line)
        #expect(error?.diagnostic.message.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func aMalformedPlaylistIsRefusedAtItsLine() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("#EXTM3U\n#EXTINF:six,\n0.vtt\n", to: "subs.m3u8")
        let error = #expect(throws: ReadError.self) { try read(directory.file("subs.m3u8")) }
        #expect(error?.diagnostic.code == .hlsPlaylistMalformed)
        #expect(error?.diagnostic.location == SourceLocation(line: 2, column: 9))
    }

    @Test func aSegmentsOwnProblemsAreLocatedInThePlaylistAndTheSegment() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("WEBVTT\n\n00:00:02.000 --> 00:00:01.000\nends before it starts\n", to: "0.vtt")
        directory.write("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n0.vtt\n#EXT-X-ENDLIST\n", to: "subs.m3u8")
        let read = try read(directory.file("subs.m3u8"))
        let diagnostics = read.events.compactMap { event -> Diagnostic? in
            if case .diagnostic(let diagnostic) = event { return diagnostic }
            return nil
        }
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.location?.line == 4)
        #expect(diagnostics.first?.message.hasPrefix("0.vtt:3:") == true, "\(diagnostics)")
    }

    /// The diagnostics of reading the playlist `playlist` over segments `segments` (name, text).
    func diagnostics(_ playlist: String, _ segments: [(String, String)]) throws -> [Diagnostic] {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for (name, text) in segments { directory.write(text, to: name) }
        directory.write(playlist, to: "subs.m3u8")
        return try read(directory.file("subs.m3u8")).events.compactMap { event -> Diagnostic? in
            if case .diagnostic(let diagnostic) = event { return diagnostic }
            return nil
        }
    }

    static let twoSegments = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6,\n0.vtt\n#EXTINF:6,\n1.vtt\n#EXT-X-ENDLIST\n"
    static let across = "00:00:05.000 --> 00:00:07.000\nacross\n"

    @Test func aCueMissingFromASegmentItOverlapsIsReportedAtThatSegment() throws {
        let missing = try diagnostics(Self.twoSegments, [("0.vtt", "WEBVTT\n\n" + Self.across), ("1.vtt", "WEBVTT\n")])
        #expect(missing.map(\.code) == [.hlsCueMissingFromSegment])
        #expect(missing.first?.location?.line == 7)
        #expect(missing.first?.message.contains("00:00:05.000 --> 00:00:07.000 \"across\"") == true, "\(missing)")
        // Present in both, nothing is said.
        let whole = try diagnostics(Self.twoSegments, [("0.vtt", "WEBVTT\n\n" + Self.across), ("1.vtt", "WEBVTT\n\n" + Self.across)])
        #expect(whole.isEmpty, "\(whole)")
    }

    @Test func aCueOutsideItsSegmentsTimeIsReported() throws {
        let outside = try diagnostics(
            Self.twoSegments, [("0.vtt", "WEBVTT\n"), ("1.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nearly\n")])
        #expect(outside.map(\.code) == [.hlsCueOutsideSegment])
        #expect(outside.first?.location?.line == 7)
    }

    @Test func segmentsWhoseMapsPlaceTheSameCueDifferentlyDisagree() throws {
        // The second segment's map is a second off: its copy of the cue lands at 6 s.
        let second = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:90000,LOCAL:00:00:00.000\n\n" + Self.across
        let found = try diagnostics(Self.twoSegments, [("0.vtt", "WEBVTT\n\n" + Self.across), ("1.vtt", second)])
        #expect(found.map(\.code) == [.hlsMapsDisagree], "\(found)")
        #expect(found.first?.message.contains("disagree by 1000 ms") == true, "\(found)")
    }

    @Test func thePlaylistsOwnRulesAreChecked() throws {
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6.6,\n0.vtt\n"
        let found = try diagnostics(playlist, [("0.vtt", "WEBVTT\n")])
        #expect(found.map(\.code) == [.hlsExtinfOverTarget, .hlsNoEndList])
        #expect(found.first?.location == SourceLocation(line: 4, column: 9))
        #expect(found.map(\.severity) == [.error, .warning])
    }

    @Test func variantsAndRenditionsThatDisagreeOnTheirGroupAreReported() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("WEBVTT\n", to: "en0.vtt")
        directory.write("#EXTM3U\n#EXTINF:6,\nen0.vtt\n#EXT-X-ENDLIST\n", to: "en.m3u8")
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="en.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,SUBTITLES="subs"
            low.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1600000
            mid.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3200000,SUBTITLES="sub"
            high.m3u8

            """
        directory.write(master, to: "master.m3u8")
        let found = try read(directory.file("master.m3u8")).events.compactMap { event -> Diagnostic? in
            if case .diagnostic(let diagnostic) = event { return diagnostic }
            return nil
        }
        #expect(found.map(\.code) == [.hlsRenditionGroup, .hlsRenditionGroup, .hlsPlaylistMalformed], "\(found)")
        #expect(found.prefix(2).map { $0.location?.line } == [7, 5])
        // The media playlist's own problem (no target duration) is located at its rendition's line.
        #expect(found.last?.location?.line == 2)
        #expect(found.last?.message.hasPrefix("en.m3u8:1:1: ") == true, "\(found)")
    }
}
