import CueKit
import Testing

@testable import CueKitTTML

/// A document with more distinct style values than the reader's value table numbers reads as it
/// does with room for them all: past the bound, elements are styled afresh instead of through the
/// style catalog, with the same cues, classes and diagnostics.
struct TTMLValueBoundTests {
    /// Divs, paragraphs and spans with colours of their own, the head's styles, agents,
    /// languages and `set`s, and the first values again after the distinct ones.
    static let document: String = {
        let head = """
            <styling><style xml:id="s1" tts:fontStyle="italic"/><style xml:id="s2" tts:fontWeight="bold"/></styling>
            <metadata><ttm:agent xml:id="bob" type="person"><ttm:name type="full">Bob</ttm:name></ttm:agent></metadata>
            """
        var body = ""
        for index in 0..<60 {
            if index.isMultiple(of: 5) {
                // Divs with styles and languages of their own, some alike, each holding five paragraphs.
                body += index == 0 ? "" : "</div>"
                let decoration = index % 10 == 0 ? "underline" : "overline"
                body += "<div tts:textDecoration=\"\(decoration)\" xml:lang=\"\(index % 15 == 0 ? "ja" : "en")\">"
            }
            let digits = String((index % 40) * 0x010203, radix: 16)
            let colour = "#" + String(repeating: "0", count: 6 - digits.count) + digits
            let language = ["fr", "de", "en"][index % 3]
            let time = "begin=\"\(index)s\" end=\"\(index).5s\""
            body += "<p \(time) tts:color=\"\(colour)\" style=\"s\(index % 2 + 1)\" xml:lang=\"\(language)\">"
            body += "<span tts:backgroundColor=\"\(colour)\" ttm:agent=\"bob\">a\(index)</span> "
            body += "<span style=\"s1 s2\" tts:fontSize=\"\(100 + index % 40)%\">"
            body += "b<set begin=\"\(index).1s\" end=\"\(index).2s\" tts:color=\"\(colour)\"/></span>"
            // A `set` on the paragraph itself: its outer chain, restyled for a while.
            if index.isMultiple(of: 2) { body += "<set begin=\"\(index).3s\" end=\"\(index).4s\" tts:color=\"\(colour)\"/>" }
            body += "</p>"
        }
        return TTMLDocument.make(head: head, body: body + "</div>")
    }()

    static func read(valueCapacity: Int) throws -> ReadResult {
        var reader = TTMLReader(holdingEventsUntilEnd: true, valueCapacity: valueCapacity)
        return try reader.read(Array(document.utf8))
    }

    @Test func aDocumentPastTheBoundReadsAsWithRoomForEveryValue() throws {
        let unbounded = try Self.read(valueCapacity: 1 << 20)
        #expect(unbounded.track.cues.count >= 60)
        #expect(unbounded.track.cues.contains { $0.text.contains("<v Bob>") && $0.text.contains("<lang fr>") })
        let classes = unbounded.track.stylesheets.flatMap { $0.cueRules }.count
        #expect(classes > 80, "the colours' classes: \(classes)")
        for capacity in [1, 4, 16, 64] {
            let bounded = try Self.read(valueCapacity: capacity)
            #expect(bounded.track == unbounded.track, "capacity \(capacity)")
            #expect(bounded.diagnostics == unbounded.diagnostics, "capacity \(capacity)")
        }
    }
}
