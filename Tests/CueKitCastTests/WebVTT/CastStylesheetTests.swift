import CueKit
import CueKitCast
import Testing

@Suite struct CastStylesheetTests {
    let red = CastColor(red: 255, green: 0, blue: 0, alpha: 128)
    let blue = CastColor(red: 0, green: 0, blue: 255)

    func css(_ style: TextTrackStyle) -> String? { style.cueStylesheet().stylesheet?.text }

    func rule(_ declarations: String...) -> String {
        "/* Cast TextTrackStyle */\n::cue {\n" + declarations.map { "  \($0);\n" }.joined() + "}"
    }

    @Test func writesEveryFieldAsOneRule() {
        let style = TextTrackStyle(
            foregroundColor: red, backgroundColor: CastColor(red: 0, green: 0, blue: 0, alpha: 204), edgeType: .outline, edgeColor: blue,
            fontScale: 1.5, fontFamily: "Open Sans", fontGenericFamily: .smallCapitals, fontStyle: .boldItalic
        )
        #expect(
            css(style) == """
                /* Cast TextTrackStyle */
                ::cue {
                  color: rgba(255, 0, 0, 0.502);
                  background-color: rgba(0, 0, 0, 0.8);
                  font-size: 150%;
                  font-family: "Open Sans", "Carrois Gothic SC", Roboto, Arial, sans-serif;
                  font-variant: small-caps;
                  font-weight: bold;
                  font-style: italic;
                  text-shadow: rgba(0, 0, 255, 1) -0.05em -0.05em 0, rgba(0, 0, 255, 1) 0.05em -0.05em 0, rgba(0, 0, 255, 1) -0.05em 0.05em 0, rgba(0, 0, 255, 1) 0.05em 0.05em 0;
                }
                """
        )
        #expect(style.cueStylesheet().diagnostics == [])
    }

    @Test(arguments: [
        (TextTrackStyle(foregroundColor: CastColor(red: 255, green: 255, blue: 0)), "color: rgba(255, 255, 0, 1)"),
        (TextTrackStyle(backgroundColor: CastColor(red: 0, green: 0, blue: 0, alpha: 0)), "background-color: rgba(0, 0, 0, 0)"),
        (TextTrackStyle(fontScale: 1), "font-size: 100%"),
        (TextTrackStyle(fontScale: 0.875), "font-size: 87.5%"),
        (TextTrackStyle(fontScale: 4.0 / 3.0), "font-size: 133.3333%"),
        (TextTrackStyle(fontFamily: "Tiresias"), "font-family: \"Tiresias\""),
        (TextTrackStyle(fontFamily: "A \"quoted\" \\ font -->"), "font-family: \"A \\\"quoted\\\" \\\\ font --\\3E \""),
    ])
    func writesEachFieldAlone(style: TextTrackStyle, declaration: String) {
        #expect(css(style) == rule(declaration))
    }

    @Test(arguments: [
        (TextTrackStyle.EdgeType.none, "none"),
        (
            .outline,
            "rgba(0, 0, 255, 1) -0.05em -0.05em 0, rgba(0, 0, 255, 1) 0.05em -0.05em 0, rgba(0, 0, 255, 1) -0.05em 0.05em 0, rgba(0, 0, 255, 1) 0.05em 0.05em 0"
        ),
        (.dropShadow, "rgba(0, 0, 255, 1) 0.08em 0.08em 0.08em"),
        (.raised, "rgba(0, 0, 255, 1) 0.03em 0.03em 0, rgba(0, 0, 255, 1) 0.06em 0.06em 0"),
        (.depressed, "rgba(0, 0, 255, 1) -0.04em -0.04em 0"),
    ])
    func writesEachEdgeTypeAsATextShadowInTheEdgeColour(edgeType: TextTrackStyle.EdgeType, shadow: String) {
        #expect(css(TextTrackStyle(edgeType: edgeType, edgeColor: blue)) == rule("text-shadow: " + shadow))
    }

    @Test func raisedFallsDownRightAndDepressedUpLeft() {
        func offsets(_ type: TextTrackStyle.EdgeType) -> [(Double, Double)] {
            type.textShadow(color: blue).split(separator: "rgba(0, 0, 255, 1)").map { shadow in
                let parts = shadow.split(separator: " ").filter { $0.hasSuffix("em") }.map { Double($0.dropLast(2))! }
                return (parts[0], parts[1])
            }
        }
        #expect(offsets(.raised).allSatisfy { $0.0 > 0 && $0.1 > 0 })
        #expect(offsets(.depressed).allSatisfy { $0.0 < 0 && $0.1 < 0 })
        #expect(offsets(.dropShadow).allSatisfy { $0.0 > 0 && $0.1 > 0 })
        let outline = offsets(.outline)
        #expect(Set(outline.map { $0.0 > 0 }) == [true, false] && Set(outline.map { $0.1 > 0 }) == [true, false])
    }

    @Test(arguments: [
        (TextTrackStyle.FontGenericFamily.sansSerif, "Roboto, \"Helvetica Neue\", Arial, sans-serif", false),
        (.monospacedSansSerif, "\"Droid Sans Mono\", \"DejaVu Sans Mono\", Consolas, monospace", false),
        (.serif, "\"Noto Serif\", Georgia, \"Times New Roman\", serif", false),
        (.monospacedSerif, "\"Cutive Mono\", \"Courier New\", Courier, monospace", false),
        (.casual, "\"Coming Soon\", \"Comic Sans MS\", \"Segoe Print\", cursive", false),
        (.cursive, "\"Dancing Script\", \"Segoe Script\", \"Brush Script MT\", cursive", false),
        (.smallCapitals, "\"Carrois Gothic SC\", Roboto, Arial, sans-serif", true),
    ])
    func writesAFontStackForEachGenericFamily(family: TextTrackStyle.FontGenericFamily, stack: String, smallCaps: Bool) {
        let expected = smallCaps ? rule("font-family: " + stack, "font-variant: small-caps") : rule("font-family: " + stack)
        #expect(css(TextTrackStyle(fontGenericFamily: family)) == expected)
        #expect(
            css(TextTrackStyle(fontFamily: "Lexend", fontGenericFamily: family))?.contains("font-family: \"Lexend\", " + stack + ";")
                == true)
    }

    @Test(arguments: [
        (TextTrackStyle.FontStyle.normal, "normal", "normal"), (.bold, "bold", "normal"), (.boldItalic, "bold", "italic"),
        (.italic, "normal", "italic"),
    ])
    func writesFontStyleAsWeightAndStyle(fontStyle: TextTrackStyle.FontStyle, weight: String, slant: String) {
        #expect(css(TextTrackStyle(fontStyle: fontStyle)) == rule("font-weight: " + weight, "font-style: " + slant))
    }

    @Test func writesOnlyPropertiesWebVTTAllowsInCue() {
        var styles: [TextTrackStyle] = []
        for edge in TextTrackStyle.EdgeType.allCases {
            for family in TextTrackStyle.FontGenericFamily.allCases {
                for fontStyle in TextTrackStyle.FontStyle.allCases {
                    styles.append(
                        TextTrackStyle(
                            foregroundColor: .white, backgroundColor: .black, edgeType: edge, edgeColor: blue, fontScale: 2,
                            fontFamily: "X",
                            fontGenericFamily: family, fontStyle: fontStyle, windowType: .normal, windowColor: red,
                            windowRoundedCornerRadius: 3
                        )
                    )
                }
            }
        }
        for style in styles {
            let result = style.cueStylesheet()
            #expect(!result.declarations.isEmpty)
            for declaration in result.declarations {
                #expect(CastStylesheet.allowedProperties.contains(declaration.property), "\(declaration.property)")
                #expect(result.stylesheet?.text.contains("  \(declaration.property): \(declaration.value);\n") == true)
            }
            #expect(result.stylesheet?.text.contains("-->") == false)
            #expect(result.stylesheet?.text.contains("\n\n") == false, "a blank line would end the STYLE block")
        }
    }

    @Test func theWindowIsReportedNeverDropped() {
        let result = TextTrackStyle(windowType: .roundedCorners, windowColor: red, windowRoundedCornerRadius: 6).cueStylesheet()
        #expect(result.stylesheet == nil)
        #expect(
            result.diagnostics.map(\.description) == [
                "warning: $.windowType: windowType, windowColor, windowRoundedCornerRadius describe the caption window of CEA-608/708, which has no ::cue equivalent in WebVTT: not written into the file (send them in the Cast message's textTrackStyle) [cast-window-not-in-webvtt]"
            ]
        )
        let colourOnly = TextTrackStyle(windowColor: red).cueStylesheet(at: CastJSONPath.root.appending("textTrackStyle"))
        #expect(colourOnly.diagnostics.map(\.code) == [.castWindowNotInWebVTT])
        #expect(colourOnly.diagnostics.first?.message.hasPrefix("$.textTrackStyle.windowColor: windowColor describes") == true)
    }

    @Test func notesWhatIsNotAStyle() {
        let result = TextTrackStyle(edgeType: .raised, edgeColor: nil, customData: ["a": 1], otherFields: ["fontWeight": 700])
            .cueStylesheet()
        #expect(result.stylesheet?.text == rule("text-shadow: rgba(0, 0, 0, 1) 0.03em 0.03em 0, rgba(0, 0, 0, 1) 0.06em 0.06em 0"))
        #expect(
            result.diagnostics.map(\.description) == [
                "note: $.edgeType: edgeType RAISED has no edgeColor; the edge is drawn in opaque black (#000000FF), as receivers do [cast-edge-color-default]",
                "note: $.customData: customData is application data, not a style: not written into the file [cast-not-written]",
                "note: $.fontWeight: 'fontWeight' is not a TextTrackStyle field CueKit knows how to draw: not written into the file [cast-not-written]",
            ]
        )
        let unusedColour = TextTrackStyle(edgeColor: blue).cueStylesheet()
        #expect(unusedColour.stylesheet == nil)
        #expect(unusedColour.diagnostics.map(\.code) == [.castIgnoredField])
    }

    @Test func aScaleBuiltInCodeThatIsNotPositiveIsRefused() {
        let result = TextTrackStyle(foregroundColor: .white, fontScale: -1).cueStylesheet()
        #expect(result.stylesheet?.text == rule("color: rgba(255, 255, 255, 1)"))
        #expect(result.diagnostics.map(\.code) == [.castBadFontScale])
    }

    @Test func aScaleTooLargeToWriteAsAPercentageIsRefused() {
        let result = TextTrackStyle(foregroundColor: .white, fontScale: 1e308).cueStylesheet()
        #expect(result.stylesheet?.text == rule("color: rgba(255, 255, 255, 1)"))
        #expect(result.diagnostics.map(\.description) == [
            "error: $.fontScale: fontScale must be a positive number at most 100, found 1e+308: not written [cast-bad-font-scale]"
        ])
    }

    @Test func applyingPutsTheRuleAfterTheFilesOwnAndRestylingReplacesIt() {
        var track = Track(
            stylesheets: [CueStylesheet("::cue { color: blue; }\n::cue(.loud) { color: lime; }")],
            cues: [Cue(start: 0, end: 1_000, text: "<c.loud>hi</c>")]
        )
        let first = TextTrackStyle(foregroundColor: .white)
        // The file's class rule keeps its colour on the text it selects, as on a receiver: said once.
        #expect(first.apply(to: &track).map(\.code) == [.castOverriddenByFile])
        #expect(
            track.stylesheets.map(\.text) == [
                "::cue { color: blue; }\n::cue(.loud) { color: lime; }", rule("color: rgba(255, 255, 255, 1)"),
            ])
        TextTrackStyle(fontScale: 2).apply(to: &track)
        #expect(track.stylesheets.map(\.text) == ["::cue { color: blue; }\n::cue(.loud) { color: lime; }", rule("font-size: 200%")])
        #expect(track.cues.count == 1)
    }

    @Test func namesEachRuleOfTheFileThatOverridesTheStyleOnItsSpans() {
        let sheet = CueStylesheet(
            "::cue { color: blue; }\n::cue(.a) { color: red; font-size: 80%; }\n::cue(.b.c) { color: red; }\n::cue(v[voice=\"Ann\"]) { text-decoration: underline; }"
        )
        var track = Track(stylesheets: [sheet], cues: [Cue(start: 0, end: 1_000, text: "<v.b Ann>hi <c.a>there</c></v>")])
        let diagnostics = TextTrackStyle(foregroundColor: .white, fontScale: 1.5).apply(to: &track)
        // The general ::cue rule loses to the style written after it; the voice rule sets nothing
        // the style sets; no span carries both .b and .c, so that rule selects nothing.
        #expect(diagnostics.map(\.code) == [.castOverriddenByFile])
        #expect(diagnostics.first?.message.contains("::cue(.a) sets color, font-size") == true)
        #expect(diagnostics.first?.message.contains("fontScale, foregroundColor") == true)
    }

    @Test func aClassRuleNoCueUsesOverridesNothingAndIsNotReported() throws {
        let sheet = CueStylesheet("::cue(.unused) { color: red; }\n::cue(.used) { color: lime; }")
        var applier = CastStyleApplier(style: TextTrackStyle(foregroundColor: .white))
        var written: [TrackEvent] = []
        let events: [TrackEvent] = [
            .stylesheet(sheet), .cue(Cue(start: 0, end: 1_000, text: "plain")), .cue(Cue(start: 1_000, end: 2_000, text: "<c.used.x>on</c>")),
        ]
        for event in events { applier.process(event) { written.append($0) } }
        #expect(applier.watchesCues, "::cue(.unused) still waits for a cue")
        applier.finish { written.append($0) }
        #expect(applier.diagnostics.map(\.message) == [
            "the file's rule ::cue(.used) sets color, which overrides the applied foregroundColor on the text it selects"
        ])
        #expect(written.count == 4)
    }

    @Test func warnsWhenTheFileUsesImportant() {
        var track = Track(stylesheets: [CueStylesheet("::cue { color: blue !important; }")])
        let diagnostics = TextTrackStyle(foregroundColor: .white).apply(to: &track)
        #expect(diagnostics.map(\.code) == [.castFileImportant])
    }

    @Test func streamsTheSheetInBeforeTheFirstCue() throws {
        let old = CueStylesheet(rule("color: rgba(1, 2, 3, 1)"))
        let own = CueStylesheet("::cue(v) { color: lime; }")
        let cue = Cue(start: 0, end: 1_000, text: "a")
        let events: [TrackEvent] = [.header(""), .note(CueNote("n", cueIndex: 0)), .stylesheet(old), .stylesheet(own), .cue(cue), .cue(cue)]
        var applier = CastStyleApplier(style: TextTrackStyle(foregroundColor: .white))
        var output: [TrackEvent] = []
        for event in events { applier.process(event) { output.append($0) } }
        applier.finish { output.append($0) }
        #expect(
            output == [
                .header(""), .note(CueNote("n", cueIndex: 0)), .stylesheet(own),
                .stylesheet(CueStylesheet(rule("color: rgba(255, 255, 255, 1)"))), .cue(cue),
                .cue(cue),
            ]
        )

        var empty = CastStyleApplier(style: TextTrackStyle(fontScale: 3))
        var emptyOutput: [TrackEvent] = []
        empty.process(.header("")) { emptyOutput.append($0) }
        empty.finish { emptyOutput.append($0) }
        #expect(emptyOutput == [.header(""), .stylesheet(CueStylesheet(rule("font-size: 300%")))])
    }
}
