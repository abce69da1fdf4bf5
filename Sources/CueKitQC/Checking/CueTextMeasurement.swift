/// What a viewer sees of one cue's text, counted in one pass over its WebVTT cue text bytes:
/// characters (Unicode scalars, markup left out, a character reference counted as one, line breaks
/// not counted), words, lines and their lengths, and the first character or tag a profile forbids.
///
/// Works on the bytes the WebVTT reader hands out (lines joined by LF), so that checking a track
/// builds no string per cue. A plain value: measuring a cue allocates nothing and copies nothing
/// that is counted.
struct CueTextMeasurement {
    /// Visible characters in all, line breaks left out.
    var characters = 0
    /// Runs of visible characters between white space (counted only when asked for).
    var words = 0
    /// Lines of text.
    var lineCount = 0
    /// The longest line's characters, and its index (from 0).
    var longestLine = 0
    var longestLineIndex = 0
    /// The first and second lines' characters (for line balance).
    var firstLine = 0
    var secondLine = 0
    /// The first character outside the allowed set: its scalar, line index and 1-based column in
    /// the source line (markup included, as an editor counts it); and how many there are.
    var disallowedScalar: UInt32?
    var disallowedLine = 0
    var disallowedColumn = 0
    var disallowedCount = 0
    /// The first tag outside the allowed list: where its name is in the text's bytes, its line
    /// index and column.
    var forbiddenTagName: Range<Int>?
    var forbiddenTagLine = 0
    var forbiddenTagColumn = 0

    /// Nothing measured yet: every count 0.
    init() {}

    /// `text` measured (``measure(_:hasMarkup:allowed:allowedTags:countsWords:)``).
    init(
        _ text: UnsafeRawBufferPointer, hasMarkup: Bool = true, allowed: QCCharacterSet? = nil, allowedTags: [[UInt8]]? = nil,
        countsWords: Bool = true
    ) {
        measure(text, hasMarkup: hasMarkup, allowed: allowed, allowedTags: allowedTags, countsWords: countsWords)
    }

    /// Measures `text`, in place of what was measured before. `hasMarkup` false promises the text
    /// holds neither `<` nor `&`; `allowed` and `allowedTags` (tag names as bytes) turn the
    /// character and markup checks on; words are counted only when `countsWords`.
    ///
    /// Without words, the text is read eight bytes at a time (``scan(_:as:allowed:allowedTags:)``),
    /// in a loop made for each of the three ways it is called; words are counted scalar by scalar
    /// (``init(scalarByScalar:hasMarkup:allowed:allowedTags:)``). Both count the same.
    @inline(__always)
    mutating func measure(
        _ text: UnsafeRawBufferPointer, hasMarkup: Bool, allowed: QCCharacterSet?, allowedTags: [[UInt8]]?, countsWords: Bool
    ) {
        if countsWords {
            self = CueTextMeasurement(scalarByScalar: text, hasMarkup: hasMarkup, allowed: allowed, allowedTags: allowedTags)
            return
        }
        self = CueTextMeasurement()
        if allowed != nil {
            if hasMarkup {
                scan(text, as: CheckedMarkup.self, allowed: allowed, allowedTags: allowedTags)
            } else {
                scan(text, as: CheckedText.self, allowed: allowed, allowedTags: nil)
            }
        } else if hasMarkup {
            scan(text, as: Markup.self, allowed: nil, allowedTags: allowedTags)
        } else {
            scan(text, as: PlainText.self, allowed: nil, allowedTags: nil)
        }
    }

    /// What the eight-byte loop stops at, as a type, so that each kind of text has a loop of its
    /// own with these tests made when it is compiled.
    private protocol ScanKind {
        /// `<` and `&` stop the loop.
        static var markup: Bool { get }
        /// Bytes outside printable ASCII, and the backtick, stop the loop.
        static var checksCharacters: Bool { get }
    }

    private enum PlainText: ScanKind {
        static var markup: Bool { false }
        static var checksCharacters: Bool { false }
    }

    private enum Markup: ScanKind {
        static var markup: Bool { true }
        static var checksCharacters: Bool { false }
    }

    private enum CheckedText: ScanKind {
        static var markup: Bool { false }
        static var checksCharacters: Bool { true }
    }

    private enum CheckedMarkup: ScanKind {
        static var markup: Bool { true }
        static var checksCharacters: Bool { true }
    }

