/// A CEA-608 caption decoder for one channel (CEA-608-E sections 6 to 9): byte pairs in, in the
/// order and at the frames they are received; its displayed memory is what a television shows.
///
/// - **Modes.** Pop-on (RCL: text goes to non-displayed memory, shown when EOC swaps the two),
///   roll-up (RU2, RU3, RU4: text goes to the bottom row of a window of 2 to 4 rows at the base
///   row, and CR rolls the window up), paint-on (RDC: text goes straight to displayed memory).
///   Text mode (TR, RTD) is a channel of its own whose text is not captions: skipped.
/// - **Memories.** EDM erases displayed memory, ENM non-displayed memory, EOC swaps them.
/// - **Cursor.** PACs set the row, the indent (a multiple of four columns), the colour or
///   italics, and underline; TO1–TO3 move right; BS erases the cell before the cursor; DER erases
///   to the end of the row. Mid-row codes take a cell, shown as a space, and change the colour,
///   italics and underline of the text after them.
/// - **Characters.** Basic characters two a pair, special characters one a pair, extended
///   characters one a pair replacing the character before them (the fallback a decoder without
///   them shows). Text past column 32 is dropped.
/// - **Doubled codes.** Control codes are sent twice for robustness: a control code pair equal to
///   the pair just before it is ignored, once.
/// - **XDS.** Extended data services packets (program names, ratings) are skipped.
/// - **Channels.** A control code's channel bit selects data channel 1 or 2; characters belong to
///   the channel of the last control code. Only the decoded channel's pairs change the memories.
struct CEA608Decoder {
    enum Mode: Equatable {
        case none, popOn, paintOn, text
        case rollUp(rows: Int)
    }

    /// What one pair did beyond changing memories.
    struct Effect: Equatable {
        var displayChanged = false
        var droppedPastLastColumn = false
        var unknownCode = false
        /// The ``Unsupported`` kinds met, as bits.
        var unsupported: UInt8 = 0
    }

    /// What WebVTT cannot carry.
    enum Unsupported: Int, CaseIterable {
        case flash, background, textMode, alarm

        var description: String {
            switch self {
            case .flash: "flashing text (FON) does not flash"
            case .background:
                "background and foreground attribute codes (0x10/0x17 0x20-0x2F) are left out: WebVTT draws cues on its own background"
            case .textMode: "text mode (TR, RTD) carries no captions: its text is skipped"
            case .alarm: "alarm codes (AOF, AON) are ignored"
            }
        }
    }

    /// The data channel decoded (1 or 2).
    let dataChannel: Int
    private(set) var mode = Mode.none
    private(set) var displayed = CEA608Grid()
    private(set) var nonDisplayed = CEA608Grid()
    private var row = SCC.rows - 1
    private var column = 0
    private var style = CEA608Style()
    /// The bottom row of the roll-up window.
    private var baseRow = SCC.rows - 1
    /// The data channel of the last control code (characters follow it).
    private var currentChannel = 1
    /// True inside an extended data services packet (its pairs are not captions).
    private var inDataServices = false
    /// The last control code pair, to ignore its repetition once.
    private var lastControl: UInt16 = 0
    /// The data channels whose captions the pairs use, as bits (bit 0: channel 1).
    private(set) var channelsSeen: UInt8 = 0
    /// True when non-displayed memory was written since the last EOC or ENM: a caption loaded
    /// and not displayed yet.
    private(set) var isLoading = false
    /// The colour codes of the characters written, as bits: what a prescan looks for.
    private(set) var colorsWritten: UInt8 = 0

    /// The first row (from 0) of each PAC's first byte, 0x10 to 0x17; the second byte's 0x20 bit
    /// gives the row after it (except for 0x10, row 11 alone).
    private static let preambleRows = [10, 0, 2, 11, 13, 4, 6, 8]

    init(dataChannel: Int) {
        self.dataChannel = dataChannel
    }

