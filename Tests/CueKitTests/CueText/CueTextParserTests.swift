import CueKit
import CueKitTestSupport
import PropertyBased
import Testing

@Suite struct CueTextParserTests {
    @Test func buildsEverySpanKind() {
        let nodes = CueText.nodes(
            from: "<c.yellow.bg_blue>c</c><i>i</i><b>b</b><u>u</u><ruby>漢<rt.small>kan</rt></ruby><v.loud Esme>v</v><lang en-GB>l</lang>")
        #expect(
            nodes == [
                .span(CueSpan(.class, classes: ["yellow", "bg_blue"], children: [.text("c")])),
                .span(CueSpan(.italic, children: [.text("i")])),
                .span(CueSpan(.bold, children: [.text("b")])),
                .span(CueSpan(.underline, children: [.text("u")])),
                .span(CueSpan(.ruby, children: [.text("漢"), .span(CueSpan(.rubyText, classes: ["small"], children: [.text("kan")]))])),
                .span(CueSpan(.voice("Esme"), classes: ["loud"], children: [.text("v")])),
                .span(CueSpan(.language("en-GB"), children: [.text("l")])),
            ])
    }

    @Test func followsTheTreeBuildingRules() {
        // Unknown tags are dropped; each string token is its own text node.
        #expect(CueText.nodes(from: "a<font>b</font>c") == [.text("a"), .text("b"), .text("c")])
        // An end tag closes only the current span; </ruby> closes an open <rt> too.
        #expect(
            CueText.nodes(from: "<i><b>x</i>y</b>z") == [
                .span(CueSpan(.italic, children: [.span(CueSpan(.bold, children: [.text("x"), .text("y")])), .text("z")]))
            ])
        #expect(
            CueText.nodes(from: "<ruby>a<rt>b</ruby>c") == [
                .span(CueSpan(.ruby, children: [.text("a"), .span(CueSpan(.rubyText, children: [.text("b")]))])), .text("c"),
            ])
        // <rt> outside <ruby> is ignored; unclosed spans end with the text.
        #expect(CueText.nodes(from: "<rt>x") == [.text("x")])
        #expect(CueText.nodes(from: "<v Bob>hi") == [.span(CueSpan(.voice("Bob"), children: [.text("hi")]))])
        // Empty classes are dropped; annotations are trimmed and their white space collapsed.
        #expect(CueText.nodes(from: "<c..a.>x</c>") == [.span(CueSpan(.class, classes: ["a"], children: [.text("x")]))])
        #expect(CueText.nodes(from: "<v \t Mary \n Ann  >x") == [.span(CueSpan(.voice("Mary Ann"), children: [.text("x")]))])
        #expect(CueText.nodes(from: "<v>x") == [.span(CueSpan(.voice(""), children: [.text("x")]))])
        // Line breaks stay in the text.
        #expect(CueText.nodes(from: "one\ntwo") == [.text("one\ntwo")])
        #expect(CueText.nodes(from: "") == [])
    }

    @Test func readsTimestampTags() {
        #expect(CueText.nodes(from: "a<00:01.500>b<01:00:00.000>") == [.text("a"), .timestamp(1_500), .text("b"), .timestamp(3_600_000)])
        #expect(CueText.nodes(from: "<00:01.500 >x<1>y") == [.text("x"), .text("y")])
    }

    @Test func decodesCharacterReferencesAsHTMLDoes() {
        let cases: [(String, String)] = [
            ("&amp;&lt;&gt;&quot;&apos;&nbsp;", "&<>\"'\u{A0}"),
            ("&amp", "&"), ("&AMP;", "&"), ("&notit;", "¬it;"), ("&notin;", "∉"), ("&not", "¬"),
            ("&nsubE;", "\u{2AC5}\u{0338}"), ("&ClockwiseContourIntegral;", "\u{2232}"),
            ("&#32;&#x20;&#X41;", "  A"), ("&#x1F600;", "😀"), ("&#128512", "😀"),
            ("&#0;", "\u{FFFD}"), ("&#xD800;", "\u{FFFD}"), ("&#x110000;", "\u{FFFD}"), ("&#99999999999999999999;", "\u{FFFD}"),
            ("&#x80;", "€"), ("&#x9F;", "Ÿ"), ("&#x81;", "\u{81}"),
            ("&#;", "&#;"), ("&#x;", "&#x;"), ("&foo;", "&foo;"), ("& ", "& "), ("&&", "&&"), ("&1;", "&1;"), ("&;", "&;"), ("&", "&"),
        ]
        for (input, expected) in cases {
            #expect(CueText.nodes(from: input).plainText == expected, "\(input)")
        }
        // In an annotation `>` ends the tag even right after `&`.
        #expect(CueText.nodes(from: "<v A&amp;B &lt;x&gt;>t") == [.span(CueSpan(.voice("A&B <x>"), children: [.text("t")]))])
        #expect(CueText.nodes(from: "<v &>t") == [.span(CueSpan(.voice("&"), children: [.text("t")]))])
    }

    @Test func nestsNoDeeperThanTheLimit() {
        let depth = 10_000
        let nodes = CueText.nodes(from: String(repeating: "<i>", count: depth) + "x")
        var level = nodes, levels = 0
        while case .span(let span)? = level.first {
            levels += 1
            level = span.children
        }
        #expect(levels == CueText.maximumNestingDepth)
        #expect(level == [.text("x")])
    }

    @Test func reportsDiagnosticsAtTheirPlaceInTheFile() {
        var diagnostics: [Diagnostic] = []
        let context = CueText.Context(origin: SourceLocation(line: 10, column: 1), cueStart: 1_000, cueEnd: 2_000)
        let nodes = CueText.nodes(from: "é <x>\n<00:00:03.000>&bogus; <lang en_GB>y", context: context, diagnostics: &diagnostics)
        #expect(nodes.plainText == "é \n&bogus; y")
        #expect(
            diagnostics.map(\.code) == [
                .vttUnknownTag, .vttTimestampTagOrder, .vttUnknownCharacterReference, .vttBadLanguageTag, .vttUnclosedTag,
            ])
        #expect(
            diagnostics.map(\.location) == [
                SourceLocation(line: 10, column: 3), SourceLocation(line: 11, column: 1), SourceLocation(line: 11, column: 15),
                SourceLocation(line: 11, column: 23), SourceLocation(line: 11, column: 23),
            ])
        // The tree-less check finds the same.
        let checked = Array("é <x>\n<00:00:03.000>&bogus; <lang en_GB>y".utf8).withUnsafeBytes {
            CueText.diagnostics(forUTF8: $0, context: context)
        }
        #expect(checked == diagnostics)
    }

    @Test(arguments: ["en", "en-GB", "zh-Hant-TW", "sl-rozaj-biske", "de-CH-1901", "x-private", "en-a-bbb-x-a-ccc", "i-klingon", "EN-gb", "en-GB-oed",
        "art-lojban", "zh-min-nan", "sgn-BE-FR", "X-whatever", "zh-yue-Hant-HK-1996-u-co-pinyin",
    ])
    func acceptsWellFormedLanguageTags(_ tag: String) {
        var diagnostics: [Diagnostic] = []
        _ = CueText.nodes(from: "<lang \(tag)>x</lang>", context: CueText.Context(), diagnostics: &diagnostics)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }

    @Test(arguments: ["en_GB", "e", "en--GB", "123", "toolonglanguage", "en-a", "x", "en-", "-en", "x-", "en-GB-oedx", "en-a-b", "i-bogus"])
    func reportsIllFormedLanguageTags(_ tag: String) {
        var diagnostics: [Diagnostic] = []
        _ = CueText.nodes(from: "<lang \(tag)>x</lang>", context: CueText.Context(), diagnostics: &diagnostics)
        #expect(diagnostics.map(\.code) == [.vttBadLanguageTag])
    }

    /// The node limit stops a check without a tree where it stops the tree, with the same report.
    @Test func theCheckStopsAtTheNodeLimitAsTheTreeDoes() {
        // Three nodes a repetition: 102,000 in all. Past the limit start tags are ignored, so the
        // end tags after it are reported as unmatched (up to the per-cue limit of reports).
        let text = String(repeating: "a<b>b</b>", count: 34_000)
        let context = CueText.Context(cueStart: 0, cueEnd: 10_000)
        var treeDiagnostics: [Diagnostic] = []
        _ = CueText.nodes(from: text, context: context, diagnostics: &treeDiagnostics)
        let checked = CueText.diagnostics(forUTF8: text.utf8, context: context)
        #expect(treeDiagnostics.first?.code == .vttTooManyNodes)
        #expect(checked == treeDiagnostics)
    }

    @Test func cueNodesParseAndWriteTheText() {
        var cue = Cue(start: 0, end: 1_000, text: "<i>a &amp; b</i>")
        #expect(cue.nodes() == [.span(CueSpan(.italic, children: [.text("a & b")]))])
        cue.setNodes([.text("x < y"), .span(CueSpan(.bold, children: [.text("z")]))])
        #expect(cue.text == "x &lt; y<b>z</b>")
    }

    /// A tree that WebVTT markup carries exactly: text nodes neither empty nor adjacent, without
    /// carriage returns, blank lines or line breaks at the ends, `<rt>` only inside `<ruby>`,
    /// class names without white space, `.`, `&`, `<` or `>`, annotations already normalized.
    static func canonicalTree(_ random: inout SeededRandom, depth: Int = 0, inRuby: Bool = false) -> [CueNode] {
        let words = ["a", "b c", "&", "<", ">", "-->", "--", "é", "字", "😀", ";", "&amp;", "x\ny", " "]
        var nodes: [CueNode] = []
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            switch Int.random(in: 0..<(depth < 4 ? 4 : 2), using: &random) {
            case 0:
                if case .text = nodes.last { continue }
                nodes.append(.text((0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random)! }.joined()))
            case 1:
                nodes.append(.timestamp(Int.random(in: 0..<10_000_000_000, using: &random)))
            default:
                let annotations = ["", "Bob", "Mary Ann", "A&B <x>", "en-GB", "--"]
                let kinds: [CueSpan.Kind] =
                    [
                        .class, .italic, .bold, .underline, .ruby, .voice(annotations.randomElement(using: &random)!),
                        .language(annotations.randomElement(using: &random)!),
                    ] + (inRuby ? [.rubyText, .rubyText] : [])
                let kind = kinds.randomElement(using: &random)!
                let classes = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                    ["loud", "x-", "ü", "a--"].randomElement(using: &random)!
                }
                let children = canonicalTree(&random, depth: depth + 1, inRuby: kind == .ruby)
                nodes.append(.span(CueSpan(kind, classes: classes, children: children)))
            }
        }
        return nodes
    }

    @Test func markupReadsBackAsTheSameTree() async {
        await propertyCheck(count: 1_000, input: Gen.int(in: 0...Int.max)) { seed in
            var random = SeededRandom(seed: UInt64(seed))
            let tree = Self.canonicalTree(&random)
            var issues: [CueText.MarkupIssue] = []
            let markup = CueText.markup(for: tree, issues: &issues)
            #expect(issues.isEmpty, "\(issues)")
            #expect(!markup.contains("-->") && !markup.contains("\n\n") && !markup.hasPrefix("\n") && !markup.hasSuffix("\n"))
            #expect(CueText.nodes(from: markup) == tree, "\(markup.debugDescription)")
        }
    }
}

