import CueKit

/// Turns a displayed memory into cue text and placement: each run of adjacent rows with text is
/// one block, its rows as lines, placed where the rows are.
///
/// The 15×32 grid fills the title-safe area, 80% of the picture's height and width centred
/// (CEA-608-E section 6.1, and how ttconv and 708 decoders place it): row *r* (from 1) is put at
/// `line:` 10% + (*r* − 1) × 80%/15, aligned by its top, and the leftmost text of the block at
/// `position:` 10% + column × 80%/32, aligned by its line-left edge, text aligned left. Colours
/// are class spans (`<c.yellow>`; green is WebVTT's `lime`), italics `<i>`, underline `<u>`.
/// Spaces at either end of a row are left out; empty cells between text are spaces.
enum CEA608Rendering {
    struct Block: Equatable {
        var settings: CueSettings
        var text: String
    }

    /// The blocks of `grid`, top to bottom; `colors` gets the colour codes used, as bits.
    static func blocks(of grid: CEA608Grid, colors: inout UInt8) -> [Block] {
        var blocks: [Block] = []
        var text: [UInt8] = []
        var top = -1
        var left = SCC.columns
        func close() {
            guard top >= 0 else { return }
            var settings = CueSettings()
            settings.line = .percentage(percent(10 + Double(top) * 80 / Double(SCC.rows)))
            settings.lineAlignment = .start
            settings.position = .percentage(percent(10 + Double(left) * 80 / Double(SCC.columns)))
            settings.positionAlignment = .lineLeft
            settings.alignment = .left
            blocks.append(Block(settings: settings, text: String(decoding: text, as: UTF8.self)))
            text.removeAll(keepingCapacity: true)
            top = -1
            left = SCC.columns
        }
        for row in 0..<SCC.rows {
            guard grid.usedRows & (1 << row) != 0, let (first, last) = extent(of: row, in: grid) else {
                close()
                continue
            }
            if top < 0 { top = row } else { text.append(0x0A) }
            left = min(left, first)
            append(row: row, from: first, through: last, of: grid, to: &text, colors: &colors)
        }
        close()
        return blocks
    }

    /// The first and last columns of a row holding a character other than a space.
    private static func extent(of row: Int, in grid: CEA608Grid) -> (Int, Int)? {
        var first = -1
        var last = -1
        for column in 0..<SCC.columns {
            let scalar = grid[row, column].scalar
            guard scalar != 0, scalar != 0x20 else { continue }
            if first < 0 { first = column }
            last = column
        }
        return first < 0 ? nil : (first, last)
    }

    private static func append(
        row: Int, from first: Int, through last: Int, of grid: CEA608Grid, to text: inout [UInt8], colors: inout UInt8
    ) {
        var open = CEA608Style()
        for column in first...last {
            let cell = grid[row, column]
            // A space keeps the style around it, so that spans do not break at every word.
            let style = cell.scalar == 0 || cell.scalar == 0x20 ? open : cell.style
            if style != open {
                closeSpans(open, to: &text)
                openSpans(style, to: &text)
                if style.color != 0 { colors |= 1 << style.color }
                open = style
            }
            appendEscaped(cell.scalar == 0 ? 0x20 : cell.scalar, to: &text)
        }
        closeSpans(open, to: &text)
    }

    private static func openSpans(_ style: CEA608Style, to text: inout [UInt8]) {
        if style.color != 0 { text += Array("<c.\(CEA608Style.colorClasses[Int(style.color)])>".utf8) }
        if style.italic { text += Array("<i>".utf8) }
        if style.underline { text += Array("<u>".utf8) }
    }

    private static func closeSpans(_ style: CEA608Style, to text: inout [UInt8]) {
        if style.underline { text += Array("</u>".utf8) }
        if style.italic { text += Array("</i>".utf8) }
        if style.color != 0 { text += Array("</c>".utf8) }
    }

    private static func appendEscaped(_ value: UInt32, to text: inout [UInt8]) {
        switch value {
        case 0x26: text += Array("&amp;".utf8)
        case 0x3C: text += Array("&lt;".utf8)
        case 0x3E: text += Array("&gt;".utf8)
        case 0..<0x80: text.append(UInt8(value))
        default: text += Array(String(Character(Unicode.Scalar(value)!)).utf8)
        }
    }

    /// A percentage rounded to two decimals.
    private static func percent(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
