/// Where the start tags of the spans open around the text being written lie in the paragraph's
/// bytes, innermost last: a ruby container closes them and writes them again inside it.
///
/// A stack over storage kept from cue to cue: pushing overwrites a slot where one is free, and
/// popping and resetting only move the count (an array's `removeLast` and `removeAll` cost a
/// call each, on every span of every cue).
struct TTMLOpenTags {
    private var ranges: [Range<Int>] = []
    /// How many tags are open.
    private(set) var count = 0

    /// The `index`th open tag, from the outermost.
    subscript(index: Int) -> Range<Int> { ranges[index] }

    /// A tag opened at `range`.
    @inline(__always)
    mutating func push(_ range: Range<Int>) {
        if count < ranges.count { ranges[count] = range } else { ranges.append(range) }
        count += 1
    }

    /// The innermost tag closed.
    @inline(__always)
    mutating func pop() {
        precondition(count > 0, "a span closed that was not open")
        count -= 1
    }

    /// Every tag closed (a new paragraph).
    mutating func reset() { count = 0 }
}
