/// The characters of one cue's text, line by line, as reading-speed statistics count them
/// (`cuekit inspect --stats`): every character shown, spaces included, line breaks not, in
/// Unicode scalars, with the markup removed. Runs of text come in order (a line can span runs:
/// `<i>a</i>b` is one line).
///
/// It sits beside ``CueTextQuickCheck`` so that ``countCommonMarkup(_:)`` compiles the scan and
/// the counting of the runs it hands out into one loop, with no call through a closure a run.
package struct CueTextLineCounter {
    package let maximumLineLength: Int
    /// Characters in the lines ended so far.
    package private(set) var characters = 0
    /// True once a character that is not white space was met.
    package private(set) var visible = false
    /// The lines longer than ``maximumLineLength``: their numbers (from 1) and lengths.
    package private(set) var longLines: [(line: Int, length: Int)] = []
    private var lineNumber = 1
    private var length = 0

    package init(maximumLineLength: Int) { self.maximumLineLength = maximumLineLength }

    /// Counts cue text that is plain or marked up in the common shapes (``CueTextQuickCheck``,
    /// timestamp tags too, which hold no text) by the runs of text the check hands out, and
    /// returns true; for any other text, counts nothing and returns false (the caller counts the
    /// text of its parse).
    package mutating func countCommonMarkup(_ text: UnsafeRawBufferPointer) -> Bool {
        // Counted as the scan goes, and put back as it was when the scan gives up: the state is
        // saved field by field, not as a copy of the counter, which would share its list.
        let saved = (characters, visible, lineNumber, length, longLines.count)
        // Timestamp tags hold no text, whatever their value: they are passed over.
        guard CueTextQuickCheck.isClean(text, skipsTimestampTags: true, text: { count(UnsafeRawBufferPointer($0)) }) else {
            (characters, visible, lineNumber, length) = (saved.0, saved.1, saved.2, saved.3)
            if longLines.count > saved.4 { longLines.removeSubrange(saved.4...) }
            return false
        }
        return true
    }

    /// Back to a counter with nothing counted, the list's storage kept for the next cue.
    package mutating func reset() {
        characters = 0
        visible = false
        if !longLines.isEmpty { longLines.removeAll(keepingCapacity: true) }
        lineNumber = 1
        length = 0
    }

    /// Counts a run of text (valid UTF-8): each line's scalars and end in one pass, eight bytes at
    /// a time (``ByteScanning/scalarsToLineEnd(in:from:)``), and only until the first visible
    /// character is anything decoded.
    @inline(__always)
    package mutating func count(_ bytes: UnsafeRawBufferPointer) {
        var start = 0
        while true {
            let (scalars, end) = ByteScanning.scalarsToLineEnd(in: bytes, from: start)
            length += scalars
            if !visible, start < end {
                // Mostly the run's first byte says: a printable ASCII character.
                let first = bytes[start]
                visible = (first > 0x20 && first < 0x80) || Self.hasVisibleCharacter(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            }
            guard end < bytes.count else { return }
            endLine()
            start = end + 1
        }
    }

    /// Ends the line being counted.
    package mutating func endLine() {
        characters += length
        if length > maximumLineLength { longLines.append((lineNumber, length)) }
        lineNumber += 1
        length = 0
    }

    /// True when valid UTF-8 holds a character that is not white space (Unicode's White_Space).
    package static func hasVisibleCharacter(_ raw: UnsafeRawBufferPointer) -> Bool {
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                if lead != 0x20 && !(0x09...0x0D).contains(lead) { return true }
                index += 1
                continue
            }
            guard let (value, length) = UTF8Bytes.scalar(in: bytes, at: index), isWhiteSpace(value) else { return true }
            index += length
        }
        return false
    }

    /// Unicode's White_Space scalars above ASCII (the property has held these since Unicode 6.3).
    package static func isWhiteSpace(_ value: UInt32) -> Bool {
        switch value {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}
