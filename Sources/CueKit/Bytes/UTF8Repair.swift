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
    /// it is asked of each line (or block) before anything is decoded.
    ///
    /// Runs of ASCII are checked eight bytes at a time; any other word goes through a
    /// deterministic automaton of Unicode's well-formed byte sequences (table 3-7, the sequences
    /// the Encoding Standard's decoder accepts), one table load and one shift a byte, with no
    /// branch on the byte's value. No report is kept: the answer is the decoder's
    /// (``isCleanByDecoding(_:)``), only cheaper.
    package static func isClean(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard let base = raw.baseAddress else { return true }
        let count = raw.count
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        return CleanAutomaton.rows.withUnsafeBufferPointer { rows in
            var state: UInt64 = CleanAutomaton.accept
            var index = 0
            @inline(__always) func step(_ offset: Int) {
                state = (rows[Int(base.load(fromByteOffset: offset, as: UInt8.self))] &>> state) & 63
            }
            while index + 8 <= count {
                if state == CleanAutomaton.accept {
                    // ASCII without NUL, between sequences: the whole word at once.
                    let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    if (word | ((word &- ones) & ~word)) & high == 0 {
                        index += 8
                        continue
                    }
                }
                for offset in index..<(index + 8) { step(offset) }
                if state == CleanAutomaton.error { return false }
                index += 8
            }
            while index < count {
                step(index)
                index += 1
            }
            return state == CleanAutomaton.accept
        }
    }

    /// The automaton of ``isClean(_:)``: each state is a bit offset (a multiple of 6) into a
    /// byte's row, where the 6 bits hold the next state (Per Vognsen's shift-based DFA).
    private enum CleanAutomaton {
        static let accept: UInt64 = 0
        static let error: UInt64 = 8 * 6

        /// The row of each byte value: for each of the nine states, the state it leads to.
        static let rows: [UInt64] = (0...255).map { byte in
            (0..<9).reduce(UInt64(0)) { row, state in row | UInt64(next(state, UInt8(byte)) * 6) << UInt64(state * 6) }
        }

        /// States: 0 between sequences; 1 and 2, one or two continuation bytes to come; 3 after
        /// E0 (A0-BF next); 4 after ED (80-9F next); 5 after F0 (90-BF next); 6 after F1-F3;
        /// 7 after F4 (80-8F next); 8 error, which nothing leaves. NUL is an error.
        private static func next(_ state: Int, _ byte: UInt8) -> Int {
            let error = 8
            func continuation(_ range: ClosedRange<UInt8>, then state: Int) -> Int { range.contains(byte) ? state : error }
            switch state {
            case 0:
                switch byte {
                case 0x01...0x7F: return 0
                case 0xC2...0xDF: return 1
                case 0xE0: return 3
                case 0xE1...0xEC, 0xEE, 0xEF: return 2
                case 0xED: return 4
                case 0xF0: return 5
                case 0xF1...0xF3: return 6
                case 0xF4: return 7
                default: return error
                }
            case 1: return continuation(0x80...0xBF, then: 0)
            case 2: return continuation(0x80...0xBF, then: 1)
            case 3: return continuation(0xA0...0xBF, then: 1)
            case 4: return continuation(0x80...0x9F, then: 1)
            case 5: return continuation(0x90...0xBF, then: 2)
            case 6: return continuation(0x80...0xBF, then: 2)
            case 7: return continuation(0x80...0x8F, then: 2)
            default: return error
            }
        }
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
