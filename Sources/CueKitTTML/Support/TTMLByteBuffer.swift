import CueKit

/// A growable byte buffer where an append is a bounds check and a copy: the held body of a TTML
/// document being written, which paragraphs are formatted straight into, and the text of the XML
/// events waiting in the reader's queue. A paragraph is made of some thirty pieces (literals,
/// times, identifiers, runs of text), and `[UInt8].append(contentsOf:)` costs about ninety
/// instructions a piece.
///
/// A class, so that its stored properties can skip the runtime's exclusivity checks (each method
/// finishes its access before returning) and so that the memory is freed with the last owner.
final class TTMLByteBuffer {
    @exclusivity(unchecked) private var start: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// The bytes appended since ``removeAll()``; valid until the next change.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    func removeAll() { count = 0 }

    /// Empties the buffer and gives its memory back, keeping a little.
    func release() {
        count = 0
        guard capacity > 1024 else { return }
        start.deallocate()
        capacity = 1024
        start = .allocate(capacity: capacity)
    }

    func removeLast(_ count: Int) {
        precondition(count <= self.count, "removing more bytes than were appended")
        self.count -= count
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        start[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (start + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends a time as `hh:mm:ss.fff`.
    func appendTimestamp(_ milliseconds: Int) {
        if count + CueTimestamp.maximumLength > capacity { grow(to: count + CueTimestamp.maximumLength) }
        count += CueTimestamp.write(milliseconds, to: start + count)
    }

    /// Appends ` begin="hh:mm:ss.fff" end="hh:mm:ss.fff" region="`: a paragraph's times and
    /// what follows them, with one check for room.
    func appendParagraphTimes(begin: Int, end: Int) {
        let needed = 2 * CueTimestamp.maximumLength + 32
        if count + needed > capacity { grow(to: count + needed) }
        var at = start + count
        func put(_ literal: StaticString) {
            at.update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
            at += literal.utf8CodeUnitCount
        }
        put(#" begin=""#)
        at += CueTimestamp.write(begin, to: at)
        put(#"" end=""#)
        at += CueTimestamp.write(end, to: at)
        put(#"" region=""#)
        count = start.distance(to: at)
    }

    func append(_ string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    /// Appends a copy of bytes already in the buffer, such as a start tag written before.
    func appendCopy(of range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "copying bytes the buffer does not hold")
        if count + range.count > capacity { grow(to: count + range.count) }
        // The copy lands past the end, so it never overlaps its source.
        (start + count).update(from: start + range.lowerBound, count: range.count)
        count += range.count
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        moved.update(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = newCapacity
    }
}
