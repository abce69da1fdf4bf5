import CueKit

/// One TTML style attribute (`tts:color="#FFFF00FF"`), as written on a `style` element.
struct TTMLStyleAttribute: Hashable, Sendable {
    var name: String
    var value: String
}

/// Translates the CSS of `::cue` rules into TTML style attributes (TTML2 section 10.2; IMSC 1.1
/// section 9), for ``TTMLWriter``. Each declaration becomes one attribute or is named as not
/// carried, never dropped silently.
enum TTMLStyleTranslation {
    /// What a list of declarations becomes: attributes in declaration order (a later declaration of
    /// the same attribute replaces an earlier one, as in CSS), and the declarations the profile
    /// cannot carry, as `property: value`.
    struct Result {
        var attributes: [TTMLStyleAttribute] = []
        var notCarried: [String] = []

        mutating func set(_ name: String, _ value: String) {
            attributes.removeAll { $0.name == name }
            attributes.append(TTMLStyleAttribute(name: name, value: value))
        }
    }

    static func translate(_ declarations: [CueStyleRule.Declaration], profile: TTMLProfile, cellRows: Int = 15) -> Result {
        var result = Result()
        for declaration in declarations {
            let value = declaration.value.trimmingCSSSpace().removingImportant()
            let lowered = value.lowercased()
            var written: (String, String)?
            switch declaration.property.lowercased() {
            case "color":
                written = color(value).map { ("tts:color", $0) }
            case "background-color", "background":
                written = color(value).map { ("tts:backgroundColor", $0) }
            case "font-family":
                written = fontFamily(value).map { ("tts:fontFamily", $0) }
            case "font-size":
                written = fontSize(lowered, profile: profile, cellRows: cellRows).map { ("tts:fontSize", $0) }
            case "font-style":
                if ["normal", "italic", "oblique"].contains(lowered) { written = ("tts:fontStyle", lowered) }
            case "font-weight":
                if lowered == "bold" || lowered == "bolder" || (Int(lowered).map { $0 >= 600 } ?? false) {
                    written = ("tts:fontWeight", "bold")
                } else if lowered == "normal" || lowered == "lighter" || (Int(lowered).map { $0 < 600 } ?? false) {
                    written = ("tts:fontWeight", "normal")
                }
            case "text-decoration", "text-decoration-line":
                written = textDecoration(lowered).map { ("tts:textDecoration", $0) }
            case "text-shadow":
                // An outline drawn as shadows all round (a Cast OUTLINE edge) is TTML's own outline,
                // which every IMSC renderer draws; other shadows stay shadows where the profile has them.
                if profile.hasTextOutline, let outline = textOutline(value) {
                    written = ("tts:textOutline", outline)
                } else if profile.hasTextShadow {
                    written = textShadow(value).map { ("tts:textShadow", $0) }
                }
            case "opacity":
                if let number = Double(lowered), number >= 0, number <= 1 { written = ("tts:opacity", number.ttmlNumber) }
            case "line-height":
                written = lineHeight(lowered).map { ("tts:lineHeight", $0) }
            case "visibility":
                if lowered == "visible" || lowered == "hidden" { written = ("tts:visibility", lowered) }
            default:
                break
            }
            if let (name, ttmlValue) = written {
                result.set(name, ttmlValue)
            } else {
                result.notCarried.append("\(declaration.property): \(value)")
            }
        }
        return result
    }

