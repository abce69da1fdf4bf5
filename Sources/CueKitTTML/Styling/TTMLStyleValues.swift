/// Parsers for TTML's styling value expressions (TTML2 section 10.3): colours, lengths, font
/// families, and the list-valued properties built from them.
enum TTMLStyleValues {
    /// An RGBA colour, eight bits a channel (TTML2 section 10.3.9).
    struct Color: Sendable, Hashable {
        var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

        /// `#rrggbb`, or `#rrggbbaa` when not opaque: exact, and read by every current browser.
        var css: String {
            var text = "#" + Self.hex(red) + Self.hex(green) + Self.hex(blue)
            if alpha != 255 { text += Self.hex(alpha) }
            return text
        }

        var isTransparent: Bool { alpha == 0 }

        private static func hex(_ value: UInt8) -> String {
            let digits = Array("0123456789abcdef")
            return String([digits[Int(value >> 4)], digits[Int(value & 15)]])
        }
    }

    /// TTML's named colours (TTML2 section 10.3.25).
    static let namedColors: [String: Color] = [
        "transparent": Color(red: 0, green: 0, blue: 0, alpha: 0),
        "black": Color(red: 0, green: 0, blue: 0, alpha: 255),
        "silver": Color(red: 0xC0, green: 0xC0, blue: 0xC0, alpha: 255),
        "gray": Color(red: 0x80, green: 0x80, blue: 0x80, alpha: 255),
        "white": Color(red: 255, green: 255, blue: 255, alpha: 255),
        "maroon": Color(red: 0x80, green: 0, blue: 0, alpha: 255),
        "red": Color(red: 255, green: 0, blue: 0, alpha: 255),
        "purple": Color(red: 0x80, green: 0, blue: 0x80, alpha: 255),
        "fuchsia": Color(red: 255, green: 0, blue: 255, alpha: 255),
        "magenta": Color(red: 255, green: 0, blue: 255, alpha: 255),
        "green": Color(red: 0, green: 0x80, blue: 0, alpha: 255),
        "lime": Color(red: 0, green: 255, blue: 0, alpha: 255),
        "olive": Color(red: 0x80, green: 0x80, blue: 0, alpha: 255),
        "yellow": Color(red: 255, green: 255, blue: 0, alpha: 255),
        "navy": Color(red: 0, green: 0, blue: 0x80, alpha: 255),
        "blue": Color(red: 0, green: 0, blue: 255, alpha: 255),
        "teal": Color(red: 0, green: 0x80, blue: 0x80, alpha: 255),
        "aqua": Color(red: 0, green: 255, blue: 255, alpha: 255),
        "cyan": Color(red: 0, green: 255, blue: 255, alpha: 255),
    ]

    /// `<color>`: `#rrggbb`, `#rrggbbaa`, `rgb(r,g,b)`, `rgba(r,g,b,a)` (alpha 0 to 255) or a named
    /// colour. Named colours are matched exactly, as TTML's grammar spells them.
    static func color(_ text: Substring) -> Color? {
        let value = text
        if value.hasPrefix("#") {
            let digits = Array(value.utf8.dropFirst())
            guard digits.count == 6 || digits.count == 8, let bytes = hexBytes(digits) else { return nil }
            return Color(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 255)
        }
        for (prefix, count) in [("rgba(", 4), ("rgb(", 3)] where value.hasPrefix(prefix) {
            guard value.hasSuffix(")") else { return nil }
            let inner = value.dropFirst(prefix.count).dropLast()
            let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { trimmed($0) }
            guard parts.count == count else { return nil }
            var channels: [UInt8] = []
            for part in parts {
                guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let number = Int(part), number <= 255 else {
                    return nil
                }
                channels.append(UInt8(number))
            }
            return Color(red: channels[0], green: channels[1], blue: channels[2], alpha: count == 4 ? channels[3] : 255)
        }
        return namedColors[String(value)]
    }

    private static func hexBytes(_ digits: [UInt8]) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = 0
        while index + 1 < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A `<length>` (TTML2 section 10.3.22): a number and a unit.
    struct Length: Sendable, Hashable {
        enum Unit: String, Sendable, Hashable {
            case pixel = "px", em, cell = "c", percent = "%", rootWidth = "rw", rootHeight = "rh"
        }

        var value: Double
        var unit: Unit
    }

