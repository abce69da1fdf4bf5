/// One `::cue` rule of a WebVTT style sheet (W3C WebVTT, section 7.2): what it selects, and the CSS
/// declarations it sets.
///
/// Readers that make styles (SubRip's colours, TTML's styles, Cast's `TextTrackStyle`) make rules,
/// and writers that read styles (SubRip's `<font color>`) read rules: CSS is text only where a file
/// holds it, and ``css(_:)`` is the one place that writes it.
///
/// ```swift
/// let rule = CueStyleRule(.classes(["yellow"]), [.init("color", "#ffff00")])
/// rule.css()           // ::cue(.yellow) { color: #ffff00; }
/// rule.css(.expanded)  // ::cue(.yellow) {\n  color: #ffff00;\n}
/// ```
public struct CueStyleRule: Sendable, Hashable {
    /// What a `::cue` rule selects.
    public enum Selector: Sendable, Hashable {
        /// `::cue`: the root of every cue, whose properties its spans inherit.
        case everyCue
        /// `::cue(.a.b)`: the spans that have all these classes.
        case classes([String])
        /// Any other selector, as written: `::cue(v[voice="Roger"])`, `::cue(#id)`, a list.
        case other(String)

        /// The selector as CSS.
        public var css: String {
            switch self {
            case .everyCue: "::cue"
            case .classes(let names): "::cue(" + names.map { "." + $0 }.joined() + ")"
            case .other(let text): text
            }
        }
    }

    /// One `property: value` pair.
    public struct Declaration: Sendable, Hashable {
        /// The CSS property, in lower case.
        public var property: String
        /// Its value, as CSS.
        public var value: String

        /// A declaration.
        public init(_ property: String, _ value: String) {
            self.property = property
            self.value = value
        }

        /// A declaration (labelled form).
        public init(property: String, value: String) {
            self.init(property, value)
        }
    }

    /// How ``css(_:)`` lays a rule out.
    public enum Layout: Sendable, Hashable {
        /// One line: `::cue(.yellow) { color: #ffff00; }`.
        case singleLine
        /// One declaration a line, indented by two spaces.
        case expanded
    }

    /// What the rule selects.
    public var selector: Selector
    /// What it sets, in order.
    public var declarations: [Declaration]

    /// A rule.
    public init(_ selector: Selector, _ declarations: [Declaration]) {
        self.selector = selector
        self.declarations = declarations
    }

    /// The rule as CSS.
    public func css(_ layout: Layout = .singleLine) -> String {
        switch layout {
        case .singleLine:
            return selector.css + " { " + declarations.map { "\($0.property): \($0.value);" }.joined(separator: " ") + " }"
        case .expanded:
            var text = selector.css + " {\n"
            for declaration in declarations { text += "  \(declaration.property): \(declaration.value);\n" }
            return text + "}"
        }
    }

    /// The value `property` is given (the last declaration of it wins, as in CSS); nil when none.
    public func value(of property: String) -> String? {
        declarations.last { $0.property == property }?.value
    }

    /// `text` as a CSS string in double quotes (CSS Syntax 3, section 4.3.5): `"` and `\` are
    /// escaped, control characters become hex escapes, and so do `<` and `>`, so that a value can
    /// never write `-->` or `</style>` into the text around it.
    package static func cssString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "<": result += "\\3C "
            case ">": result += "\\3E "
            case "\u{00}"..."\u{1F}", "\u{7F}": result += "\\" + String(scalar.value, radix: 16, uppercase: true) + " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Reads the rules of CSS text, as a WebVTT `STYLE` block holds them: comments are skipped, each
    /// `selector { declarations }` becomes a rule, and a `::cue` selector with only classes becomes
    /// ``Selector/classes(_:)``. `unread` counts what is not a `::cue` rule (`@` rules, other
    /// selectors, text with no block) and is left out.
    public static func parse(_ css: String) -> (rules: [CueStyleRule], unread: Int) {
        let bytes = Self.withoutComments(css)
        var rules: [CueStyleRule] = []
        var unread = 0
        var index = 0
        while index < bytes.count {
            guard let open = bytes[index...].firstIndex(of: UInt8(ascii: "{")) else {
                if bytes[index...].contains(where: { !isWhiteSpace($0) }) { unread += 1 }
                break
            }
            guard let close = bytes[open...].firstIndex(of: UInt8(ascii: "}")) else {
                unread += 1
                break
            }
            let selectorText = trimmed(String(decoding: bytes[index..<open], as: UTF8.self))
            let body = String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
            index = close + 1
            guard selectorText.hasPrefix("::cue"), !selectorText.hasPrefix("@") else {
                unread += 1
                continue
            }
            let declarations = body.split(separator: ";").compactMap { part -> Declaration? in
                let pair = part.split(separator: ":", maxSplits: 1)
                guard pair.count == 2 else { return nil }
                let property = trimmed(String(pair[0])).lowercased()
                let value = trimmed(String(pair[1]))
                return property.isEmpty ? nil : Declaration(property, value)
            }
            rules.append(CueStyleRule(selector(selectorText), declarations))
        }
        return (rules, unread)
    }

    private static func selector(_ text: String) -> Selector {
        if text == "::cue" { return .everyCue }
        guard text.hasPrefix("::cue("), text.hasSuffix(")") else { return .other(text) }
        // White space may stand just inside the parentheses; inside the selector it is a combinator.
        let argument = trimmed(String(text.dropFirst("::cue(".count).dropLast()))
        guard argument.hasPrefix(".") else { return .other(text) }
        let names = argument.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard names.allSatisfy({ name in !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } }) else {
            return .other(text)
        }
        return .classes(names.map(String.init))
    }

    /// The bytes of `css` without its `/* … */` comments (an unclosed one runs to the end).
    private static func withoutComments(_ css: String) -> [UInt8] {
        let bytes = Array(css.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                index += 2
                while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")) {
                    index += 1
                }
                index += 2
                continue
            }
            result.append(bytes[index])
            index += 1
        }
        return result
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.utf8.first, isWhiteSpace(first) { scalars.removeFirst() }
        while let last = scalars.utf8.last, isWhiteSpace(last) { scalars.removeLast() }
        return String(scalars)
    }
}
