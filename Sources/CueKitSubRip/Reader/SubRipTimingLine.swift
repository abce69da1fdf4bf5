/// A SubRip timing line, `00:00:01,000 --> 00:00:02,500`, read as leniently as players read it.
///
/// What is accepted, each reported by the reader as a diagnostic:
/// - white space before, between and after the parts; two or more `-` before the `>` of the arrow;
/// - `.` (or, after the seconds, `:`) instead of `,` before the milliseconds;
/// - hours of one digit, or of more than two; no hours at all (`01:02,500`); minutes and seconds of
///   one digit;
/// - no milliseconds (read as `000`, which is unambiguous); one or two digits of them (`1,5`), read
///   as a decimal fraction, 500 ms, and reported as an error because some players read 5 ms;
///   more than three digits (the rest is dropped);
/// - minutes or seconds over 59 (added up as written, reported as an error);
/// - `X1:… X2:… Y1:… Y2:…` pixel coordinates after the end time (ignored: they are pixels of a
///   frame size the file does not give, so they cannot become percentages), or other text there.
struct SubRipTimingLine {
    /// Start time in milliseconds.
    var start: Int
    /// End time in milliseconds.
    var end: Int

    /// Something non-standard about an accepted timing line, at a byte offset of the line.
    struct Issue {
        enum Kind {
            /// Milliseconds separated by the byte given, not `,`.
            case separator(UInt8)
            /// Hours with one digit.
            case oneDigitHours
            /// No hours at all.
            case missingHours
            /// Minutes or seconds not of two digits.
            case minuteOrSecondDigits
            /// No milliseconds.
            case missingMilliseconds
            /// One or two digits of milliseconds, read as a fraction of a second.
            case shortMilliseconds(digits: Int, milliseconds: Int)
            /// More than three digits of milliseconds.
            case longMilliseconds
            /// Minutes or seconds over 59.
            case outOfRange
            /// Pixel coordinates after the end time.
            case coordinates
            /// Other text after the end time.
            case trailingText
        }

        var kind: Kind
        var offset: Int
    }

    /// True when a line could be meant as a timing line: after white space it starts with a digit,
    /// and it holds `:` and then `-->`. A line like this that ``parse(_:issues:)`` refuses is a broken
    /// timing line, not text.
    static func looksLikeTiming(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
        // A negative start time (`-00:00:01,000 --> …`) is a timing line too, one that cannot be read.
        if index + 1 < line.count, line[index] == UInt8(ascii: "-"), isDigit(line[index + 1]) { index += 1 }
        guard index < line.count, isDigit(line[index]) else { return false }
        var sawColon = false
        while index + 2 < line.count {
            if line[index] == UInt8(ascii: ":") { sawColon = true }
            if sawColon, line[index] == UInt8(ascii: "-"), line[index + 1] == UInt8(ascii: "-"), line[index + 2] == UInt8(ascii: ">") {
                return true
            }
            index += 1
        }
        return false
    }

    /// The offset of a minus sign written before a time (`-00:00:01,000`), if the line has one.
    static func negativeTimeOffset(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index + 1 < line.count {
            if line[index] == UInt8(ascii: "-"), isDigit(line[index + 1]), index == 0 || line[index - 1] != UInt8(ascii: "-") {
                var before = index
                while before > 0, line[before - 1] == 0x20 || line[before - 1] == 0x09 { before -= 1 }
                if before == 0 || line[before - 1] == UInt8(ascii: ">") { return index }
            }
            index += 1
        }
        return nil
    }

    /// Reads a timing line, appending what is non-standard to `issues`; nil when the line is not one.
    ///
    /// Lines of text are refused after looking at their first byte, so calling this on every line
    /// costs little.
    static func parse(_ line: UnsafeBufferPointer<UInt8>, issues: inout [Issue]) -> SubRipTimingLine? {
        if let standard = standardForm(line) { return standard }
        var index = 0
        skipBlanks(line, &index)
        guard index < line.count, isDigit(line[index]) else { return nil }
        let issueCount = issues.count
        guard let start = timestamp(line, &index, issues: &issues) else {
            issues.removeSubrange(issueCount...)
            return nil
        }
        skipBlanks(line, &index)
        var dashes = 0
        while index < line.count, line[index] == UInt8(ascii: "-") {
            dashes += 1
            index += 1
        }
        guard dashes >= 2, index < line.count, line[index] == UInt8(ascii: ">") else {
            issues.removeSubrange(issueCount...)
            return nil
        }
        index += 1
        skipBlanks(line, &index)
        guard let end = timestamp(line, &index, issues: &issues) else {
            issues.removeSubrange(issueCount...)
            return nil
        }
        skipBlanks(line, &index)
        if index < line.count {
            let isCoordinates =
                index + 2 < line.count && (line[index] | 0x20) == UInt8(ascii: "x") && line[index + 1] == UInt8(ascii: "1")
                && line[index + 2] == UInt8(ascii: ":")
            issues.append(Issue(kind: isCoordinates ? .coordinates : .trailingText, offset: index))
        }
        return SubRipTimingLine(start: start, end: end)
    }

