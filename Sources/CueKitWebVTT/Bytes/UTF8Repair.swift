/// The UTF-8 decode of the Encoding Standard (section 9.1.1, "UTF-8 decoder"), as WebVTT requires
/// (W3C WebVTT, section 6.1), plus the parser's replacement of U+0000, on one line of bytes.
///
/// Valid sequences are copied as they are; each maximal invalid subpart and each NUL becomes
/// U+FFFD, exactly as a browser decodes the file. Lines never split a sequence: line terminators
/// are ASCII and end any sequence in progress, so decoding line by line equals decoding the whole
/// stream.
enum UTF8Repair {
    /// What was replaced in a line.
    struct Report {
        var nullCharacters = 0
        var invalidSequences = 0
        /// Columns (1-based, in scalars of the decoded line) of the first of each.
        var firstNullColumn = 0
        var firstInvalidColumn = 0
    }

    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// True when `bytes` is valid UTF-8 without NUL.
    static func isClean(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var report = Report()
        return scan(bytes, into: nil, report: &report)
    }

    /// Appends the decoded line to `output` and says what was replaced.
    static func repair(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) -> Report {
        var report = Report()
        output.reserveCapacity(output.count + bytes.count + 8)
        _ = withUnsafeMutablePointer(to: &output) { scan(bytes, into: $0, report: &report) }
        return report
    }

    /// The decoder. With `output` nil it only checks, stopping at the first problem.
    private static func scan(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<[UInt8]>?, report: inout Report) -> Bool {
        let count = bytes.count
        var index = 0
        var scalars = 0
        var clean = true
        func replace(_ isNull: Bool) {
            clean = false
            scalars += 1
            if isNull {
                report.nullCharacters += 1
                if report.firstNullColumn == 0 { report.firstNullColumn = scalars }
            } else {
                report.invalidSequences += 1
                if report.firstInvalidColumn == 0 { report.firstInvalidColumn = scalars }
            }
            output?.pointee.append(contentsOf: replacement)
        }
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                if lead == 0 {
                    replace(true)
                    if output == nil { return false }
                } else {
                    scalars += 1
                    output?.pointee.append(lead)
                }
                index += 1
                continue
            }
            var needed = 0
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: needed = 1
            case 0xE0: needed = 2; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: needed = 2
            case 0xED: needed = 2; upper = 0x9F
            case 0xF0: needed = 3; lower = 0x90
            case 0xF1...0xF3: needed = 3
            case 0xF4: needed = 3; upper = 0x8F
            default:
                replace(false)
                if output == nil { return false }
                index += 1
                continue
            }
            // Take continuation bytes while they fit; the first that does not is decoded afresh.
            var seen = 0
            var next = index + 1
            while seen < needed, next < count {
                let byte = bytes[next]
                guard byte >= lower, byte <= upper else { break }
                lower = 0x80
                upper = 0xBF
                seen += 1
                next += 1
            }
            if seen == needed {
                scalars += 1
                output?.pointee.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<next]))
            } else {
                replace(false)
                if output == nil { return false }
            }
            index = next
        }
        return clean
    }
}
