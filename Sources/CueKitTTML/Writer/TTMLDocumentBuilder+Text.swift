import CueKit

extension TTMLDocumentBuilder {
    /// Appends text with XML's escapes, line breaks as `br`, and characters XML 1.0 cannot hold
    /// (C0 controls other than tab, U+FFFE, U+FFFF) replaced by U+FFFD (and counted). Works on the
    /// UTF-8 bytes: everything else is copied as it is.
    mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { appendText(bytes: $0) }
    }

    /// ``appendText(_:)`` on UTF-8 bytes. Eight bytes at a time are tested at once (see
    /// ``needsAttention(_:)``): most text needs nothing and is copied in runs.
    mutating func appendText(bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        paragraphNodes += 1
        var index = 0
        var copiedUpTo = 0
        // Handles the byte at `index` and moves past it (or past the three bytes of U+FFFE/U+FFFF).
        func step() {
            let byte = base[index]
            var replacement: StaticString?
            var length = 1
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\n"):
                // A line break and the text after it: past the paragraph's budget, a space.
                if paragraphNodes + 2 <= Self.maximumNodesPerParagraph {
                    paragraphNodes += 2
                    replacement = "<br/>"
                } else {
                    losses.add(.flattened, cue: cueNumber, detail: "line breaks")
                    replacement = " "
                }
            case UInt8(ascii: "\t"), UInt8(ascii: "\r"): replacement = " "
            case 0..<0x20:
                replacement = "\u{FFFD}"
                losses.add(.invalidCharacters, cue: cueNumber)
            case 0xEF where index + 2 < count && base[index + 1] == 0xBF && base[index + 2] >= 0xBE:
                replacement = "\u{FFFD}"
                length = 3
                losses.add(.invalidCharacters, cue: cueNumber)
            default:
                break
            }
            if let replacement {
                if index > copiedUpTo { line.append(UnsafeBufferPointer(start: base + copiedUpTo, count: index - copiedUpTo)) }
                line.append(replacement)
                copiedUpTo = index + length
            }
            index += length
        }
        while index + 8 <= count {
            let mask = Self.attentionMask(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
            if mask == 0 {
                index += 8
                continue
            }
            // The lowest flagged byte is the first that may need attention: the bytes before it
            // are clean, and the next word is read from just after it.
            index += mask.trailingZeroBitCount / 8
            step()
        }
        // The last bytes (most runs between tags are shorter than a word) padded with clean ones.
        while index < count {
            var word: UInt64 = 0x6161_6161_6161_6161
            withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base + index, count: count - index)) }
            let mask = Self.attentionMask(UInt64(littleEndian: word))
            if mask == 0 { break }
            index += mask.trailingZeroBitCount / 8
            step()
        }
        if count > copiedUpTo { line.append(UnsafeBufferPointer(start: base + copiedUpTo, count: count - copiedUpTo)) }
    }

    /// True when one of the eight bytes of `word` may need escaping or replacing: a C0 control,
    /// `&`, `<`, `>`, or 0xEF (which starts U+FFFE and U+FFFF).
    @inline(__always)
    static func needsAttention(_ word: UInt64) -> Bool { attentionMask(word) != 0 }

    /// The high bit of each byte of `word` (its first byte in the lowest bits) that may need
    /// attention (see ``needsAttention(_:)``). Each test is the classic "has a zero byte" (or "has a
    /// byte below n") bit trick: exact for "none of them" and for the lowest flagged byte; bytes
    /// above a flagged one may be flagged falsely, by the borrow.
    @inline(__always)
    static func attentionMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasByte(below limit: UInt64) -> UInt64 { (word &- ones &* limit) & ~word & highBits }
        func hasByte(_ value: UInt64) -> UInt64 {
            let difference = word ^ (ones &* value)
            return (difference &- ones) & ~difference & highBits
        }
        return hasByte(below: 0x20) | hasByte(0x26) | hasByte(0x3C) | hasByte(0x3E) | hasByte(0xEF)
    }

    /// Appends a paragraph's times as attributes, and the start of its region attribute:
    /// ` begin="…" end="…" region="`.
    mutating func appendTimes(begin: Int, end: Int) {
        guard frameRate != nil else {
            line.appendParagraphTimes(begin: begin, end: end)
            return
        }
        appendLiteral(#" begin=""#)
        appendTime(begin)
        appendLiteral(#"" end=""#)
        appendTime(end)
        appendLiteral(#"" region=""#)
    }

    /// Appends a time (milliseconds) as `hh:mm:ss.fff`, or `hh:mm:ss:ff` at the frame rate.
    mutating func appendTime(_ milliseconds: Int) {
        guard let rate = frameRate else {
            line.appendTimestamp(milliseconds)
            return
        }
        var seconds = milliseconds / 1000
        var frames = Int((Double(milliseconds % 1000) * rate.perSecond / 1000).rounded())
        if frames >= rate.frames {
            seconds += 1
            frames = 0
        }
        // hh:mm:ss from the whole seconds, then the frames after a colon.
        line.appendTimestamp(seconds * 1000)
        line.removeLast(4)
        line.append(UInt8(ascii: ":"))
        if frames >= 100 { line.append(String(frames / 100)) }
        line.append(UInt8(ascii: "0") + UInt8(frames / 10 % 10))
        line.append(UInt8(ascii: "0") + UInt8(frames % 10))
    }

    static func escaped(_ text: String, attribute: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where attribute: result += "&quot;"
            case "\n" where attribute: result += "&#10;"
            case "\u{00}"..."\u{08}", "\u{0B}", "\u{0C}", "\u{0E}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A note's text as an XML comment's: `--` cannot be in a comment, nor `-` at its end.
    static func commentText(_ text: String) -> String {
        var result = " "
        for scalar in escaped(text, attribute: false).unicodeScalars {
            if scalar == "-", result.hasSuffix("-") { result += " " }
            result.unicodeScalars.append(scalar)
        }
        return result + " "
    }

    /// Appends a literal's bytes in one copy.
    @inline(__always)
    mutating func appendLiteral(_ literal: StaticString) {
        line.append(literal)
    }

    /// True when the first strong character of cue text (markup skipped) is right to left:
    /// Hebrew, Arabic and the other scripts written right to left.
    static func startsRightToLeft(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { startsRightToLeft(bytes: $0) }
    }

    /// ``startsRightToLeft(_:)`` on the text's UTF-8 bytes, which must be valid UTF-8.
    static func startsRightToLeft(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var inTag = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if inTag {
                if byte == UInt8(ascii: ">") { inTag = false }
                index += 1
                continue
            }
            if byte < 0x80 {
                if byte == UInt8(ascii: "<") {
                    inTag = true
                } else if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") {
                    return false
                }
                index += 1
                continue
            }
            // The text is valid UTF-8 (a `String`).
            guard let (value, length) = UTF8Bytes.scalar(in: bytes, at: index), let scalar = Unicode.Scalar(value) else { return false }
            index += length
            switch direction(of: scalar) {
            case .leftToRight: return false
            case .rightToLeft: return true
            case .neutral: continue
            }
        }
        return false
    }

    enum ScalarDirection { case leftToRight, rightToLeft, neutral }

    /// Whether a scalar outside ASCII starts left-to-right text, right-to-left text, or neither
    /// (it is not a letter). The scripts cues are mostly written in are answered from their
    /// ranges, in which every scalar is a letter; others from their Unicode properties.
    @inline(__always)
    static func direction(of scalar: Unicode.Scalar) -> ScalarDirection {
        switch scalar.value {
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F,  // Latin-1 letters, Latin Extended-A and -B
            0x391...0x3A1, 0x3A3...0x3A9, 0x3B1...0x3C9,  // Greek letters
            0x400...0x481, 0x48A...0x52F,  // Cyrillic letters
            0x3041...0x3096, 0x30A1...0x30FA,  // Hiragana, Katakana
            0x4E00...0x9FFF,  // CJK Unified Ideographs
            0xAC00...0xD7A3:  // Hangul syllables
            return .leftToRight
        case 0x5D0...0x5EA,  // Hebrew letters
            0x621...0x63A, 0x641...0x64A:  // Arabic letters
            return .rightToLeft
        default:
            return directionByProperties(of: scalar)
        }
    }

    /// ``direction(of:)`` from Unicode properties alone: the first alphabetic scalar decides.
    static func directionByProperties(of scalar: Unicode.Scalar) -> ScalarDirection {
        guard scalar.properties.isAlphabetic else { return .neutral }
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return .rightToLeft
        default: return .leftToRight
        }
    }

    /// True when `text` is an XML name without a colon (an NCName, XML 1.0 fifth edition and
    /// Namespaces in XML): what `xml:id` holds. Outside ASCII it is narrower than the grammar, so
    /// that every reader takes it whatever edition of XML it follows: a name starts with a letter
    /// (Unicode's L* and Nl) and goes on with letters, marks (Mn, Mc), digits (Nd) and connector
    /// punctuation, all within the grammar's ranges. `→`, U+3000, private use, unassigned code
    /// points, U+FFFE, U+FFFF and a combining mark first are not names.
    static func isXMLName(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isXMLName(bytes: $0) }
    }

    /// ``isXMLName(_:)`` on a text's UTF-8 bytes (valid UTF-8).
    static func isXMLName(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Most identifiers are ASCII: their bytes answer without decoding scalars.
        if let ascii = { () -> Bool? in
            guard let first = bytes.first, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            func isStart(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) }
            guard isStart(first) else { return false }
            return bytes.allSatisfy {
                isStart($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
            }
        }() {
            return ascii
        }
        let text = String(decoding: bytes, as: UTF8.self)
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next(), isNameStart(first) else { return false }
        while let scalar = scalars.next() {
            guard isNameCharacter(scalar) else { return false }
        }
        return true
    }

    /// The code points XML 1.0 (fifth edition) allows to start a name, but ASCII and `:`.
    private static let nameStartRanges: [ClosedRange<UInt32>] = [
        0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D, 0x2070...0x218F,
        0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF,
    ]

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == "_" || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) }
        guard nameStartRanges.contains(where: { $0.contains(scalar.value) }) else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber: return true
        default: return false
        }
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isNameStart(scalar) || scalar == "-" || scalar == "." || ("0"..."9").contains(scalar) }
        let value = scalar.value
        if value == 0xB7 { return true }
        guard nameStartRanges.contains(where: { $0.contains(value) }) || (0x300...0x36F).contains(value) || (0x203F...0x2040).contains(value)
        else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber, .nonspacingMark,
            .spacingMark, .decimalNumber, .connectorPunctuation:
            return true
        default:
            return false
        }
    }
}
