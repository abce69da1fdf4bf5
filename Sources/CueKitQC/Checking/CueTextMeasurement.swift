/// What a viewer sees of one cue's text, counted in one pass over its WebVTT cue text bytes:
/// characters (Unicode scalars, markup left out, a character reference counted as one, line breaks
/// not counted), words, lines and their lengths, and the first character or tag a profile forbids.
///
/// Works on the bytes the WebVTT reader hands out (lines joined by LF), so that checking a track
/// builds no string per cue.
struct CueTextMeasurement {
    /// Visible characters in all, line breaks left out.
    var characters = 0
    /// Runs of visible characters between white space.
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
    /// The first tag outside the allowed list: its name, line index and column.
    var forbiddenTag: String?
    var forbiddenTagLine = 0
    var forbiddenTagColumn = 0

    /// Measures `text`. `hasMarkup` false promises the text holds neither `<` nor `&`; `allowed`
    /// and `allowedTags` (tag names as bytes) turn the character and markup checks on.
    init(
        _ text: UnsafeRawBufferPointer, hasMarkup: Bool = true, allowed: QCCharacterSet? = nil, allowedTags: [[UInt8]]? = nil,
        countsWords: Bool = true
    ) {
        guard let start = text.baseAddress, !text.isEmpty else { return }
        let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: text.count)
        if !hasMarkup, allowed == nil, !countsWords {
            countLines(of: bytes)
            return
        }
        let count = bytes.count
        // Counted in locals, stored once at the end: the loop runs once per byte.
        var index = 0
        var characters = 0
        var words = 0
        var lineIndex = 0
        var lineCharacters = 0
        var longestLine = 0
        var longestLineIndex = 0
        var firstLine = 0
        var secondLine = 0
        var column = 1
        var inWord = false
        let checksCharacters = allowed != nil
        let characterSet = allowed ?? .printableASCII
        // Where the fast path stops besides markup and controls: with a set to check, at
        // non-ASCII and at the backtick (`<` stops it anyway).
        let stopByte = checksCharacters ? UInt8(ascii: "`") : UInt8(ascii: "<")
        let runLimit: UInt8 = checksCharacters ? 0x80 : 0xFF

