import CueKit
import CueKitTTML
import Testing

/// `ttm:agent` (TTML2 section 12.1.6): text attributed to an agent the head declares with a name
/// becomes a WebVTT voice.
@Suite struct TTMLAgentTests {
    static let head = """
        <metadata>
          <ttm:title>ignored</ttm:title>
          <ttm:agent xml:id="bob" type="person"><ttm:name type="full">Bob   Smith</ttm:name><ttm:name type="alias">B</ttm:name></ttm:agent>
          <ttm:agent xml:id="nameless" type="person"/>
        </metadata>
        """

    @Test func spansAndParagraphsAttributedToANamedAgentAreVoices() throws {
        let document = TTMLDocument.make(
            head: Self.head,
            body: """
                <div><p begin="0s" end="1s">Hi <span ttm:agent="bob">there</span></p>
                <p begin="1s" end="2s" ttm:agent="bob">All mine</p>
                <p begin="2s" end="3s"><span ttm:agent="nameless">no name</span> <span ttm:agent="unknown">nobody</span></p></div>
                """)
        let result = try TTMLDocument.read(document)
        #expect(result.track.cues.map(\.text) == ["Hi <v Bob Smith>there</v>", "<v Bob Smith>All mine</v>", "no name nobody"])
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test func metadataOutsideTheHeadIsStillSkipped() throws {
        let document = TTMLDocument.make(
            body: #"<div><metadata><ttm:agent xml:id="x"><ttm:name>X</ttm:name></ttm:agent></metadata><p begin="0s" end="1s" ttm:agent="x">text</p></div>"#)
        #expect(try TTMLDocument.read(document).track.cues.map(\.text) == ["text"])
    }
}
