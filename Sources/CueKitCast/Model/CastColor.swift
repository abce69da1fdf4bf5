/// A colour as Cast sends it: red, green, blue and alpha, 8 bits each, written `#RRGGBBAA`.
///
/// Cast puts alpha last (CSS Color 4's 8-digit hex notation, section 5.2), unlike Android's
/// `0xAARRGGBB` integers; mixing the two up is the classic Cast styling bug, which is why this type
/// exists instead of a string. `#RRGGBB` is read as opaque. Written back, a colour is always the
/// canonical upper-case `#RRGGBBAA`.
public struct CastColor: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8
    /// Alpha, 0 (transparent) ... 255 (opaque).
    public var alpha: UInt8

    /// Creates a colour from its channels; alpha defaults to opaque.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque black, the colour receivers draw edges in when none is given.
    public static let black = CastColor(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = CastColor(red: 255, green: 255, blue: 255)

    /// Why a string is not a Cast colour.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The text that was read.
        public var text: String
        /// What is wrong with it, and what to write instead.
        public var message: String

        /// The message.
        public var description: String { message }
    }

    /// Reads `#RRGGBBAA` or `#RRGGBB`, as `GCKColor(cssString:)` does on iOS; nil for anything
    /// else (``init(parsing:)`` says why).
    public init?(cssString: String) {
        guard let color = try? CastColor(parsing: cssString) else { return nil }
        self = color
    }

    /// ``hex``, by its iOS name: `#RRGGBBAA`.
    public var cssString: String { hex }

    /// Reads `#RRGGBBAA` or `#RRGGBB` (hexadecimal digits in either case).
    public init(parsing text: String) throws(ParseError) {
        let scalars = Array(text.unicodeScalars)
        func fail(_ why: String) -> ParseError {
            ParseError(text: text, message: "'\(text)' is not a Cast colour: \(why); write '#RRGGBBAA' (alpha last) or '#RRGGBB' (opaque)")
        }
        guard scalars.first == "#" else { throw fail("it does not start with '#'") }
        let digits = scalars.dropFirst()
        guard digits.count == 8 || digits.count == 6 else {
            throw fail("it has \(digits.count) hexadecimal digits, not 8 or 6")
        }
        var values: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1]) else {
                let bad = [digits[index], digits[index + 1]].first { Self.hexValue($0) == nil }!
                throw fail("'\(bad)' is not a hexadecimal digit")
            }
            values.append(high << 4 | low)
            index += 2
        }
        self.init(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 255)
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "0"..."9": UInt8(scalar.value - 48)
        case "a"..."f": UInt8(scalar.value - 97 + 10)
        case "A"..."F": UInt8(scalar.value - 65 + 10)
        default: nil
        }
    }

    /// `#RRGGBBAA`, upper case: what Cast sends.
    public var hex: String {
        [red, green, blue, alpha].reduce(into: "#") { text, channel in
            let digits = String(channel, radix: 16, uppercase: true)
            text += channel < 16 ? "0" + digits : digits
        }
    }

    /// `rgba(R, G, B, A)` with alpha from 0 to 1 in at most three decimals, enough for every 8-bit
    /// alpha to come back exactly (browsers store alpha in 8 bits: round(A × 255) is the original).
    public var css: String {
        "rgba(\(red), \(green), \(blue), \(Self.formatAlpha(alpha)))"
    }

    /// Alpha as a CSS number: `1`, `0`, `0.5`, `0.502`.
    static func formatAlpha(_ alpha: UInt8) -> String {
        let thousandths = (Int(alpha) * 1000 + 127) / 255
        if thousandths == 1000 { return "1" }
        if thousandths == 0 { return "0" }
        var fraction = String(thousandths)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "0." + fraction
    }

    /// True when the colour is fully transparent (it draws nothing).
    public var isTransparent: Bool { alpha == 0 }

    /// The canonical `#RRGGBBAA`.
    public var description: String { hex }

    /// Reads a `#RRGGBBAA` or `#RRGGBB` string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Writes the canonical `#RRGGBBAA` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
