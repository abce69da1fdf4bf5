import CueKit
import CueKitCast
import CueKitConversion
import CueKitTestSupport
import Testing

@Suite struct TrackFileReaderTests {
    @Test func theFormatComesFromTheContentAndAVTTNameWins() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write("1\n00:00:01,000 --> 00:00:02,000\nHello\n", to: "subtitles.txt")
        folder.write("1\n00:00:01,000 --> 00:00:02,000\nHello\n", to: "mislabelled.vtt")
        let subRip = try TrackFileReader(path: folder.file("subtitles.txt"))
        #expect(subRip.format == .subRip)
        let named = try TrackFileReader(path: folder.file("mislabelled.vtt"))
        #expect(named.format == .webVTT)
        #expect(named.contentLooksLike == .subRip)
        #expect(throws: ReadError.self) { try TrackFileReader(path: folder.file("missing.srt")) }
    }

    @Test func subRipColoursComeAsStyleSheetsBeforeTheFirstCue() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(
            "1\n00:00:01,000 --> 00:00:02,000\n<font color=\"red\">Red</font>\n\n2\n00:00:03,000 --> 00:00:04,000\n<font color=\"#00FF00\">Green</font>\n",
            to: "colours.srt")
        var events: [TrackEvent] = []
        try TrackFileReader(path: folder.file("colours.srt")).stream { events.append($0) }
        let firstCue = try #require(events.firstIndex { if case .cue = $0 { true } else { false } })
        let sheets = events.indices.filter { if case .stylesheet = events[$0] { true } else { false } }
        #expect(!sheets.isEmpty)
        #expect(sheets.allSatisfy { $0 < firstCue })
        #expect(events.filter { if case .cue = $0 { true } else { false } }.count == 2)
    }

    @Test func aStyledConversionBakesTheStyleInAndCountsTheCues() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write("WEBVTT\n\n00:00.000 --> 00:01.000\nOne\n\n00:01.000 --> 00:02.000\nTwo\n", to: "two.vtt")
        let style = TextTrackStyle(foregroundColor: CastColor(red: 255, green: 255, blue: 0), windowType: .normal)
        let conversion = StyledWebVTTConversion(reader: try TrackFileReader(path: folder.file("two.vtt")), style: style)
        let (outcome, sink) = try conversion.write(to: MemorySink())
        #expect(outcome.cueCount == 2)
        #expect(sink.string.contains("/* Cast TextTrackStyle */\n::cue {\n  color: rgba(255, 255, 0, 1);\n}"))
        // The window cannot be written into WebVTT: reported, not dropped silently.
        #expect(outcome.diagnostics.map(\.code) == [.castWindowNotInWebVTT])
    }
}
