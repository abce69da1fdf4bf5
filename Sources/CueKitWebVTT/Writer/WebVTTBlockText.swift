/// Makes the free text of a block (cue text, a cue identifier, a comment, header lines) safe to
/// write inside a WebVTT block, and says what it changed.
///
/// What WebVTT's block parser (section 6.1, "collect a WebVTT block") does with text decides what
/// must change: the input's CR and CRLF become LF and NUL becomes U+FFFD before anything else; an
/// empty line ends a block; a line holding `-->` is a cue timing line (and ends the block it is in).
/// The writer's hot path checks the text first (``isSafeCueText(_:)``) and only copies it when it
/// must change.
enum WebVTTBlockText {
    /// What an adjustment changed, for the writer's diagnostics.
    struct Adjustments: OptionSet {
        let rawValue: Int
        /// CR or CRLF became LF.
        static let carriageReturns = Adjustments(rawValue: 1 << 0)
        /// NUL became U+FFFD.
        static let nulls = Adjustments(rawValue: 1 << 1)
        /// Empty lines, or line breaks at the start or end, were removed.
        static let emptyLines = Adjustments(rawValue: 1 << 2)
        /// `-->` was written in a form that reads the same (`--&gt;` in cue text, `<c.a-- >` in a tag).
        static let arrowsEscaped = Adjustments(rawValue: 1 << 3)
        /// `-->` became `-- >`, changing the text.
        static let arrowsBroken = Adjustments(rawValue: 1 << 4)
        /// Line breaks in a one-line value became spaces.
        static let lineBreaks = Adjustments(rawValue: 1 << 5)
    }

    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")
    static let hyphen = UInt8(ascii: "-")
    static let greaterThan = UInt8(ascii: ">")
    static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    // MARK: Checks for the hot path

    /// True when cue text can be written as it is: no NUL, no CR, no empty line, no line break at
    /// either end, no `-->`. Bytes above `>` (letters, most punctuation, all non-ASCII) need no
    /// look, so the loop does little more than walk the text.
    @inline(__always)
    static func isSafeCueText(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = text.count
        guard count > 0 else { return true }
        if text[0] == 0x0A || text[count - 1] == 0x0A { return false }
        var index = 0
        while index < count {
            let byte = text[index]
            if byte <= 0x3E {
                switch byte {
                case 0x00, 0x0D:
                    return false
                case 0x0A:
                    // Not the first byte (checked above), so there is one before it.
                    if text[index - 1] == 0x0A { return false }
                case 0x3E:
                    if index >= 2, text[index - 1] == 0x2D, text[index - 2] == 0x2D { return false }
                default:
                    break
                }
            }
            index += 1
        }
        return true
    }

    /// True when a one-line value (a cue identifier) can be written as it is.
    @inline(__always)
    static func isSafeLine(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = text.count
        var index = 0
        while index < count {
            let byte = text[index]
            if byte <= 0x3E {
                switch byte {
                case 0x00, 0x0A, 0x0D:
                    return false
                case 0x3E:
                    if index >= 2, text[index - 1] == 0x2D, text[index - 2] == 0x2D { return false }
                default:
                    break
                }
            }
            index += 1
        }
        return true
    }

    // MARK: Adjustments

    /// Cue text (WebVTT cue text markup) made safe, keeping the cue text tree it parses to: `-->`
    /// is written `--&gt;` in text and `-- >` inside a tag (every tag holding `--` is one the cue text
    /// parser ignores or reads the same with a space before its `>`); line breaks are normalised and
    /// empty lines and line breaks at either end removed.
    static func cueText(_ text: some Collection<UInt8>, adjustments: inout Adjustments) -> [UInt8] {
        var lines = normalizedCharacters(text, adjustments: &adjustments)
        lines = withoutEmptyLines(lines, keepingEmptyFirstLine: false, adjustments: &adjustments)
        var output: [UInt8] = []
        output.reserveCapacity(lines.count + 8)
        var inTag = false
        for byte in lines {
            switch byte {
            case UInt8(ascii: "<") where !inTag:
                inTag = true
                output.append(byte)
            case greaterThan:
                if output.count >= 2, output[output.count - 1] == hyphen, output[output.count - 2] == hyphen {
                    adjustments.insert(.arrowsEscaped)
                    if inTag {
                        output.append(UInt8(ascii: " "))
                        output.append(byte)
                    } else {
                        output.append(contentsOf: "&gt;".utf8)
                    }
                } else {
                    output.append(byte)
                }
                inTag = false
            default:
                output.append(byte)
            }
        }
        return output
    }

