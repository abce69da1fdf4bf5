import CueKit

/// A `<font color="…">` colour, and the WebVTT class that stands for it in the cue model.
///
/// WebVTT cue text has no colour markup: colour comes from a class span (`<c.red>`) and a style
/// sheet rule (`::cue(.red) { color: #ff0000; }`). The class name is derived from the colour
/// alone, so the same colour gets the same class in every file and every run, and a writer can
/// turn the class back into the colour without seeing the rule:
///
/// - the eight colours that WebVTT predefines classes for (W3C WebVTT section 7.2, "default text
///   colour": white, lime, cyan, red, yellow, magenta, blue, black), whether named or written in hex,
///   get those classes (`#FFFF00` -> `yellow`), so a renderer shows them even without the rule;
/// - other hex colours get `color-rrggbb` (lower case; `#abc` is expanded, `#rrggbbaa` kept);
/// - other colour names get `color-name` (lower case), with the name in the rule as CSS reads it.
///
/// Every class still gets a rule: Chromium, and so every Cast receiver, does not apply WebVTT's
/// default colour classes (without a `STYLE` rule, `<c.yellow>` shows white there).
public struct SubRipColor: Sendable, Hashable {
    /// The WebVTT class name for the colour.
    public let className: String
    /// The CSS colour value: `#rrggbb`, `#rrggbbaa`, or a colour name.
    public let cssValue: String

    /// The colours WebVTT predefines classes for, and their hex values.
    public static let webVTTDefaultClasses: [(name: String, hex: String)] = [
        ("white", "#ffffff"), ("lime", "#00ff00"), ("cyan", "#00ffff"), ("red", "#ff0000"),
        ("yellow", "#ffff00"), ("magenta", "#ff00ff"), ("blue", "#0000ff"), ("black", "#000000"),
    ]

    /// CSS names that are the same colour as one of WebVTT's default classes.
    private static let aliases: [String: String] = ["aqua": "cyan", "fuchsia": "magenta"]

    /// The prefix of the classes of colours that have no WebVTT default class.
    public static let classPrefix = "color-"

    /// Reads a `<font color>` value: a colour name (letters only), or 3, 6 or 8 hex digits with or
    /// without `#`. Nil for anything else (`rgb(…)`, ASS's `&H…`, junk).
    public init?(attributeValue: some StringProtocol) {
        if let color = Self.sixDigitHex(attributeValue) {
            self = color
            return
        }
        var bytes = Array(attributeValue.utf8)
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
        let hasHash = bytes[0] == UInt8(ascii: "#")
        let digits = hasHash ? Array(bytes.dropFirst()) : bytes
        let isHex = !digits.isEmpty && digits.allSatisfy(Self.isHexDigit)
        if isHex && (digits.count == 6 || digits.count == 8 || (hasHash && digits.count == 3)) {
            var lower = digits.map { $0 | 0x20 }
            if lower.count == 3 { lower = lower.flatMap { [$0, $0] } }
            let hex = "#" + String(decoding: lower, as: UTF8.self)
            if let named = Self.webVTTDefaultClasses.first(where: { $0.hex == hex }) {
                self.init(className: named.name, cssValue: hex)
            } else {
                self.init(className: Self.classPrefix + hex.dropFirst(), cssValue: hex)
            }
            return
        }
        guard !hasHash, bytes.allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }) else { return nil }
        var name = String(decoding: bytes.map { $0 | 0x20 }, as: UTF8.self)
        name = Self.aliases[name] ?? name
        if let named = Self.webVTTDefaultClasses.first(where: { $0.name == name }) {
            self.init(className: named.name, cssValue: named.hex)
        } else {
            self.init(className: Self.classPrefix + name, cssValue: name)
        }
    }

    /// The colour a class stands for, when it is one of WebVTT's default colour classes or a
    /// `color-…` class of this scheme; nil for any other class.
    public init?(className: String) {
        if let named = Self.webVTTDefaultClasses.first(where: { $0.name == className }) {
            self.init(className: named.name, cssValue: named.hex)
            return
        }
        guard className.hasPrefix(Self.classPrefix) else { return nil }
        let value = className.dropFirst(Self.classPrefix.count)
        let bytes = Array(value.utf8)
        if (bytes.count == 6 || bytes.count == 8), bytes.allSatisfy(Self.isHexDigit) {
            self.init(className: className, cssValue: "#" + value.lowercased())
        } else if !bytes.isEmpty, bytes.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) {
            self.init(className: className, cssValue: String(value))
        } else {
            return nil
        }
    }

    /// `#rrggbb` exactly, the form nearly every file writes, read without a copy of the value; nil
    /// for anything else, which the general reading of ``init(attributeValue:)`` then reads.
    private static func sixDigitHex(_ value: some StringProtocol) -> SubRipColor? {
        let utf8 = value.utf8
        guard utf8.count == 7 else { return nil }
        if let color = utf8.withContiguousStorageIfAvailable({ sixDigitHex(bytes: $0) }) { return color }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 7) { bytes in
            _ = bytes.initialize(from: utf8)
            return sixDigitHex(bytes: UnsafeBufferPointer(bytes))
        }
    }

    /// `#rrggbb` exactly, from its bytes (a `<font color>` value as the markup converter finds it).
    static func sixDigitHex(bytes: UnsafeBufferPointer<UInt8>) -> SubRipColor? {
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 7) { hex -> SubRipColor? in
            hex[0] = bytes[0]
            for index in 1..<7 {
                guard isHexDigit(bytes[index]) else { return nil }
                hex[index] = bytes[index] | 0x20
            }
            let css = String(decoding: hex, as: UTF8.self)
            // Each of red, green and blue `00` or `ff`: one of WebVTT's eight default colours.
            var bits = 0
            for pair in 0..<3 {
                let high = hex[1 + 2 * pair], low = hex[2 + 2 * pair]
                guard high == low, high == UInt8(ascii: "0") || high == UInt8(ascii: "f") else {
                    return SubRipColor(className: classPrefix + css.dropFirst(), cssValue: css)
                }
                bits = bits << 1 | (high == UInt8(ascii: "f") ? 1 : 0)
            }
            // `webVTTDefaultClasses` by red, green and blue bits: black, blue, lime, cyan, red,
            // magenta, yellow, white.
            let place: Int
            switch bits {
            case 0: place = 7
            case 1: place = 6
            case 2: place = 1
            case 3: place = 2
            case 4: place = 3
            case 5: place = 5
            case 6: place = 4
            default: place = 0
            }
            return SubRipColor(className: webVTTDefaultClasses[place].name, cssValue: css)
        }
    }

    private init(className: String, cssValue: String) {
        self.className = className
        self.cssValue = cssValue
    }

    /// The style sheet rule that gives the class its colour: `::cue(.name) { color: value; }`.
    public var rule: CueStyleRule { CueStyleRule(.classes([className]), [.init("color", cssValue)]) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }
}
