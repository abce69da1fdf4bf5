import CueKit

/// Turns an event's `Text` field, with its override blocks (`{\i1}`) and escapes (`\N`, `\n`, `\h`),
/// into WebVTT cue text: the form every cue of the model holds (see ``Cue/text``).
///
/// What maps, and how:
/// - the event's style becomes the outer class span `<c.Style>` (its rule carries the style's font,
///   size, colours, weight and slant); `\r` and `\rName` reset to the event's or the named style;
/// - `\i`, `\b`, `\u` (1 on, 0 off, empty: the style's value) become `<i>`, `<b>`, `<u>` where they
///   add to the style; turning off what the style turns on cannot be written in WebVTT cue text
///   and is reported;
/// - `\c`/`\1c` and `\alpha`/`\1a` give the text colour: a colour class span (`<c.yellow>`,
///   `<c.color-rrggbbaa>`) with its rule (``ASSColor``); `\3c`/`\3a` the outline colour: a class
///   `outline-rrggbbaa` whose rule draws a `text-shadow`;
/// - `\pos(x,y)` and `\an`/`\a` (the first of each, as libass reads them) place the cue (see
///   ``ASSPlacement``); `\move` is placed at its start point;
/// - `\N` is a line break, `\n` one only with `WrapStyle: 2` (a space otherwise, as libass shows
///   it), `\h` a no-break space; empty lines are left out (a cue cannot hold one);
/// - the text of a drawing (`\p1` … `\p0`) is not text and is left out; karaoke (`\k`, `\kf`, `\ko`),
///   transforms (`\t`), `\move`, fades, rotation, scaling, blur, clips and the other tags WebVTT
///   cannot carry are left out, each kind reported once per file by the reader;
/// - `{` … `}` without a tag is a comment, left out; `&`, `<` and `>` are escaped.
///
/// One converter is reused for every event of a file: its buffers keep their capacity.
struct ASSOverrideConverter {
    /// What an event's text asks for beyond its markup.
    struct Result {
        /// `\pos` (or `\move`'s start point), in script pixels.
        var point: (x: Double, y: Double)?
        /// `\an` (or `\a`, converted), as a keypad position.
        var alignment: Int?
        /// The colour rules the text's spans need.
        var rules: [CueStyleRule] = []
        /// Tags that could not be carried: (tag, byte offset in the text).
        var unsupported: [(tag: String, offset: Int)] = []
        /// True when the cue shows no text (only tags, a drawing, or white space).
        var isEmpty = true
    }

    private struct SpanState: Equatable {
        var styleClass = ""
        var color: ASSColor?
        var outline: ASSColor?
        var bold = false, italic = false, underline = false
    }

    /// The styles, by name, for `\rName`.
    var stylesByName: [String: Int] = [:]
    var styles: [ASSStyle] = []
    var wrapStyle = 0

    private var current = SpanState()
    private var written = SpanState()
    private var spansOpen = false
    private var style = ASSStyle(name: "Default")
    private var eventStyle = ASSStyle(name: "Default")
    private var primary = ASSColor(red: 255, green: 255, blue: 255)
    private var outlineColor = ASSColor(red: 0, green: 0, blue: 0)
    private var drawing = false
    private var lineHasText = false
    /// A line break waits for the next text: breaks at the start or end of the text, or after an
    /// empty line, are left out.
    private var pendingBreak = false
    private var result = Result()

