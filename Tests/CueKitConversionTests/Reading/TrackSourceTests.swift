import CueKit
import CueKitCast
import CueKitConversion
import CueKitTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct TrackSourceTests {
    @Test func theFormatComesFromTheContentAndAVTTNameWins() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write("1\n00:00:01,000 --> 00:00:02,000\nHello\n", to: "subtitles.txt")
        folder.write("1\n00:00:01,000 --> 00:00:02,000\nHello\n", to: "mislabelled.vtt")
        let subRip = try TrackSource(path: folder.file("subtitles.txt"))
        #expect(subRip.format == .subRip)
        let named = try TrackSource(path: folder.file("mislabelled.vtt"))
        #expect(named.format == .webVTT)
        #expect(named.contentLooksLike == .subRip)
        #expect(throws: ReadError.self) { try TrackSource(path: folder.file("missing.srt")) }
    }

    @Test func subRipColoursComeAsStyleSheetsBeforeTheFirstCue() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(
            "1\n00:00:01,000 --> 00:00:02,000\n<font color=\"red\">Red</font>\n\n2\n00:00:03,000 --> 00:00:04,000\n<font color=\"#00FF00\">Green</font>\n",
            to: "colours.srt")
        var events: [TrackEvent] = []
        try TrackSource(path: folder.file("colours.srt")).stream { events.append($0) }
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
        let conversion = TrackConversion(source: try TrackSource(path: folder.file("two.vtt")), options: .init(format: .webVTT, style: style))
        var sink = MemorySink()
        var reported: [ConversionDiagnostic] = []
        let outcome = try conversion.write(to: &sink) { reported.append($0) }
        #expect(outcome.cuesWritten == 2)
        #expect(reported.isEmpty)
        #expect(sink.string.contains("/* Cast TextTrackStyle */\n::cue {\n  color: rgba(255, 255, 0, 1);\n}"))
        // The window cannot be written into WebVTT: reported, not dropped silently.
        #expect(outcome.styleDiagnostics.map(\.code) == [.castWindowNotInWebVTT])
    }

    @Test func aPipeIsReadOnceAndTTMLFromItIsSpooledForItsTwoPasses() throws {
        // TTML with an inline style: its class must be in the STYLE block before the first cue,
        // which takes two passes; a pipe cannot be read twice, so the source spools it.
        let document = """
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><body><div>
            <p begin="1s" end="2s"><span tts:color="red">Red</span></p>
            </div></body></tt>
            """
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let bytes = Array(document.utf8)
        #expect(bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == bytes.count)
        close(ends[1])
        defer { close(ends[0]) }
        let source = try TrackSource(path: "/dev/fd/\(ends[0])")
        #expect(source.format == .ttml)
        var events: [TrackEvent] = []
        try source.stream { events.append($0) }
        let sheet = events.firstIndex { if case .stylesheet(let sheet) = $0 { sheet.text.contains("color") } else { false } }
        let cue = events.firstIndex { if case .cue = $0 { true } else { false } }
        #expect(sheet != nil && cue != nil && sheet! < cue!)
        #expect(TemporaryFiles.paths.allSatisfy { !$0.contains("cuekit-input") })
    }
}
