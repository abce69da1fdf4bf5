import CueKit
import CueKitTTML
import CueKitTestSupport
import Testing

/// Each TTML cue carries the start of its `p` element; the document's language is its root's
/// `xml:lang`.
@Suite struct TTMLCueLocationTests {
    @Test func eachCueIsAtItsParagraph() throws {
        let document = TTMLDocument.make(
            body: """
                <div>
                  <p begin="1s" end="2s">One</p>
                  <p begin="3s" end="4s">Two <span begin="0.5s">later</span></p>
                </div>
                """)
        let result = try TTMLDocument.read(document)
        // The body starts on line 4; the paragraphs' start tags on lines 5 and 6, located as the XML
        // layer locates elements: just after the start tag (columns 3 to 24).
        #expect(result.track.cues.map(\.location) == [5, 6, 6].map { SourceLocation(line: $0, column: 25) }, "\(result.track.cues)")
    }

    @Test func theRootsLanguageIsFoundByNamespace() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let cases: [(String, String?)] = [
            (#"<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="ja"><body/></tt>"#, "ja"),
            (#"<?xml version="1.0"?><!-- xml:lang="fr" --><tt:tt xmlns:tt="http://www.w3.org/ns/ttml" xml:lang="de-AT"/>"#, "de-AT"),
            (#"<tt xmlns="http://www.w3.org/ns/ttml"><body><p xml:lang="fr"/></body></tt>"#, nil),
            (#"<tt xmlns="http://www.w3.org/ns/ttml" xml:lang=""/>"#, nil),
            ("not XML at all", nil),
        ]
        for (index, (document, expected)) in cases.enumerated() {
            folder.write(document, to: "\(index).ttml")
            #expect(try TTMLReader.rootLanguage(fileAtPath: folder.file("\(index).ttml")) == expected, "\(document)")
        }
    }
}
