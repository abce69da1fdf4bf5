import CueKit
import Testing

@testable import CueKitTTML

/// The parser's events, moved out in order, pieces of one text joined, the queue empty after
/// every drain.
@Suite struct XMLEventQueueTests {
    private static func name(_ local: String) -> XMLName {
        XMLName(namespace: "urn:test", local: local, namespaceIndex: 1, localIndex: local.count)
    }

    private static func appendText(_ text: String, to queue: XMLEventQueue) {
        var text = text
        text.withUTF8 { queue.appendText($0) }
    }

    /// The events as short strings: `<p`, `>` (an end), `"text"`, `!problem`.
    private static func drained(_ queue: XMLEventQueue) -> [String] {
        var found: [String] = []
        queue.drain { event in
            switch event {
            case .start(let name, _, _): found.append("<" + name.local)
            case .end: found.append(">")
            case .text(let text): found.append("\"" + text.string + "\"")
            case .problem(_, let message, _): found.append("!" + message)
            }
        }
        return found
    }

    @Test func eventsComeOutInOrderPastTheFirstCapacity() {
        let queue = XMLEventQueue(capacity: 2)
        var expected: [String] = []
        for index in 0..<300 {
            let text = "text \(index) \(String(repeating: "é", count: index % 40))"
            queue.append(.start(name: Self.name("span"), attributes: [], location: .start))
            Self.appendText(text, to: queue)
            queue.append(.end(location: .start))
            expected += ["<span", "\"\(text)\"", ">"]
        }
        #expect(queue.count == 900)
        #expect(Self.drained(queue) == expected)
        #expect(queue.isEmpty)
        Self.appendText("again", to: queue)
        #expect(Self.drained(queue) == ["\"again\""])
    }

    /// libxml2 hands a run of text out in pieces (at each entity reference, at chunk ends): they
    /// come as one event, unless another event comes between them.
    @Test func piecesOfOneTextComeAsOneEvent() {
        let queue = XMLEventQueue()
        Self.appendText("Tom ", to: queue)
        Self.appendText("&", to: queue)
        Self.appendText(" Jerry", to: queue)
        queue.append(.problem(.warning, message: "a warning", location: .start))
        Self.appendText("after", to: queue)
        #expect(queue.count == 3)
        #expect(Self.drained(queue) == ["\"Tom & Jerry\"", "!a warning", "\"after\""])
    }

    @Test func aThrowingReaderLeavesTheQueueEmpty() {
        struct Stop: Error {}
        let queue = XMLEventQueue(capacity: 4)
        queue.append(.start(name: Self.name("p"), attributes: [XMLAttribute(name: Self.name("begin"), value: "00:00:01.000")], location: .start))
        Self.appendText("shown", to: queue)
        queue.append(.end(location: .start))
        var taken = 0
        #expect(throws: Stop.self) {
            try queue.drain { _ in
                taken += 1
                if taken == 2 { throw Stop() }
            }
        }
        #expect(taken == 2)
        #expect(queue.isEmpty)
        #expect(Self.drained(queue).isEmpty)
    }
}
