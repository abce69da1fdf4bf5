import CueKit

/// Writes JSON straight into a byte buffer, flushed to a sink as it fills: no Foundation, no
/// intermediate objects, so `cuekit inspect --json` streams a file of any size.
///
/// Numbers are written as JavaScript writes them (`Number.prototype.toString`): the shortest digits
/// that read back as the same double, `1` rather than `1.0`, `1e+21` past 10^21. The output
/// therefore compares directly with what a browser's script reads from `VTTCue`.
struct JSONWriter<Sink: ByteSink> {
    private(set) var sink: Sink
    private var buffer: [UInt8] = []

    init(sink: Sink) {
        self.sink = sink
        buffer.reserveCapacity(1 << 16)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        buffer.append(UInt8(ascii: "\""))
        var copy = value
        let clean = copy.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            buffer.append(contentsOf: bytes)
            return true
        }
        if clean {
            buffer.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: buffer.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: buffer.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: buffer.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                buffer.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    mutating func number(_ value: Double) {
        buffer.append(contentsOf: JavaScriptNumber.format(value).utf8)
    }

    mutating func integer(_ value: Int) {
        buffer.append(contentsOf: String(value).utf8)
    }

    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// `"key":`
    mutating func key(_ name: StaticString) {
        buffer.append(UInt8(ascii: "\""))
        raw(name)
        buffer.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// Hands the buffer to the sink once it holds a good amount.
    mutating func flushIfFull() throws {
        if buffer.count >= 1 << 16 { try flush() }
    }

    mutating func flush() throws {
        try sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
        try sink.flush()
    }
}

extension JSONWriter {
    /// `{"severity","code","line","column","message"}`: a diagnostic as `inspect --json` and
    /// `validate --format json` write it (`null` line and column when it has no location).
    mutating func diagnostic(_ diagnostic: Diagnostic) {
        raw("{")
        key("severity")
        string(diagnostic.severity.rawValue)
        raw(",")
        key("code")
        string(diagnostic.code.rawValue)
        raw(",")
        key("line")
        if let location = diagnostic.location { integer(location.line) } else { raw("null") }
        raw(",")
        key("column")
        if let location = diagnostic.location { integer(location.column) } else { raw("null") }
        raw(",")
        key("message")
        string(diagnostic.message)
        raw("}")
    }
}

/// JavaScript's Number-to-String (ECMAScript, section 6.1.6.1.20) for doubles.
enum JavaScriptNumber {
    static func format(_ value: Double) -> String {
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
        let text = abs(value).description
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1])! : 0
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
}