        while index < count {
            let byte = bytes[index]
            // A run of text that starts no markup: a character and a column a scalar (UTF-8
            // continuation bytes add none), and a word at each character after a space. When a set
            // is checked, the run holds ASCII alone, and stops at the backtick, the one printable
            // ASCII character a set leaves out: those are checked below, scalar by scalar.
            if byte >= 0x20, byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&"), byte != 0x7F, byte < runLimit, byte != stopByte {
                var cursor = index
                var wasSpace = !inWord
                var runWords = 0
                var scalars = 0
                while cursor < count {
                    let next = bytes[cursor]
                    if next < 0x20 || next == UInt8(ascii: "<") || next == UInt8(ascii: "&") || next == 0x7F || next >= runLimit
                        || next == stopByte
                    {
                        break
                    }
                    cursor &+= 1
                    if next & 0xC0 == 0x80 { continue }
                    // U+0020 and U+00A0 (C2 A0) separate words.
                    let isSpace = next == 0x20 || (next == 0xC2 && cursor < count && bytes[cursor] == 0xA0)
                    runWords &+= wasSpace && !isSpace ? 1 : 0
                    wasSpace = isSpace
                    scalars &+= 1
                }
                characters &+= scalars
                lineCharacters &+= scalars
                column &+= scalars
                words &+= runWords
                inWord = !wasSpace
                index = cursor
                continue
            }
            if byte == 0x0A {
                // The line ends (written out twice, here and after the loop: a local function
                // would keep these counters in memory rather than in registers).
                if lineCharacters > longestLine {
                    longestLine = lineCharacters
                    longestLineIndex = lineIndex
                }
                if lineIndex == 0 { firstLine = lineCharacters } else if lineIndex == 1 { secondLine = lineCharacters }
                lineIndex += 1
                lineCharacters = 0
                column = 1
                inWord = false
                index += 1
                continue
            }
            if hasMarkup, byte == UInt8(ascii: "<") {
                // A tag: up to `>`, the end of the line, or the end of the text.
                var cursor = index + 1
                if cursor < count, bytes[cursor] == UInt8(ascii: "/") { cursor += 1 }
                let nameStart = cursor
                while cursor < count, !Self.endsTagName(bytes[cursor]) { cursor += 1 }
                if let allowedTags, cursor > nameStart, !Self.isDigit(bytes[nameStart]), forbiddenTag == nil {
                    let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<cursor])
                    if !allowedTags.contains(where: { Self.equal($0, name) }) {
                        forbiddenTag = String(decoding: name, as: UTF8.self)
                        forbiddenTagLine = lineIndex
                        forbiddenTagColumn = column
                    }
                }
                while cursor < count, bytes[cursor] != UInt8(ascii: ">"), bytes[cursor] != 0x0A { cursor += 1 }
                if cursor < count, bytes[cursor] == UInt8(ascii: ">") { cursor += 1 }
                column += Self.scalarCount(bytes, from: index, to: cursor)
                index = cursor
                continue
            }
            let scalar: UInt32
            let length: Int
            if hasMarkup, byte == UInt8(ascii: "&"), let (value, referenceLength) = Self.characterReference(bytes, at: index) {
                scalar = value
                length = referenceLength
                // A reference is ASCII: as many columns as bytes.
                column += length
            } else {
                (scalar, length) = Self.decode(bytes, at: index)
                column += 1
            }
            index += length
            characters += 1
            lineCharacters += 1
            if scalar == 0x20 || scalar == 0x09 || scalar == 0xA0 {
                inWord = false
            } else if !inWord {
                inWord = true
                words += 1
            }
            if checksCharacters, scalar != 0, !characterSet.contains(scalar) {
                noteDisallowed(scalar, line: lineIndex, column: column - (byte == UInt8(ascii: "&") ? length : 1))
            }
        }
        if lineCharacters > longestLine {
            longestLine = lineCharacters
            longestLineIndex = lineIndex
        }
        if lineIndex == 0 { firstLine = lineCharacters } else if lineIndex == 1 { secondLine = lineCharacters }
        self.characters = characters
        self.words = words
        self.lineCount = lineIndex + 1
        self.longestLine = longestLine
        self.longestLineIndex = longestLineIndex
        self.firstLine = firstLine
        self.secondLine = secondLine
    }

    /// The fast path for text without markup when neither words nor characters are checked: each
    /// line's scalars counted eight bytes at a time. Kept out of line: inlined, it made the
    /// general path's loop keep its counters in memory.
    @inline(never)
    private mutating func countLines(of bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        let base = UnsafeRawPointer(start)
        let count = bytes.count
        var index = 0
        var lineIndex = 0
        var lineScalars = 0
        while index < count {
            // Eight bytes at a time while none is a line feed: the scalars are the bytes that are
            // not UTF-8 continuation bytes (top bits 10).
            if index &+ 8 <= count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let feeds = word ^ 0x0A0A_0A0A_0A0A_0A0A
                if (feeds &- 0x0101_0101_0101_0101) & ~feeds & 0x8080_8080_8080_8080 == 0 {
                    lineScalars &+= 8 &- (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
                    index &+= 8
                    continue
                }
            }
            let byte = bytes[index]
            index &+= 1
            guard byte == 0x0A else {
                lineScalars &+= byte & 0xC0 != 0x80 ? 1 : 0
                continue
            }
            endLine(lineScalars, lineIndex)
            lineIndex &+= 1
            lineScalars = 0
        }
        endLine(lineScalars, lineIndex)
        lineCount = lineIndex + 1
    }

    /// One line of `scalars` characters, the `index`th, is counted.
    private mutating func endLine(_ scalars: Int, _ index: Int) {
        characters &+= scalars
        if scalars > longestLine {
            longestLine = scalars
            longestLineIndex = index
        }
        if index == 0 { firstLine = scalars } else if index == 1 { secondLine = scalars }
    }

    /// Counts a character outside the allowed set, and keeps the first.
    private mutating func noteDisallowed(_ scalar: UInt32, line: Int, column: Int) {
        disallowedCount += 1
        if disallowedScalar == nil {
            disallowedScalar = scalar
            disallowedLine = line
            disallowedColumn = column
        }
    }

    private static func endsTagName(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ">") || byte == 0x0C
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Unicode scalars in `bytes[start..<end]` (bytes that are not UTF-8 continuation bytes).
    private static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var scalars = 0
        for index in start..<min(end, bytes.count) where bytes[index] & 0xC0 != 0x80 { scalars += 1 }
        return scalars
    }

    /// The scalar starting at `index` and its UTF-8 length (the reader hands out valid UTF-8; a
    /// stray byte is read as one scalar of its own value).
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
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
    private static func characterReference(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int)? {
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
