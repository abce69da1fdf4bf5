import CueKit

/// A cue laid out as a CEA-608 pop-on caption: its text wrapped into rows of 32 columns, the rows
/// placed from the cue's settings, and the byte pairs that load it (ENM, RCL, each row's PAC and
/// tab offset and text, EOC), each byte with its parity.
struct SCCCaptionLayout {
    let maximumRows: Int
    /// Characters left out, and rows past the most.
    var missing: [Unicode.Scalar] = []
    var droppedRows = 0

    init(maximumRows: Int) {
        self.maximumRows = maximumRows
    }

    static let enm = pair(0x14, 0x2E), rcl = pair(0x14, 0x20), eoc = pair(0x14, 0x2F), edm = pair(0x14, 0x2C)

    /// A byte pair, each byte given its odd parity bit.
    static func pair(_ first: UInt8, _ second: UInt8) -> UInt16 {
        func parity(_ byte: UInt8) -> UInt8 { byte.nonzeroBitCount % 2 == 0 ? byte | 0x80 : byte }
        return UInt16(parity(first)) << 8 | UInt16(parity(second))
    }

    /// The pairs of the caption, empty when the cue has no text 608 can show.
    mutating func pairs(for cue: Cue) -> [UInt16] {
        var rows = wrap(cue.nodes().plainText)
        if rows.count > maximumRows {
            droppedRows = rows.count - maximumRows
            rows.removeLast(droppedRows)
        }
        guard !rows.isEmpty else { return [] }
        let top = topRow(cue.settings, rows: rows.count)
        var pairs = [Self.enm, Self.enm, Self.rcl, Self.rcl]
        for (offset, row) in rows.enumerated() {
            let column = self.column(cue.settings, width: row.count)
            let preamble = Self.preamble(row: top + offset, indent: column / 4 * 4)
            pairs += [preamble, preamble]
            if column % 4 > 0 {
                let tab = Self.pair(0x17, 0x20 + UInt8(column % 4))
                pairs += [tab, tab]
            }
            appendText(row, to: &pairs)
        }
        pairs += [Self.eoc, Self.eoc]
        return pairs
    }

    /// The lines of `text`, each wrapped at spaces into rows of at most 32 characters 608 has
    /// (a word longer than a row is cut).
    mutating func wrap(_ text: String) -> [[CEA608Encoding]] {
        var rows: [[CEA608Encoding]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            var row: [CEA608Encoding] = []
            for word in line.split(separator: " ", omittingEmptySubsequences: true) {
                var encoded: [CEA608Encoding] = []
                for scalar in word.unicodeScalars {
                    if let encoding = CEA608Encoding.encode(scalar) { encoded.append(encoding) } else { missing.append(scalar) }
                }
                guard !encoded.isEmpty else { continue }
                if !row.isEmpty, row.count + 1 + encoded.count > SCC.columns {
                    rows.append(row)
                    row = []
                }
                if !row.isEmpty { row.append(.basic(0x20)) }
                while row.count + encoded.count > SCC.columns {
                    let room = SCC.columns - row.count
                    rows.append(row + encoded.prefix(room))
                    encoded.removeFirst(room)
                    row = []
                }
                row += encoded
            }
            if !row.isEmpty { rows.append(row) }
        }
        return rows
    }

    /// The first row (1 to 15) of a caption of `rows` rows: from a `line` percentage of the safe
    /// area (aligned as `lineAlignment` says), a line number (negative from the bottom), or the
    /// bottom rows when `line` is auto.
    func topRow(_ settings: CueSettings, rows: Int) -> Int {
        let top: Int
        switch settings.line {
        case .auto:
            top = SCC.rows - rows + 1
        case .number(let number):
            top = number >= 0 ? Int(number) + 1 : SCC.rows + Int(number) + 2 - rows
        case .percentage(let percent):
            let row = Int(((percent - 10) * Double(SCC.rows) / 80).rounded()) + 1
            switch settings.lineAlignment {
            case .start: top = row
            case .center: top = row - rows / 2
            case .end: top = row - rows
            }
        }
        return min(max(top, 1), SCC.rows - rows + 1)
    }

    /// The column (0 to 31) a row of `width` characters starts at.
    func column(_ settings: CueSettings, width: Int) -> Int {
        var anchor = Double(SCC.columns) / 2
        if case .percentage(let percent) = settings.position { anchor = (percent - 10) * Double(SCC.columns) / 80 }
        let start: Double
        switch (settings.positionAlignment, settings.alignment) {
        case (.lineLeft, _), (.auto, .left), (.auto, .start): start = settings.position == .auto ? 0 : anchor
        case (.lineRight, _), (.auto, .right), (.auto, .end):
            start = (settings.position == .auto ? Double(SCC.columns) : anchor) - Double(width)
        default: start = anchor - Double(width) / 2
        }
        return min(max(Int(start.rounded()), 0), SCC.columns - width)
    }

    /// The PAC for a row (1 to 15) and an indent (0, 4 … 28), white.
    static func preamble(row: Int, indent: Int) -> UInt16 {
        let firsts: [UInt8] = [0x11, 0x11, 0x12, 0x12, 0x15, 0x15, 0x16, 0x16, 0x17, 0x17, 0x10, 0x13, 0x13, 0x14, 0x14]
        let second = (row < 11 && row % 2 == 0) || (row > 11 && row % 2 == 1) ? 0x60 : 0x40
        return pair(firsts[row - 1], UInt8(second) | 0x10 | UInt8(indent / 4) << 1)
    }

    /// A row's characters: basic ones two a pair, special and extended ones in pairs of their own,
    /// sent twice as control codes are (an extended one after its fallback).
    func appendText(_ row: [CEA608Encoding], to pairs: inout [UInt16]) {
        var waiting: UInt8?
        func basic(_ byte: UInt8) {
            if let first = waiting {
                pairs.append(Self.pair(first, byte))
                waiting = nil
            } else {
                waiting = byte
            }
        }
        func flush() {
            if let first = waiting { pairs.append(Self.pair(first, 0)) }
            waiting = nil
        }
        for encoding in row {
            switch encoding {
            case .basic(let byte): basic(byte)
            case .special(let code):
                flush()
                pairs += [Self.pair(0x11, code), Self.pair(0x11, code)]
            case .extended(let table, let code, let fallback):
                basic(fallback)
                flush()
                pairs += [Self.pair(table, code), Self.pair(table, code)]
            }
        }
        flush()
    }
}
