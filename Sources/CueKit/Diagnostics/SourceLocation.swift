/// A place in an input file: 1-based line and column.
///
/// Lines end at CR, LF or CRLF, as in WebVTT. Columns count Unicode scalar values from the start
/// of the line (a BOM is not counted), so that `é` or `字` is one column whatever its UTF-8 length.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// Creates a location.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The start of a file.
    public static let start = SourceLocation(line: 1, column: 1)

    /// `line:column`.
    public var description: String { "\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
