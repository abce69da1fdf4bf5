extension CueTextMeasurement {
    /// Measures `text`, words included, one scalar at a time where a run of plain text ends.
    init(scalarByScalar text: UnsafeRawBufferPointer, hasMarkup: Bool, allowed: QCCharacterSet?, allowedTags: [[UInt8]]?) {
        guard let start = text.baseAddress, !text.isEmpty else { return }
        let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: text.count)
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
                if let allowedTags, cursor > nameStart, !Self.isDigit(bytes[nameStart]), forbiddenTagName == nil {
                    if !Self.isAllowed(bytes, nameStart..<cursor, allowedTags) {
                        forbiddenTagName = nameStart..<cursor
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
}
