import CueKit
import CueKitTTML
import Testing

/// Elements with more attributes than ``TTMLReader/Options/Limits/maximumAttributesPerElement`` are refused
/// before libxml2 reads them (its duplicate check is quadratic); markup that only looks like
/// attributes (comments, CDATA, processing instructions, quoted values) is not counted.
@Suite struct AttributeLimitTests {
    static func document(attributes: Int, extra: String = "") -> String {
        let list = (0..<attributes).map { #"a\#($0)="v""# }.joined(separator: " ")
        return TTMLDocument.make(body: #"<div>\#(extra)<p begin="1s" end="2s" \#(list)>text</p></div>"#)
    }

    @Test func anElementOverTheLimitIsRefusedWhereItStarts() throws {
        let error = try #require(TTMLDocument.error(Self.document(attributes: 30_000)))
        #expect(error.diagnostic.code == .ttmlTooManyAttributes)
        #expect(error.diagnostic.location?.line == 4)
        #expect(error.diagnostic.message.contains("more than 1000 attributes"))
    }

    @Test func theLimitIsAnOption() throws {
        let options = TTMLReader.Options(limits: .init(maximumAttributesPerElement: 8))
        #expect(throws: ReadError.self) { try TTMLDocument.read(Self.document(attributes: 7), options: options) }
        let result = try TTMLDocument.read(Self.document(attributes: 6), options: options)
        #expect(result.track.cues.map(\.text) == ["text"])
    }

    @Test func markupThatIsNotAnAttributeIsNotCounted() throws {
        let options = TTMLReader.Options(limits: .init(maximumAttributesPerElement: 6))
        let noise = String(repeating: "a=b ", count: 50)
        let extra = "<!-- \(noise) -->" + "<?pi \(noise)?>" + #"<span xmlns:x="urn:x" x:v="\#(noise)"/>"#
        let text = TTMLDocument.make(body: #"<div>\#(extra)<p begin="1s" end="2s"><![CDATA[\#(noise)]]> 1 = 1</p></div>"#)
        let result = try TTMLDocument.read(text, options: options)
        #expect(result.track.cues.count == 1)
    }
}