    /// `<length>`: an optionally signed decimal number followed by `px`, `em`, `c`, `%`, `rw` or
    /// `rh`. A number without a unit is not a length.
    static func length(_ text: Substring) -> Length? {
        let bytes = Array(text.utf8)
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        var sawDigit = false
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            index += 1
            sawDigit = true
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var fractionDigit = false
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                index += 1
                fractionDigit = true
            }
            guard fractionDigit else { return nil }
            sawDigit = true
        }
        guard sawDigit, let number = Double(String(decoding: bytes[0..<index], as: UTF8.self)) else { return nil }
        let unitText = String(decoding: bytes[index...], as: UTF8.self)
        guard let unit = Length.Unit(rawValue: unitText) else { return nil }
        return Length(value: number, unit: unit)
    }

    /// The values of a list separated by XML white space.
    static func components(_ text: Substring, atMost limit: Int = .max) -> [Substring] {
        // On the UTF-8 view: XML white space is four ASCII code points, found without grapheme breaking.
        let utf8 = text.utf8
        var components: [Substring] = []
        var index = utf8.startIndex
        while components.count < limit {
            while index < utf8.endIndex, isXMLWhiteSpace(utf8[index]) { index = utf8.index(after: index) }
            guard index < utf8.endIndex else { break }
            let start = index
            while index < utf8.endIndex, !isXMLWhiteSpace(utf8[index]) { index = utf8.index(after: index) }
            components.append(text[start..<index])
        }
        return components
    }

    /// ``components(_:atMost:)`` of a whole string, as strings. A value without white space (nearly
    /// every `style`, `ttm:agent`) is its one component, the string itself: the split through
    /// `Substring` cost several hundred instructions a value.
    static func components(of text: String, atMost limit: Int = .max) -> [String] {
        var text = text
        let isOneComponent = text.withUTF8 { bytes in !bytes.isEmpty && !bytes.contains(where: isXMLWhiteSpace) }
        if isOneComponent { return limit > 0 ? [text] : [] }
        return components(Substring(text), atMost: limit).map(String.init)
    }

    /// True when `text` is one component (``components(of:atMost:)``): not empty, no white space.
    static func isSingleComponent(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in !bytes.isEmpty && !bytes.contains(where: isXMLWhiteSpace) }
    }

    /// The first of ``components(of:atMost:)``, without the array.
    static func firstComponent(of text: String) -> String? {
        if isSingleComponent(text) { return text }
        return components(Substring(text), atMost: 1).first.map(String.init)
    }

    /// ``trimmed(_:)`` of a whole string: the string itself when it has no white space at either end.
    static func trimmed(_ text: String) -> String {
        var text = text
        let isTrimmed = text.withUTF8 { bytes in
            bytes.isEmpty || (!isXMLWhiteSpace(bytes[0]) && !isXMLWhiteSpace(bytes[bytes.count - 1]))
        }
        return isTrimmed ? text : String(trimmed(Substring(text)))
    }

    /// The text without leading and trailing XML white space.
    static func trimmed(_ text: Substring) -> Substring {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last, isXMLWhiteSpace(first) || isXMLWhiteSpace(last) else { return text }
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, isXMLWhiteSpace(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isXMLWhiteSpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return text[start..<end]
    }

    /// XML's white space: space, tab, line feed, carriage return. One comparison settles the
    /// bytes above the space (nearly all of text), a bit of a mask the rest.
    @inline(__always)
    static func isXMLWhiteSpace(_ byte: UInt8) -> Bool {
        byte <= 0x20 && (UInt64(1) << 0x20 | 1 << 0x09 | 1 << 0x0A | 1 << 0x0D) >> byte & 1 != 0
    }

    static func isXMLWhiteSpace(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\n" || character == "\r" || character == "\r\n"
    }

    /// `<font-families>` (TTML2 section 10.3.16): family names, quoted or not, and generic names,
    /// separated by commas. Returns the names, quotes removed, generic names marked.
    static func fontFamilies(_ text: Substring) -> [FontFamily]? {
        var families: [FontFamily] = []
        var current = ""
        var quote: Character?
        var wasQuoted = false
        var escaped = false
        func flush() -> Bool {
            let name = wasQuoted ? current : String(trimmed(Substring(current)))
            if name.isEmpty { return false }
            if !wasQuoted, let generic = FontFamily.Generic(rawValue: name) {
                families.append(.generic(generic))
            } else {
                families.append(.named(wasQuoted ? name : components(Substring(name)).joined(separator: " ")))
            }
            current = ""
            wasQuoted = false
            return true
        }
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                guard trimmed(Substring(current)).isEmpty else { return nil }
                current = ""
                quote = character
                wasQuoted = true
            } else if character == "," {
                guard flush() else { return nil }
            } else {
                if wasQuoted, !isXMLWhiteSpace(character) { return nil }
                if !wasQuoted { current.append(character) }
            }
        }
        guard quote == nil, flush() else { return nil }
        return families
    }

    /// A font family: a name, or one of TTML's generic families.
    enum FontFamily: Sendable, Hashable {
        case named(String)
        case generic(Generic)

        /// TTML's generic family names (TTML2 section 10.3.19).
        enum Generic: String, Sendable, Hashable {
            case `default`, monospace, sansSerif, serif, monospaceSansSerif, monospaceSerif, proportionalSansSerif
            case proportionalSerif
        }
    }

    /// A decimal number for CSS: at most four decimals, no trailing zeros, no exponent.
    static func cssNumber(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let scaled = (value * 10_000).rounded()
        if scaled == 0 { return "0" }
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        let whole = magnitude / 10_000
        var fraction = magnitude % 10_000
        var text = (negative ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = 4
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return text
    }
}
