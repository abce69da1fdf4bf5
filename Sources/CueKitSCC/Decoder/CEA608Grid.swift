/// One caption memory of a CEA-608 decoder: 15 rows of 32 cells (CEA-608-E section 6.1), each an
/// empty cell or a character with its colour, italics and underline. Fixed in size: whatever a
/// file sends, a memory holds 480 cells.
struct CEA608Grid: Equatable {
    /// A cell's character (0 when empty) and style.
    struct Cell: Equatable {
        var scalar: UInt32 = 0
        var style = CEA608Style()

        var isEmpty: Bool { scalar == 0 }
    }

    private(set) var cells = [Cell](repeating: Cell(), count: SCC.rows * SCC.columns)
    /// Rows holding at least one cell, as bits (bit 0 is row 1).
    private(set) var usedRows: UInt16 = 0

    var isEmpty: Bool { usedRows == 0 }

    subscript(row: Int, column: Int) -> Cell {
        cells[row * SCC.columns + column]
    }

    /// Writes a cell; rows and columns from 0.
    mutating func set(row: Int, column: Int, _ cell: Cell) {
        cells[row * SCC.columns + column] = cell
        if !cell.isEmpty { usedRows |= 1 << row }
    }

    /// Empties the cells of `row` from `column` on.
    mutating func clear(row: Int, from column: Int = 0) {
        guard usedRows & (1 << row) != 0 else { return }
        for index in (row * SCC.columns + column)..<((row + 1) * SCC.columns) { cells[index] = Cell() }
        if column == 0 || !(0..<column).contains(where: { !self[row, $0].isEmpty }) { usedRows &= ~(1 << row) }
    }

    mutating func clearAll() {
        guard usedRows != 0 else { return }
        for row in 0..<SCC.rows { clear(row: row) }
    }

    /// Moves row `from` to row `to`, leaving `from` empty.
    mutating func move(row from: Int, to: Int) {
        guard from != to else { return }
        clear(row: to)
        guard usedRows & (1 << from) != 0 else { return }
        for column in 0..<SCC.columns { set(row: to, column: column, self[from, column]) }
        clear(row: from)
    }
}

/// A cell's style: a foreground colour (CEA-608-E section 6.2's seven), italics and underline.
struct CEA608Style: Equatable {
    /// 0 white, 1 green, 2 blue, 3 cyan, 4 red, 5 yellow, 6 magenta.
    var color: UInt8 = 0
    var italic = false
    var underline = false

    /// The WebVTT colour classes of the seven colours (green is WebVTT's `lime`); white is the default.
    static let colorClasses = ["white", "lime", "blue", "cyan", "red", "yellow", "magenta"]
    /// Their values.
    static let colorValues = ["#ffffff", "#00ff00", "#0000ff", "#00ffff", "#ff0000", "#ffff00", "#ff00ff"]
}
