/// Reads TTML's `<time-expression>` (TTML2 section 12.3.1) into an exact ``TTMLTime``.
///
/// ```
/// time-expression : clock-time | offset-time | wallclock-time
/// clock-time      : hours ":" minutes ":" seconds ( fraction | ":" frames ( "." sub-frames )? )?
/// offset-time     : time-count fraction? metric
/// metric          : "h" | "m" | "s" | "ms" | "f" | "t"
/// ```
///
/// Hours take two digits or more, minutes and seconds exactly two (00 to 59; 60 only as a leap
/// second in the clock time base), frames two or more and below the frame rate, sub-frames below
/// the sub-frame rate. How a value maps to seconds depends on the time base (TTML2 section
/// 12.4 and appendix "Time Expression Semantics"):
/// - media: `hours × 3600 + minutes × 60 + seconds + fraction`, frames and sub-frames divided by
///   the effective frame rate;
/// - smpte: a time code labels a frame: the frame count (less the labels the drop mode skips)
///   divided by the effective frame rate;
/// - clock: a time of day; frames are an error there.
/// Offset times are durations in every time base: `f` divides by the effective frame rate and `t`
/// by the tick rate (``TTMLTimingParameters/tickRate``).
///
/// Wallclock expressions (`wallclock(...)`) name a real-world date and time that has no place on a
/// media timeline without an epoch the document does not give: they are read as unsupported.
enum TTMLTimeExpression {
    /// Why a value is not a time CueKit can place on the media timeline.
    struct Failure: Error, Sendable, Equatable {
        /// What is wrong, in words, without the value itself.
        var reason: String
    }

    /// Fraction digits beyond this many are ignored: they change a time by less than 10^-18 s.
    static let maximumFractionDigits = 18

    /// A time read, and what is odd about it when it was read all the same.
    struct Parsed: Sendable, Equatable {
        var time: TTMLTime
        /// Set when the value breaks a rule but has one obvious reading (a time code label that a
        /// drop mode skips).
        var warning: String?
    }

    /// Parses `text` (already trimmed of XML white space) with the document's timing parameters.
    static func parse(_ text: Substring.UTF8View, parameters: TTMLTimingParameters) -> Result<Parsed, Failure> {
        if let result = text.withContiguousStorageIfAvailable({ parse($0, parameters: parameters) }) { return result }
        return Array(text).withUnsafeBufferPointer { parse($0, parameters: parameters) }
    }

