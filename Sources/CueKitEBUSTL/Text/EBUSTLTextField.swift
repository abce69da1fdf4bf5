import CueKit

/// Turns a subtitle's text field (its TTI blocks' TF bytes, extension blocks joined) into WebVTT
/// cue text (EBU Tech 3264 section 4, and Appendix 2 for the control codes).
///
/// - Characters 0x20–0x7E are ASCII; 0xA0–0xFF come from the file's character code table
///   (``EBUSTLCharacterTable``), ISO 6937's diacritics (0xC1–0xCF) combined with the letter after them.
/// - 0x8A is a line break; runs of them (double-height text skips a row) make one, and empty lines
///   are left out. In teletext, colours and styles start afresh on each row.
/// - The teletext colour codes 0x00–0x07 (alpha black … white) colour the text after them: class
///   spans of WebVTT's colour classes (`<c.yellow>`), white the default.
/// - 0x80/0x81 and 0x82/0x83 (open subtitling) turn italics and underline on and off: `<i>`, `<u>`.
/// - Every other control code (boxing 0x84/0x85 and 0x0A/0x0B, double height 0x0D, flash,
///   mosaics, backgrounds) has no WebVTT equivalent: it is reported once per kind by the reader.
/// - In teletext a control code takes a character cell, shown as a space: a control code, like a
///   space, separates words, and runs of spaces make one; spaces at either end of a line are left out.
struct EBUSTLTextField {
    /// What a text field asks for beyond its markup.
    struct Result {
        /// The colour codes (0–6) whose classes the markup uses, as bits.
        var colors: UInt8 = 0
        /// The kinds of control code the markup could not carry (``Unsupported``), as bits.
        var unsupported: UInt16 = 0
        /// Bytes no table has a character for, and the offset of the first.
        var unknownCharacters = 0
        var firstUnknownOffset = 0
        /// The rows the text takes (double height takes two a line).
        var rows = 0
        var isDoubleHeight = false
        var isEmpty = true
    }

    /// Control codes the cue model cannot carry.
    enum Unsupported: Int, CaseIterable {
        case doubleHeight, doubleSize, boxing, flash, background, mosaic, conceal

        var description: String {
            switch self {
            case .doubleHeight: "double height (0x0D) is drawn at the normal height"
            case .doubleSize: "double width and double size (0x0E, 0x0F) are drawn at the normal size"
            case .boxing: "boxing (0x0A/0x0B, 0x84/0x85): WebVTT draws every cue on its own background box"
            case .flash: "flashing text (0x08) does not flash"
            case .background: "teletext background colours (0x1C, 0x1D) are left out"
            case .mosaic: "teletext mosaic graphics (0x10-0x17, 0x19-0x1B, 0x1E, 0x1F) are left out"
            case .conceal: "concealed text (0x18) is shown"
            }
        }
    }

    /// The names of the colour classes of codes 0–7 (WebVTT's default colour classes).
    static let colorClasses = ["black", "red", "lime", "yellow", "blue", "magenta", "cyan", "white"]
    /// Their values.
    static let colorValues = ["#000000", "#ff0000", "#00ff00", "#ffff00", "#0000ff", "#ff00ff", "#00ffff", "#ffffff"]

    private var color: UInt8 = 7
    private var italic = false
    private var underline = false
    private var writtenColor: UInt8 = 7
    private var writtenItalic = false
    private var writtenUnderline = false
    private var lineHasText = false
    private var pendingSpace = false
    private var pendingBreak = false
    private var lineRows = 1