    /// A one-line value (a cue identifier) made safe: line breaks become spaces, `-->` becomes
    /// `-- >`, NUL becomes U+FFFD.
    static func line(_ text: some Collection<UInt8>, adjustments: inout Adjustments) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var previousWasCarriageReturn = false
        for byte in text {
            switch byte {
            case 0:
                adjustments.insert(.nulls)
                output += replacementCharacter
            case cr:
                adjustments.insert(.lineBreaks)
                output.append(UInt8(ascii: " "))
            case lf:
                adjustments.insert(.lineBreaks)
                if !previousWasCarriageReturn { output.append(UInt8(ascii: " ")) }
            default:
                output.append(byte)
            }
            previousWasCarriageReturn = byte == cr
        }
        return breakingArrows(output, adjustments: &adjustments)
    }

    /// Free text of several lines (a comment, the header's lines) made safe: line breaks normalised,
    /// empty lines removed (the first line may stay empty when `keepingEmptyFirstLine`), and `-->`
    /// written `-- >` (in every line, or in all but the first when `arrowsAllowedInFirstLine`).
    static func lines(
        _ text: some Collection<UInt8>,
        keepingEmptyFirstLine: Bool,
        arrowsAllowedInFirstLine: Bool,
        adjustments: inout Adjustments
    ) -> [UInt8] {
        var lines = normalizedCharacters(text, adjustments: &adjustments)
        lines = withoutEmptyLines(lines, keepingEmptyFirstLine: keepingEmptyFirstLine, adjustments: &adjustments)
        if arrowsAllowedInFirstLine, let firstBreak = lines.firstIndex(of: lf) {
            return Array(lines[...firstBreak]) + breakingArrows(Array(lines[(firstBreak + 1)...]), adjustments: &adjustments)
        }
        if arrowsAllowedInFirstLine { return lines }
        return breakingArrows(lines, adjustments: &adjustments)
    }

    /// True when free text of several lines needs no change (see ``lines(_:keepingEmptyFirstLine:arrowsAllowedInFirstLine:adjustments:)``).
    static func isSafeLines(_ text: some Collection<UInt8>, keepingEmptyFirstLine: Bool, arrowsAllowedInFirstLine: Bool) -> Bool {
        var adjustments: Adjustments = []
        let adjusted = lines(
            text, keepingEmptyFirstLine: keepingEmptyFirstLine, arrowsAllowedInFirstLine: arrowsAllowedInFirstLine,
            adjustments: &adjustments)
        return adjustments.isEmpty && adjusted.elementsEqual(text)
    }

    // MARK: Steps

    /// CR and CRLF become LF and NUL becomes U+FFFD, as WebVTT's parser does before anything else.
    static func normalizedCharacters(_ text: some Collection<UInt8>, adjustments: inout Adjustments) -> [UInt8] {
        // Text with neither is copied whole: a style sheet written into every HLS segment is.
        let bytes = Array(text)
        guard bytes.contains(where: { $0 == 0 || $0 == cr }) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var previousWasCarriageReturn = false
        for byte in bytes {
            switch byte {
            case 0:
                adjustments.insert(.nulls)
                output += replacementCharacter
            case cr:
                adjustments.insert(.carriageReturns)
                output.append(lf)
            case lf where previousWasCarriageReturn:
                break
            default:
                output.append(byte)
            }
            previousWasCarriageReturn = byte == cr
        }
        return output
    }

    /// Removes empty lines: runs of LF become one, a trailing LF goes, and a leading LF goes unless
    /// an empty first line is allowed (then a run of them becomes one).
    static func withoutEmptyLines(_ text: [UInt8], keepingEmptyFirstLine: Bool, adjustments: inout Adjustments) -> [UInt8] {
        guard text.contains(lf) else { return text }
        if text.first != lf, text.last != lf, !hasEmptyLine(text) { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var removed = false
        for (index, byte) in text.enumerated() {
            if byte == lf {
                let emptyFirstLine = index == 0 && keepingEmptyFirstLine
                if (output.isEmpty && !emptyFirstLine) || output.last == lf {
                    removed = true
                    continue
                }
            }
            output.append(byte)
        }
        if output.last == lf {
            output.removeLast()
            removed = true
        }
        if removed { adjustments.insert(.emptyLines) }
        return output
    }

    /// True when two LFs follow each other.
    static func hasEmptyLine(_ text: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { bytes in
            var index = 1
            while index < bytes.count {
                if bytes[index] == lf && bytes[index &- 1] == lf { return true }
                index &+= 1
            }
            return false
        }
    }

    /// Writes every `-->` as `-- >`, so that no line reads as a cue timing line.
    static func breakingArrows(_ text: [UInt8], adjustments: inout Adjustments) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        for byte in text {
            if byte == greaterThan, output.count >= 2, output[output.count - 1] == hyphen, output[output.count - 2] == hyphen {
                adjustments.insert(.arrowsBroken)
                output.append(UInt8(ascii: " "))
            }
            output.append(byte)
        }
        return output
    }
}
