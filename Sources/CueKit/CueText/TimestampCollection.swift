extension CueTimestamp {
    /// A timestamp read from WebVTT text by ``collect(from:at:)``.
    public struct Collected: Sendable, Hashable {
        /// The time in milliseconds.
        public var milliseconds: Int
        /// How many digits the hours had; 0 for the short form `mm:ss.ttt`.
        ///
        /// The parser accepts one digit (`1:00:00.000`), but a valid WebVTT timestamp has two or
        /// more: readers report a single digit as a warning.
        public var hourDigits: Int

        /// Creates a collected timestamp.
        public init(milliseconds: Int, hourDigits: Int) {
            self.milliseconds = milliseconds
            self.hourDigits = hourDigits
        }
    }

    /// Why ``collect(from:at:)`` failed, and at which byte.
    public struct CollectFailure: Error, Sendable, Hashable {
        /// The kinds of failure.
        public enum Reason: Sendable, Hashable {
            /// Where a digit was expected there is none.
            case expectedDigit
            /// Minutes or seconds without exactly two digits, or thousandths without three.
            case wrongDigitCount
            /// A `:` or `.` is missing.
            case expectedSeparator(UInt8)
            /// Minutes or seconds above 59.
            case componentAbove59
            /// More hours than a time in milliseconds can hold (about 2.5 billion hours).
            case outOfRange
        }

        /// What went wrong.
        public var reason: Reason
        /// The byte offset, in the bytes given to ``collect(from:at:)``, where it went wrong.
        public var offset: Int

        /// Creates a failure.
        public init(_ reason: Reason, at offset: Int) {
            self.reason = reason
            self.offset = offset
        }

        /// What went wrong, in words.
        public var message: String {
            switch reason {
            case .expectedDigit: "a timestamp starts with a digit"
            case .wrongDigitCount: "minutes and seconds take two digits and the fraction three (hh:mm:ss.ttt or mm:ss.ttt)"
            case .expectedSeparator(let byte): "'\(Character(Unicode.Scalar(byte)))' expected in the timestamp"
            case .componentAbove59: "minutes and seconds must be 59 or less"
            case .outOfRange: "the timestamp is too large to represent"
            }
        }
    }

    /// Collects a WebVTT timestamp from `bytes` starting at `position`, moving `position` past it on
    /// success (W3C WebVTT, section 6.3, "collect a WebVTT timestamp", step by step).
    ///
    /// The spec computes seconds as a double; CueKit keeps integer milliseconds, which hold every
    /// timestamp the syntax can write exactly, up to hours with 13 digits. Larger ones fail with
    /// ``CollectFailure/Reason/outOfRange`` instead of losing precision.
    package static func collect(from bytes: UnsafeRawBufferPointer, at position: inout Int) -> Result<Collected, CollectFailure> {
        if let collected = collectCommonForm(from: bytes, at: &position) { return .success(collected) }
        return collectStepByStep(from: bytes, at: &position)
    }

    /// ``collect(from:at:)`` by the algorithm's steps alone: the general path, which the common
    /// forms' fast path must agree with.
    package static func collectStepByStep(from bytes: UnsafeRawBufferPointer, at position: inout Int) -> Result<Collected, CollectFailure> {
        let count = bytes.count
        var index = position
        // Steps 3-4: the first character must be a digit.
        guard index < count, isDigit(bytes[index]) else { return .failure(CollectFailure(.expectedDigit, at: index)) }
        // Steps 5-7.
        let first = collectDigits(bytes, &index)
        let hoursFirst = first.length != 2 || first.value > 59
        // Step 8.
        guard index < count, bytes[index] == colon else { return .failure(CollectFailure(.expectedSeparator(colon), at: index)) }
        index += 1
        // Steps 9-11.
        let secondStart = index
        let second = collectDigits(bytes, &index)
        guard second.length == 2 else { return .failure(CollectFailure(.wrongDigitCount, at: secondStart)) }
        var value1 = first.value, value2 = second.value, value3: Int
        var value2Start = secondStart, value3Start = secondStart
        var hourDigits = 0
        // Step 12.
        if hoursFirst || (index < count && bytes[index] == colon) {
            guard index < count, bytes[index] == colon else { return .failure(CollectFailure(.expectedSeparator(colon), at: index)) }
            index += 1
            let thirdStart = index
            let third = collectDigits(bytes, &index)
            guard third.length == 2 else { return .failure(CollectFailure(.wrongDigitCount, at: thirdStart)) }
            value3 = third.value
            value3Start = thirdStart
            hourDigits = first.length
        } else {
            value3 = value2
            value2 = value1
            value1 = 0
            value2Start = position
        }
        // Steps 13-16.
        guard index < count, bytes[index] == fullStop else { return .failure(CollectFailure(.expectedSeparator(fullStop), at: index)) }
        index += 1
        let fractionStart = index
        let fraction = collectDigits(bytes, &index)
        guard fraction.length == 3 else { return .failure(CollectFailure(.wrongDigitCount, at: fractionStart)) }
        // Step 17.
        guard value2 <= 59 else { return .failure(CollectFailure(.componentAbove59, at: value2Start)) }
        guard value3 <= 59 else { return .failure(CollectFailure(.componentAbove59, at: value3Start)) }
        // Step 18, in integer milliseconds.
        guard !first.overflowed else { return .failure(CollectFailure(.outOfRange, at: position)) }
        let (hoursInMilliseconds, overflow) = value1.multipliedReportingOverflow(by: 3_600_000)
        let rest = value2 * 60_000 + value3 * 1_000 + fraction.value
        let (total, overflow2) = hoursInMilliseconds.addingReportingOverflow(rest)
        guard !overflow, !overflow2 else { return .failure(CollectFailure(.outOfRange, at: position)) }
        position = index
        return .success(Collected(milliseconds: total, hourDigits: hourDigits))
    }

    /// The two forms nearly every file uses, `h…h:mm:ss.ttt` (up to nine digits of hours) and
    /// `mm:ss.ttt`, with valid values, read without the general algorithm; anything else
    /// (including every error) takes the general path, so the result is always the algorithm's.
    @inline(__always)
    package static func collectCommonForm(from bytes: UnsafeRawBufferPointer, at position: inout Int) -> Collected? {
        guard let base = bytes.baseAddress else { return nil }
        // `hh:mm:ss.ttt` and `mm:ss.ttt` at fixed offsets, without bounds checks.
        let available = bytes.count - position
        if available >= 9 {
            let p = base + position
            @inline(__always) func digit(_ offset: Int) -> Int { Int(p.load(fromByteOffset: offset, as: UInt8.self) &- UInt8(ascii: "0")) }
            @inline(__always) func byte(_ offset: Int) -> UInt8 { p.load(fromByteOffset: offset, as: UInt8.self) }
            if available >= 12 {
                // `hh:mm:ss.ttt` as two words: xor-ed with the form's own bytes (`0` for digits,
                // `:` and `.` for the separators) each digit becomes its value and each separator
                // zero, so one test checks all twelve bytes.
                let clock = p.loadUnaligned(as: UInt64.self) ^ 0x3030_3A30_303A_3030
                let fraction = p.loadUnaligned(fromByteOffset: 8, as: UInt32.self) ^ 0x3030_302E
                let clockBelowTen = (clock | (clock &+ 0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080 == 0
                let fractionBelowTen = (fraction | (fraction &+ 0x7676_7676)) & 0x8080_8080 == 0
                if clockBelowTen, fractionBelowTen, clock & 0x0000_FF00_00FF_0000 == 0, fraction & 0xFF == 0 {
                    @inline(__always) func value(_ word: UInt64, _ byte: UInt64) -> Int { Int(truncatingIfNeeded: (word >> (8 * byte)) & 0xFF) }
                    let m1 = value(clock, 3), s1 = value(clock, 6)
                    if m1 < 6, s1 < 6, available == 12 || !isDigit(byte(12)) {
                        position += 12
                        let hours = value(clock, 0) * 10 + value(clock, 1)
                        let minutes = m1 * 10 + value(clock, 4), seconds = s1 * 10 + value(clock, 7)
                        let wide = UInt64(fraction)
                        let thousandths = value(wide, 1) * 100 + value(wide, 2) * 10 + value(wide, 3)
                        return Collected(milliseconds: hours * 3_600_000 + minutes * 60_000 + seconds * 1_000 + thousandths, hourDigits: 2)
                    }
                }
            }
            if byte(2) == colon, byte(5) == fullStop {
                let m1 = digit(0), m2 = digit(1), s1 = digit(3), s2 = digit(4), f1 = digit(6), f2 = digit(7), f3 = digit(8)
                let valid = (m1 < 6) && (m2 < 10) && (s1 < 6) && (s2 < 10) && (f1 < 10) && (f2 < 10) && (f3 < 10)
                if valid, available == 9 || !isDigit(byte(9)) {
                    position += 9
                    return Collected(
                        milliseconds: (m1 * 10 + m2) * 60_000 + (s1 * 10 + s2) * 1_000 + f1 * 100 + f2 * 10 + f3, hourDigits: 0)
                }
            }
        }
        // Hours of three or more digits.
        let start = position, count = bytes.count
        @inline(__always) func byte(_ index: Int) -> UInt8 { index < count ? base.load(fromByteOffset: index, as: UInt8.self) : 0 }
        @inline(__always) func twoDigits(_ index: Int) -> Int? {
            let high = byte(index) &- UInt8(ascii: "0"), low = byte(index + 1) &- UInt8(ascii: "0")
            return high < 10 && low < 10 ? Int(high) * 10 + Int(low) : nil
        }
        var index = start
        var first = 0
        while index - start < 9, case let digit = byte(index) &- UInt8(ascii: "0"), digit < 10 {
            first = first * 10 + Int(digit)
            index += 1
        }
        let firstLength = index - start
        guard firstLength > 0, byte(index) == colon, let second = twoDigits(index + 1), second <= 59 else { return nil }
        index += 3
        var hours = 0, minutes = first, seconds = second, hourDigits = 0
        if byte(index) == colon {
            guard let third = twoDigits(index + 1), third <= 59 else { return nil }
            index += 3
            hours = first
            minutes = second
            seconds = third
            hourDigits = firstLength
        } else {
            guard firstLength == 2, first <= 59 else { return nil }
        }
        guard byte(index) == fullStop, let fraction = twoDigits(index + 1), case let last = byte(index + 3) &- UInt8(ascii: "0"), last < 10,
            !isDigit(byte(index + 4))
        else { return nil }
        position = index + 4
        return Collected(
            milliseconds: hours * 3_600_000 + minutes * 60_000 + seconds * 1_000 + fraction * 10 + Int(last),
            hourDigits: hourDigits
        )
    }

    private static let colon = UInt8(ascii: ":")
    private static let fullStop = UInt8(ascii: ".")

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Collects a run of ASCII digits; the value saturates (and says so) rather than overflowing.
    @inline(__always)
    private static func collectDigits(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> (value: Int, length: Int, overflowed: Bool) {
        let start = index
        var value = 0
        var overflowed = false
        while index < bytes.count, isDigit(bytes[index]) {
            if value < Int.max / 10 - 9 {
                value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
            } else {
                overflowed = true
            }
            index += 1
        }
        return (value, index - start, overflowed)
    }
}

extension CueTimestamp {
    /// A time in milliseconds as the seconds a browser exposes (`VTTCue.startTime`): whole seconds
    /// plus thousandths, computed as WebVTT does (`h×3600 + m×60 + s + ms/1000`, section 6.3), so
    /// that `3599999` is exactly the double `3599.999`.
    public static func seconds(_ milliseconds: Int) -> Double {
        Double(milliseconds / 1000) + Double(milliseconds % 1000) / 1000
    }
}
