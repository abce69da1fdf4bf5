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
    init(_ text: UnsafeRawBufferPointer, hasMarkup: Bool = true, allowed: QCCharacterSet? = nil, allowedTags: [[UInt8]]? = nil) {
        let bytes = text.bindMemory(to: UInt8.self)
        let count = bytes.count
        var index = 0
        var lineCharacters = 0
        var column = 1
        var inWord = false
        lineCount = count == 0 ? 0 : 1

        func endLine(_ measurement: inout CueTextMeasurement) {
            let line = measurement.lineCount - 1
            if lineCharacters > measurement.longestLine {
                measurement.longestLine = lineCharacters
                measurement.longestLineIndex = line
            }
            if line == 0 { measurement.firstLine = lineCharacters } else if line == 1 { measurement.secondLine = lineCharacters }
        }

        while index < count {
            let byte = bytes[index]
            if byte == 0x0A {
                endLine(&self)
                lineCount += 1
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
                    if !allowedTags.contains(where: { $0.elementsEqual(name) }) {
                        forbiddenTag = String(decoding: name, as: UTF8.self)
                        forbiddenTagLine = lineCount - 1
                        forbiddenTagColumn = column
                    }
                }
                while cursor < count, bytes[cursor] != UInt8(ascii: ">"), bytes[cursor] != 0x0A { cursor += 1 }
                if cursor < count, bytes[cursor] == UInt8(ascii: ">") { cursor += 1 }
                column += Self.scalarCount(bytes, from: index, to: cursor)
                index = cursor
                continue
            }
            var scalar: UInt32
            var length: Int
            if hasMarkup, byte == UInt8(ascii: "&"), let (value, referenceLength) = Self.characterReference(bytes, at: index) {
                scalar = value
                length = referenceLength
            } else {
                (scalar, length) = Self.decode(bytes, at: index)
            }
            let columnHere = column
            column += length == 1 || byte != UInt8(ascii: "&") ? 1 : Self.scalarCount(bytes, from: index, to: index + length)
            index += length
            characters += 1
            lineCharacters += 1
            let isSpace = scalar == 0x20 || scalar == 0x09 || scalar == 0xA0
            if isSpace {
                inWord = false
            } else if !inWord {
                inWord = true
                words += 1
            }
            if let allowed, scalar != 0, !allowed.contains(scalar) {
                disallowedCount += 1
                if disallowedScalar == nil {
                    disallowedScalar = scalar
                    disallowedLine = lineCount - 1
                    disallowedColumn = columnHere
                }
            }
        }
        if lineCount > 0 { endLine(&self) }
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
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<cursor]), as: UTF8.self)
        let length = cursor + 1 - index
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return (UInt32(name.dropFirst(2), radix: 16) ?? 0, length)
        }
        if name.hasPrefix("#") { return (UInt32(name.dropFirst(1)) ?? 0, length) }
        switch name {
        case "amp": return (0x26, length)
        case "lt": return (0x3C, length)
        case "gt": return (0x3E, length)
        case "quot": return (0x22, length)
        case "apos": return (0x27, length)
        case "nbsp": return (0xA0, length)
        case "lrm": return (0x200E, length)
        case "rlm": return (0x200F, length)
        default: return (0, length)
        }
    }
}
