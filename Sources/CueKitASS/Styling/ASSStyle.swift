import CueKit

/// One line of a `[V4+ Styles]` or `[V4 Styles]` section: what the reader keeps of it.
///
/// A style becomes one `::cue(.Name)` rule (``rule(playResY:)``) and the default placement of the
/// events that use it (``alignment``, the margins).
public struct ASSStyle: Sendable, Hashable {
    /// The name as written (`Default`), which events refer to.
    public var name: String
    /// The WebVTT class that stands for the style: the name with every character that cannot be
    /// in a class name (white space, `.`, `<`, `>`, `&`) replaced by `_`.
    public var className: String
    /// `Fontname`.
    public var fontName: String = "Arial"
    /// `Fontsize`, in script pixels (of ``ASSScript/playResY``).
    public var fontSize: Double = 18
    /// `PrimaryColour`: the text.
    public var primaryColor = ASSColor(red: 255, green: 255, blue: 255)
    /// `OutlineColour` (SSA's `TertiaryColour`): the outline, and the box of `BorderStyle` 3.
    public var outlineColor = ASSColor(red: 0, green: 0, blue: 0)
    /// `BackColour`: the shadow.
    public var backColor = ASSColor(red: 0, green: 0, blue: 0)
    /// `Bold`: 0 normal, -1 or 1 bold, another number a font weight.
    public var bold = 0
    /// `Italic`.
    public var italic = false
    /// `Underline`.
    public var underline = false
    /// `StrikeOut`.
    public var strikeOut = false
    /// `BorderStyle`: 1 outline and shadow, 3 an opaque box.
    public var borderStyle = 1
    /// `Outline` width and `Shadow` depth, in script pixels.
    public var outline: Double = 2, shadow: Double = 2
    /// `Alignment`, as a numeric keypad (1 bottom left … 9 top right); SSA's values are converted.
    public var alignment = 2
    /// `MarginL`, `MarginR`, `MarginV`, in script pixels.
    public var marginLeft = 10, marginRight = 10, marginVertical = 10

    /// A style with the defaults libass gives missing fields.
    public init(name: String) {
        self.name = name
        self.className = Self.className(for: name)
    }

    /// The class name for a style name.
    public static func className(for name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar {
            case " ", "\t", ".", "<", ">", "&", "\n", "\r", "\u{0C}": scalars.append("_")
            default: scalars.append(scalar)
            }
        }
        return scalars.isEmpty ? "_" : String(scalars)
    }

    /// SSA's alignment (1–3 bottom, +4 top, +8 middle) as a numeric keypad position.
    public static func keypadAlignment(fromSSA value: Int) -> Int {
        let column = (value & 3) == 0 ? 2 : value & 3
        if value & 4 != 0 { return column + 6 }
        if value & 8 != 0 { return column + 3 }
        return column
    }

    /// The style's rule: font, size as a share of the video's height (`vh`: ``fontSize`` over
    /// PlayResY), colours with alpha, weight, slant, decoration, and the outline and shadow as a
    /// `text-shadow` (or the opaque box of `BorderStyle` 3 as the background).
    public func rule(playResY: Int) -> CueStyleRule {
        let height = Double(max(1, playResY))
        var declarations: [CueStyleRule.Declaration] = [
            .init("font-family", CueStyleRule.cssString(fontName)),
            .init("font-size", Self.format(fontSize * 100 / height) + "vh"),
            .init("color", primaryColor.css),
        ]
        if bold != 0 { declarations.append(.init("font-weight", bold == 1 || bold == -1 ? "bold" : String(min(1000, max(1, bold))))) }
        if italic { declarations.append(.init("font-style", "italic")) }
        var lines: [String] = []
        if underline { lines.append("underline") }
        if strikeOut { lines.append("line-through") }
        if !lines.isEmpty { declarations.append(.init("text-decoration", lines.joined(separator: " "))) }
        if borderStyle == 3 {
            declarations.append(.init("background-color", outlineColor.css))
        } else {
            declarations.append(.init("background-color", "transparent"))
            var shadows: [String] = []
            if outline > 0 { shadows.append(Self.outlineShadow(color: outlineColor, width: outline * 100 / height)) }
            if shadow > 0 {
                let depth = Self.format(shadow * 100 / height) + "vh"
                shadows.append("\(backColor.css) \(depth) \(depth) 0")
            }
            if !shadows.isEmpty { declarations.append(.init("text-shadow", shadows.joined(separator: ", "))) }
        }
        return CueStyleRule(.classes([className]), declarations)
    }

    /// An outline of `width` (in `vh`) drawn as eight shadows around the glyphs.
    static func outlineShadow(color: ASSColor, width: Double) -> String {
        let value = format(width) + "vh"
        let offsets = [("-", "-"), ("", "-"), ("-", ""), ("", "")]
        return offsets.map { "\(color.css) \($0.0)\(value) \($0.1)\(value) 0" }.joined(separator: ", ")
    }

    /// A number with at most two decimals, without trailing zeros. A script's sizes can be any
    /// number: past a million (no screen's size in `vh`) they are held at a million, and a value
    /// that is no number is 0, so that every value converts.
    static func format(_ value: Double) -> String {
        let bounded = value.isNaN ? 0 : min(max(value, -1_000_000), 1_000_000)
        let hundredths = Int((bounded * 100).rounded())
        let whole = hundredths / 100
        let fraction = abs(hundredths % 100)
        if fraction == 0 { return String(whole) }
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        return sign + String(whole) + "." + (fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0" : "") + String(fraction))
    }
}