    /// Takes one byte pair, parity bits removed; a byte whose parity was wrong is nil.
    mutating func receive(_ first: UInt8?, _ second: UInt8?) -> Effect {
        var effect = Effect()
        guard let first else {
            // The first byte is lost: a lone second byte is a character only.
            lastControl = 0
            if let second, second >= 0x20, currentChannel == dataChannel { write(CEA608Characters.basic(second), &effect) }
            return effect
        }
        if first >= 0x10, first <= 0x1F {
            inDataServices = false
            // A control code without its second byte cannot be told: dropped.
            guard let second else {
                lastControl = 0
                return effect
            }
            let pair = UInt16(first) << 8 | UInt16(second)
            if pair == lastControl {
                lastControl = 0
                return effect
            }
            lastControl = pair
            control(first, second, &effect)
            return effect
        }
        lastControl = 0
        // Extended data services (CEA-608-E section 9.5, field 2): a packet from its start or
        // continue code (0x01-0x0E) to its end code (0x0F) and checksum; a caption code interrupts it.
        if first >= 0x01, first <= 0x0F {
            inDataServices = first != 0x0F
            return effect
        }
        if inDataServices { return effect }
        guard currentChannel == dataChannel else { return effect }
        if first >= 0x20 { write(CEA608Characters.basic(first), &effect) }
        if let second, second >= 0x20 { write(CEA608Characters.basic(second), &effect) }
        return effect
    }

    private mutating func control(_ first: UInt8, _ second: UInt8, _ effect: inout Effect) {
        let channel = first & 0x08 != 0 ? 2 : 1
        let code = first & 0xF7
        guard second >= 0x20, second <= 0x7F else {
            effect.unknownCode = true
            return
        }
        currentChannel = channel
        if second >= 0x40 {
            channelsSeen |= 1 << (channel - 1)
            if channel == dataChannel { preamble(code, second, &effect) }
            return
        }
        if code == 0x14 || code == 0x15, second <= 0x2F { channelsSeen |= 1 << (channel - 1) }
        guard channel == dataChannel else { return }
        switch (code, second) {
        case (0x11, 0x20...0x2F):
            // Mid-row code: a cell shown as a space, then the new style.
            write(" ", &effect)
            let attribute = second & 0x0F
            if attribute >> 1 == 7 {
                style.italic = true
            } else {
                style.color = attribute >> 1
                style.italic = false
            }
            style.underline = attribute & 1 != 0
        case (0x11, 0x30...0x3F):
            write(CEA608Characters.special[Int(second - 0x30)], &effect)
        case (0x12, 0x20...0x3F), (0x13, 0x20...0x3F):
            backspace(&effect)
            let table = code == 0x12 ? CEA608Characters.extendedSpanishFrench : CEA608Characters.extendedPortugueseGerman
            write(table[Int(second - 0x20)], &effect)
        case (0x14, 0x20...0x2F), (0x15, 0x20...0x2F):
            command(second, &effect)
        case (0x17, 0x21...0x23):
            column = min(column + Int(second - 0x20), SCC.columns - 1)
        case (0x10, 0x20...0x2F), (0x17, 0x2D...0x2F):
            effect.unsupported |= 1 << Unsupported.background.rawValue
        default:
            effect.unknownCode = true
        }
    }

