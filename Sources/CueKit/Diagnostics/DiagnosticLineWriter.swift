/// Writes diagnostics as compiler lines, `file:line:column: severity: message [code]`, straight
/// into bytes, control characters escaped as ``Swift/String/escapingControlCharacters`` escapes
/// them: what `cuekit validate` prints for each diagnostic, without a string made for the line.
///
/// One writer a file: the file name is escaped once, when the writer is made.
public struct DiagnosticLineWriter: Sendable {
    /// `file:`, escaped; empty without a file.
    private let filePrefix: [UInt8]

    /// A writer of lines about `file` (nil: lines without a file name).
    public init(file: String?) {
        filePrefix = file.map { Array($0.escapingControlCharacters.utf8) + [UInt8(ascii: ":")] } ?? []
    }

    /// Appends the line of `diagnostic` (``Diagnostic/formatted(file:)``) to `bytes`, without a
    /// line ending.
    public func append(_ diagnostic: Diagnostic, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: filePrefix)
        if let location = diagnostic.location {
            Self.appendDecimal(location.line, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            Self.appendDecimal(location.column, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
        }
        if !filePrefix.isEmpty || diagnostic.location != nil { bytes.append(UInt8(ascii: " ")) }
        Self.appendEscaped(diagnostic.severity.rawValue, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        Self.appendEscaped(diagnostic.message, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        bytes.append(UInt8(ascii: "["))
        Self.appendEscaped(diagnostic.code.rawValue, to: &bytes)
        bytes.append(UInt8(ascii: "]"))
    }

    /// Appends `text`, its control characters escaped: as it is when no byte can start one (a
    /// byte under 0x20, 0x7F, or 0xC2, which starts a C1 control), the usual case.
    private static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        let copied = text.utf8.withContiguousStorageIfAvailable { text -> Bool in
            guard !mayHoldControl(UnsafeRawBufferPointer(text)) else { return false }
            bytes.append(contentsOf: text)
            return true
        }
        if copied != true { bytes.append(contentsOf: text.escapingControlCharacters.utf8) }
    }

    /// True when a byte of `text` is under 0x20, 0x7F or 0xC2: eight bytes a step, each word
    /// tested for a byte under 0x20 and for one equal to either of the others (the usual
    /// "has a zero byte" arithmetic, exact for the word as a whole), then the last eight bytes
    /// (some tested twice); a text of fewer than eight in a word filled out with `a`, which is
    /// none of them. (The last bytes one by one cost about as much as all the words before.)
    static func mayHoldControl(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let base = text.baseAddress else { return false }
        let count = text.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasByteUnder(_ limit: UInt64, _ word: UInt64) -> Bool { (word &- ones &* limit) & ~word & highs != 0 }
        @inline(__always) func holds(_ word: UInt64) -> Bool {
            hasByteUnder(0x20, word) || hasByteUnder(1, word ^ (ones &* 0x7F)) || hasByteUnder(1, word ^ (ones &* 0xC2))
        }
        guard count >= 8 else {
            var word = ones &* UInt64(UInt8(ascii: "a"))
            withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: text) }
            return holds(UInt64(littleEndian: word))
        }
        var offset = 0
        while offset + 8 <= count {
            if holds(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) { return true }
            offset += 8
        }
        return offset < count && holds(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)))
    }

    /// Appends `value` in decimal.
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        guard value >= 0 else {
            bytes.append(contentsOf: String(value).utf8)
            return
        }
        if value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        // At most 19 digits, written backwards into a word pair on the stack.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var start = 20
            while rest > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }
}
