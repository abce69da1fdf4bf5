/// Writes `Double`s the way WebVTT's number syntax allows: ASCII digits with at most one decimal
/// point, no exponent (WebVTT section 4.3: percentages and line numbers).
///
/// The digits are the shortest that read back as the same `Double` (Swift's own shortest
/// round-trip digits), moved into plain positional form: `1e+34` is written with 35 digits and
/// `5e-324` with 323 zeros after the point. The HTML rules for parsing floating-point numbers,
/// which WebVTT uses, round the exact decimal value to the nearest `Double`, so the value comes
/// back bit for bit (except `-0`, which those rules read as `+0`).
enum WebVTTNumberFormat {
    /// Appends a finite value; the caller has checked `value.isFinite`.
    static func append(_ value: Double, to bytes: inout [UInt8]) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            magnitude = -value
        }
        // Whole numbers below 2^53 are exact: their digits are the integer's.
        // (Converted and compared back: `rounded` called the C library.)
        if magnitude < 9_007_199_254_740_992, Double(UInt64(magnitude)) == magnitude {
            appendInteger(UInt64(magnitude), to: &bytes)
            return
        }
        appendPositional(magnitude.description, to: &bytes)
    }

    /// The digits of `value`, written from the last on the stack and appended in one copy.
    static func appendInteger(_ value: UInt64, to bytes: inout [UInt8]) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { room in
            var rest = value
            var start = room.count
            repeat {
                start -= 1
                room[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest != 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: room[start...]))
        }
    }

    /// Rewrites Swift's description of a positive finite `Double` (`123.5`, `1e-05`,
    /// `1.7976931348623157e+308`) without its exponent.
    private static func appendPositional(_ description: String, to bytes: inout [UInt8]) {
        var digits: [UInt8] = []
        var pointAt: Int?
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        for byte in description.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent {
                    exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                } else {
                    digits.append(byte)
                }
            case UInt8(ascii: "."):
                pointAt = digits.count
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                inExponent = true
            case UInt8(ascii: "-"):
                exponentSign = -1
            default:
                break
            }
        }
        // The value is 0.d1 d2 d3 ... × 10^point.
        var point = (pointAt ?? digits.count) + exponentSign * exponent
        let firstNonZero = digits.firstIndex { $0 != UInt8(ascii: "0") } ?? digits.count
        point -= firstNonZero
        var significant = Array(digits[firstNonZero...])
        while significant.last == UInt8(ascii: "0") { significant.removeLast() }
        if significant.isEmpty {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if point <= 0 {
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -point))
            bytes.append(contentsOf: significant)
        } else if point >= significant.count {
            bytes.append(contentsOf: significant)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: point - significant.count))
        } else {
            bytes.append(contentsOf: significant[..<point])
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: significant[point...])
        }
    }
}
