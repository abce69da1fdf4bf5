import Foundation
import CueKit
import Testing

@testable import CueKitTTML

/// CSS values as TTML style attributes (``TTMLStyleTranslation``).
@Suite struct TTMLStyleTranslationTests {
    @Test(arguments: [
        ("#fc0", "#ffcc00ff"), ("#fc08", "#ffcc0088"), ("#FFCC00", "#ffcc00ff"), ("#ffcc0080", "#ffcc0080"),
        ("rgb(255, 204, 0)", "#ffcc00ff"), ("rgba(0,0,0,0.5)", "#00000080"), ("rgb(0 0 0 / 50%)", "#00000080"),
        ("rgb(100%, 0%, 0%)", "#ff0000ff"), ("transparent", "#00000000"), ("Yellow", "#ffff00ff"), ("  lime  ", "#00ff00ff"),
    ])
    func colours(_ css: String, _ ttml: String) {
        #expect(TTMLStyleTranslation.color(css) == ttml)
    }

    @Test(arguments: ["#ff", "#gggggg", "rgb(1,2)", "rgb(a,b,c)", "currentcolor", "hsl(0, 100%, 50%)", ""])
    func coloursTTMLCannotSay(_ css: String) {
        #expect(TTMLStyleTranslation.color(css) == nil)
    }

    @Test func fontFamiliesMapGenericNamesAndQuoteTheRest() {
        #expect(TTMLStyleTranslation.fontFamily(#""Open Sans", Arial Black, sans-serif"#) == #""Open Sans", "Arial Black", sansSerif"#)
        #expect(TTMLStyleTranslation.fontFamily("monospace") == "monospace")
        #expect(TTMLStyleTranslation.fontFamily("cursive") == "default")
        #expect(TTMLStyleTranslation.fontFamily(#"'My "odd" font'"#) == #""My \"odd\" font""#)
        #expect(TTMLStyleTranslation.fontFamily("a,,b") == nil)
    }

    @Test func sizesInEachProfile() {
        #expect(TTMLStyleTranslation.fontSize("150%", profile: .imsc11) == "150%")
        #expect(TTMLStyleTranslation.fontSize("1.5em", profile: .imsc11) == "150%")
        #expect(TTMLStyleTranslation.fontSize("5vh", profile: .imsc11) == "0.75c")
        #expect(TTMLStyleTranslation.fontSize("5vh", profile: .ebuTTD) == "75%")
        #expect(TTMLStyleTranslation.fontSize("5vh", profile: .imsc11, cellRows: 20) == "1c")
        #expect(TTMLStyleTranslation.fontSize("7.5vh", profile: .ebuTTD, cellRows: 20) == "150%")
        #expect(TTMLStyleTranslation.fontSize("12px", profile: .imsc11) == nil)
        #expect(TTMLStyleTranslation.lineHeight("1.2") == "120%")
        #expect(TTMLStyleTranslation.lineHeight("normal") == "normal")
    }

    @Test func shadowsAreAtMostFourAndInEm() {
        #expect(TTMLStyleTranslation.textShadow("rgba(0, 0, 0, 1) 0.05em 0.05em 0, 0.1em 0.1em #fff") == "0.05em 0.05em 0em #000000ff, 0.1em 0.1em #ffffffff")
        #expect(TTMLStyleTranslation.textShadow("1em 1em, 1em 1em, 1em 1em, 1em 1em, 1em 1em") == nil)
        #expect(TTMLStyleTranslation.textShadow("2px 2px black") == nil)
        #expect(TTMLStyleTranslation.textShadow("none") == "none")
    }

    /// A Cast OUTLINE edge (four diagonal shadows), or the eight-way outline the TTML reader writes,
    /// is TTML's own outline, which every IMSC renderer draws; a shadow to one side stays a shadow.
    @Test func anOutlineDrawnWithShadowsIsATextOutline() {
        let cast = "rgba(0, 0, 255, 1) -0.05em -0.05em 0, rgba(0, 0, 255, 1) 0.05em -0.05em 0, rgba(0, 0, 255, 1) -0.05em 0.05em 0, rgba(0, 0, 255, 1) 0.05em 0.05em 0"
        #expect(TTMLStyleTranslation.textOutline(cast) == "#0000ffff 0.05em")
        let eightWay = "0.1em 0 #000000, -0.1em 0 #000000, 0 0.1em #000000, 0 -0.1em #000000, 0.1em 0.1em #000000, -0.1em -0.1em #000000, 0.1em -0.1em #000000, -0.1em 0.1em #000000"
        #expect(TTMLStyleTranslation.textOutline(eightWay) == "#000000ff 0.1em")
        // A drop shadow, mixed colours, uneven distances, a blur: no outline.
        #expect(TTMLStyleTranslation.textOutline("0.05em 0.05em 0 black") == nil)
        #expect(TTMLStyleTranslation.textOutline(cast.replacingOccurrences(of: "0, 0, 255, 1) 0.05em 0.05em", with: "255, 0, 0, 1) 0.05em 0.05em")) == nil)
        #expect(TTMLStyleTranslation.textOutline(cast.replacingOccurrences(of: "0.05em 0.05em 0", with: "0.1em 0.1em 0")) == nil)
        #expect(TTMLStyleTranslation.textOutline(cast.replacingOccurrences(of: "0.05em 0.05em 0", with: "0.05em 0.05em 0.1em")) == nil)
        for profile in [TTMLProfile.imsc11, .ttml1] {
            let result = TTMLStyleTranslation.translate([.init("text-shadow", cast)], profile: profile)
            #expect(result.attributes.map(\.name) == ["tts:textOutline"], "\(profile)")
        }
        #expect(TTMLStyleTranslation.translate([.init("text-shadow", cast)], profile: .ebuTTD).attributes.isEmpty)
    }

    @Test func declarationsInOrderWithTheLastOfOneAttributeWinning() {
        let result = TTMLStyleTranslation.translate(
            [
                .init("color", "red"), .init("font-weight", "700 !important"), .init("color", "lime"), .init("text-decoration", "underline line-through"),
                .init("cursor", "pointer"), .init("opacity", "0.5"), .init("font-style", "oblique"),
            ], profile: .imsc11)
        #expect(
            result.attributes.map { "\($0.name)=\($0.value)" } == [
                "tts:fontWeight=bold", "tts:color=#00ff00ff", "tts:textDecoration=underline lineThrough", "tts:opacity=0.5", "tts:fontStyle=oblique",
            ])
        #expect(result.notCarried == ["cursor: pointer"])
    }

    @Test func numbersAreWrittenPlainly() {
        #expect(0.1.ttmlNumber == "0.1")
        #expect(6.666666.ttmlNumber == "6.6667")
        #expect(100.0.ttmlNumber == "100")
        #expect((-0.5).ttmlNumber == "-0.5")
        #expect(1e300.ttmlNumber == "0")
    }
}
