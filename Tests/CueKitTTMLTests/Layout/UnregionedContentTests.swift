import CueKit
import CueKitTTML
import CueKitTestSupport
import Testing

/// A document that defines regions but whose text selects none: hidden, as TTML2 section 11.3.1.3
/// says, with an error when that empties the whole track; or shown in the default region when
/// asked, as players do.
@Suite struct UnregionedContentTests {
    static let fixture = TestPaths.fixture("ttml/regions-none-selected.ttml")

    @Test func hiddenByDefaultAndAnErrorWhenTheTrackIsEmpty() throws {
        let result = try TTMLReader.read(fileAtPath: Self.fixture)
        #expect(result.track.cues.isEmpty)
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.code) == [.ttmlAllContentUnregioned])
        #expect(errors.first?.location == SourceLocation(line: 10, column: 29))
        #expect(errors.first?.message.contains("--unregioned default-region") == true)
    }

    @Test func shownInTheDefaultRegionWhenAsked() throws {
        let result = try TTMLReader.read(fileAtPath: Self.fixture, options: .init(unregionedContent: .defaultRegion))
        #expect(result.track.cues.map(\.text) == ["¿Dónde estabas?", "Aquí."])
        #expect(result.diagnostics.filter { $0.severity != .note }.isEmpty, "\(result.diagnostics)")
    }

    /// Some text in a region: the rest is hidden with a warning, and the track is not empty, so no
    /// error.
    @Test func noErrorWhenSomeTextIsPresented() throws {
        let document = TTMLDocument.make(
            head: #"<layout><region xml:id="r"/></layout>"#,
            body: #"<div><p begin="1s" end="2s" region="r">shown</p><p begin="3s" end="4s">hidden</p></div>"#)
        let result = try TTMLDocument.read(document)
        #expect(result.track.cues.map(\.text) == ["shown"])
        #expect(result.diagnostics.map(\.code).contains(.ttmlNoRegion))
        #expect(!result.diagnostics.contains { $0.severity == .error })
    }
}
