import CueKit

/// Turns a SubRip cue's text, with its HTML-like tags, into WebVTT cue text: the form every cue
/// of the model holds (see ``Cue/text``).
///
/// What maps, and how:
/// - `<i>`, `<b>`, `<u>` (any case, white space inside the brackets allowed) become the WebVTT tags
///   of the same name;
/// - `<font color="…">` becomes a class span `<c.class>`, the class derived from the colour (see
///   ``SubRipColor``); `face` and `size`, and colours that cannot be read, are reported and left out;
/// - `<br>` and `<br/>` become line breaks;
/// - `<s>` and `<strike>` (no WebVTT equivalent) are reported and left out, their text kept;
/// - any other tag is kept as text (`<Music>` shows as written, as most players show it), reported;
/// - `{\an1}` … `{\an9}` (ASS alignment, which many SubRip files carry) become cue settings (see
///   ``settings(forAlignment:)``); other ASS overrides (`{\i1}`, `{\pos(…)}`) are reported and left out;
/// - an end tag closes the innermost open tag of its name; tags opened after it are closed and
///   reopened, so that `<b><i>x</b>y</i>` becomes `<b><i>x</i></b><i>y</i>`; an end tag with no
///   open tag is reported and left out; tags still open at the end of the cue are closed there;
/// - `&`, `<` and `>` in text are escaped (SubRip has no character references: `&amp;` in a SubRip
///   file is five characters of text).
///
/// One converter is reused for every cue of a file: its buffers keep their capacity.
struct SubRipMarkupConverter {
    /// A problem in the text, at a byte offset of the cue's text.
    struct Issue {
        enum Kind {
            case unknownTag(String)
            case unmatchedEndTag(String)
            case unclosedTag(String)
            case fontAttributeIgnored(String)
            case badColor(String)
            case tagIgnored(String)
            case overrideIgnored(String)
            case nestedTooDeep
        }

        var kind: Kind
        var offset: Int
    }

    /// A tag as the stack keeps it: a plain value, so that pushing and popping one moves no
    /// reference. A `<font>` holds the index of its colour in ``colors`` (nil when it has none).
    private enum Element: Equatable {
        case italic, bold, underline
        case font(color: Int?)
        /// `<s>` and `<strike>`: left out, their text kept.
        case s, strike

        var name: String {
            switch self {
            case .italic: "i"
            case .bold: "b"
            case .underline: "u"
            case .font: "font"
            case .s: "s"
            case .strike: "strike"
            }
        }

        /// True for the tags that are left out.
        var isIgnored: Bool { self == .s || self == .strike }

        /// True when this end tag closes `open`: one of its name (`</s>` and `</strike>` close either).
        func closes(_ open: Element) -> Bool {
            switch (self, open) {
            case (.italic, .italic), (.bold, .bold), (.underline, .underline), (.font, .font): true
            case (.s, .s), (.s, .strike), (.strike, .s), (.strike, .strike): true
            default: false
            }
        }
    }

    private var stack: [(element: Element, offset: Int)] = []
    /// The colours used by the last cue converted, in order of first use.
    private(set) var colors: [SubRipColor] = []
    /// The last `{\anN}` of the last cue converted.
    private(set) var alignment: Int?
    /// Where the current output line starts.
    private var lineStart = 0
    /// The nesting limit was reported for this cue.
    private var depthReported = false

    /// How deep tags nest; deeper ones are left out (the WebVTT cue text parser has a limit too).
    static let maximumNestingDepth = 64

    /// True when text needs no conversion: no tag, no override, nothing to escape.
    static func isPlain(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in text where isSpecial(byte) && byte != 0x0A { return false }
        return true
    }

