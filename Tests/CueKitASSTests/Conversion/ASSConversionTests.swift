import CueKit
import CueKitASS
import CueKitConversion
import CueKitTestSupport
import Testing

/// An ASS script through the conversion engine every door uses: told from its content, read in
/// two passes (every rule before the first cue), its cues put in start-time order.
@Suite struct ASSConversionTests {
    @Test func aScriptConvertsToWebVTTWithItsStylesFirstAndCuesInOrder() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let script = ASSScripts.script(events: [
            ASSScripts.dialogue("{\\c&H0000FF&}later", start: "0:00:05.00", end: "0:00:06.00"),
            ASSScripts.dialogue("earlier", start: "0:00:01.00", end: "0:00:02.00"),
        ])
        // A name that says nothing: the content says ASS.
        folder.write(script, to: "episode.txt")
        let source = try TrackSource(path: folder.file("episode.txt"))
        #expect(source.format == .ass)
        var sink = MemorySink()
        var reported: [ConversionDiagnostic] = []
        try TrackConversion(source: source).write(to: &sink) { reported.append($0) }
        // The one report: the cues were put in start-time order.
        #expect(reported.map(\.diagnostic.code) == ["cue-order"], "\(reported)")
        let expected = """
            WEBVTT

            STYLE
            ::cue(.Default) { font-family: "Arial"; font-size: 10vh; color: #ffffff; background-color: transparent; text-shadow: #000000 -0.42vh -0.42vh 0, #000000 0.42vh -0.42vh 0, #000000 -0.42vh 0.42vh 0, #000000 0.42vh 0.42vh 0, #0000007f 0.42vh 0.42vh 0; }

            STYLE
            ::cue(.red) { color: #ff0000; }

            00:00:01.000 --> 00:00:02.000 line:95%,end position:50%,center size:93.75%
            <c.Default>earlier</c>

            00:00:05.000 --> 00:00:06.000 line:95%,end position:50%,center size:93.75%
            <c.Default><c.red>later</c></c>

            """
        #expect(sink.string == expected)
    }

    @Test func convertingToASSIsRefused() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(ASSScripts.script(events: [ASSScripts.dialogue("x")]), to: "a.ass")
        var options = TrackConversion.Options()
        options.format = .ass
        var sink = MemorySink()
        #expect(throws: FormatNotWritten.self) {
            try TrackConversion(source: try TrackSource(path: folder.file("a.ass")), options: options).write(to: &sink)
        }
    }

    @Test func formatIsToldByContentNameAndMediaType() {
        #expect(TrackFormat.detect(content: Array("\u{FEFF}[Script Info]\r\nScriptType: v4.00+".utf8)) == .ass)
        #expect(TrackFormat.detect(content: Array("[script info]\n".utf8)) == .ass)
        #expect(TrackFormat(path: "movie.en.ssa") == .ass)
        #expect(TrackFormat(name: "ssa") == .ass)
        #expect(TrackFormat(mediaType: "text/x-ssa; charset=utf-8") == .ass)
        #expect(!TrackFormat.ass.isWritten)
    }
}
