import CueKit
import CueKitASS
import CueKitTestSupport
import Testing

@Suite struct ASSReaderTests {
    @Test func stylesBecomeCueRulesBeforeTheFirstCue() throws {
        let result = try ASSScripts.read(
            ASSScripts.script(
                styles: ["Style: Sign Top,Times New Roman,24,&H4000FFFF,&H000000FF,&H00FF0000,&H00000000,-1,1,1,0,100,100,0,0,3,2,0,8,10,10,10,1"],
                events: [ASSScripts.dialogue("Hello", style: "Sign Top")]))
        let rules = result.track.stylesheets.flatMap(\.cueRules)
        let top = try #require(rules.first { $0.selector == .classes(["Sign_Top"]) })
        #expect(top.value(of: "font-family") == "\"Times New Roman\"")
        #expect(top.value(of: "font-size") == "5vh")  // 24 of 480
        #expect(top.value(of: "color") == "#ffff00bf")  // &H40 alpha: 0xbf opaque
        #expect(top.value(of: "font-weight") == "bold")
        #expect(top.value(of: "font-style") == "italic")
        #expect(top.value(of: "text-decoration") == "underline")
        #expect(top.value(of: "background-color") == "#0000ff")  // BorderStyle 3: the box in OutlineColour
        let base = try #require(rules.first { $0.selector == .classes(["Default"]) })
        #expect(base.value(of: "font-size") == "10vh")
        #expect(base.value(of: "background-color") == "transparent")
        #expect(base.value(of: "text-shadow")?.contains("#0000007f 0.42vh 0.42vh 0") == true)  // BackColour &H80 shadow of 2 px
        let cue = try #require(result.track.cues.first)
        #expect(cue.text == "<c.Sign_Top>Hello</c>")
        #expect(cue.settings.line == .percentage(2.08))  // alignment 8, MarginV 10 of 480
        #expect(cue.settings.lineAlignment == .start)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func marginsAndAlignmentPlaceTheCue() throws {
        let cue = try #require(try ASSScripts.cue("bottom"))
        // Alignment 2, margins 20/20/24 of 640 × 480.
        #expect(cue.settings.line == .percentage(95))
        #expect(cue.settings.lineAlignment == .end)
        #expect(cue.settings.position == .percentage(50))
        #expect(cue.settings.size == 93.75)
        #expect(cue.settings.alignment == .center)
        let left = try #require(try ASSScripts.read(ASSScripts.script(events: ["Dialogue: 0,0:00:01.00,0:00:02.00,Default,,64,0,48,,{\\an4}left"])).track.cues.first)
        #expect(left.settings.line == .percentage(50))
        #expect(left.settings.lineAlignment == .center)
        #expect(left.settings.position == .percentage(10))
        #expect(left.settings.positionAlignment == .lineLeft)
        #expect(left.settings.alignment == .left)
    }

    @Test func dialogueFieldsFollowTheFormatLineAndTextKeepsCommas() throws {
        let text = """
            [Script Info]
            PlayResY: 480

            [Events]
            Format: Start, End, Style, Text, Layer
            Dialogue: 0:00:03.50,0:00:04.25,Default,Well, well, well,0

            """
        let result = try ASSScripts.read(text)
        let cue = try #require(result.track.cues.first)
        #expect(cue.start == 3500)
        #expect(cue.end == 4250)
        // Text is not the last field here: it stops at its comma, as the Format line says.
        #expect(cue.text == "<c.Default>Well</c>")
        let last = try #require(try ASSScripts.cue("One, two,, three"))
        #expect(last.text == "<c.Default>One, two,, three</c>")
    }

    @Test func nameBecomesAVoiceAndCommentsBecomeNotes() throws {
        let result = try ASSScripts.read(
            ASSScripts.script(events: [
                "Comment: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,translator's note",
                "Dialogue: 0,0:00:01.00,0:00:02.00,Default,Ann <B>,0,0,0,,Hi",
            ]))
        #expect(result.track.cues.map(\.text) == ["<v Ann &lt;B&gt;><c.Default>Hi</c></v>"])
        #expect(result.track.notes == [CueNote("Comment: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,translator's note", cueIndex: 0)])
    }

