import CueKit
import CueKitTestSupport
import Testing

/// ``CueTextEvents`` are the tree ``CueText/nodes(from:)`` builds, walked: the same spans, nesting
/// and text, on every cue of the conformance inputs and fixtures and on random markup.
@Suite struct CueTextEventsTests {
    static func cueTexts(in path: String) -> [String] {
        guard let bytes = try? TestPaths.bytes(path) else { return [] }
        let text = String(decoding: bytes, as: UTF8.self)
        // Cue text is what follows a timing line up to a blank line.
        var texts: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains("-->") {
                if let current { texts.append(current.joined(separator: "\n")) }
                current = []
            } else if line.isEmpty || line == "\r" {
                if let found = current { texts.append(found.joined(separator: "\n")) }
                current = nil
            } else {
                current?.append(line)
            }
        }
        if let current { texts.append(current.joined(separator: "\n")) }
        return texts
    }

    @Test func theEventsAreTheTreeOnEveryFixtureCue() {
        var events = CueTextEvents()
        var count = 0
        for path in TestPaths.files(in: TestPaths.fixtures, suffixes: [".vtt", ".srt"]) {
            for text in Self.cueTexts(in: path) {
                events.parse(text)
                #expect(events.nodes() == CueText.nodes(from: text), "\(path): \(text.debugDescription)")
                count += 1
            }
        }
        #expect(count > 500)
    }

    @Test func theEventsAreTheTreeOnRandomMarkup() {
        let pieces = [
            "<c.a>", "</c>", "<i>", "</i>", "<b.x.y>", "</b>", "<u>", "</u>", "<v Bob>", "<v.loud  Ann\tLee >", "</v>", "<lang en>",
            "</lang>", "<ruby>", "<rt>", "</rt>", "</ruby>", "&amp;", "&lt;", "&nbsp;", "&foo;", "&#65;", "&#x1F600;", "<00:00:01.000>",
            "<0:1>", "<bad>", "<", ">", "text", " ", "\n", "é", "</x>", "<c", "&", "<c..>", "<lang &amp;x>", "\u{0}",
        ]
        var random = SeededRandom(seed: 20261125)
        var events = CueTextEvents()
        for _ in 0..<5000 {
            let text = (0..<Int.random(in: 0...24, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            events.parse(text)
            #expect(events.nodes() == CueText.nodes(from: text), "\(text.debugDescription)")
        }
    }

    @Test func bytesAndRangesDescribeEachSpan() {
        var events = CueTextEvents()
        events.parse("<v.loud.red Ann>Hi &amp; bye</v><00:00:02.000>")
        #expect(events.events.count == 4)
        guard case .open(.voice, let classes, let annotation) = events.events[0] else {
            Issue.record("\(events.events)")
            return
        }
        #expect(events.classRanges[classes].map(events.string) == ["loud", "red"])
        #expect(events.string(annotation) == "Ann")
        guard case .text(let text) = events.events[1] else { return }
        #expect(events.string(text) == "Hi & bye")
        #expect(events.events[2] == .close)
        #expect(events.events[3] == .timestamp(2000))
    }
}