    /// The miscellaneous control codes (CEA-608-E section 8.6 table 5).
    private mutating func command(_ second: UInt8, _ effect: inout Effect) {
        switch second {
        case 0x20:  // RCL
            mode = .popOn
        case 0x21:  // BS
            backspace(&effect)
        case 0x22, 0x23:  // AOF, AON
            effect.unsupported |= 1 << Unsupported.alarm.rawValue
        case 0x24:  // DER
            if column < SCC.columns {
                touch(&effect) { [row, column] in $0.clear(row: row, from: column) }
            }
        case 0x25, 0x26, 0x27:  // RU2, RU3, RU4
            let rows = Int(second - 0x23)
            if mode == .popOn || mode == .paintOn || mode == .none || mode == .text {
                // Entering roll-up erases both memories (section 9.4).
                if !displayed.isEmpty { effect.displayChanged = true }
                displayed.clearAll()
                nonDisplayed.clearAll()
                baseRow = SCC.rows - 1
                row = baseRow
                column = 0
            } else if case .rollUp(let old) = mode, rows < old {
                // A smaller window: the rows above it go.
                for top in max(0, baseRow - old + 1)..<max(0, baseRow - rows + 1) { touch(&effect) { $0.clear(row: top) } }
            }
            mode = .rollUp(rows: rows)
            style = CEA608Style()
        case 0x28:  // FON
            effect.unsupported |= 1 << Unsupported.flash.rawValue
        case 0x29:  // RDC
            if case .rollUp = mode {
                if !displayed.isEmpty { effect.displayChanged = true }
                displayed.clearAll()
            }
            mode = .paintOn
        case 0x2A, 0x2B:  // TR, RTD
            mode = .text
            effect.unsupported |= 1 << Unsupported.textMode.rawValue
        case 0x2C:  // EDM
            if !displayed.isEmpty { effect.displayChanged = true }
            displayed.clearAll()
        case 0x2D:  // CR
            guard case .rollUp(let rows) = mode else { return }
            let top = max(0, baseRow - rows + 1)
            touch(&effect) { [baseRow] grid in
                grid.clear(row: top)
                if top < baseRow { for source in (top + 1)...baseRow { grid.move(row: source, to: source - 1) } }
            }
            row = baseRow
            column = 0
        case 0x2E:  // ENM
            nonDisplayed.clearAll()
            isLoading = false
        case 0x2F:  // EOC
            swap(&displayed, &nonDisplayed)
            isLoading = false
            // The reader compares what is drawn: a swap of two empty memories changes nothing.
            if !displayed.isEmpty || !nonDisplayed.isEmpty { effect.displayChanged = true }
            mode = .popOn
        default:
            effect.unknownCode = true
        }
    }

    /// A preamble address code (CEA-608-E section 8.3, table 4): row, then an indent or a colour,
    /// and underline.
    private mutating func preamble(_ code: UInt8, _ second: UInt8, _ effect: inout Effect) {
        let firstRow = Self.preambleRows[Int(code & 0x07)]
        var newRow = firstRow + (code != 0x10 && second & 0x20 != 0 ? 1 : 0)
        let attribute = second & 0x1F
        style = CEA608Style()
        style.underline = attribute & 1 != 0
        if attribute >= 0x10 {
            column = Int(attribute >> 1 & 0x07) * 4
        } else {
            column = 0
            if attribute >> 1 == 7 { style.italic = true } else { style.color = attribute >> 1 }
        }
        if case .rollUp(let rows) = mode {
            // The window moves to the PAC's row, its text with it (section 9.4.2).
            newRow = max(newRow, rows - 1)
            if newRow != baseRow {
                let shift = newRow - baseRow
                touch(&effect) { [baseRow] grid in
                    let sources = Array(max(0, baseRow - rows + 1)...baseRow)
                    for source in (shift > 0 ? sources.reversed() : sources) where source + shift < SCC.rows {
                        grid.move(row: source, to: source + shift)
                    }
                    for other in 0..<SCC.rows where other > newRow || other <= newRow - rows { grid.clear(row: other) }
                }
                baseRow = newRow
            }
        }
        row = newRow
    }

    /// Writes a character at the cursor, in the memory the mode writes to, and moves right.
    private mutating func write(_ scalar: Unicode.Scalar, _ effect: inout Effect) {
        guard mode != .text, mode != .none else { return }
        guard column < SCC.columns else {
            effect.droppedPastLastColumn = true
            return
        }
        let cell = CEA608Grid.Cell(scalar: scalar.value, style: style)
        colorsWritten |= style.color == 0 ? 0 : 1 << style.color
        let (row, column) = (row, column)
        touch(&effect) { $0.set(row: row, column: column, cell) }
        self.column += 1
    }

    private mutating func backspace(_ effect: inout Effect) {
        guard column > 0, mode != .text, mode != .none else { return }
        column -= 1
        let (row, column) = (row, column)
        touch(&effect) { $0.set(row: row, column: column, CEA608Grid.Cell()) }
    }

    /// Changes the memory the mode writes to: displayed memory in roll-up and paint-on, else
    /// non-displayed memory.
    private mutating func touch(_ effect: inout Effect, _ change: (inout CEA608Grid) -> Void) {
        switch mode {
        case .rollUp, .paintOn:
            change(&displayed)
            effect.displayChanged = true
        case .popOn:
            change(&nonDisplayed)
            isLoading = true
        case .none, .text:
            break
        }
    }
}
