/// Numbers in cue and region settings: HTML's "rules for parsing floating-point number values" on
/// the forms WebVTT lets through (`[-]digits[.digits]`), and WebVTT's "parse a percentage string"
/// (W3C WebVTT, section 6.2).
///
/// The result is the double nearest the decimal value, as HTML requires: short numbers are
/// converted exactly by integer arithmetic, long ones by the C library's correctly rounded
/// `strtod`. `-0` becomes `+0` (HTML's set of values excludes it), and a value that rounds past the
/// largest double is an error.
enum DecimalNumber {
    /// Parses `[-]digits[.digits]` in `bytes[from..<to]`; the caller has checked the form.
    static func parse(_ bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Double? {
        var index = from
        var negative = false
        if index < to, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        // Fast path: at most 15 significant digits and 22 fraction digits are exact in a double,
        // and one correctly rounded division gives the nearest double.
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        var exact = true
        while index < to {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else {
                if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                if digits > 15 {
                    exact = false
                    break
                }
                mantissa = mantissa * 10 + UInt64(byte &- UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            }
            index += 1
        }
        var value: Double
        if exact, fractionDigits <= 22 {
            value = Self.exact(mantissa: mantissa, fractionDigits: fractionDigits)
        } else {
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
            guard let parsed = Double(text) else { return nil }
            value = abs(parsed)
        }
        guard value.isFinite else { return nil }
        if negative { value = -value }
        return value == 0 ? 0 : value
    }

    /// `mantissa` × 10^-`fractionDigits`, for a mantissa of at most 15 significant digits and at
    /// most 22 fraction digits: both exact in a double, so one correctly rounded division gives the
    /// nearest double.
    @inline(__always)
    static func exact(mantissa: UInt64, fractionDigits: Int) -> Double {
        Double(mantissa) / powersOfTen[fractionDigits]
    }

    /// "Parse a percentage string": `digits[.digits]%` with a value from 0 to 100.
    static func percentage(_ bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Double? {
        guard to - from >= 2, bytes[to - 1] == UInt8(ascii: "%"), isUnsignedDecimal(bytes, from: from, to: to - 1) else { return nil }
        guard let value = parse(bytes, from: from, to: to - 1), value <= 100 else { return nil }
        return value
    }

    /// True for `digits[.digits]`, the syntax of a WebVTT percentage without its `%`.
    static func isUnsignedDecimal(_ bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Bool {
        var index = from
        var integerDigits = 0
        while index < to, isDigit(bytes[index]) {
            index += 1
            integerDigits += 1
        }
        guard integerDigits > 0 else { return false }
        if index == to { return true }
        guard bytes[index] == UInt8(ascii: ".") else { return false }
        index += 1
        let fractionStart = index
        while index < to, isDigit(bytes[index]) { index += 1 }
        return index == to && index > fractionStart
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
