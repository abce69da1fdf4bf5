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

    /// True when `bytes` is valid UTF-8 without NUL.
    package static func isClean(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if ByteScanning.isPlainASCII(bytes) { return true }
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
