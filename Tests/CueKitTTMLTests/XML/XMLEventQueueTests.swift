import CueKit
import Testing

@testable import CueKitTTML

/// The parser's events, moved out in order, the queue empty after every drain.
@Suite struct XMLEventQueueTests {
    private static func name(_ local: String) -> XMLName {
        XMLName(namespace: "urn:test", local: local, namespaceIndex: 1, localIndex: local.count)
    }

    private static func texts(_ queue: XMLEventQueue) -> [String] {
        var found: [String] = []
        queue.drain { event in
            if case .text(let text) = event { found.append(text) }
        }
        return found
    }

    @Test func eventsComeOutInOrderPastTheFirstCapacity() {
        let queue = XMLEventQueue(capacity: 2)
        let texts = (0..<300).map { "text \($0) \(String(repeating: "x", count: $0 % 40))" }
        for text in texts { queue.append(.text(text)) }
        #expect(queue.count == 300)
        #expect(Self.texts(queue) == texts)
        #expect(queue.isEmpty)
        queue.append(.text("again"))
        #expect(Self.texts(queue) == ["again"])
    }

    @Test func aThrowingReaderLeavesTheQueueEmpty() {
        struct Stop: Error {}
        let queue = XMLEventQueue(capacity: 4)
        queue.append(.start(name: Self.name("p"), attributes: [XMLAttribute(name: Self.name("begin"), value: "00:00:01.000")], location: .start))
        queue.append(.text("shown"))
        queue.append(.end(name: Self.name("p"), location: .start))
        var taken = 0
        #expect(throws: Stop.self) {
            try queue.drain { _ in
                taken += 1
                if taken == 2 { throw Stop() }
            }
        }
        #expect(taken == 2)
        #expect(queue.isEmpty)
        #expect(Self.texts(queue).isEmpty)
    }
}
