/// The UTF-8 decode of the Encoding Standard (section 9.1.1, "UTF-8 decoder"), as WebVTT requires
/// (W3C WebVTT, section 6.1), plus the replacement of U+0000, on one line of bytes.
///
/// Valid sequences are copied as they are; each maximal invalid subpart and each NUL becomes
/// U+FFFD, exactly as a browser decodes the file. Lines never split a sequence: line terminators
/// are ASCII and end any sequence in progress, so decoding line by line equals decoding the whole
/// stream. Every reader that takes UTF-8 (WebVTT, SubRip) repairs its lines here.
package enum UTF8Repair {
    /// What was replaced in a line.
    package struct Report: Sendable {
        package var nullCharacters = 0
        package var invalidSequences = 0
        /// Columns (1-based, in scalars of the decoded line) of the first of each.
        package var firstNullColumn = 0
        package var firstInvalidColumn = 0
        /// The first bytes of the first four invalid sequences, for a message that shows them.
        package var invalidLeadBytes: [UInt8] = []
        /// True when the line holds a valid sequence of more than one byte.
        package var hasMultibyteScalars = false
        /// True when every invalid sequence is one byte long.
        package var invalidSequencesAreSingleBytes = true

        /// True when the bytes that are not UTF-8 look like a single-byte encoding (such as
        /// Windows-1252) rather than damaged UTF-8: no valid multi-byte sequence beside them, and
        /// each stands alone.
        package var looksLikeSingleByteEncoding: Bool {
            invalidSequences > 0 && !hasMultibyteScalars && invalidSequencesAreSingleBytes
        }
    }

    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// True when `bytes` is valid UTF-8 without NUL: what every line of a well-made file is, so
    /// it is asked of each line before anything is decoded.
    ///
    /// Runs of ASCII are checked eight bytes at a time, and each longer sequence against the
    /// well-formed ranges of its bytes (Unicode's table 3-7, the sequences the Encoding
    /// Standard's decoder accepts), keeping no report: the answer is the decoder's
    /// (``isCleanByDecoding(_:)``), only cheaper.
    package static func isClean(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard let base = raw.baseAddress else { return true }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let count = raw.count
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        var index = 0
        // True when the byte `offset` after the lead is within `low...high`.
        @inline(__always) func follows(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            index + offset < count && bytes[index + offset] >= low && bytes[index + offset] <= high
        }
        while index < count {
            // ASCII a word at a time, up to a word with a byte above 0x7F or a NUL.
            while index + 8 <= count {
                let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
                if (word | ((word &- ones) & ~word)) & high != 0 { break }
                index += 8
            }
            guard index < count else { return true }
            switch bytes[index] {
            case 0x00:
                return false
            case 0x01...0x7F:
                index += 1
            case 0xC2...0xDF:
                guard follows(1) else { return false }
                index += 2
            case 0xE0:
                guard follows(1, 0xA0), follows(2) else { return false }
                index += 3
            case 0xE1...0xEC, 0xEE, 0xEF:
                guard follows(1), follows(2) else { return false }
                index += 3
            case 0xED:
                guard follows(1, 0x80, 0x9F), follows(2) else { return false }
                index += 3
            case 0xF0:
                guard follows(1, 0x90), follows(2), follows(3) else { return false }
                index += 4
            case 0xF1...0xF3:
                guard follows(1), follows(2), follows(3) else { return false }
                index += 4
            case 0xF4:
                guard follows(1, 0x80, 0x8F), follows(2), follows(3) else { return false }
                index += 4
            default:
                return false
            }
        }
        return true
    }

    /// ``isClean(_:)`` by the decoder itself, stopping at the first problem: the general path the
    /// fast one is checked against.
    package static func isCleanByDecoding(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var report = Report()
        return scan(bytes, into: nil, report: &report)
    }

    /// Appends the decoded line to `output` and says what was replaced.
    package static func repair(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) -> Report {
        var report = Report()
        output.reserveCapacity(output.count + bytes.count + 8)
        _ = withUnsafeMutablePointer(to: &output) { scan(bytes, into: $0, report: &report) }
        return report
    }

    /// The decoder. With `output` nil it only checks, stopping at the first problem.
    private static func scan(_ raw: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<[UInt8]>?, report: inout Report) -> Bool {
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        let count = bytes.count
        var index = 0
        var scalars = 0
        var clean = true
        func replace(_ isNull: Bool, length: Int) {
            clean = false
            scalars += 1
            if isNull {
                report.nullCharacters += 1
                if report.firstNullColumn == 0 { report.firstNullColumn = scalars }
            } else {
                report.invalidSequences += 1
                if report.firstInvalidColumn == 0 { report.firstInvalidColumn = scalars }
                if report.invalidLeadBytes.count < 4 { report.invalidLeadBytes.append(bytes[index]) }
                if length != 1 { report.invalidSequencesAreSingleBytes = false }
            }
            output?.pointee.append(contentsOf: replacement)
        }
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                if lead == 0 {
                    replace(true, length: 1)
                    if output == nil { return false }
                } else {
                    scalars += 1
                    output?.pointee.append(lead)
                }
                index += 1
                continue
            }
            let length = UTF8Bytes.sequenceLength(in: bytes, at: index)
            if length > 0 {
                scalars += 1
                report.hasMultibyteScalars = true
                output?.pointee.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
                index += length
            } else {
                // The maximal subpart is replaced; the byte that ends it is decoded afresh.
                let invalid = UTF8Bytes.invalidLength(in: bytes, at: index)
                replace(false, length: invalid)
                if output == nil { return false }
                index += invalid
            }
        }
        return clean
    }
}
