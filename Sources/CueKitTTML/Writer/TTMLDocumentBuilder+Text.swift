import CueKit

extension TTMLDocumentBuilder {
    /// Appends text with XML's escapes, line breaks as `br`, and characters XML 1.0 cannot hold
    /// (C0 controls other than tab, U+FFFE, U+FFFF) replaced by U+FFFD (and counted). Works on the
    /// UTF-8 bytes: everything else is copied as it is.
    mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { appendText(bytes: $0) }
    }

    /// ``appendText(_:)`` on UTF-8 bytes.
    mutating func appendText(bytes: UnsafeBufferPointer<UInt8>) {
        do {
            var index = 0
            var copiedUpTo = 0
            func flush(_ line: TTMLLineBuffer, upTo end: Int) {
                if end > copiedUpTo { line.append(UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<end])) }
            }
            while index < bytes.count {
                let byte = bytes[index]
                // Letters, digits after `>`, and most of UTF-8 need nothing: one test for them.
                if byte > UInt8(ascii: ">"), byte != 0xEF {
                    index += 1
                    continue
                }
                var replacement: StaticString?
                var length = 1
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\n"): replacement = "<br/>"
                case UInt8(ascii: "\t"), UInt8(ascii: "\r"): replacement = " "
                case 0..<0x20:
                    replacement = "\u{FFFD}"
                    losses.add(.invalidCharacters, cue: cueNumber)
                case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                    replacement = "\u{FFFD}"
                    length = 3
                    losses.add(.invalidCharacters, cue: cueNumber)
                default:
                    break
                }
                if let replacement {
                    flush(line, upTo: index)
                    line.append(replacement)
                    copiedUpTo = index + length
                }
                index += length
            }
            flush(line, upTo: bytes.count)
        }
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
        // Most text starts with an ASCII letter: the answer then needs no Unicode property.
        var text = text
        let startsWithASCIILetter = text.withUTF8 { bytes in
            var inTag = false
            for byte in bytes {
                if inTag {
                    if byte == UInt8(ascii: ">") { inTag = false }
                    continue
                }
                if byte == UInt8(ascii: "<") {
                    inTag = true
                    continue
                }
                if byte >= 0x80 { return false }
                if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") { return true }
            }
            return false
        }
        if startsWithASCIILetter { return false }
        var inTag = false
        for scalar in text.unicodeScalars {
            if inTag {
                if scalar == ">" { inTag = false }
                continue
            }
            if scalar == "<" {
                inTag = true
                continue
            }
            guard scalar.properties.isAlphabetic else { continue }
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
            default: return false
            }
        }
        return false
    }

    /// True when `text` is an XML name without a colon (an NCName): what `xml:id` holds.
    static func isXMLName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        func isStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || (scalar.value >= 0xC0 && scalar.value != 0xD7 && scalar.value != 0xF7)
        }
        guard isStart(first) else { return false }
        return text.unicodeScalars.allSatisfy { isStart($0) || $0 == "-" || $0 == "." || ("0"..."9").contains($0) || $0 == "\u{B7}" }
    }
}