    /// Measures `text` without counting words, eight bytes at a time: in each eight, the bytes
    /// before the first that needs a look of its own (a line feed; with markup, `<` and `&`; when
    /// characters are checked, any byte outside printable ASCII and the backtick) are counted at
    /// once, a scalar for each byte that is not a UTF-8 continuation byte; that byte is then read
    /// alone (``readAlone(_:at:lineStart:hasMarkup:allowed:allowedTags:)``). The loop keeps the
    /// index and the line's count alone in registers; columns, needed only for a finding, are
    /// counted from the line's start when one is found.
    private mutating func scan<Kind: ScanKind>(
        _ text: UnsafeRawBufferPointer, as kind: Kind.Type, allowed: QCCharacterSet?, allowedTags: [[UInt8]]?
    ) {
        let markup = Kind.markup
        let checksCharacters = Kind.checksCharacters
        guard let start = text.baseAddress, !text.isEmpty else { return }
        let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: text.count)
        let count = bytes.count
        var index = 0
        var lineStart = 0
        var lineCharacters = 0
        while index < count {
            // ASCII with nothing to stop at, sixteen bytes at a time: a scalar a byte.
            while index &+ 16 <= count {
                let first = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let second = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self))
                let stops =
                    Self.stops(in: first, markup: markup, checksCharacters: checksCharacters)
                    | Self.stops(in: second, markup: markup, checksCharacters: checksCharacters)
                if stops | ((first | second) & Self.highBits) != 0 { break }
                lineCharacters &+= 16
                index &+= 16
            }
            // Then one word of eight (or the last bytes), whatever it holds.
            let stops: UInt64
            // UTF-8 continuation bytes (top bits 10), where no scalar starts: counted only in
            // words with a byte past ASCII.
            var continuations: UInt64 = 0
            if index &+ 8 <= count {
                let word = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                stops = Self.stops(in: word, markup: markup, checksCharacters: checksCharacters)
                if word & Self.highBits != 0 { continuations = word & ~(word &<< 1) & Self.highBits }
                if stops == 0 {
                    lineCharacters &+= 8
                    if continuations != 0 { lineCharacters &-= continuations.nonzeroBitCount }
                    index &+= 8
                    continue
                }
            } else {
                // The last bytes, in the low bytes of `word`; `valid` has the top bit of each.
                let remaining = count &- index
                let word = Self.lastBytes(of: text, from: index)
                let valid = Self.highBits &>> (UInt64(truncatingIfNeeded: 8 &- remaining) &<< 3)
                stops = Self.stops(in: word, markup: markup, checksCharacters: checksCharacters) & valid
                if word & Self.highBits != 0 { continuations = word & ~(word &<< 1) & valid }
                if stops == 0 {
                    lineCharacters &+= remaining
                    if continuations != 0 { lineCharacters &-= continuations.nonzeroBitCount }
                    break
                }
            }
            let offset = stops.trailingZeroBitCount &>> 3
            lineCharacters &+= offset
            if continuations != 0 {
                lineCharacters &-= (continuations & ((UInt64(1) &<< (UInt64(truncatingIfNeeded: offset) &<< 3)) &- 1)).nonzeroBitCount
            }
            index &+= offset
            if bytes[index] == 0x0A {
                endLine(lineCharacters)
                lineCharacters = 0
                index &+= 1
                lineStart = index
                continue
            }
            let (next, characters) = readAlone(
                bytes, at: index, lineStart: lineStart, hasMarkup: markup, allowed: allowed, allowedTags: allowedTags)
            lineCharacters &+= characters
            index = next
        }
        endLine(lineCharacters)
    }

    /// The top bit of each byte of `word` that needs a look of its own, exact up to the first
    /// (see ``scan(_:as:allowed:allowedTags:)``).
    @inline(__always)
    private static func stops(in word: UInt64, markup: Bool, checksCharacters: Bool) -> UInt64 {
        var stops = bytes(of: word, equalTo: 0x0A)
        if markup { stops |= bytes(of: word, equalTo: UInt8(ascii: "<")) | bytes(of: word, equalTo: UInt8(ascii: "&")) }
        if checksCharacters {
            stops |=
                bytes(of: word, below: 0x20) | (word & highBits) | bytes(of: word, equalTo: 0x7F)
                | bytes(of: word, equalTo: UInt8(ascii: "`"))
        }
        return stops
    }

    /// One line of `characters` ends: the line's index is ``lineCount`` before it counts the line.
    @inline(__always)
    private mutating func endLine(_ characters: Int) {
        self.characters &+= characters
        if characters > longestLine {
            longestLine = characters
            longestLineIndex = lineCount
        }
        if lineCount == 0 { firstLine = characters } else if lineCount == 1 { secondLine = characters }
        lineCount &+= 1
    }

    /// Reads the byte at `index` of the line ``lineCount`` (which starts at `lineStart`) that the
    /// eight-byte loop stopped at, other than a line feed: a tag (none of the characters, its name
    /// checked against `allowedTags`), a character reference (one), or characters to check
    /// against `allowed`. Returns the index after what it read and the characters it counts. Kept
    /// out of line, so that the loop's registers stay its own.
    @inline(never)
    private mutating func readAlone(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, lineStart: Int, hasMarkup: Bool, allowed: QCCharacterSet?,
        allowedTags: [[UInt8]]?
    ) -> (next: Int, characters: Int) {
        let byte = bytes[index]
        if hasMarkup, byte == UInt8(ascii: "<") {
            let tag = Self.tag(bytes, at: index)
            if let allowedTags, forbiddenTagName == nil, let name = tag.name, !Self.isAllowed(bytes, name, allowedTags) {
                forbiddenTagName = name
                forbiddenTagLine = lineCount
                forbiddenTagColumn = 1 &+ Self.scalarCount(bytes, from: lineStart, to: index)
            }
            return (tag.end, 0)
        }
        if hasMarkup, byte == UInt8(ascii: "&"), let (scalar, length) = Self.characterReference(bytes, at: index) {
            if let allowed { check(scalar, at: index, lineStart: lineStart, against: allowed, bytes) }
            return (index &+ length, 1)
        }
        // A character to check, and those after it while they are past ASCII or spaces (a run of
        // non-Latin text read here, rather than a word of eight bytes for each character).
        var cursor = index
        var characters = 0
        repeat {
            let (scalar, length) = Self.decode(bytes, at: cursor)
            if let allowed { check(scalar, at: cursor, lineStart: lineStart, against: allowed, bytes) }
            cursor &+= length
            characters &+= 1
        } while allowed != nil && cursor < bytes.count && (bytes[cursor] >= 0x80 || bytes[cursor] == 0x20)
        return (cursor, characters)
    }

    /// Counts `scalar`, at `index` of the line that starts at `lineStart`, when `allowed` lacks it;
    /// the column only of the first, the one kept.
    @inline(__always)
    private mutating func check(
        _ scalar: UInt32, at index: Int, lineStart: Int, against allowed: QCCharacterSet, _ bytes: UnsafeBufferPointer<UInt8>
    ) {
        guard scalar != 0, !allowed.contains(scalar) else { return }
        if disallowedScalar == nil {
            noteDisallowed(scalar, line: lineCount, column: 1 &+ Self.scalarCount(bytes, from: lineStart, to: index))
        } else {
            disallowedCount &+= 1
        }
    }

    /// The top bit of each of eight bytes.
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The bytes from `index` to the end of `text`, fewer than eight, the first in the lowest byte
    /// and zeros above: read as the eight bytes that end the text, shifted, when the text has
    /// eight; else one by one.
    @inline(__always)
    private static func lastBytes(of text: UnsafeRawBufferPointer, from index: Int) -> UInt64 {
        let remaining = text.count &- index
        if text.count >= 8 {
            let word = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: text.count &- 8, as: UInt64.self))
            return word &>> (UInt64(truncatingIfNeeded: 8 &- remaining) &<< 3)
        }
        var word: UInt64 = 0
        for offset in 0..<remaining { word |= UInt64(text[index &+ offset]) &<< (UInt64(offset) &<< 3) }
        return word
    }

    /// The top bit of each byte of `word` that equals `value`, exact up to the first such byte
    /// (a borrow may also mark bytes above it): enough to find the first, and to tell whether any is.
    @inline(__always)
    private static func bytes(of word: UInt64, equalTo value: UInt8) -> UInt64 {
        let differences = word ^ (0x0101_0101_0101_0101 &* UInt64(value))
        return (differences &- 0x0101_0101_0101_0101) & ~differences & highBits
    }

    /// The top bit of each byte of `word` below `value` (at most 0x80), exact up to the first such
    /// byte, as ``bytes(of:equalTo:)``.
    @inline(__always)
    private static func bytes(of word: UInt64, below value: UInt8) -> UInt64 {
        (word &- 0x0101_0101_0101_0101 &* UInt64(value)) & ~word & highBits
    }

    /// Counts a character outside the allowed set, and keeps the first.
    mutating func noteDisallowed(_ scalar: UInt32, line: Int, column: Int) {
        disallowedCount += 1
        if disallowedScalar == nil {
            disallowedScalar = scalar
            disallowedLine = line
            disallowedColumn = column
        }
    }

    /// The tag that starts at `index` (its `<`), which runs to `>`, the end of the line, or the end
    /// of the text: the index after it, and where its name is, when it has one that is not a
    /// timestamp's.
    static func tag(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (end: Int, name: Range<Int>?) {
        let count = bytes.count
        var cursor = index + 1
        if cursor < count, bytes[cursor] == UInt8(ascii: "/") { cursor += 1 }
        let nameStart = cursor
        while cursor < count, !endsTagName(bytes[cursor]) { cursor += 1 }
        let name = cursor > nameStart && !isDigit(bytes[nameStart]) ? nameStart..<cursor : nil
        while cursor < count, bytes[cursor] != UInt8(ascii: ">"), bytes[cursor] != 0x0A { cursor += 1 }
        if cursor < count, bytes[cursor] == UInt8(ascii: ">") { cursor += 1 }
        return (cursor, name)
    }

    /// True when the tag name at `name` in `bytes` is one of `allowedTags`.
    static func isAllowed(_ bytes: UnsafeBufferPointer<UInt8>, _ name: Range<Int>, _ allowedTags: [[UInt8]]) -> Bool {
        let name = UnsafeBufferPointer(rebasing: bytes[name])
        return allowedTags.contains(where: { equal($0, name) })
    }

    static func endsTagName(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ">") || byte == 0x0C
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Unicode scalars in `bytes[start..<end]` (bytes that are not UTF-8 continuation bytes).
    static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var scalars = 0
        for index in start..<min(end, bytes.count) where bytes[index] & 0xC0 != 0x80 { scalars += 1 }
        return scalars
    }

    /// The scalar starting at `index` and its UTF-8 length (the reader hands out valid UTF-8; a
    /// stray byte is read as one scalar of its own value).
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard length > 1, index + length <= bytes.count else { return (UInt32(lead), 1) }
        var value = UInt32(lead) & (0xFF >> UInt32(length + 1))
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return (value, length)
    }

    /// True when `tag` and `name` hold the same bytes.
    private static func equal(_ tag: [UInt8], _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard tag.count == name.count else { return false }
        for index in 0..<tag.count where tag[index] != name[index] { return false }
        return true
    }

    /// A character reference at `index` (`&amp;`, `&#233;`, `&#xE9;`, `&nbsp;`): the scalar it
    /// stands for (0 for a named reference outside the few decoded here, which still counts as one
    /// character) and its length; nil when the `&` starts no reference and is a character itself.
    static func characterReference(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int)? {
        var cursor = index + 1
        let limit = min(bytes.count, index + 34)
        while cursor < limit {
            let byte = bytes[cursor]
            let isNameByte = (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == UInt8(ascii: "#")
            if !isNameByte { break }
            cursor += 1
        }
        guard cursor < limit, bytes[cursor] == UInt8(ascii: ";"), cursor > index + 1 else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<cursor])
        let length = cursor + 1 - index
        if name[0] == UInt8(ascii: "#") {
            let hexadecimal = name.count > 1 && name[1] | 0x20 == UInt8(ascii: "x")
            var value: UInt32 = 0
            for byte in name.dropFirst(hexadecimal ? 2 : 1) {
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x61...0x66 where hexadecimal: digit = UInt32(byte - 0x61 + 10)
                case 0x41...0x46 where hexadecimal: digit = UInt32(byte - 0x41 + 10)
                default: return (0, length)
                }
                value = min(value * (hexadecimal ? 16 : 10) + digit, 0x11_0000)
            }
            return (value, length)
        }
        for (reference, scalar) in namedReferences where equal(reference, name) { return (scalar, length) }
        return (0, length)
    }

    /// The named references decoded for the character check; others count as one character.
    private static let namedReferences: [([UInt8], UInt32)] = [
        (Array("amp".utf8), 0x26), (Array("lt".utf8), 0x3C), (Array("gt".utf8), 0x3E), (Array("quot".utf8), 0x22),
        (Array("apos".utf8), 0x27), (Array("nbsp".utf8), 0xA0), (Array("lrm".utf8), 0x200E), (Array("rlm".utf8), 0x200F),
    ]
}
