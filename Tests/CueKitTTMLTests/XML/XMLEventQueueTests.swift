import CueKit
import Testing

@testable import CueKitTTML

/// The parser's events, moved out in order, pieces of one text joined, each start tag with its own
/// attributes, the queue empty after every drain.
@Suite struct XMLEventQueueTests {
    /// The names' table, one for each test (a name reads its strings from it).
    private let names = XMLNameTable()

    private func name(_ local: String) -> XMLName {
        XMLName(namespace: "urn:test", local: local, in: names)
    }

    private static func appendText(_ text: String, to queue: XMLEventQueue) {
        var text = text
        text.withUTF8 { queue.appendText($0) }
    }

    /// The events as short strings: `<p`, `<p a=1 b=2` (with attributes), `>` (an end), `"text"`,
    /// `!problem`.
    private static func drained(_ queue: XMLEventQueue) -> [String] {
        var found: [String] = []
        queue.drain { event in
            switch event {
            case .start(let name, let attributes, _):
                found.append((["<" + name.local] + attributes.map { "\($0.name.local)=\($0.value)" }).joined(separator: " "))
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
            // Start tags with none, one or two attributes.
            var attributes: [String] = []
            for number in 0..<(index % 3) {
                let value = "\(index).\(number) \(String(repeating: "x", count: index % 20))"
                queue.appendAttribute(XMLAttribute(name: name("a\(number)"), value: value))
                attributes.append("a\(number)=\(value)")
            }
            queue.appendStart(name: name("span"), location: .start)
            Self.appendText(text, to: queue)
            queue.append(.end(location: .start))
            expected += [(["<span"] + attributes).joined(separator: " "), "\"\(text)\"", ">"]
        }
        #expect(queue.count == 900)
        #expect(Self.drained(queue) == expected)
        #expect(queue.isEmpty)
        Self.appendText("again", to: queue)
        queue.appendAttribute(XMLAttribute(name: name("begin"), value: "1s"))
        queue.appendStart(name: name("p"), location: .start)
        #expect(Self.drained(queue) == ["\"again\"", "<p begin=1s"])
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
        queue.appendAttribute(XMLAttribute(name: name("begin"), value: "00:00:01.000"))
        queue.appendStart(name: name("p"), location: .start)
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