    /// Parses bytes (already trimmed of XML white space).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, parameters: TTMLTimingParameters) -> Result<Parsed, Failure> {
        guard !bytes.isEmpty else { return .failure(Failure(reason: "it is empty")) }
        if bytes[0] == UInt8(ascii: "w"), bytes.starts(with: "wallclock(".utf8) {
            return .failure(
                Failure(reason: "wallclock times name a real-world date and time, which CueKit cannot place on the media timeline"))
        }
        if let time = commonClockTime(bytes, parameters) { return .success(Parsed(time: time)) }
        let parsed = bytes.contains(UInt8(ascii: ":")) ? clockTime(bytes, parameters) : offsetTime(bytes, parameters).map { Parsed(time: $0, warning: nil) }
        if case .success(let result) = parsed, !result.time.isWithinReach {
            return .failure(Failure(reason: "it is past the latest time CueKit reads (a billion hours)"))
        }
        return parsed
    }

    // MARK: Clock time

    /// The form nearly every caption file writes, `HH:MM:SS.mmm`, read in one step: the time
    /// ``clockTime(_:_:)`` gives for it, or nil for any other text (which that reads). Not in the
    /// SMPTE time base, where every clock time is a time code.
    static func commonClockTime(_ bytes: UnsafeBufferPointer<UInt8>, _ parameters: TTMLTimingParameters) -> TTMLTime? {
        guard bytes.count == 12, parameters.timeBase != .smpte, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":"),
            bytes[8] == UInt8(ascii: ".")
        else { return nil }
        // Each pair of digits, and the three of the milliseconds, as numbers; a byte that is not
        // a digit gives a value of 10 or more, caught by one comparison per field.
        @inline(__always) func digit(_ index: Int) -> Int64 { Int64(bytes[index] &- UInt8(ascii: "0")) }
        @inline(__always) func isDigit(_ index: Int) -> Bool { bytes[index] &- UInt8(ascii: "0") < 10 }
        guard isDigit(0), isDigit(1), isDigit(3), isDigit(4), isDigit(6), isDigit(7), isDigit(9), isDigit(10), isDigit(11) else {
            return nil
        }
        let hours = digit(0) * 10 + digit(1)
        let minutes = digit(3) * 10 + digit(4)
        let seconds = digit(6) * 10 + digit(7)
        let milliseconds = digit(9) * 100 + digit(10) * 10 + digit(11)
        guard minutes < 60, seconds < 60 else { return nil }
        return TTMLTime(milliseconds: ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds)
    }

    private static func clockTime(_ bytes: UnsafeBufferPointer<UInt8>, _ parameters: TTMLTimingParameters) -> Result<Parsed, Failure> {
        var scanner = Scanner(bytes: bytes)
        guard let hours = scanner.digits(), hours.count >= 2 else {
            return .failure(Failure(reason: "a clock time starts with hours of two digits or more"))
        }
        guard scanner.take(UInt8(ascii: ":")), let minutes = scanner.digits(), minutes.count == 2 else {
            return .failure(Failure(reason: "minutes take exactly two digits"))
        }
        guard scanner.take(UInt8(ascii: ":")), let seconds = scanner.digits(), seconds.count == 2 else {
            return .failure(Failure(reason: "seconds take exactly two digits"))
        }
        guard let hourValue = value(of: hours), hourValue <= 1_000_000_000 else {
            return .failure(Failure(reason: "the hours are too large"))
        }
        let minuteValue = value(of: minutes)!
        let secondValue = value(of: seconds)!
        guard minuteValue < 60 else { return .failure(Failure(reason: "minutes must be 00 to 59")) }
        guard secondValue < 60 || (secondValue == 60 && parameters.timeBase == .clock) else {
            return .failure(Failure(reason: "seconds must be 00 to 59 (60 only for a leap second in the clock time base)"))
        }
        let wholeSeconds = (hourValue * 60 + minuteValue) * 60 + secondValue
        var fraction: TTMLTime?
        var frames: Int64?
        var subFrames: Int64 = 0
        if scanner.take(UInt8(ascii: ".")) {
            guard let digits = scanner.digits() else { return .failure(Failure(reason: "a '.' must be followed by digits")) }
            fraction = decimalFraction(digits)
        } else if scanner.take(UInt8(ascii: ":")) {
            guard let digits = scanner.digits(), digits.count >= 2, let count = value(of: digits) else {
                return .failure(Failure(reason: "frames take two digits or more"))
            }
            frames = count
            if scanner.take(UInt8(ascii: ".")) {
                guard let subDigits = scanner.digits(), let subCount = value(of: subDigits) else {
                    return .failure(Failure(reason: "sub-frames must be digits"))
                }
                subFrames = subCount
            }
        }
        guard scanner.isAtEnd else {
            let rest = scanner.rest
            if rest.contains(UInt8(ascii: ";")) {
                return .failure(Failure(reason: "unexpected characters follow the clock time (';' separators are SMPTE drop-frame notation, not TTML: write frames after ':')"))
            }
            if rest.first == UInt8(ascii: ","), fraction == nil, frames == nil {
                return .failure(Failure(reason: "a ',' is a decimal comma, which TTML does not read: fractions of a second follow a '.' (00:00:01.500)"))
            }
            return .failure(Failure(reason: "unexpected characters follow the clock time"))
        }
        if let frames {
            guard parameters.timeBase != .clock else {
                return .failure(Failure(reason: "frames cannot be used in the clock time base"))
            }
            guard frames < parameters.frameRate else {
                return .failure(Failure(reason: "frames must be below the frame rate (\(parameters.frameRate))"))
            }
            guard subFrames < parameters.subFrameRate else {
                return .failure(Failure(reason: "sub-frames must be below the sub-frame rate (\(parameters.subFrameRate))"))
            }
        }
        if parameters.timeBase == .smpte {
            return smpteTime(seconds: wholeSeconds, minutes: hourValue * 60 + minuteValue, frames: frames ?? 0, subFrames: subFrames, fraction: fraction, parameters)
        }
        var time = TTMLTime(seconds: wholeSeconds)
        if let fraction, fraction != .zero {
            // One fraction, reduced once: seconds × denominator + numerator over the denominator.
            let scaled = wholeSeconds.multipliedReportingOverflow(by: fraction.denominator)
            let sum = scaled.partialValue.addingReportingOverflow(fraction.numerator)
            time = !scaled.overflow && !sum.overflow ? TTMLTime(sum.partialValue, over: fraction.denominator) : time + fraction
        }
        if let frames {
            time = time + parameters.frames(TTMLTime(frames * parameters.subFrameRate + subFrames, over: parameters.subFrameRate))
        }
        return .success(Parsed(time: time))
    }

    /// A SMPTE time code: the label's frame count, less the labels the drop mode skips, over the
    /// effective frame rate.
    private static func smpteTime(
        seconds: Int64, minutes: Int64, frames: Int64, subFrames: Int64, fraction: TTMLTime?, _ parameters: TTMLTimingParameters
    ) -> Result<Parsed, Failure> {
        let secondOfMinute = seconds % 60
        var dropped: Int64 = 0
        var warning: String?
        switch parameters.dropMode {
        case .nonDrop:
            break
        case .dropNTSC:
            if secondOfMinute == 0, minutes % 10 != 0, frames < 2 {
                warning = "frames 00 and 01 do not exist at this minute in NTSC drop-frame time code; the label was counted as written"
            }
            // The minutes up to this one that drop two labels: all but every tenth.
            dropped = 2 * (minutes - minutes / 10)
        case .dropPAL:
            let minuteOfHour = minutes % 60
            if secondOfMinute == 0, minuteOfHour % 2 == 0, minuteOfHour % 20 != 0, frames < 4 {
                warning = "frames 00 to 03 do not exist at this minute in PAL drop-frame time code; the label was counted as written"
            }
            // The minutes up to this one (which is past its dropped labels) that drop four labels:
            // the even ones, less those divisible by 20 (the pattern repeats every hour).
            dropped = 4 * (minutes / 2 - minutes / 20)
        }
        let frameCount = seconds * parameters.frameRate + frames - dropped
        var time = parameters.frames(TTMLTime(frameCount * parameters.subFrameRate + subFrames, over: parameters.subFrameRate))
        if let fraction { time = time + parameters.frames(fraction.scaled(by: parameters.frameRate, over: 1)) }
        return .success(Parsed(time: time, warning: warning))
    }

    // MARK: Offset time

    private static func offsetTime(_ bytes: UnsafeBufferPointer<UInt8>, _ parameters: TTMLTimingParameters) -> Result<TTMLTime, Failure> {
        var scanner = Scanner(bytes: bytes)
        guard let digits = scanner.digits() else {
            return .failure(Failure(reason: "an offset time starts with digits (a sign, an exponent or a space is not allowed)"))
        }
        guard let count = value(of: digits) else { return .failure(Failure(reason: "the number is too large")) }
        var amount = TTMLTime(seconds: count)
        if scanner.take(UInt8(ascii: ".")) {
            guard let fractionDigits = scanner.digits() else {
                return .failure(Failure(reason: "a '.' must be followed by digits"))
            }
            amount = amount + decimalFraction(fractionDigits)
        }
        let metric = scanner.rest
        switch (metric.count, metric.first, metric.last) {
        case (1, UInt8(ascii: "h"), _): return .success(amount.scaled(by: 3600, over: 1))
        case (1, UInt8(ascii: "m"), _): return .success(amount.scaled(by: 60, over: 1))
        case (1, UInt8(ascii: "s"), _): return .success(amount)
        case (2, UInt8(ascii: "m"), UInt8(ascii: "s")): return .success(amount.scaled(by: 1, over: 1000))
        case (1, UInt8(ascii: "f"), _): return .success(parameters.frames(amount))
        case (1, UInt8(ascii: "t"), _): return .success(parameters.ticks(amount))
        case (0, _, _): return .failure(Failure(reason: "an offset time needs a metric (h, m, s, ms, f or t)"))
        default: return .failure(Failure(reason: "'\(String(decoding: metric, as: UTF8.self))' is not a metric (h, m, s, ms, f or t)"))
        }
    }

    // MARK: Numbers

    /// The value of a run of decimal digits, or nil when it does not fit in 63 bits.
    static func value(of digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        var result: Int64 = 0
        for digit in digits {
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            result = sum
        }
        return result
    }

    /// `0.digits` as an exact fraction (at most ``maximumFractionDigits`` digits are used).
    static func decimalFraction(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> TTMLTime {
        let used = digits.prefix(maximumFractionDigits)
        var denominator: Int64 = 1
        for _ in used { denominator *= 10 }
        return TTMLTime(value(of: used) ?? 0, over: denominator)
    }

    /// A cursor over the bytes of a value.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var isAtEnd: Bool { index == bytes.count }
        var rest: Slice<UnsafeBufferPointer<UInt8>> { bytes[index...] }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func digits() -> Slice<UnsafeBufferPointer<UInt8>>? {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index > start ? bytes[start..<index] : nil
        }
    }
}
