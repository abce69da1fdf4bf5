/// JSON text (RFC 8259) as every JSON output of CueKit writes it: the Cast messages, `inspect --json`
/// and the validation reports share one string escaping and one number form.
///
/// Strings escape `"`, `\`, the control characters and U+007F, and keep everything else as UTF-8.
/// Numbers are written as JavaScript's `JSON.stringify` writes them: the shortest digits that read
/// back as the same double, `1` rather than `1.0`, `1e-7` and `1e+21` at the ends of the range, and
/// `null` for a value JSON cannot carry.
package enum JSONText {
    /// Appends `value` as a quoted JSON string.
    package static func appendString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var copy = value
        let clean = copy.withUTF8 { utf8 in
            guard !utf8.contains(where: needsEscape) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !clean {
            for byte in value.utf8 {
                guard needsEscape(byte) else {
                    bytes.append(byte)
                    continue
                }
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    bytes.append(contentsOf: "u00".utf8)
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0xF)])
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `value` as a quoted JSON string.
    package static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 2)
        appendString(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A number as `JSON.stringify` writes it: ``javaScriptNumber(_:)``, or `null` when not finite.
    package static func number(_ value: Double) -> String {
        value.isFinite ? javaScriptNumber(value) : "null"
    }

    /// JavaScript's Number-to-String (ECMAScript, section 6.1.6.1.20): what a script reads from a
    /// double, `NaN` and `Infinity` included.
    package static func javaScriptNumber(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }
        // Without an exponent, Swift's description is JavaScript's but for a trailing ".0".
        let description = value.description
        if !description.contains("e") {
            return description.hasSuffix(".0") ? String(description.dropLast(2)) : description
        }
        // Swift's description gives the shortest digits that round-trip, closest to the value, as
        // JavaScript requires; only the layout differs.
        let parts = abs(value).description.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integerPart = String(mantissa[0])
        let fractionPart = mantissa.count == 2 ? String(mantissa[1]) : ""
        var digits = Array(integerPart + fractionPart)
        // value = 0.digits × 10^n
        var n = exponent + integerPart.count
        while digits.first == "0" {
            digits.removeFirst()
            n -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        let k = digits.count
        let sign = value < 0 ? "-" : ""
        let s = String(digits)
        if k <= n, n <= 21 {
            return sign + s + String(repeating: "0", count: n - k)
        }
        if 0 < n, n <= 21 {
            return sign + String(digits[0..<n]) + "." + String(digits[n...])
        }
        if -6 < n, n <= 0 {
            return sign + "0." + String(repeating: "0", count: -n) + s
        }
        let e = n - 1
        let exponentText = (e < 0 ? "-" : "+") + String(abs(e))
        if k == 1 { return sign + s + "e" + exponentText }
        return sign + String(digits[0]) + "." + String(digits[1...]) + "e" + exponentText
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
