import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

@Suite struct WebVTTReaderTests {
    @Test func readsEveryPartOfAValidFile() throws {
        let result = try WebVTTReader.read(fileAtPath: TestPaths.fixture("webvtt/valid.vtt"))
        let track = result.track
        #expect(result.diagnostics.isEmpty)
        #expect(track.header == "- Interview, take 2")
        #expect(
            track.stylesheets.map(\.text) == [
                "::cue(v[voice=\"Esme\"]) { color: cyan }\n::cue(.loud) { font-weight: bold }",
                "::cue-region(#fred) { background: black }",
            ])
        #expect(
            track.regions == [
                CueRegion(
                    id: "fred", width: 40, lines: 3, regionAnchor: CueRegion.Point(x: 0, y: 100), viewportAnchor: CueRegion.Point(x: 10, y: 90),
                    scroll: .up
                ),
                CueRegion(id: "bill"),
            ])
        #expect(
            track.notes == [
                CueNote("\nA file that follows every authoring rule: no diagnostics.", cueIndex: 0),
                CueNote("comments may sit between style sheets", cueIndex: 0),
                CueNote("the last comment", cueIndex: 4),
            ])
        #expect(track.cues.map(\.id) == ["1", "2", "3", "4"])
        #expect(track.cues.map(\.start) == [0, 2_000, 4_000, 3_606_000])
        #expect(track.cues.map(\.end) == [2_000, 4_000, 6_000, 3_608_500])
        #expect(track.cues[0].settings == CueSettings(region: "fred"))
        #expect(track.cues[0].text == "<v.first.loud Esme>It&apos;s a blue apple tree!")
        #expect(track.cues[1].settings == CueSettings(position: .percentage(10), positionAlignment: .lineLeft, size: 50, alignment: .start))
        #expect(track.cues[2].settings == CueSettings(vertical: .growingLeft, line: .number(-1), lineAlignment: .end))
        #expect(track.cues[3].settings == CueSettings(line: .percentage(90), lineAlignment: .center))
        #expect(
            track.cues[3].nodes() == [.text("Karaoke "), .timestamp(3_606_500), .text("words "), .timestamp(3_607_000), .text("in time")])
    }

    @Test func handsOutEventsInFileOrderWithRegionsBeforeTheFirstCue() throws {
        var reader = WebVTTReader()
        var events: [TrackEvent] = []
        try reader.feed(Array(try TestPaths.bytes(TestPaths.fixture("webvtt/valid.vtt")))) { events.append($0) }
        try reader.finish { events.append($0) }
        let kinds = events.map { event -> String in
            switch event {
            case .header: "header"
            case .note: "note"
            case .stylesheet: "style"
            case .region(let region): "region \(region.id)"
            case .cue(let cue): "cue \(cue.id)"
            case .diagnostic: "diagnostic"
            }
        }
        #expect(
            kinds == ["header", "note", "style", "note", "style", "region fred", "region bill", "cue 1", "cue 2", "cue 3", "cue 4", "note"])
    }

    @Test func handsOutEachCueAsSoonAsItsBlockEnds() throws {
        var reader = WebVTTReader()
        var events: [TrackEvent] = []
        try reader.feed(Array("WEBVTT\n\n00:00.000 --> 00:01.000\nfirst\n".utf8)) { events.append($0) }
        #expect(events == [.header("")])
        try reader.feed(Array("\n00:01.000 --> 00:02.000\nsec".utf8)) { events.append($0) }
        #expect(events == [.header(""), .cue(Cue(start: 0, end: 1_000, text: "first"))])
        try reader.feed(Array("ond".utf8)) { events.append($0) }
        #expect(events.count == 2)
        try reader.finish { events.append($0) }
        #expect(events.last == .cue(Cue(start: 1_000, end: 2_000, text: "second")))
    }

    @Test func aLaterRegionWithTheSameIdentifierReplacesTheEarlierOne() throws {
        let text = "WEBVTT\n\nREGION\nid:a lines:1\n\nREGION\nid:b\n\nREGION\nid:a lines:2\n\n00:00.000 --> 00:01.000 region:a\nx\n"
        let result = try WebVTTReader.read(text)
        #expect(result.track.regions.map(\.id) == ["b", "a"])
        #expect(result.track.regions.last?.lines == 2)
        #expect(result.track.region(for: result.track.cues[0])?.lines == 2)
        #expect(result.diagnostics.map(\.code) == [.vttDuplicateRegionIdentifier])
    }

    @Test func regionsComeOutAtTheEndWhenThereIsNoCue() throws {
        let result = try WebVTTReader.read("WEBVTT\n\nREGION\nid:a\n")
        #expect(result.track.regions.map(\.id) == ["a"])
    }

    @Test func regionSettingsFollowTheOrderOfTheSettings() throws {
        let text = """
            WEBVTT

            REGION
            id:r

            00:00.000 --> 00:01.000 region:r line:1
            dropped by line

            00:00.000 --> 00:01.000 line:1 region:r
            region set after line

            00:00.000 --> 00:01.000 region:r size:100%
            size 100 keeps the region

            00:00.000 --> 00:01.000 vertical:lr region:r
            vertical before region: set again
            """
        let cues = try WebVTTReader.read(text).track.cues
        #expect(cues.map(\.settings.region) == [nil, "r", "r", "r"])
    }

    @Test func lineEndingsAndByteOrderMarkDoNotChangeTheTrack() throws {
        let lf = try WebVTTReader.read(fileAtPath: TestPaths.fixture("webvtt/line-endings-lf.vtt"))
        let crlf = try WebVTTReader.read(fileAtPath: TestPaths.fixture("webvtt/line-endings-crlf.vtt"))
        let cr = try WebVTTReader.read(fileAtPath: TestPaths.fixture("webvtt/line-endings-cr.vtt"))
        #expect(lf == crlf)
        #expect(lf == cr)
        #expect(lf.track.cues[0].text == "line one\nline two")
        #expect(lf.track.notes == [CueNote("\ncarriage returns", cueIndex: 0)])
    }

    @Test func theThreeWaysInAgree() throws {
        let path = TestPaths.fixture("webvtt/cue-text-errors.vtt")
        let bytes = try TestPaths.bytes(path)
        let fromFile = try WebVTTReader.read(fileAtPath: path)
        let fromSmallChunks = try { () throws -> ReadResult in
            var reader = WebVTTReader()
            return try reader.read(fileAtPath: path, chunkSize: 7)
        }()
        let fromBytes = try WebVTTReader.read(bytes: bytes)
        let fromString = try WebVTTReader.read(String(decoding: bytes, as: UTF8.self))
        var streamed = TrackCollector()
        var reader = WebVTTReader()
        for byte in bytes { try reader.feed([byte]) { streamed.collect($0) } }
        try reader.finish { streamed.collect($0) }
        #expect(fromFile == fromSmallChunks)
        #expect(fromFile == fromBytes)
        #expect(fromFile == fromString)
        #expect(fromFile == streamed.result)
    }

    @Test func readsStandardLimitsAsErrors() throws {
        let longLine = "WEBVTT\n\n00:00.000 --> 00:01.000\n" + String(repeating: "x", count: 100)
        let options = WebVTTReader.Options(limits: .init(maximumLineLength: 50))
        let error = try #require(throws: ReadError.self) { try WebVTTReader.read(longLine, options: options) }
        #expect(error.diagnostic.code == .vttLineTooLong)
        #expect(error.diagnostic.location == SourceLocation(line: 4, column: 1))

        let longBlock = "WEBVTT\n\n00:00.000 --> 00:01.000\n" + String(repeating: "line\n", count: 30)
        let blockOptions = WebVTTReader.Options(limits: .init(maximumBlockLength: 100))
        let blockError = try #require(throws: ReadError.self) { try WebVTTReader.read(longBlock, options: blockOptions) }
        #expect(blockError.diagnostic.code == .vttBlockTooLong)
        #expect(blockError.diagnostic.location == SourceLocation(line: 3, column: 1))
    }

    @Test func identifierCheckRemembersRunsOfIntegersAndStopsAtItsLimit() throws {
        var text = "WEBVTT\n\n"
        for id in ["1", "2", "3", "7", "8", "5", "2", "01", "x", "x"] {
            text += "\(id)\n00:00.000 --> 00:01.000\nt\n\n"
        }
        let duplicates = try WebVTTReader.read(text).diagnostics.filter { $0.code == .vttDuplicateCueIdentifier }
        #expect(duplicates.map(\.location?.line) == [27, 39])

        let limited = try WebVTTReader.read(text, options: .init(limits: .init(maximumTrackedIdentifiers: 2)))
        #expect(limited.diagnostics.map(\.code) == [.vttIdentifierCheckStopped])
    }

    @Test func readsAFileEndingWithoutALineBreak() throws {
        let result = try WebVTTReader.read("WEBVTT\n\n00:00.000 --> 00:01.000\nlast line")
        #expect(result.track.cues.map(\.text) == ["last line"])
        #expect(try WebVTTReader.read("WEBVTT").track == Track())
        #expect(try WebVTTReader.read("WEBVTT title").track == Track(header: "title"))
        #expect(try WebVTTReader.read("WEBVTT\nheader line").track == Track(header: "\nheader line"))
    }

    @Test func keepsTimestampsBeyondADayAndRejectsOverflow() throws {
        let result = try WebVTTReader.read("WEBVTT\n\n1000000:00:00.000 --> 1000000:00:01.000\nx\n")
        #expect(result.track.cues.first?.start == 3_600_000_000_000)
        let overflow = try WebVTTReader.read("WEBVTT\n\n99999999999999999999:00:00.000 --> 99999999999999999999:00:01.000\nx\n")
        #expect(overflow.track.cues.isEmpty)
        #expect(overflow.diagnostics.map(\.code) == [.vttTimestampOutOfRange])
    }
}