    /// The bytes the converter acts on: `<`, `>`, `&`, `{` and the line feed.
    @inline(__always)
    private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "{"), 0x0A: true
        default: false
        }
    }

    /// The offset of the first byte ``isSpecial(_:)`` at or after `start` in `text`, or its count:
    /// eight bytes at a time.
    @inline(__always)
    private static func nextSpecial(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = text.baseAddress else { return text.count }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & high }
        var index = start
        while index + 8 <= text.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // `<` (0x3C) and `>` (0x3E) at once: with bit 1 set, both are 0x3E. The lowest mark is
            // exact; higher ones may not be, and are not looked at.
            let marks =
                zeroBytes((word | (ones &* 0x02)) ^ (ones &* 0x3E)) | zeroBytes(word ^ (ones &* 0x26)) | zeroBytes(word ^ (ones &* 0x7B))
                | zeroBytes(word ^ (ones &* 0x0A))
            if marks != 0 { return index + marks.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < text.count, !isSpecial(text[index]) { index += 1 }
        return index
    }

    /// Converts `text` (lines joined by LF), appending WebVTT cue text to `output`.
    mutating func convert(_ text: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], report: (Issue) -> Void) {
        stack.removeAll(keepingCapacity: true)
        colors.removeAll(keepingCapacity: true)
        alignment = nil
        depthReported = false
        let outputStart = output.count
        lineStart = outputStart
        var index = 0
        while index < text.count {
            // Copy the run of bytes that need nothing done in one go.
            let runEnd = Self.nextSpecial(in: text, from: index)
            if runEnd > index {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: text[index..<runEnd]))
                index = runEnd
                if index == text.count { break }
            }
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "<"):
                if let next = tag(in: text, at: index, into: &output, report: report) {
                    index = next
                    continue
                }
                Self.append("&lt;", to: &output)
            case UInt8(ascii: ">"):
                Self.append("&gt;", to: &output)
            case UInt8(ascii: "&"):
                Self.append("&amp;", to: &output)
            case UInt8(ascii: "{"):
                if let next = override(in: text, at: index, report: report) {
                    index = next
                    continue
                }
                output.append(byte)
            case 0x0A:
                appendLineBreak(to: &output)
            default:
                output.append(byte)
            }
            index += 1
        }
        while let open = stack.popLast() {
            if !open.element.isIgnored {
                report(Issue(kind: .unclosedTag(open.element.name), offset: open.offset))
            }
            writeEndTag(open.element, into: &output)
        }
        if output.count > outputStart, output.last == 0x0A { output.removeLast() }
    }

    /// Reads a tag at `index` (a `<`), writing its WebVTT form; nil when it is no tag and the `<`
    /// is text. Returns the index after the tag.
    private mutating func tag(in text: UnsafeBufferPointer<UInt8>, at index: Int, into output: inout [UInt8], report: (Issue) -> Void)
        -> Int?
    {
        if let next = simpleTag(in: text, at: index, into: &output) { return next }
        var cursor = index + 1
        Self.skipSpaces(text, &cursor)
        var isEnd = false
        if cursor < text.count, text[cursor] == UInt8(ascii: "/") {
            isEnd = true
            cursor += 1
            Self.skipSpaces(text, &cursor)
        }
        let nameStart = cursor
        while cursor < text.count, Self.isLetter(text[cursor]) { cursor += 1 }
        guard cursor > nameStart, cursor - nameStart <= 16 else { return nil }
        var close = cursor
        while close < text.count, text[close] != UInt8(ascii: ">") {
            if text[close] == 0x0A || text[close] == UInt8(ascii: "<") { return nil }
            close += 1
        }
        guard close < text.count else { return nil }
        // The name must end at white space, `/` or `>`: `<i2>` is no `<i>` tag.
        if cursor < close, !(text[cursor] == 0x20 || text[cursor] == 0x09 || text[cursor] == UInt8(ascii: "/")) {
            return unknown(text, index, close, report)
        }
        let nameBytes = UnsafeBufferPointer(rebasing: text[nameStart..<cursor])
        let attributes = UnsafeBufferPointer(rebasing: text[cursor..<close])
        let next = close + 1

        if Self.name(nameBytes, is: "br") {
            if !isEnd { appendLineBreak(to: &output) }
            return next
        }
        var element: Element
        var fontColor: SubRipColor?
        if nameBytes.count == 1 {
            switch nameBytes[0] | 0x20 {
            case UInt8(ascii: "i"): element = .italic
            case UInt8(ascii: "b"): element = .bold
            case UInt8(ascii: "u"): element = .underline
            case UInt8(ascii: "s"): element = .s
            default: return unknown(text, index, close, report)
            }
        } else if Self.name(nameBytes, is: "font") {
            // The colour's index is given once the tag is known to be kept.
            fontColor = isEnd ? nil : Self.fontColor(attributes, offset: cursor, report: report)
            element = .font(color: nil)
        } else if Self.name(nameBytes, is: "strike") {
            element = .strike
        } else {
            return unknown(text, index, close, report)
        }
        if isEnd {
            closeElement(element, at: index, into: &output, report: report)
            return next
        }
        if stack.count >= Self.maximumNestingDepth {
            // Deeper tags are left out, so that misnested or unclosed tags cannot make the work grow
            // with the square of the text.
            if !depthReported {
                depthReported = true
                report(Issue(kind: .nestedTooDeep, offset: index))
            }
            return next
        }
        if element.isIgnored { report(Issue(kind: .tagIgnored("<\(element.name)>"), offset: index)) }
        if let fontColor {
            let colorIndex = colors.firstIndex(of: fontColor) ?? colors.count
            if colorIndex == colors.count { colors.append(fontColor) }
            element = .font(color: colorIndex)
        }
        stack.append((element, index))
        writeStartTag(element, into: &output)
        return next
    }

    /// Reads `<i>`, `<b>` or `<u>`, or the end tag of the innermost open tag of those, written as
    /// they are (WebVTT's tags of the same name), as ``tag(in:at:into:report:)`` reads them; nil for
    /// any other tag, which the general reading then reads.
    @inline(__always)
    private mutating func simpleTag(in text: UnsafeBufferPointer<UInt8>, at index: Int, into output: inout [UInt8]) -> Int? {
        @inline(__always) func element(_ byte: UInt8) -> Element? {
            switch byte {
            case UInt8(ascii: "i"): .italic
            case UInt8(ascii: "b"): .bold
            case UInt8(ascii: "u"): .underline
            default: nil
            }
        }
        if index + 2 < text.count, text[index + 2] == UInt8(ascii: ">"), let opened = element(text[index + 1]),
            stack.count < Self.maximumNestingDepth
        {
            stack.append((opened, index))
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[index...(index + 2)]))
            return index + 3
        }
        if index + 3 < text.count, text[index + 1] == UInt8(ascii: "/"), text[index + 3] == UInt8(ascii: ">"),
            let closed = element(text[index + 2]), let innermost = stack.last, innermost.element == closed
        {
            stack.removeLast()
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[index...(index + 3)]))
            return index + 4
        }
        return nil
    }

    /// The colour of a `<font …>` start tag (from `<` to `>`, both included), or nil when the bytes
    /// are another tag or give no colour: what ``convert(_:into:report:)`` reads from the same tag.
    static func fontColor(ofTag tag: UnsafeBufferPointer<UInt8>) -> SubRipColor? {
        var cursor = 1
        skipSpaces(tag, &cursor)
        let nameStart = cursor
        while cursor < tag.count, isLetter(tag[cursor]) { cursor += 1 }
        guard name(UnsafeBufferPointer(rebasing: tag[nameStart..<cursor]), is: "font"), cursor < tag.count - 1 else { return nil }
        guard tag[cursor] == 0x20 || tag[cursor] == 0x09 || tag[cursor] == UInt8(ascii: "/") else { return nil }
        return fontColor(UnsafeBufferPointer(rebasing: tag[cursor..<(tag.count - 1)]), offset: 0) { _ in }
    }

    /// True when a tag name is `expected` (lower case), in any case.
    static func name(_ bytes: UnsafeBufferPointer<UInt8>, is expected: StaticString) -> Bool {
        guard bytes.count == expected.utf8CodeUnitCount else { return false }
        let expectedBytes = UnsafeBufferPointer(start: expected.utf8Start, count: expected.utf8CodeUnitCount)
        for index in 0..<bytes.count where bytes[index] | 0x20 != expectedBytes[index] { return false }
        return true
    }

    /// Appends a line break, unless the line is empty: a line left empty by removed overrides or
    /// tags, or by `<br>` at a line's end, would end a WebVTT cue.
    private mutating func appendLineBreak(to output: inout [UInt8]) {
        if output.count > lineStart { output.append(0x0A) }
        lineStart = output.count
    }

    private func unknown(_ text: UnsafeBufferPointer<UInt8>, _ index: Int, _ close: Int, _ report: (Issue) -> Void) -> Int? {
        let tag = String(decoding: UnsafeBufferPointer(rebasing: text[index...min(close, index + 40)]), as: UTF8.self)
        report(Issue(kind: .unknownTag(tag), offset: index))
        return nil
    }

    private mutating func closeElement(_ end: Element, at offset: Int, into output: inout [UInt8], report: (Issue) -> Void) {
        var position = stack.count - 1
        while position >= 0, !end.closes(stack[position].element) { position -= 1 }
        guard position >= 0 else {
            report(Issue(kind: .unmatchedEndTag("</\(end.name)>"), offset: offset))
            return
        }
        var closing = stack.count - 1
        while closing >= position {
            writeEndTag(stack[closing].element, into: &output)
            closing -= 1
        }
        for reopened in (position + 1)..<stack.count { writeStartTag(stack[reopened].element, into: &output) }
        stack.remove(at: position)
    }

    private func writeStartTag(_ element: Element, into output: inout [UInt8]) {
        switch element {
        case .italic: Self.append("<i>", to: &output)
        case .bold: Self.append("<b>", to: &output)
        case .underline: Self.append("<u>", to: &output)
        case .font(let color?):
            Self.append("<c.", to: &output)
            output.append(contentsOf: colors[color].className.utf8)
            output.append(UInt8(ascii: ">"))
        case .font(nil), .s, .strike: break
        }
    }

    private func writeEndTag(_ element: Element, into output: inout [UInt8]) {
        switch element {
        case .italic: Self.append("</i>", to: &output)
        case .bold: Self.append("</b>", to: &output)
        case .underline: Self.append("</u>", to: &output)
        case .font(.some): Self.append("</c>", to: &output)
        case .font(nil), .s, .strike: break
        }
    }

    /// Appends a literal's bytes in one copy (a `String`'s UTF-8 view goes byte by byte).
    @inline(__always)
    private static func append(_ literal: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Reads `<font>`'s attributes (`name=value`, `name="value"`, `name='value'`), returning the
    /// colour and reporting the rest.
    static func fontColor(_ attributes: UnsafeBufferPointer<UInt8>, offset: Int, report: (Issue) -> Void) -> SubRipColor? {
        // ` color="#rrggbb"`, the form nearly every file writes: read with no string made.
        if attributes.count == 16, attributes[0] == 0x20, name(UnsafeBufferPointer(rebasing: attributes[1..<6]), is: "color"),
            attributes[6] == UInt8(ascii: "="), attributes[7] == UInt8(ascii: "\""), attributes[15] == UInt8(ascii: "\""),
            let color = SubRipColor.sixDigitHex(bytes: UnsafeBufferPointer(rebasing: attributes[8..<15]))
        {
            return color
        }
        var color: SubRipColor?
        var index = 0
        while index < attributes.count {
            Self.skipSpaces(attributes, &index)
            let nameStart = index
            while index < attributes.count, attributes[index] != UInt8(ascii: "="), attributes[index] != 0x20, attributes[index] != 0x09 {
                index += 1
            }
            guard index > nameStart else {
                index += 1
                continue
            }
            let name = String(decoding: UnsafeBufferPointer(rebasing: attributes[nameStart..<index]).map { $0 | 0x20 }, as: UTF8.self)
            Self.skipSpaces(attributes, &index)
            var value = ""
            if index < attributes.count, attributes[index] == UInt8(ascii: "=") {
                index += 1
                Self.skipSpaces(attributes, &index)
                var valueStart = index
                if index < attributes.count, attributes[index] == UInt8(ascii: "\"") || attributes[index] == UInt8(ascii: "'") {
                    let quote = attributes[index]
                    index += 1
                    valueStart = index
                    while index < attributes.count, attributes[index] != quote { index += 1 }
                    value = String(decoding: UnsafeBufferPointer(rebasing: attributes[valueStart..<index]), as: UTF8.self)
                    if index < attributes.count { index += 1 }
                } else {
                    while index < attributes.count, attributes[index] != 0x20, attributes[index] != 0x09 { index += 1 }
                    value = String(decoding: UnsafeBufferPointer(rebasing: attributes[valueStart..<index]), as: UTF8.self)
                }
            }
            if name == "/" { continue }
            if name == "color" {
                if let parsed = SubRipColor(attributeValue: value) {
                    color = parsed
                } else {
                    report(Issue(kind: .badColor(value), offset: offset + nameStart))
                }
            } else {
                report(Issue(kind: .fontAttributeIgnored(value.isEmpty ? name : "\(name)=\"\(value)\""), offset: offset + nameStart))
            }
        }
        return color
    }

    /// Reads an ASS override block `{\…}` at `index` (a `{`); nil when it is none (a `{` not
    /// followed by `\`, or no `}` on the line) and the `{` is text.
    private mutating func override(in text: UnsafeBufferPointer<UInt8>, at index: Int, report: (Issue) -> Void) -> Int? {
        guard index + 1 < text.count, text[index + 1] == UInt8(ascii: "\\") else { return nil }
        var close = index + 1
        while close < text.count, text[close] != UInt8(ascii: "}") {
            // A block ends on its line, before any other block starts: each byte is looked at once.
            if text[close] == 0x0A || text[close] == UInt8(ascii: "{") { return nil }
            close += 1
        }
        guard close < text.count else { return nil }
        let body = UnsafeBufferPointer(rebasing: text[(index + 1)..<close])
        var ignored = false
        var itemStart = 0
        while itemStart < body.count {
            var itemEnd = itemStart + 1
            while itemEnd < body.count, body[itemEnd] != UInt8(ascii: "\\") { itemEnd += 1 }
            let item = UnsafeBufferPointer(rebasing: body[(itemStart + 1)..<itemEnd])
            if item.count == 3, item[0] | 0x20 == UInt8(ascii: "a"), item[1] | 0x20 == UInt8(ascii: "n"),
                (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(item[2])
            {
                alignment = Int(item[2] - UInt8(ascii: "0"))
            } else if !item.isEmpty {
                ignored = true
            }
            itemStart = itemEnd
        }
        if ignored {
            let block = String(decoding: UnsafeBufferPointer(rebasing: text[index...min(close, index + 40)]), as: UTF8.self)
            report(Issue(kind: .overrideIgnored(block), offset: index))
        }
        return close + 1
    }

    /// The cue settings for an ASS alignment `{\anN}`, laid out like a numeric keypad: 7 8 9 at the
    /// top, 4 5 6 in the middle, 1 2 3 at the bottom; left, centre and right in each row.
    ///
    /// Top is `line:0` (the first line from the top), middle `line:50%,center`, bottom the default
    /// `line:auto`; left and right are `align:left` and `align:right`, centre the default.
    static func settings(forAlignment alignment: Int) -> CueSettings {
        var settings = CueSettings()
        switch alignment {
        case 7, 8, 9: settings.line = .number(0)
        case 4, 5, 6:
            settings.line = .percentage(50)
            settings.lineAlignment = .center
        default: break
        }
        switch alignment {
        case 1, 4, 7: settings.alignment = .left
        case 3, 6, 9: settings.alignment = .right
        default: break
        }
        return settings
    }

    @inline(__always)
    private static func skipSpaces(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }

    @inline(__always)
    private static func isLetter(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
    }
}