    /// A CSS colour as TTML's `#rrggbbaa`: hex forms, `rgb()`/`rgba()` (comma or space syntax),
    /// `transparent` and the CSS named colours TTML also names; nil otherwise.
    static func color(_ css: String) -> String? {
        let text = css.trimmingCSSSpace().lowercased()
        if text.hasPrefix("#") {
            let digits = Array(text.dropFirst())
            guard digits.allSatisfy(\.isHexDigit) else { return nil }
            switch digits.count {
            case 3, 4: return hex(digits.flatMap { [$0, $0] } + (digits.count == 3 ? ["f", "f"] : []))
            case 6, 8: return hex(digits + (digits.count == 6 ? ["f", "f"] : []))
            default: return nil
            }
        }
        if text.hasPrefix("rgb"), let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
            let parts = inner.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "/" }).map(String.init)
            guard parts.count == 3 || parts.count == 4 else { return nil }
            var channels: [Int] = []
            for part in parts.prefix(3) {
                if part.hasSuffix("%"), let percent = Double(part.dropLast()) {
                    channels.append(Int((min(max(percent, 0), 100) * 255 / 100).rounded()))
                } else if let number = Double(part) {
                    channels.append(Int(min(max(number, 0), 255).rounded()))
                } else {
                    return nil
                }
            }
            var alpha = 255
            if parts.count == 4 {
                let part = parts[3]
                if part.hasSuffix("%"), let percent = Double(part.dropLast()) {
                    alpha = Int((min(max(percent, 0), 100) * 255 / 100).rounded())
                } else if let number = Double(part) {
                    alpha = Int((min(max(number, 0), 1) * 255).rounded())
                } else {
                    return nil
                }
            }
            return "#" + (channels + [alpha]).map(hexByte).joined()
        }
        if text == "transparent" { return "#00000000" }
        return namedColors[text].map { "#" + $0 + "ff" }
    }

    private static func hex(_ digits: [Character]) -> String { "#" + String(digits) }

    private static func hexByte(_ value: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[value >> 4], digits[value & 15]])
    }

    /// The named colours of CSS Color Level 4 that captions use (those TTML names too, and a few
    /// more).
    static let namedColors: [String: String] = [
        "black": "000000", "silver": "c0c0c0", "gray": "808080", "grey": "808080", "white": "ffffff", "maroon": "800000",
        "red": "ff0000", "purple": "800080", "fuchsia": "ff00ff", "magenta": "ff00ff", "green": "008000", "lime": "00ff00",
        "olive": "808000", "yellow": "ffff00", "navy": "000080", "blue": "0000ff", "teal": "008080", "aqua": "00ffff",
        "cyan": "00ffff", "orange": "ffa500", "pink": "ffc0cb", "brown": "a52a2a", "gold": "ffd700", "darkgray": "a9a9a9",
        "lightgray": "d3d3d3",
    ]

    /// A CSS font list as `tts:fontFamily`: generic families become TTML's, names are quoted.
    static func fontFamily(_ css: String) -> String? {
        var families: [String] = []
        for item in splitOutsideQuotes(css, at: ",") {
            let name = item.trimmingCSSSpace()
            guard !name.isEmpty else { return nil }
            if name.first == "\"" || name.first == "'" {
                guard name.count >= 2, name.last == name.first else { return nil }
                families.append(quoted(String(name.dropFirst().dropLast())))
                continue
            }
            switch name.lowercased() {
            case "serif": families.append("serif")
            case "sans-serif": families.append("sansSerif")
            case "monospace", "ui-monospace": families.append("monospace")
            case "system-ui", "ui-sans-serif": families.append("proportionalSansSerif")
            case "ui-serif": families.append("proportionalSerif")
            case "cursive", "fantasy", "emoji", "math", "fangsong", "ui-rounded": families.append("default")
            default: families.append(quoted(name))
            }
        }
        return families.isEmpty ? nil : families.joined(separator: ", ")
    }

    private static func quoted(_ name: String) -> String {
        var result = "\""
        for character in name {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }

    /// `font-size` in `%`, `em` or `vh` as a TTML size: percentages of the parent's size, and, for
    /// the video height, cells (`cellRows` rows: with 15, 1vh is 0.15c), or a percentage of the
    /// default cell-sized font in EBU-TT-D, which has no `c` font sizes.
    static func fontSize(_ css: String, profile: TTMLProfile, cellRows: Int = 15) -> String? {
        if let percent = number(css, unit: "%"), percent > 0 { return percent.ttmlNumber + "%" }
        if let em = number(css, unit: "em"), em > 0 { return (em * 100).ttmlNumber + "%" }
        if let height = number(css, unit: "vh"), height > 0 {
            let cells = height * Double(cellRows) / 100
            return profile == .ebuTTD ? (cells * 100).ttmlNumber + "%" : cells.ttmlNumber + "c"
        }
        return nil
    }

    static func lineHeight(_ css: String) -> String? {
        if css == "normal" { return "normal" }
        if let percent = number(css, unit: "%"), percent > 0 { return percent.ttmlNumber + "%" }
        if let em = number(css, unit: "em"), em > 0 { return (em * 100).ttmlNumber + "%" }
        if let factor = Double(css), factor > 0 { return (factor * 100).ttmlNumber + "%" }
        return nil
    }

    static func textDecoration(_ css: String) -> String? {
        if css == "none" { return "none" }
        var values: [String] = []
        for word in css.split(separator: " ") {
            switch word {
            case "underline": values.append("underline")
            case "line-through": values.append("lineThrough")
            case "overline": values.append("overline")
            default: return nil
            }
        }
        return values.isEmpty ? nil : values.joined(separator: " ")
    }

    /// CSS shadows (`color x y blur`, in any order of colour and lengths) as TTML2's
    /// `x y blur color` list; lengths in `em` (pixels have no meaning without the root's extent);
    /// at most four, as IMSC 1.1 allows.
    static func textShadow(_ css: String) -> String? {
        if css.lowercased() == "none" { return "none" }
        let shadows = splitOutsideParentheses(css, at: ",")
        guard !shadows.isEmpty, shadows.count <= 4 else { return nil }
        var written: [String] = []
        for shadow in shadows {
            var lengths: [String] = []
            var shadowColor: String?
            for token in splitOutsideParentheses(shadow, at: " ") where !token.isEmpty {
                if let length = length(token) {
                    lengths.append(length)
                } else if shadowColor == nil, let parsed = color(token) {
                    shadowColor = parsed
                } else {
                    return nil
                }
            }
            guard lengths.count == 2 || lengths.count == 3 else { return nil }
            written.append((lengths + [shadowColor].compactMap { $0 }).joined(separator: " "))
        }
        return written.joined(separator: ", ")
    }

    /// CSS shadows that draw an outline (unblurred, one colour, offset the same distance to every
    /// side: the four diagonals, or the four sides and four diagonals) as TTML's `tts:textOutline`,
    /// `color thickness`; nil for any other shadow.
    static func textOutline(_ css: String) -> String? {
        let shadows = splitOutsideParentheses(css, at: ",")
        guard shadows.count == 4 || shadows.count == 8 else { return nil }
        var outlineColor: String?
        var distance: Double?
        var directions: Set<[Int]> = []
        for shadow in shadows {
            var offsets: [Double] = []
            var shadowColor: String?
            for token in splitOutsideParentheses(shadow, at: " ") where !token.isEmpty {
                let lowered = token.lowercased()
                if lowered == "0" {
                    offsets.append(0)
                } else if let value = number(lowered, unit: "em") {
                    offsets.append(value)
                } else if shadowColor == nil, let parsed = color(token) {
                    shadowColor = parsed
                } else {
                    return nil
                }
            }
            // x, y and an optional blur of zero.
            guard offsets.count == 2 || (offsets.count == 3 && offsets[2] == 0), let shadowColor else { return nil }
            guard outlineColor == nil || outlineColor == shadowColor else { return nil }
            outlineColor = shadowColor
            for offset in offsets.prefix(2) where offset != 0 {
                guard distance == nil || abs(abs(offset) - distance!) < 1e-9 else { return nil }
                distance = abs(offset)
            }
            directions.insert(offsets.prefix(2).map { $0 == 0 ? 0 : ($0 > 0 ? 1 : -1) })
        }
        let diagonals: Set<[Int]> = [[1, 1], [1, -1], [-1, 1], [-1, -1]]
        let sides: Set<[Int]> = [[1, 0], [-1, 0], [0, 1], [0, -1]]
        guard directions == diagonals || directions == diagonals.union(sides), let outlineColor, let distance, distance > 0 else {
            return nil
        }
        return "\(outlineColor) \(distance.ttmlNumber)em"
    }

    private static func length(_ token: String) -> String? {
        let lowered = token.lowercased()
        if lowered == "0" { return "0em" }
        // Pixels would need the root's tts:extent to mean anything in TTML: only em are written.
        return number(lowered, unit: "em").map { $0.ttmlNumber + "em" }
    }

    private static func number(_ text: String, unit: String) -> Double? {
        guard text.hasSuffix(unit) else { return nil }
        guard let value = Double(text.dropLast(unit.count)), value.isFinite else { return nil }
        return value
    }

    private static func splitOutsideQuotes(_ text: String, at separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == separator {
                parts.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    private static func splitOutsideParentheses(_ text: String, at separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            if character == "(" { depth += 1 }
            if character == ")" { depth = max(0, depth - 1) }
            if depth == 0, character == separator || (separator == " " && character == "\t") {
                if !current.trimmingCSSSpace().isEmpty { parts.append(current.trimmingCSSSpace()) }
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.trimmingCSSSpace().isEmpty { parts.append(current.trimmingCSSSpace()) }
        return parts
    }
}

extension Double {
    /// A number as TTML writes it: no exponent, at most four decimals, no trailing zeros.
    var ttmlNumber: String {
        let scaled = (self * 10_000).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return "0" }
        let whole = Int64(scaled) / 10_000
        var fraction = String(abs(Int64(scaled) % 10_000))
        let sign = scaled < 0 && whole == 0 ? "-" : ""
        if fraction == "0" { return sign + String(whole) }
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(whole).\(fraction)"
    }
}

extension String {
    fileprivate func trimmingCSSSpace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }

    fileprivate func removingImportant() -> String {
        guard lowercased().hasSuffix("!important") else { return self }
        return String(dropLast("!important".count)).trimmingCSSSpace()
    }
}