    /// The fast path: exactly `hh:mm:ss,mmm --> hh:mm:ss,mmm`, as nearly every file writes it, read
    /// at fixed offsets; nil for anything else (which the general path reads).
    ///
    /// Eight bytes at a time: each word of the line, XOR-ed with the same word of
    /// `00:00:00,000 --> 00:00:00,000`, holds each digit's value where a digit is and zero where
    /// the punctuation is; one addition per word then checks every byte against its bound at once
    /// (10 for a digit, 6 for the tens of minutes and seconds, 1 for punctuation).
    @inline(__always)
    static func standardForm(_ line: UnsafeBufferPointer<UInt8>) -> SubRipTimingLine? {
        guard line.count == 29, let base = line.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        // Bytes 0..<8, 8..<16, 16..<24 and 21..<29, less the template's.
        let x0 = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) ^ 0x3030_3A30_303A_3030
        let x1 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) ^ 0x3E2D_2D20_3030_302C
        let x2 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) ^ 0x303A_3030_3A30_3020
        let x3 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 21, as: UInt64.self)) ^ 0x3030_302C_3030_3A30
        // A byte at or past its bound (0x80 minus the addend) gets its high bit set; one with the
        // high bit set already fails too (a carry out of it only touches a byte that fails).
        let high: UInt64 = 0x8080_8080_8080_8080
        let failed =
            ((x0 &+ 0x767A_7F76_7A7F_7676) | x0) | ((x1 &+ 0x7F7F_7F7F_7676_767F) | x1)
            | ((x2 &+ 0x7A7F_767A_7F76_767F) | x2) | ((x3 &+ 0x7676_767F_767A_7F76) | x3)
        guard failed & high == 0 else { return nil }
        @inline(__always) func digit(_ word: UInt64, _ index: Int) -> Int { Int(truncatingIfNeeded: word >> UInt64(index * 8)) & 0xFF }
        @inline(__always) func time(
            _ h1: Int, _ h2: Int, _ m1: Int, _ m2: Int, _ s1: Int, _ s2: Int, _ f1: Int, _ f2: Int, _ f3: Int
        ) -> Int {
            (((h1 * 10 + h2) * 60 + m1 * 10 + m2) * 60 + s1 * 10 + s2) * 1000 + f1 * 100 + f2 * 10 + f3
        }
        let start = time(
            digit(x0, 0), digit(x0, 1), digit(x0, 3), digit(x0, 4), digit(x0, 6), digit(x0, 7), digit(x1, 1), digit(x1, 2), digit(x1, 3))
        let end = time(
            digit(x2, 1), digit(x2, 2), digit(x2, 4), digit(x2, 5), digit(x2, 7), digit(x3, 3), digit(x3, 5), digit(x3, 6), digit(x3, 7))
        return SubRipTimingLine(start: start, end: end)
    }

    /// Reads `[h…:]m:s[,mmm]` at `index`, moving past it.
    private static func timestamp(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int, issues: inout [Issue]) -> Int? {
        let startOffset = index
        var components: (Int, Int, Int) = (0, 0, 0)
        var digitCounts: (Int, Int, Int) = (0, 0, 0)
        guard let first = digits(line, &index) else { return nil }
        components.0 = first.value
        digitCounts.0 = first.count
        guard index < line.count, line[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        guard let second = digits(line, &index) else { return nil }
        components.1 = second.value
        digitCounts.1 = second.count
        var componentCount = 2
        if index + 1 < line.count, line[index] == UInt8(ascii: ":"), isDigit(line[index + 1]) {
            index += 1
            guard let third = digits(line, &index) else { return nil }
            components.2 = third.value
            digitCounts.2 = third.count
            componentCount = 3
        }
        let hours: Int, minutes: Int, seconds: Int
        if componentCount == 3 {
            (hours, minutes, seconds) = components
            if digitCounts.0 == 1 { issues.append(Issue(kind: .oneDigitHours, offset: startOffset)) }
            if digitCounts.1 != 2 || digitCounts.2 != 2 { issues.append(Issue(kind: .minuteOrSecondDigits, offset: startOffset)) }
        } else {
            (hours, minutes, seconds) = (0, components.0, components.1)
            issues.append(Issue(kind: .missingHours, offset: startOffset))
            if digitCounts.0 != 2 || digitCounts.1 != 2 { issues.append(Issue(kind: .minuteOrSecondDigits, offset: startOffset)) }
        }
        if minutes > 59 || seconds > 59 { issues.append(Issue(kind: .outOfRange, offset: startOffset)) }

        var milliseconds = 0
        let separatorOffset = index
        let separator: UInt8? = index < line.count ? line[index] : nil
        let isSeparator =
            separator == UInt8(ascii: ",") || separator == UInt8(ascii: ".")
            || (separator == UInt8(ascii: ":") && componentCount == 3 && index + 1 < line.count && isDigit(line[index + 1]))
        if let separator, isSeparator {
            index += 1
            if separator != UInt8(ascii: ",") { issues.append(Issue(kind: .separator(separator), offset: separatorOffset)) }
            var count = 0
            while index < line.count, isDigit(line[index]) {
                if count < 3 { milliseconds = milliseconds * 10 + Int(line[index] - UInt8(ascii: "0")) }
                count += 1
                index += 1
            }
            switch count {
            case 0:
                issues.append(Issue(kind: .missingMilliseconds, offset: separatorOffset))
            case 1, 2:
                let scaled = count == 1 ? milliseconds * 100 : milliseconds * 10
                issues.append(Issue(kind: .shortMilliseconds(digits: count, milliseconds: scaled), offset: separatorOffset + 1))
                milliseconds = scaled
            case 3:
                break
            default:
                issues.append(Issue(kind: .longMilliseconds, offset: separatorOffset + 4))
            }
        } else {
            issues.append(Issue(kind: .missingMilliseconds, offset: separatorOffset))
        }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds
    }

    /// Reads one to nine digits (more would be no timestamp, and could overflow).
    private static func digits(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> (value: Int, count: Int)? {
        var value = 0
        var count = 0
        while index < line.count, isDigit(line[index]) {
            value = value * 10 + Int(line[index] - UInt8(ascii: "0"))
            count += 1
            index += 1
            if count > 9 { return nil }
        }
        return count == 0 ? nil : (value, count)
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    private static func skipBlanks(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
        while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
    }
}
