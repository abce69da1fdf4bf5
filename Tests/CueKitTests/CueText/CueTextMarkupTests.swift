import CueKit
import Testing

@Suite struct CueTextMarkupTests {
    @Test func escapesTextAndWritesEveryTag() {
        let nodes: [CueNode] = [
            .span(CueSpan(.voice("Mary Ann"), classes: ["loud"], children: [.text("Tom & <Jerry> -->")])),
            .text(" "),
            .span(CueSpan(.italic, children: [.span(CueSpan(.bold, children: [.text("b")]))])),
            .timestamp(1_500),
            .span(CueSpan(.ruby, children: [.text("漢"), .span(CueSpan(.rubyText, children: [.text("kan")]))])),
            .span(CueSpan(.language("en-GB"), children: [.text("colour")])),
            .span(CueSpan(.class, classes: ["a", "b"], children: [.text("x")])),
            .span(CueSpan(.underline)),
        ]
        #expect(
            CueText.markup(for: nodes)
                == "<v.loud Mary Ann>Tom &amp; &lt;Jerry&gt; --&gt;</v> <i><b>b</b></i><00:00:01.500><ruby>漢<rt>kan</rt></ruby><lang en-GB>colour</lang><c.a.b>x</c><u></u>"
        )
    }

    @Test func escapesAnnotations() {
        let nodes: [CueNode] = [.span(CueSpan(.voice("A&B <x>"), children: [.text("hi")]))]
        #expect(CueText.markup(for: nodes) == "<v A&amp;B &lt;x&gt;>hi</v>")
    }

    @Test func keepsArrowOutOfTags() {
        let nodes: [CueNode] = [
            .span(CueSpan(.class, classes: ["x--"], children: [.text("a")])),
            .span(CueSpan(.voice("--"), children: [.text("b")])),
        ]
        let markup = CueText.markup(for: nodes)
        #expect(!markup.contains("-->"))
        #expect(markup == "<c.x-- >a</c><v -- >b</v>")
    }

    @Test func reportsWhatItCannotCarry() {
        var issues: [CueText.MarkupIssue] = []
        let nodes: [CueNode] = [
            .span(CueSpan(.class, classes: ["has space", "", "ok"], children: [.text("\n\nline\r\n\n\nnext\n")])),
            .span(CueSpan(.voice("  two\n words "), children: [])),
        ]
        let markup = CueText.markup(for: nodes, issues: &issues)
        #expect(markup == "<c.hasspace.ok>\nline\nnext\n</c><v two words></v>")
        #expect(issues.count == 5, "\(issues)")
        #expect(issues.contains { $0.description.contains("empty class name") })
        #expect(issues.contains { $0.description.contains("class name") })
        #expect(issues.contains { $0.description.contains("carriage returns") })
        #expect(issues.contains { $0.description.contains("empty lines") })
        #expect(issues.contains { $0.description.contains("annotation") })
    }

    @Test func plainTextDropsMarkup() {
        let nodes: [CueNode] = [.text("a "), .span(CueSpan(.bold, children: [.text("b")])), .timestamp(5), .text(" c")]
        #expect(nodes.plainText == "a b c")
    }

    @Test func saysWhatAReaderWouldNotReadBack() {
        var issues: [CueText.MarkupIssue] = []
        let markup = CueText.markup(for: [.timestamp(-1), .span(CueSpan(.rubyText, children: [.text("rt")]))], issues: &issues)
        #expect(markup == "<00:00:00.000>rt")
        #expect(issues.count == 2, "\(issues)")
        var deep: [CueNode] = [.text("x")]
        for _ in 0..<(CueText.maximumNestingDepth + 2) { deep = [.span(CueSpan(.bold, children: deep))] }
        issues = []
        let deepMarkup = CueText.markup(for: deep, issues: &issues)
        #expect(issues.count == 2)
        #expect(CueText.nodes(from: deepMarkup).plainText == "x")
    }
}
