import CueKit

/// An ASS colour, `&HAABBGGRR` (alpha first, `00` opaque and `FF` transparent, then blue, green,
/// red), and the CSS and WebVTT class it becomes.
///
/// Class names follow the scheme SubRip's `<font color>` uses (`SubRipColor`), so that every
/// writer turns them back into the same colour: the eight colours WebVTT predefines classes for
/// (opaque) get those names (`yellow`), other colours `color-rrggbb`, and colours that are not
/// opaque `color-rrggbbaa` (CSS alpha, `ff` opaque).
public struct ASSColor: Sendable, Hashable {
    /// Red, green, blue.
    public var red: UInt8, green: UInt8, blue: UInt8
    /// ASS alpha: 0 opaque, 255 transparent.
    public var transparency: UInt8

    /// A colour.
    public init(red: UInt8, green: UInt8, blue: UInt8, transparency: UInt8 = 0) {
        self.red = red
        self.green = green
        self.blue = blue
        self.transparency = transparency
    }

    /// Reads `&HAABBGGRR`, `&HBBGGRR&`, `H…` or a decimal number (SSA writes colours in decimal),
    /// as libass does; nil when no digit can be read.
    public init?(_ text: some Collection<UInt8>) {
        var bytes = Array(text.prefix(32))
        while let first = bytes.first, first == 0x20 || first == 0x09 || first == UInt8(ascii: "&") { bytes.removeFirst() }
        guard var value = Self.number(bytes) else { return nil }
        value &= 0xFFFF_FFFF
        self.init(
            red: UInt8(value & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8((value >> 16) & 0xFF),
            transparency: UInt8((value >> 24) & 0xFF))
    }

    /// The value of a hexadecimal (`H`/`h` first) or decimal number, digits read up to the first
    /// other byte; nil without a digit.
    static func number(_ bytes: [UInt8]) -> UInt64? {
        var index = 0
        var radix: UInt64 = 10
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "h") {
            radix = 16
            index += 1
        }
        var value: UInt64 = 0
        var digits = 0
        while index < bytes.count, digits < 16 {
            let byte = bytes[index]
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return digits > 0 ? value : nil
            }
            value = value * radix + digit
            digits += 1
            index += 1
        }
        return digits > 0 ? value : nil
    }

    /// The same colour with ASS alpha `transparency`.
    func with(transparency: UInt8) -> ASSColor {
        ASSColor(red: red, green: green, blue: blue, transparency: transparency)
    }

    /// CSS: `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var css: String {
        var text = "#" + Self.hex(red) + Self.hex(green) + Self.hex(blue)
        if transparency != 0 { text += Self.hex(255 - transparency) }
        return text
    }

    /// The WebVTT class of the colour.
    public var className: String {
        let css = self.css
        if transparency == 0, let named = Self.webVTTDefaultClasses.first(where: { $0.hex == css }) { return named.name }
        return "color-" + css.dropFirst()
    }

    /// The rule that gives ``className`` its colour.
    public var rule: CueStyleRule { CueStyleRule(.classes([className]), [.init("color", css)]) }

    /// The colours WebVTT predefines classes for (W3C WebVTT section 7.2).
    static let webVTTDefaultClasses: [(name: String, hex: String)] = [
        ("white", "#ffffff"), ("lime", "#00ff00"), ("cyan", "#00ffff"), ("red", "#ff0000"),
        ("yellow", "#ffff00"), ("magenta", "#ff00ff"), ("blue", "#0000ff"), ("black", "#000000"),
    ]

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }
}
