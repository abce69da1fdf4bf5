/// Turns byte offsets of a text into file locations, moving forward through the text.
struct Locator {
    let origin: SourceLocation
    private var offset = 0
    private var line: Int
    private var column: Int

    init(origin: SourceLocation) {
        self.origin = origin
        self.line = origin.line
        self.column = origin.column
    }

    /// The location of the byte at `target`; columns count Unicode scalars.
    mutating func location(of target: Int, in bytes: UnsafeRawBufferPointer) -> SourceLocation {
        if target < offset {
            offset = 0
            line = origin.line
            column = origin.column
        }
        let end = min(target, bytes.count)
        while offset < end {
            let byte = bytes[offset]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            offset += 1
        }
        return SourceLocation(line: line, column: column)
    }
}
