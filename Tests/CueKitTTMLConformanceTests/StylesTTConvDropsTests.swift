import CueKit
import CueKitTTML
import CueKitTestSupport
import Testing

/// Styles ttconv 1.2.3 leaves out of its WebVTT (its README: colour, span background, bold,
/// italic and plain underline only) that CueKit carries, on the corpus's own documents.
@Suite
struct StylesTTConvDropsTests {
    /// The STYLE block's text.
    private func styleSheet(_ document: String) throws -> String {
        try TTMLCorpus.read(document).track.stylesheets.map(\.text).joined(separator: "\n")
    }

    @Test func fontFamilyComesThrough() throws {
        let result = try TTMLCorpus.read("w3c-imsc-tests/imsc1/fontFamily/FontFamily009.ttml")
        let sheet = result.track.stylesheets.map(\.text).joined(separator: "\n")
        #expect(sheet.contains("::cue(.t1) { font-family: \"InexistantFont\", \"Times New Roman\"; }"))
        #expect(result.track.cues.first?.text == "The last words must be <c.t1>using a Times New Roman font</c>.")
    }

    /// Pixels are related to the video through the root container's extent (640×480 here): 24px
    /// is 5% of the height.
    @Test func fontSizeComesThrough() throws {
        #expect(try styleSheet("w3c-imsc-tests/imsc1/fontSize/FontSize001.ttml").contains("font-size: 5vh;"))
        #expect(try styleSheet("w3c-imsc-tests/imsc1/fontSize/FontSize004.ttml").contains("font-size: 150%;"))
    }

    /// A two-pixel red outline on a 480-pixel-high root is eight red shadows 0.4167vh away.
    @Test func textOutlineComesThroughAsTextShadow() throws {
        let sheet = try styleSheet("w3c-imsc-tests/imsc1/textOutline/TextOutline004.ttml")
        #expect(sheet.contains("::cue(.s1) { text-shadow: 0.4167vh 0 #ff0000, -0.4167vh 0 #ff0000,"))
        #expect(sheet.split(separator: ",").filter { $0.hasSuffix("#ff0000") || $0.hasSuffix("#ff0000; }") }.count == 8)
    }

    @Test func textShadowComesThrough() throws {
        #expect(try styleSheet("w3c-imsc-tests/imsc1_1/textShadow/textShadow001.ttml").contains("text-shadow: 0.1em -0.2em 0.05em #00ff00;"))
    }

    @Test func obliqueAndDecorationsComeThrough() throws {
        #expect(try styleSheet("w3c-imsc-tests/imsc1/fontStyle/FontStyle003.ttml").contains("font-style: oblique;"))
        let decorated = try TTMLCorpus.read("w3c-imsc-tests/imsc1/textDecoration/TextDecoration013.ttml")
        #expect(decorated.track.stylesheets.map(\.text).joined().contains("text-decoration: line-through overline;"))
        #expect(decorated.track.cues.first?.text.hasPrefix("<c.t1><u>") == true)
    }

    /// Region, paragraph and span backgrounds all reach the text, innermost on top.
    @Test func paragraphAndRegionBackgroundsComeThrough() throws {
        let result = try TTMLCorpus.read("w3c-imsc-tests/imsc1/backgroundColor/backgroundColor-region-p-span-001.ttml")
        #expect(result.track.cues.first?.text == "<c.greenBackground><c.paragraphStyle><c.spanStyle>One line Subtitle.</c></c></c>")
        #expect(result.diagnostics.contains { $0.code == .ttmlStyleApproximated })
    }

    /// Regions become cue boxes: four regions in the four quadrants keep their places (those at
    /// the bottom where WebVTT puts cues by default, `line:auto`).
    @Test func regionsBecomeCueSettings() throws {
        let cues = try TTMLCorpus.read("w3c-imsc-tests/imsc1/region/four-active-regions-001.ttml").track.cues
        #expect(cues.map(\.settings.line) == [.percentage(0), .percentage(0), .auto, .auto])
        #expect(cues.map(\.settings.position) == [.percentage(0), .percentage(50), .percentage(0), .percentage(50)])
        #expect(cues.map(\.settings.size) == [50, 50, 50, 50])
        #expect(cues.map(\.settings.alignment) == [.left, .right, .left, .right])
    }
}
