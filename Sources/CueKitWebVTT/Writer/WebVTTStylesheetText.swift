/// Makes a `STYLE` block's CSS safe to write (WebVTT section 4.4): no empty line, no `-->`, keeping
/// what the CSS means wherever that can be shown.
///
/// WebVTT itself says how (section 2.2, "Styling captions"): blank lines "can be removed"; a `-->`
/// wrapping the sheet "can just be removed"; inside a CSS string it becomes `--\>`. A small CSS
/// scanner (comments, strings, escapes and nesting, after CSS Syntax 3, section 4) tells these
/// places apart:
/// - in a comment, `-- >`; in a string, `--\>`: the same meaning;
/// - `-->` that ends a name (`.a-->b`, which CSS reads as `.a--` `>` `b`): `-- >`, the same tokens with
///   white space between them;
/// - `-->` where a rule could start (a CDC token, which CSS ignores there): removed;
/// - anywhere else (a CDC token inside a rule, which CSS does not ignore): `-- >`, which may change
///   what the rule means, and is reported as such.
enum WebVTTStylesheetText {
    typealias Adjustments = WebVTTBlockText.Adjustments

    /// True when the sheet can be written as it is.
    static func isSafe(_ text: some Collection<UInt8>) -> Bool {
        var adjustments: Adjustments = []
        let adjusted = safe(text, adjustments: &adjustments)
        return adjustments.isEmpty && adjusted.elementsEqual(text)
    }

    /// The sheet made safe, and what changed (``Adjustments/arrowsBroken`` when the meaning may have).
    static func safe(_ text: some Collection<UInt8>, adjustments: inout Adjustments) -> [UInt8] {
        let bytes = WebVTTBlockText.normalizedCharacters(text, adjustments: &adjustments)
        let withoutArrows = scanningArrows(bytes, adjustments: &adjustments)
        return WebVTTBlockText.withoutEmptyLines(withoutArrows, keepingEmptyFirstLine: false, adjustments: &adjustments)
    }

    private enum State {
        case normal
        case comment
        case string(quote: UInt8)
    }

    private static func scanningArrows(_ bytes: [UInt8], adjustments: inout Adjustments) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: ">")) else { return bytes }
        let count = bytes.count
        func startsWith(_ prefix: StaticString, at index: Int) -> Bool {
            let length = prefix.utf8CodeUnitCount
            guard index + length <= count else { return false }
            for offset in 0..<length where bytes[index + offset] != prefix.utf8Start[offset] { return false }
            return true
        }
        var output: [UInt8] = []
        output.reserveCapacity(count + 4)
        var state = State.normal
        var depth = 0
        var atRuleStart = true
        var nameContinues = false
        var index = 0
        while index < count {
            let byte = bytes[index]
            switch state {
            case .comment:
                if startsWith("*/", at: index) {
                    output += "*/".utf8
                    index += 2
                    state = .normal
                } else if startsWith("-->", at: index) {
                    adjustments.insert(.arrowsEscaped)
                    output += "-- >".utf8
                    index += 3
                } else {
                    output.append(byte)
                    index += 1
                }
            case .string(let quote):
                if byte == UInt8(ascii: "\\"), index + 1 < count {
                    output.append(byte)
                    output.append(bytes[index + 1])
                    index += 2
                } else if startsWith("-->", at: index) {
                    adjustments.insert(.arrowsEscaped)
                    output += "--\\>".utf8
                    index += 3
                } else {
                    // A line feed ends a string too (a bad string, in CSS terms).
                    if byte == quote || byte == UInt8(ascii: "\n") { state = .normal }
                    output.append(byte)
                    index += 1
                }
            case .normal:
                if startsWith("-->", at: index) {
                    if nameContinues {
                        adjustments.insert(.arrowsEscaped)
                        output += "-- >".utf8
                    } else if depth == 0, atRuleStart {
                        adjustments.insert(.arrowsEscaped)
                    } else {
                        adjustments.insert(.arrowsBroken)
                        output += "-- >".utf8
                    }
                    nameContinues = false
                    index += 3
                    continue
                }
                if depth == 0, startsWith("<!--", at: index) {
                    output += "<!--".utf8
                    nameContinues = false
                    index += 4
                    continue
                }
                if startsWith("/*", at: index) {
                    output += "/*".utf8
                    state = .comment
                    nameContinues = false
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\\"), index + 1 < count, bytes[index + 1] != UInt8(ascii: "\n") {
                    output.append(byte)
                    output.append(bytes[index + 1])
                    nameContinues = true
                    if depth == 0 { atRuleStart = false }
                    index += 2
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    state = .string(quote: byte)
                    if depth == 0 { atRuleStart = false }
                case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "["):
                    depth += 1
                    atRuleStart = false
                case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"):
                    depth = max(0, depth - 1)
                    if depth == 0 { atRuleStart = byte == UInt8(ascii: "}") }
                case UInt8(ascii: ";"):
                    if depth == 0 { atRuleStart = true }
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), 0x0C:
                    break
                default:
                    if depth == 0 { atRuleStart = false }
                }
                // `@` and `#` start a token that takes the name after them (`@--`, `#--`).
                nameContinues = isNameByte(byte) || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "#")
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// A CSS name code point (CSS Syntax 3, section 4.2): a letter, digit, `_`, `-`, or non-ASCII.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), 0x80...0xFF:
            true
        default:
            false
        }
    }
}
