import CueKit
import CueKitTTML
import CueKitTestSupport
import Testing

/// The TTML reader's limits: nesting depth and text per paragraph. Past either, reading stops with
/// one clean error instead of a stack overflow or memory that grows with the input; both can be
/// raised.
struct TTMLReaderLimitsTests {
    static let start = #"<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en"><body><div><p begin="0s" end="1s">"#
    static let end = "</p></div></body></tt>\n"

    static func read(_ document: String, options: TTMLReader.Options = TTMLReader.Options()) -> Result<ReadResult, ReadError> {
        Result { () throws(ReadError) in
            do { return try TTMLReader.read(document, options: options) } catch let error as ReadError { throw error } catch {
                fatalError("\(error)")
            }
        }
    }

    /// Spans nested 300 deep (the fixture): a million deep overflowed the stack of the paragraph
    /// renderer before the limit existed.
    @Test func nestingPastTheLimitStopsReading() throws {
        let path = TestPaths.fixture("ttml/nesting-too-deep.ttml")
        #expect(throws: ReadError.self) { try TTMLReader.read(fileAtPath: path) }
        do {
            _ = try TTMLReader.read(fileAtPath: path)
        } catch let error as ReadError {
            #expect(error.diagnostic.code == .ttmlNestingTooDeep)
            #expect(error.diagnostic.location?.line == 3)
            #expect(error.diagnostic.message.contains("256"))
        }
        let raised = try TTMLReader.read(fileAtPath: path, options: TTMLReader.Options(limits: .init(maximumNestingDepth: 400)))
        #expect(raised.track.cues.count == 1)
        #expect(raised.track.cues.first?.nodes().first.map { "\($0)" }?.contains("deep") == true)
    }

    /// Nesting up to the limit reads.
    @Test func nestingAtTheLimitReads() throws {
        // tt, body, div, p: four levels before the spans.
        let spans = 256 - 4
        let document = Self.start + String(repeating: "<span>", count: spans) + "x" + String(repeating: "</span>", count: spans) + Self.end
        let result = try TTMLReader.read(document)
        #expect(result.track.cues.count == 1)
    }

    /// A paragraph's text past the limit stops reading; text spread over spans counts as a whole.
    @Test func paragraphTextPastTheLimitStopsReading() throws {
        let options = TTMLReader.Options(limits: .init(maximumParagraphLength: 1000))
        let long = Self.start + String(repeating: "<span>aaaaaaaaaa</span>", count: 101) + Self.end
        switch Self.read(long, options: options) {
        case .success: Issue.record("a paragraph past the limit was read")
        case .failure(let error): #expect(error.diagnostic.code == .ttmlParagraphTooLong)
        }
        // Many paragraphs each under the limit read, whatever their total.
        let many = Self.start + String(repeating: "a", count: 900) + "</p>"
            + String(repeating: #"<p begin="1s" end="2s">\#(String(repeating: "b", count: 900))</p>"#, count: 5)
            + "</div></body></tt>\n"
        let result = try TTMLReader.read(many, options: options)
        #expect(result.track.cues.count == 6)
    }
}
