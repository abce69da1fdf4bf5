import CueKit

/// The events the XML parser found that the reader has not taken yet, stored in place and moved
/// out one by one: an event (its names, attributes and text) is never copied, where iterating an
/// array of events copied each one, retaining every string and array it holds, to release them
/// twice.
///
/// One parser appends while it parses a chunk, and one reader drains between chunks, on one
/// thread: the queue is not shared.
final class XMLEventQueue {
    // Unchecked exclusivity: one parser appends and one reader drains, never at once, and the
    // dynamic checks cost more than an append.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<XMLEvent>
    @exclusivity(unchecked) private var capacity: Int
    /// How many events wait.
    @exclusivity(unchecked) private(set) var count = 0
    /// The bytes of the waiting text events, one after the other (appending to an array cost
    /// some 70 instructions a piece, more than copying most pieces).
    private let textBytes: TTMLByteBuffer
    /// True while ``drain(_:)`` hands events out (checked in debug builds).
    @exclusivity(unchecked) private var isDraining = false
    /// The attributes of the waiting start events, and of the start tag being added, stored in
    /// place like the events.
    @exclusivity(unchecked) private(set) var attributes: UnsafeMutablePointer<XMLAttribute>
    @exclusivity(unchecked) private var attributeCapacity: Int
    @exclusivity(unchecked) private var attributeCount = 0
    /// Where the attributes of the start tag being added begin in ``attributes``.
    @exclusivity(unchecked) private var pendingAttributes = 0

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: self.capacity)
        attributeCapacity = 4 * self.capacity
        attributes = .allocate(capacity: attributeCapacity)
        textBytes = TTMLByteBuffer(capacity: 64 * self.capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
        attributes.deinitialize(count: attributeCount)
        attributes.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    func append(_ event: consuming XMLEvent) {
        assert(!isDraining, "an event appended to an XMLEventQueue while it drains")
        if count == capacity { grow() }
        (storage + count).initialize(to: event)
        count += 1
    }

    /// An attribute of the next start tag (``appendStart(name:location:)``).
    func appendAttribute(_ attribute: consuming XMLAttribute) {
        assert(!isDraining, "an attribute appended to an XMLEventQueue while it drains")
        if attributeCount == attributeCapacity {
            let larger = UnsafeMutablePointer<XMLAttribute>.allocate(capacity: attributeCapacity * 2)
            larger.moveInitialize(from: attributes, count: attributeCount)
            attributes.deallocate()
            attributes = larger
            attributeCapacity *= 2
        }
        (attributes + attributeCount).initialize(to: attribute)
        attributeCount += 1
    }

    /// A start tag, with the attributes appended since the last one.
    func appendStart(name: XMLName, location: SourceLocation) {
        append(.start(name: name, attributes: XMLAttributes(queue: self, range: pendingAttributes..<attributeCount), location: location))
        pendingAttributes = attributeCount
    }

    /// Character data: a text event, or more of the text event just before.
    func appendText(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        assert(!isDraining, "text appended to an XMLEventQueue while it drains")
        if count > 0, case .text(var last) = storage[count - 1], last.offset + last.count == textBytes.count {
            last.count += bytes.count
            storage[count - 1] = .text(last)
        } else {
            append(.text(XMLText(offset: textBytes.count, count: bytes.count)))
        }
        textBytes.append(bytes)
    }

    /// Hands every waiting event to `body` in order, each moved out of the queue (a text event's
    /// bytes and a start event's attributes valid until `body` returns). The queue is empty after,
    /// also when `body` throws: the events it did not take are dropped. Nothing is appended while
    /// the queue drains (the parser is not fed from a reader).
    func drain(_ body: (XMLEvent) throws -> Void) rethrows {
        assert(!isDraining, "an XMLEventQueue drained from inside its own drain")
        isDraining = true
        var index = 0
        defer {
            if index < count { (storage + index).deinitialize(count: count - index) }
            count = 0
            textBytes.removeAll()
            isDraining = false
            attributes.deinitialize(count: attributeCount)
            attributeCount = 0
            pendingAttributes = 0
        }
        // Valid through the drain: nothing is appended meanwhile.
        let text = textBytes.bytes
        while index < count {
            let event = (storage + index).move()
            index += 1
            if case .text(var piece) = event {
                piece.bytes = UnsafeBufferPointer(start: text.baseAddress! + piece.offset, count: piece.count)
                try body(.text(piece))
            } else {
                try body(event)
            }
        }
    }

    private func grow() {
        let larger = UnsafeMutablePointer<XMLEvent>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }
}