    /// Converts `text` for an event in `eventStyle`, writing its cue text into `output`.
    mutating func convert(_ text: UnsafeBufferPointer<UInt8>, eventStyle: ASSStyle, into output: inout [UInt8]) -> Result {
        result = Result()
        self.eventStyle = eventStyle
        reset(to: eventStyle)
        written = SpanState()
        spansOpen = false
        drawing = false
        pendingBreak = false
        lineHasText = false
        var index = 0
        var runStart = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "{"), let close = closingBrace(text, from: index + 1) {
                writeText(text, runStart..<index, into: &output)
                readOverrides(UnsafeBufferPointer(rebasing: text[(index + 1)..<close]), offset: index + 1)
                index = close + 1
                runStart = index
                continue
            }
            if byte == UInt8(ascii: "\\"), index + 1 < text.count {
                let next = text[index + 1]
                if next == UInt8(ascii: "N") || next == UInt8(ascii: "n") || next == UInt8(ascii: "h") {
                    writeText(text, runStart..<index, into: &output)
                    if !drawing {
                        if next == UInt8(ascii: "N") || (next == UInt8(ascii: "n") && wrapStyle == 2) {
                            lineBreak(into: &output)
                        } else {
                            writeVisible(next == UInt8(ascii: "h") ? [0xC2, 0xA0] : [0x20], into: &output)
                        }
                    }
                    index += 2
                    runStart = index
                    continue
                }
            }
            index += 1
        }
        writeText(text, runStart..<text.count, into: &output)
        closeSpans(into: &output)
        return result
    }

    private func closingBrace(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < text.count {
            if text[index] == UInt8(ascii: "}") { return index }
            index += 1
        }
        return nil
    }

    private mutating func reset(to style: ASSStyle) {
        self.style = style
        primary = style.primaryColor
        outlineColor = style.outlineColor
        current = SpanState(styleClass: style.className)
    }

    // MARK: Text

    private mutating func writeText(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into output: inout [UInt8]) {
        guard !range.isEmpty, !drawing else { return }
        openSpans(into: &output)
        flushBreak(into: &output)
        for index in range {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            default: output.append(byte)
            }
            if byte != 0x20 && byte != 0x09 { markText() }
        }
    }

    private mutating func writeVisible(_ bytes: [UInt8], into output: inout [UInt8]) {
        openSpans(into: &output)
        flushBreak(into: &output)
        output.append(contentsOf: bytes)
        if bytes != [0x20] { markText() }
    }

    private mutating func flushBreak(into output: inout [UInt8]) {
        guard pendingBreak else { return }
        pendingBreak = false
        output.append(0x0A)
    }

    private mutating func markText() {
        lineHasText = true
        result.isEmpty = false
    }

    private mutating func lineBreak(into output: inout [UInt8]) {
        guard lineHasText else { return }
        pendingBreak = true
        lineHasText = false
    }

    /// The spans of a state, outermost first: the style's class, the colour classes, then `b`, `i`, `u`.
    private static func spans(of state: SpanState) -> [String] {
        var spans = ["c." + state.styleClass]
        if let color = state.color { spans.append("c." + color.className) }
        if let outline = state.outline { spans.append("c." + outlineClassName(outline)) }
        if state.bold { spans.append("b") }
        if state.italic { spans.append("i") }
        if state.underline { spans.append("u") }
        return spans
    }

    /// Opens the spans of the current state, closing only those of the written state that differ
    /// (and the ones inside them).
    private mutating func openSpans(into output: inout [UInt8]) {
        if spansOpen, current == written { return }
        if !spansOpen, current.color == nil, current.outline == nil, !current.bold, !current.italic, !current.underline {
            // The common case: the style's class alone.
            output.append(contentsOf: "<c.".utf8)
            output.append(contentsOf: current.styleClass.utf8)
            output.append(UInt8(ascii: ">"))
            written = current
            spansOpen = true
            return
        }
        addRules(of: current)
        let wanted = Self.spans(of: current)
        var kept = 0
        if spansOpen {
            let open = Self.spans(of: written)
            while kept < open.count, kept < wanted.count, open[kept] == wanted[kept] { kept += 1 }
            for span in open[kept...].reversed() { writeEnd(span, into: &output) }
        }
        for span in wanted[kept...] {
            output.append(UInt8(ascii: "<"))
            output.append(contentsOf: span.utf8)
            output.append(UInt8(ascii: ">"))
        }
        written = current
        spansOpen = true
    }

    private mutating func closeSpans(into output: inout [UInt8]) {
        guard spansOpen else { return }
        spansOpen = false
        if written.color == nil, written.outline == nil, !written.bold, !written.italic, !written.underline {
            output.append(contentsOf: "</c>".utf8)
            return
        }
        for span in Self.spans(of: written).reversed() { writeEnd(span, into: &output) }
    }

    private func writeEnd(_ span: String, into output: inout [UInt8]) {
        output.append(contentsOf: "</".utf8)
        output.append(contentsOf: span.utf8.prefix { $0 != UInt8(ascii: ".") })
        output.append(UInt8(ascii: ">"))
    }

    // MARK: Overrides

    /// Reads one override block's tags (between `{` and `}`, at `offset` in the text).
    private mutating func readOverrides(_ block: UnsafeBufferPointer<UInt8>, offset: Int) {
        var index = 0
        while index < block.count {
            guard block[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            let tagStart = index
            index += 1
            let nameStart = index
            if index < block.count, (UInt8(ascii: "1")...UInt8(ascii: "4")).contains(block[index]) { index += 1 }
            while index < block.count, Self.isLetter(block[index]) { index += 1 }
            var name = String(decoding: UnsafeBufferPointer(rebasing: block[nameStart..<index]), as: UTF8.self)
            var argumentStart = index
            // Tags whose argument starts with letters: the name is their prefix.
            if !Self.knownTags.contains(name) {
                for prefix in ["fn", "r"] where name.hasPrefix(prefix) {
                    argumentStart = nameStart + prefix.utf8.count
                    name = prefix
                    break
                }
            }
            // A parenthesised argument runs to its `)`, backslashes included; another to the next `\`.
            var argumentEnd = argumentStart
            if argumentEnd < block.count, block[argumentEnd] == UInt8(ascii: "(") {
                var depth = 0
                while argumentEnd < block.count {
                    if block[argumentEnd] == UInt8(ascii: "(") { depth += 1 }
                    if block[argumentEnd] == UInt8(ascii: ")") {
                        depth -= 1
                        if depth == 0 {
                            argumentEnd += 1
                            break
                        }
                    }
                    argumentEnd += 1
                }
            } else {
                while argumentEnd < block.count, block[argumentEnd] != UInt8(ascii: "\\") { argumentEnd += 1 }
            }
            let argument = UnsafeBufferPointer(rebasing: block[argumentStart..<argumentEnd])
            apply(name, argument, offset: offset + tagStart)
            index = max(argumentEnd, tagStart + 1)
        }
    }

    private static let knownTags: Set<String> = [
        "i", "b", "u", "s", "c", "1c", "2c", "3c", "4c", "alpha", "1a", "2a", "3a", "4a", "pos", "move", "an", "a", "r", "k", "K", "kf",
        "ko", "kt", "p", "pbo", "t", "fad", "fade", "fn", "fs", "fscx", "fscy", "fsp", "fr", "frx", "fry", "frz", "fax", "fay", "fe",
        "bord", "xbord", "ybord", "shad", "xshad", "yshad", "blur", "be", "clip", "iclip", "org", "q",
    ]

    private mutating func apply(_ name: String, _ argument: UnsafeBufferPointer<UInt8>, offset: Int) {
        let trimmed = Self.trimmed(argument)
        switch name {
        case "i", "b", "u":
            let styleValue = name == "i" ? style.italic : name == "u" ? style.underline : style.bold != 0
            let value: Bool
            if trimmed.isEmpty {
                value = styleValue
            } else {
                let number = Self.integer(trimmed) ?? 0
                value = name == "b" ? (number == 1 || number >= 600 || number == -1) : number != 0
            }
            if !value && styleValue { unsupported("\\\(name)0", offset) }
            let added = value && !styleValue
            switch name {
            case "i": current.italic = added
            case "u": current.underline = added
            default: current.bold = added
            }
        case "c", "1c":
            if trimmed.isEmpty {
                primary = style.primaryColor.with(transparency: primary.transparency)
            } else if let color = ASSColor(trimmed) {
                primary = color.with(transparency: primary.transparency)
            }
            setPrimary()
        case "3c":
            if trimmed.isEmpty {
                outlineColor = style.outlineColor.with(transparency: outlineColor.transparency)
            } else if let color = ASSColor(trimmed) {
                outlineColor = color.with(transparency: outlineColor.transparency)
            }
            setOutline()
        case "alpha", "1a", "3a":
            let alpha = trimmed.isEmpty ? nil : ASSColor.number(Array(trimmed.drop { $0 == UInt8(ascii: "&") })).map { UInt8($0 & 0xFF) }
            if name != "3a" {
                primary = primary.with(transparency: alpha ?? style.primaryColor.transparency)
                setPrimary()
            }
            if name != "1a" {
                outlineColor = outlineColor.with(transparency: alpha ?? style.outlineColor.transparency)
                setOutline()
            }
        case "pos", "move":
            let numbers = Self.numbers(trimmed)
            if numbers.count >= 2, result.point == nil { result.point = (numbers[0], numbers[1]) }
            if name == "move" { unsupported("\\move", offset) }
        case "an":
            if result.alignment == nil, let value = Self.integer(trimmed), (1...9).contains(value) { result.alignment = value }
        case "a":
            if result.alignment == nil, let value = Self.integer(trimmed), value > 0 {
                result.alignment = ASSStyle.keypadAlignment(fromSSA: value)
            }
        case "r":
            let styleName = String(decoding: trimmed, as: UTF8.self)
            if let index = stylesByName[styleName] {
                reset(to: styles[index])
            } else {
                reset(to: eventStyle)
            }
        case "p":
            let level = Self.integer(trimmed) ?? 0
            if level > 0 { unsupported("\\p (drawing)", offset) }
            drawing = level > 0
        case "k", "K", "kf", "ko", "kt":
            unsupported("\\k (karaoke)", offset)
        case "t":
            unsupported("\\t (transform)", offset)
        case "s":
            unsupported("\\s (strike-out)", offset)
        case "":
            break
        default:
            unsupported(Self.knownTags.contains(name) ? "\\" + name : "\\" + name + " (unknown)", offset)
        }
    }

    private mutating func setPrimary() {
        current.color = primary == style.primaryColor ? nil : primary
    }

    private mutating func setOutline() {
        current.outline = outlineColor == style.outlineColor ? nil : outlineColor
    }

    /// The rules of the colour spans about to be opened (only colours that colour text get one).
    private mutating func addRules(of state: SpanState) {
        if let color = state.color, !result.rules.contains(color.rule) { result.rules.append(color.rule) }
        if let outline = state.outline {
            let rule = Self.outlineRule(outline)
            if !result.rules.contains(rule) { result.rules.append(rule) }
        }
    }

    private mutating func unsupported(_ tag: String, _ offset: Int) {
        if !result.unsupported.contains(where: { $0.tag == tag }) { result.unsupported.append((tag, offset)) }
    }

    /// The class of an outline colour: `outline-rrggbb` or `outline-rrggbbaa`.
    static func outlineClassName(_ color: ASSColor) -> String { "outline-" + color.css.dropFirst() }

    /// The rule of an outline colour's class: an outline of a twentieth of the font size.
    static func outlineRule(_ color: ASSColor) -> CueStyleRule {
        let shadows = [("-", "-"), ("", "-"), ("-", ""), ("", "")].map { "\(color.css) \($0.0)0.05em \($0.1)0.05em 0" }
        return CueStyleRule(.classes([outlineClassName(color)]), [.init("text-shadow", shadows.joined(separator: ", "))])
    }

    // MARK: Arguments

    private static func isLetter(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> ArraySlice<UInt8> {
        var slice = ArraySlice(bytes)
        while let first = slice.first, first == 0x20 || first == 0x09 { slice.removeFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice.removeLast() }
        return slice
    }

    static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        var negative = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var value = 0
        var digits = 0
        while index < bytes.endIndex, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 9 {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return digits > 0 ? (negative ? -value : value) : nil
    }

    /// The numbers of a `(x, y, …)` argument.
    static func numbers(_ bytes: ArraySlice<UInt8>) -> [Double] {
        var body = bytes
        if body.first == UInt8(ascii: "(") { body.removeFirst() }
        if body.last == UInt8(ascii: ")") { body.removeLast() }
        return body.split(separator: UInt8(ascii: ",")).prefix(8).compactMap { part in
            let text = String(decoding: part.filter { $0 != 0x20 && $0 != 0x09 }, as: UTF8.self)
            return Double(text).flatMap { $0.isFinite ? $0 : nil }
        }
    }
}
