import CueKit
import Testing

@Suite struct CueStyleRuleTests {
    @Test func oneSerializerInTwoLayouts() {
        let rule = CueStyleRule(.classes(["yellow", "big"]), [.init("color", "#ffff00"), .init("font-size", "120%")])
        #expect(rule.css() == "::cue(.yellow.big) { color: #ffff00; font-size: 120%; }")
        #expect(rule.css(.expanded) == "::cue(.yellow.big) {\n  color: #ffff00;\n  font-size: 120%;\n}")
        #expect(CueStyleRule(.everyCue, [.init("color", "red")]).css() == "::cue { color: red; }")
    }

    @Test func cssTextIsReadBackIntoTheSameRules() {
        let rules = [
            CueStyleRule(.everyCue, [.init("background-color", "transparent")]),
            CueStyleRule(.classes(["s1"]), [.init("color", "#ffffff"), .init("font-family", "sans-serif")]),
            CueStyleRule(.other(#"::cue(v[voice="Roger"])"#), [.init("color", "cyan")]),
        ]
        let sheet = CueStylesheet(rules: rules, comment: "made here")
        #expect(sheet.text.hasPrefix("/* made here */\n::cue { background-color: transparent; }\n"))
        let (read, unread) = CueStyleRule.parse(sheet.text)
        #expect(read == rules)
        #expect(unread == 0)
        // Typed or verbatim, a sheet is its CSS.
        #expect(CueStylesheet(sheet.text) == sheet)
        #expect(CueStylesheet(sheet.text).cueRules == rules)
    }

    @Test func whatIsNotACueRuleIsCountedNotKept() {
        let css = """
            @import url(x.css);
            video { color: red }
            ::cue(.a) { COLOR : Lime ; }
            ::cue(.a.b) { color: red }
            ::cue(.bad name) { color: red }
            ::cue { color: blue
            """
        let (rules, unread) = CueStyleRule.parse(css)
        #expect(rules.map(\.selector) == [.classes(["a"]), .classes(["a", "b"]), .other("::cue(.bad name)")])
        #expect(CueStyleRule.parse("::cue( .x ) { color: red }").rules.map(\.selector) == [.classes(["x"])])
        #expect(rules.first?.value(of: "color") == "Lime")
        #expect(unread == 2)
    }
}