    /// Converts `text`, appending its cue text to `output`.
    mutating func convert(_ text: UnsafeBufferPointer<UInt8>, table: EBUSTLCharacterTable, isTeletext: Bool, into output: inout [UInt8])
        -> Result
    {
        var result = Result()
        resetStyles()
        writtenColor = 7
        writtenItalic = false
        writtenUnderline = false
        lineHasText = false
        pendingSpace = false
        pendingBreak = false
        lineRows = 1
        var index = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            switch byte {
            case 0x21...0x7E:
                writeCharacter(Unicode.Scalar(byte), into: &output, &result)
            case 0x20:
                spaceCell()
            case 0xA0...0xFF:
                if table.isDiacritic(byte) {
                    if index < text.count, let composed = EBUSTLCharacterTable.compose(byte, text[index]) {
                        writeCharacter(composed, into: &output, &result)
                        index += 1
                    } else if let spacing = EBUSTLCharacterTable.spacingDiacritics[byte] {
                        writeCharacter(Unicode.Scalar(spacing)!, into: &output, &result)
                        if index < text.count, text[index] == 0x20 { index += 1 }
                    }
                } else if let character = table.character(byte) {
                    if character == " " || character == "\u{A0}" { spaceCell() } else { writeCharacter(character, into: &output, &result) }
                } else {
                    unknown(index - 1, into: &output, &result)
                }
            case 0x7F:
                unknown(index - 1, into: &output, &result)
            case 0x8A:
                if lineHasText {
                    pendingBreak = true
                    result.rows += lineRows
                }
                lineHasText = false
                pendingSpace = false
                lineRows = 1
                if isTeletext { resetStyles() }
            case 0x00...0x07:
                color = byte
                spaceCell()
            case 0x80, 0x81:
                italic = byte == 0x80
                spaceCell()
            case 0x82, 0x83:
                underline = byte == 0x82
                spaceCell()
            case 0x08...0x1F, 0x84, 0x85:
                if let kind = Self.unsupported(byte) {
                    result.unsupported |= 1 << kind.rawValue
                    if kind == .doubleHeight || kind == .doubleSize {
                        result.isDoubleHeight = true
                        lineRows = 2
                    }
                }
                spaceCell()
            default:
                // Reserved codes (0x86–0x89, 0x8B–0x8F, 0x90–0x9F): nothing shown.
                break
            }
        }
        if lineHasText { result.rows += lineRows }
        closeSpans(into: &output)
        return result
    }

    static func unsupported(_ byte: UInt8) -> Unsupported? {
        switch byte {
        case 0x08: .flash
        case 0x0A, 0x0B, 0x84, 0x85: .boxing
        case 0x0D: .doubleHeight
        case 0x0E, 0x0F: .doubleSize
        case 0x10...0x17, 0x19...0x1B, 0x1E, 0x1F: .mosaic
        case 0x18: .conceal
        case 0x1C, 0x1D: .background
        default: nil
        }
    }

    private mutating func resetStyles() {
        color = 7
        italic = false
        underline = false
    }

    private mutating func spaceCell() {
        if lineHasText { pendingSpace = true }
    }

    private mutating func unknown(_ offset: Int, into output: inout [UInt8], _ result: inout Result) {
        if result.unknownCharacters == 0 { result.firstUnknownOffset = offset }
        result.unknownCharacters += 1
        writeCharacter("\u{FFFD}", into: &output, &result)
    }

    private mutating func writeCharacter(_ scalar: Unicode.Scalar, into output: inout [UInt8], _ result: inout Result) {
        let changed = color != writtenColor || italic != writtenItalic || underline != writtenUnderline
        if changed { closeSpans(into: &output) }
        if pendingBreak {
            pendingBreak = false
            output.append(0x0A)
        } else if pendingSpace {
            output.append(0x20)
        }
        pendingSpace = false
        if changed {
            if color != 7 {
                output.append(contentsOf: "<c.".utf8)
                output.append(contentsOf: Self.colorClasses[Int(color)].utf8)
                output.append(UInt8(ascii: ">"))
                result.colors |= 1 << color
            }
            if italic { output.append(contentsOf: "<i>".utf8) }
            if underline { output.append(contentsOf: "<u>".utf8) }
            writtenColor = color
            writtenItalic = italic
            writtenUnderline = underline
        }
        switch scalar {
        case "&": output.append(contentsOf: "&amp;".utf8)
        case "<": output.append(contentsOf: "&lt;".utf8)
        case ">": output.append(contentsOf: "&gt;".utf8)
        default:
            if scalar.isASCII {
                output.append(UInt8(scalar.value))
            } else {
                output.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        lineHasText = true
        result.isEmpty = false
    }

    private mutating func closeSpans(into output: inout [UInt8]) {
        if writtenUnderline { output.append(contentsOf: "</u>".utf8) }
        if writtenItalic { output.append(contentsOf: "</i>".utf8) }
        if writtenColor != 7 { output.append(contentsOf: "</c>".utf8) }
        writtenColor = 7
        writtenItalic = false
        writtenUnderline = false
    }
}