extension CueTextParserTests {
    /// Any tree at all: text with white space, line breaks and markup characters, empty and
    /// adjacent text nodes, spans of every kind anywhere, odd class names and annotations.
    static func arbitraryTree(_ random: inout SeededRandom, depth: Int = 0) -> [CueNode] {
        let pieces = ["", "a", " ", "\n", "\r", "\r\n", "&", "<", ">", "-", "--", ".", "\t", "é", ";", "x y"]
        func text() -> String { (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() }
        var nodes: [CueNode] = []
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            switch Int.random(in: 0..<(depth < 3 ? 4 : 2), using: &random) {
            case 0: nodes.append(.text(text()))
            case 1: nodes.append(.timestamp(Int.random(in: -5...100_000_000, using: &random)))
            default:
                let kinds: [CueSpan.Kind] = [.class, .italic, .bold, .underline, .ruby, .rubyText, .voice(text()), .language(text())]
                let classes = (0..<Int.random(in: 0...2, using: &random)).map { _ in text() }
                nodes.append(
                    .span(
                        CueSpan(kinds.randomElement(using: &random)!, classes: classes, children: arbitraryTree(&random, depth: depth + 1)))
                )
            }
        }
        return nodes
    }

    /// What a tree is once written in any form: empty text nodes gone, adjacent ones merged.
    static func merged(_ nodes: [CueNode]) -> [CueNode] {
        var result: [CueNode] = []
        for node in nodes {
            switch node {
            case .text(let text):
                if text.isEmpty { continue }
                if case .text(let previous) = result.last {
                    result[result.count - 1] = .text(previous + text)
                } else {
                    result.append(node)
                }
            case .timestamp:
                result.append(node)
            case .span(var span):
                span.children = merged(span.children)
                result.append(.span(span))
            }
        }
        return result
    }

    @Test func markupSaysWheneverItCannotCarryATree() async {
        await propertyCheck(count: 2_000, input: Gen.int(in: 0...Int.max)) { seed in
            var random = SeededRandom(seed: UInt64(seed))
            let tree = Self.arbitraryTree(&random)
            var issues: [CueText.MarkupIssue] = []
            let markup = CueText.markup(for: tree, issues: &issues)
            #expect(!markup.contains("-->") && !markup.contains("\n\n") && !markup.contains("\r"))
            if issues.isEmpty {
                #expect(CueText.nodes(from: markup) == Self.merged(tree), "\(markup.debugDescription)")
            }
        }
    }
}
