import CueKit
import CueKitASS
import Testing

@Suite struct ASSOverrideTests {
    @Test func italicBoldUnderlineBecomeTags() throws {
        let cue = try #require(try ASSScripts.cue("{\\i1}it{\\i0} {\\b1}bold{\\b0} {\\u1}under"))
        #expect(cue.text == "<c.Default><i>it</i> <b>bold</b> <u>under</u></c>")
        #expect(ShownTextLines.of(cue) == ["it bold under"])
    }

    @Test func colourAndAlphaBecomeColourClassesWithRules() throws {
        let result = try ASSScripts.read(
            ASSScripts.script(events: [ASSScripts.dialogue("{\\c&H00FFFF&}yellow {\\1c&H123456&\\alpha&H80&}dim{\\r} plain")]))
        let cue = try #require(result.track.cues.first)
        // \alpha sets the outline's alpha too.
        #expect(cue.text == "<c.Default><c.yellow>yellow </c><c.color-5634127f><c.outline-0000007f>dim</c></c> plain</c>")
        let rules = result.track.stylesheets.flatMap(\.cueRules)
        #expect(rules.map(\.selector) == [.classes(["Default"]), .classes(["yellow"]), .classes(["color-5634127f"]), .classes(["outline-0000007f"])])
        #expect(rules[2].value(of: "color") == "#5634127f")
    }

    @Test func outlineColourBecomesAnOutlineClass() throws {
        let result = try ASSScripts.read(ASSScripts.script(events: [ASSScripts.dialogue("{\\3c&HFF0000&}blue edge")]))
        #expect(result.track.cues.first?.text == "<c.Default><c.outline-0000ff>blue edge</c></c>")
        let rule = try #require(result.track.stylesheets.flatMap(\.cueRules).first { $0.selector == .classes(["outline-0000ff"]) })
        #expect(rule.value(of: "text-shadow")?.hasPrefix("#0000ff -0.05em -0.05em 0") == true)
    }

    @Test func posAndAnPlaceTheCue() throws {
        let cue = try #require(try ASSScripts.cue("{\\an7\\pos(64,120)}sign{\\an3}"))
        #expect(cue.settings.position == .percentage(10))
        #expect(cue.settings.line == .percentage(25))
        #expect(cue.settings.positionAlignment == .lineLeft)
        #expect(cue.settings.lineAlignment == .start)
        #expect(cue.settings.alignment == .left)
        let legacy = try #require(try ASSScripts.cue("{\\a6}top"))
        #expect(legacy.settings.lineAlignment == .start)
        #expect(legacy.settings.alignment == .center)
    }

    @Test func lineBreaksAndHardSpaces() throws {
        #expect(try ASSScripts.cue("one\\Ntwo\\nsame\\hline")?.text == "<c.Default>one\ntwo same\u{A0}line</c>")
        #expect(try ASSScripts.cue("one\\ntwo", info: ["WrapStyle: 2"])?.text == "<c.Default>one\ntwo</c>")
        // Empty lines cannot stand in a cue: they are left out, and so are breaks at either end.
        #expect(try ASSScripts.cue("\\Na\\N\\N\\N{\\i1}b\\N")?.text == "<c.Default>a<i>\nb</i></c>")
    }

    @Test func markupCharactersAreEscapedAndCommentsLeftOut() throws {
        #expect(try ASSScripts.cue("a < b & c > d{not a tag}!")?.text == "<c.Default>a &lt; b &amp; c &gt; d!</c>")
        #expect(try ASSScripts.cue("open { brace")?.text == "<c.Default>open { brace</c>")
    }

    @Test func turningOffTheStylesItalicIsReported() throws {
        let result = try ASSScripts.read(
            ASSScripts.script(
                styles: ["Style: It,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,1,0,0,100,100,0,0,1,2,2,2,10,10,10,1"],
                events: [ASSScripts.dialogue("{\\i0}upright", style: "It")]))
        #expect(result.track.cues.first?.text == "<c.It>upright</c>")
        #expect(result.diagnostics.map(\.code) == [.assUnsupported])
        #expect(result.diagnostics.first?.message.contains("\\i0") == true)
    }

    @Test func unsupportedTagsAreReportedOncePerKind() throws {
        let result = try ASSScripts.read(
            ASSScripts.script(events: [
                ASSScripts.dialogue("{\\k20}ka{\\k30}ra{\\kf10}oke"),
                ASSScripts.dialogue("{\\move(0,0,100,100)\\t(\\fs20)}moving{\\fad(100,200)}"),
                ASSScripts.dialogue("{\\p1}m 0 0 l 100 0 100 100{\\p0}after drawing"),
                ASSScripts.dialogue("{\\k10}again{\\move(10,20,30,40)}"),
            ]))
        let messages = result.diagnostics.filter { $0.code == .assUnsupported }.map(\.message)
        #expect(messages.count == 5, "\(messages)")
        for kind in ["\\k (karaoke)", "\\move", "\\t (transform)", "\\fad", "\\p (drawing)"] {
            #expect(messages.filter { $0.contains(kind + " ") }.count == 1, "\(kind): \(messages)")
        }
        let karaoke = try #require(result.diagnostics.first { $0.message.contains("karaoke") })
        #expect(karaoke.location == SourceLocation(line: 12, column: 52))
        let cues = result.track.cues
        #expect(cues.map { ShownTextLines.of($0) } == [["karaoke"], ["moving"], ["after drawing"], ["again"]])
        // \move is placed at its start point.
        #expect(cues[1].settings.position == .percentage(0))
        #expect(cues[3].settings.position == .percentage(1.56))
    }

    @Test func resetToANamedStyleSwitchesTheClass() throws {
        let cue = try #require(
            try ASSScripts.cue(
                "{\\i1}a{\\rAlt}b{\\r}c",
                styles: ["Style: Alt,Arial,20,&H0000FFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1"]))
        #expect(cue.text == "<c.Default><i>a</i></c><c.Alt>b</c><c.Default>c</c>")
    }

    @Test func anEventShowingNothingMakesNoCue() throws {
        let result = try ASSScripts.read(ASSScripts.script(events: [ASSScripts.dialogue("{\\p1}m 0 0 l 10 10{\\p0}"), ASSScripts.dialogue("")]))
        #expect(result.track.cues.isEmpty)
        #expect(result.diagnostics.filter { $0.code == .assEmptyEvent }.count == 2)
    }
}

/// The lines a cue shows, without markup.
enum ShownTextLines {
    static func of(_ cue: Cue) -> [String] {
        CueText.nodes(from: cue.text).plainText.split(separator: "\n").map(String.init)
    }
}