    @Test func eventsComeInFileOrder() throws {
        let result = try ASSScripts.read(
            ASSScripts.script(events: [
                ASSScripts.dialogue("second", start: "0:00:05.00", end: "0:00:06.00"),
                ASSScripts.dialogue("first", start: "0:00:01.00", end: "0:00:02.00"),
            ]))
        #expect(result.track.cues.map(\.start) == [5000, 1000])
    }

    @Test func sSAStylesAreReadWithTheirOwnFields() throws {
        let text = """
            [Script Info]
            ScriptType: v4.00
            PlayResY: 300

            [V4 Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding
            Style: Default,Tahoma,30,65535,16777215,16711680,0,-1,0,1,1,0,6,10,10,15,0,0

            [Events]
            Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0000,0000,0000,,SSA text

            """
        let result = try ASSScripts.read(text)
        let rule = try #require(result.track.stylesheets.flatMap(\.cueRules).first)
        #expect(rule.value(of: "color") == "#ffff00")  // 65535 is &H0000FFFF: yellow
        #expect(rule.value(of: "font-size") == "10vh")
        let cue = try #require(result.track.cues.first)
        // SSA alignment 6 is top centre (2 + 4): keypad 8.
        #expect(cue.settings.lineAlignment == .start)
        #expect(cue.settings.line == .percentage(5))
        #expect(cue.text == "<c.Default>SSA text</c>")
    }

    @Test func playResDefaultsAsLibassCompletesThem() {
        var script = ASSScript()
        #expect(script.resolution == (384, 288))
        script.playResX = 1280
        #expect(script.resolution == (1280, 1024))
        script.playResX = 1920
        #expect(script.resolution == (1920, 1440))
        script.playResX = nil
        script.playResY = 720
        #expect(script.resolution == (960, 720))
    }

    @Test func readingIsChunkIndependent() throws {
        let text = ASSScripts.script(
            styles: ["Style: Other,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1"],
            events: [
                ASSScripts.dialogue("{\\c&H00FFFF&}yellow{\\c} é\\Nline"),
                "Comment: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,note",
                ASSScripts.dialogue("{\\k20}karaoke", style: "Other"),
                ASSScripts.dialogue("bad", start: "x"),
            ])
        let outcome = try ChunkingVerifier.verify(Array(text.utf8)) { ASSReader() }
        let events = try outcome.get()
        #expect(events.filter { if case .cue = $0 { return true } else { return false } }.count == 2)
    }

    @Test func twoStreamingPassesGiveEveryRuleBeforeTheFirstCue() throws {
        let text = ASSScripts.script(events: [ASSScripts.dialogue("plain"), ASSScripts.dialogue("{\\1c&H0000FF&}red")])
        let bytes = Array(text.utf8)
        var reader = ASSReader(prescan: ASSReader.prescan(bytes: bytes))
        var events: [TrackEvent] = []
        try reader.feed(bytes) { events.append($0) }
        try reader.finish { events.append($0) }
        let firstCue = try #require(events.firstIndex { if case .cue = $0 { return true } else { return false } })
        let sheets = events.enumerated().compactMap { index, event -> (Int, CueStylesheet)? in
            if case .stylesheet(let sheet) = event { return (index, sheet) }
            return nil
        }
        #expect(sheets.allSatisfy { $0.0 < firstCue })
        #expect(sheets.flatMap { $0.1.cueRules.map(\.selector) } == [.classes(["Default"]), .classes(["red"])])
        // One pass hands the colour's rule out just before the cue that uses it.
        let onePass = try ASSScripts.read(text)
        #expect(onePass.track.stylesheets.count == 2)
    }
}
