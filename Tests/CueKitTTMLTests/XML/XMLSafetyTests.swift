import CueKit
import CueKitTTML
import CueKitTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Hostile XML: document type declarations (entity bombs, external entities, external DTDs) are
/// refused before anything they declare is used; nothing is read from disk or network.
struct XMLSafetyTests {
    static let hostileFixtures = [
        "ttml/billion-laughs.ttml", "ttml/quadratic-blowup.ttml", "ttml/xxe-external-file.ttml",
        "ttml/xxe-parameter-entity.ttml", "ttml/external-dtd.ttml",
    ]

    @Test("a document type declaration is refused", arguments: hostileFixtures)
    func refusesDocumentTypeDeclarations(_ fixture: String) throws {
        let path = TestPaths.fixture(fixture)
        var events: [TrackEvent] = []
        do {
            try TTMLReader.stream(fileAtPath: path) { events.append($0) }
            Issue.record("\(fixture) was read")
        } catch let error as ReadError {
            #expect(error.diagnostic.code == .ttmlDocumentType)
            #expect(error.diagnostic.location?.line == 2)
            #expect(error.path == path)
            #expect(error.diagnostic.message.contains("<!DOCTYPE>"))
        }
        // Nothing was handed out: the DOCTYPE comes before the root element.
        #expect(events.isEmpty)
    }

    /// An external entity naming a real file: refused, and the file's content appears nowhere.
    @Test func externalEntityIsNeverExpanded() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let marker = "secret-\(getpid())-marker"
        directory.write(marker, to: "secret.txt")
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE tt [<!ENTITY secret SYSTEM "file://\(directory.file("secret.txt"))">]>
            <tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s" end="1s">&secret;</p></div></body></tt>
            """
        let error = try #require(TTMLDocument.error(document))
        #expect(error.diagnostic.code == .ttmlDocumentType)
        #expect(!error.description.contains(marker))
    }

    /// Without a document type declaration no entity can be declared: any reference but XML's
    /// five is a well-formedness error, located at the reference's `&`.
    @Test func undeclaredEntityIsNotWellFormed() throws {
        let document = TTMLDocument.make(body: #"<div><p begin="0s" end="1s">caf&eacute;</p></div>"#)
        let error = try #require(TTMLDocument.error(document))
        #expect(error.diagnostic.code == .ttmlNotWellFormed)
        #expect(error.diagnostic.message == "not well-formed XML: Entity 'eacute' not defined")
        #expect(error.diagnostic.location == SourceLocation(line: 4, column: 38))
    }

    @Test func predefinedEntitiesAndCharacterReferencesAreText() throws {
        let document = TTMLDocument.make(
            body: #"<div><p begin="0s" end="1s" tts:fontFamily="'A&amp;B'">&lt;b&gt; &amp; &#x1F600; &#233;</p></div>"#)
        let result = try TTMLDocument.read(document)
        #expect(result.track.cues.first?.text == "<c.t1>&lt;b&gt; &amp; 😀 é</c>")
        #expect(result.track.stylesheets.first?.text.contains(#"font-family: "A&B";"#) == true)
    }

    @Test func emptyInputIsRefused() {
        #expect(TTMLDocument.error("")?.diagnostic.code == .ttmlEmpty)
    }

    @Test func truncatedInputSaysSo() throws {
        let error = try #require(TTMLDocument.error(#"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p>cut"#))
        #expect(error.diagnostic.code == .ttmlNotWellFormed)
        #expect(error.diagnostic.message.contains("ends before the root element is closed"))
    }

    @Test func rootMustBeTTInATTMLNamespace() throws {
        let noNamespace = try #require(TTMLDocument.error("<tt><body/></tt>"))
        #expect(noNamespace.diagnostic.code == .ttmlNotTTML)
        let html = try #require(TTMLDocument.error(#"<html xmlns="http://www.w3.org/1999/xhtml"/>"#))
        #expect(html.diagnostic.message.contains("is <html>, not <tt>"))
    }

    /// The same events, or the same error, however the bytes are cut.
    @Test("chunking does not change a refusal", arguments: hostileFixtures)
    func refusalIsChunkingIndependent(_ fixture: String) throws {
        let bytes = try TestPaths.bytes(TestPaths.fixture(fixture))
        let outcome = try ChunkingVerifier.verify(bytes) { TTMLReader() }
        guard case .failure(let error) = outcome else {
            Issue.record("\(fixture) was read")
            return
        }
        #expect(error.diagnostic.code == .ttmlDocumentType)
    }
}
