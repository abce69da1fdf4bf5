import CueKit

/// A timing edit, as `cuekit convert` applies it: every time `t` (cue start and end, and timestamps inside
/// cue text) becomes `t × scale + shift`, computed exactly on integers and rounded to the nearest
/// millisecond, halves away from zero.
///
/// A cue that ends at or before 0 after the edit is dropped (and reported); one that starts before
/// 0 starts at 0.
public struct TimingEdit: Sendable, Equatable {
    /// The scale's numerator (the scale is `numerator / denominator`, both positive).
    public var numerator: Int
    /// The scale's denominator.
    public var denominator: Int
    /// Milliseconds added after scaling (negative moves the cues earlier).
    public var shift: Int

    /// An edit: scale by `numerator / denominator`, then shift by `shift` milliseconds; by default
    /// none.
    public init(numerator: Int = 1, denominator: Int = 1, shift: Int = 0) {
        self.numerator = numerator
        self.denominator = denominator
        self.shift = shift
    }

    /// True when the edit changes nothing.
    public var isIdentity: Bool { numerator == denominator && shift == 0 }

    /// The latest time a timing edit may give: 2^62 ms (146 million years), so that the model's
    /// arithmetic on times never overflows.
    public static let latest = 1 << 62
    /// ``latest`` in whole hours.
    public static var latestHours: Int { latest / 3_600_000 }

    /// A duration, scale or frame-rate text that cannot be read; the description says how to
    /// write it.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong and an example of what is right.
        public let description: String

        init(_ description: String) { self.description = description }
    }

    /// `t × numerator / denominator + shift`, rounded half away from zero; nil when it would be
    /// later than ``latest`` (or earlier than its negative).
    public func apply(_ time: Int) -> Int? {
        guard numerator != denominator else {
            let (sum, overflow) = time.addingReportingOverflow(shift)
            return !overflow && abs(sum) <= Self.latest ? sum : nil
        }
        // Round |t × n| / d half away from zero, on 128 bits.
        let negative = time < 0
        let absolute = time.magnitude
        let wide = absolute.multipliedFullWidth(by: UInt(numerator))
        guard wide.high == 0, wide.low < UInt(Self.latest) else { return nil }
        let product = Int(wide.low)
        var scaled = product / denominator
        if (product % denominator) * 2 >= denominator { scaled += 1 }
        let (sum, overflow) = (negative ? -scaled : scaled).addingReportingOverflow(shift)
        return !overflow && abs(sum) <= Self.latest ? sum : nil
    }

    /// What a timing edit makes of a cue.
    public enum Outcome: Sendable {
        /// The cue with its times and the timestamps in its text edited.
        case edited(Cue)
        /// The cue ends at or before zero: it is left out.
        case endsBeforeZero
        /// The cue's times would pass ``TimingEdit/latest``: it is left out, and reported.
        case pastTheLatestTime
    }

    /// Edits a cue's times and the timestamps in its text.
    public func apply(to cue: Cue) -> Outcome {
        guard let start = apply(cue.start), let end = apply(cue.end) else { return .pastTheLatestTime }
        var edited = cue
        edited.start = max(0, start)
        edited.end = end
        if edited.end <= 0 { return .endsBeforeZero }
        if cue.text.utf8.contains(UInt8(ascii: "<")) { edited.text = retimed(cue.text) }
        return .edited(edited)
    }

    /// The markup with every timestamp tag (`<00:01.500>`) edited, written with hours.
    private func retimed(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 8)
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<"), index + 1 < count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]) {
                var position = index + 1
                let collected = bytes.withUnsafeBytes { CueTimestamp.collect(from: $0, at: &position) }
                if case .success(let time) = collected, position < count, bytes[position] == UInt8(ascii: ">") {
                    result.append(UInt8(ascii: "<"))
                    CueTimestamp.append(max(0, apply(time.milliseconds) ?? time.milliseconds), to: &result)
                    result.append(UInt8(ascii: ">"))
                    index = position + 1
                    continue
                }
            }
            result.append(byte)
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    // MARK: Parsing the command line

    /// `-1.5s`, `+250ms`, `2m`, `00:00:01.500`, `-01:02.5`: a signed duration in milliseconds.
    public static func parseDuration(_ text: String) throws(ParseError) -> Int {
        var body = Substring(text)
        var sign = 1
        if body.first == "-" {
            sign = -1
            body = body.dropFirst()
        } else if body.first == "+" {
            body = body.dropFirst()
        }
        let units: [(String, Int)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        for (unit, factor) in units where body.hasSuffix(unit) && !body.contains(":") {
            let number = body.dropLast(unit.count)
            guard let fraction = Fraction(decimal: number) else { break }
            guard let value = fraction.times(factor), value <= Self.latest else { throw ParseError(tooLong(text)) }
            return sign * value
        }
        if body.contains(":") {
            let parts = body.split(separator: ":", omittingEmptySubsequences: false)
            if (2...3).contains(parts.count), let seconds = Fraction(decimal: parts.last!), let secondsValue = seconds.times(1000) {
                var total = secondsValue
                var factor = 60_000
                for part in parts.dropLast().reversed() {
                    guard !part.isEmpty, part.allSatisfy(\.isASCII), let value = Int(part), value >= 0 else {
                        throw ParseError(durationHelp(text))
                    }
                    let (product, overflow) = value.multipliedReportingOverflow(by: factor)
                    let (sum, sumOverflow) = total.addingReportingOverflow(product)
                    guard !overflow, !sumOverflow, sum <= Self.latest else { throw ParseError(tooLong(text)) }
                    total = sum
                    factor = factor.multipliedReportingOverflow(by: 60).partialValue
                }
                return sign * total
            }
        }
        throw ParseError(durationHelp(text))
    }

    private static func tooLong(_ text: String) -> String {
        "'\(text)' is longer than any time a track can hold (\(latestHours) hours)"
    }

    private static func durationHelp(_ text: String) -> String {
        "'\(text)' is not a duration; write e.g. -1.5s, 250ms, 2m or 00:00:01.500"
    }

    /// `1.001`, `25/24`: a positive scale factor as a fraction.
    public static func parseScale(_ text: String) throws(ParseError) -> (numerator: Int, denominator: Int) {
        if let slash = text.firstIndex(of: "/") {
            if let top = Fraction(decimal: text[..<slash]), let bottom = Fraction(decimal: text[text.index(after: slash)...]),
                top.numerator > 0, bottom.numerator > 0
            {
                return try reduced(top.numerator, bottom.denominator, top.denominator, bottom.numerator, text)
            }
        } else if let value = Fraction(decimal: Substring(text)), value.numerator > 0 {
            return reduced(value.numerator, value.denominator)
        }
        throw ParseError("'\(text)' is not a positive scale; write e.g. 1.001 or 25/24")
    }

    /// `25:23.976` (from the first frame rate to the second): the scale `from / to`. The NTSC
    /// rates 23.976, 29.97 and 59.94 mean 24000/1001, 30000/1001 and 60000/1001.
    public static func parseFrameRates(_ text: String) throws(ParseError) -> (numerator: Int, denominator: Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let from = frameRate(parts[0]), let to = frameRate(parts[1]) else {
            throw ParseError("'\(text)' is not FROM:TO frame rates; write e.g. 25:23.976")
        }
        return try reduced(from.numerator, to.denominator, from.denominator, to.numerator, text)
    }

    private static func frameRate(_ text: Substring) -> Fraction? {
        switch text {
        case "23.976", "23.98": return Fraction(numerator: 24000, denominator: 1001)
        case "29.97": return Fraction(numerator: 30000, denominator: 1001)
        case "59.94": return Fraction(numerator: 60000, denominator: 1001)
        default:
            guard let value = Fraction(decimal: text), value.numerator > 0 else { return nil }
            return value
        }
    }

    /// `(a × b) / (c × d)` in lowest terms; a usage error when the products do not fit.
    private static func reduced(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ text: String) throws(ParseError) -> (numerator: Int, denominator: Int) {
        let (numerator, overflow) = a.multipliedReportingOverflow(by: b)
        let (denominator, overflow2) = c.multipliedReportingOverflow(by: d)
        guard !overflow, !overflow2 else { throw ParseError("'\(text)' has too many digits to be used exactly") }
        return reduced(numerator, denominator)
    }

    private static func reduced(_ numerator: Int, _ denominator: Int) -> (numerator: Int, denominator: Int) {
        var a = numerator, b = denominator
        while b != 0 { (a, b) = (b, a % b) }
        return (numerator / a, denominator / a)
    }
}

/// A non-negative decimal number as an exact fraction: `1.5` is 15/10.
private struct Fraction {
    var numerator: Int
    var denominator: Int

    init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    init?(decimal text: Substring) {
        guard !text.isEmpty, text.count <= 15 else { return nil }
        var numerator = 0
        var denominator = 1
        var seenPoint = false
        var digits = 0
        for character in text {
            if character == "." {
                if seenPoint { return nil }
                seenPoint = true
                continue
            }
            guard let digit = character.wholeNumberValue, character.isASCII else { return nil }
            numerator = numerator * 10 + digit
            if seenPoint { denominator *= 10 }
            digits += 1
        }
        guard digits > 0 else { return nil }
        self.numerator = numerator
        self.denominator = denominator
    }

    /// `self × factor`, rounded to the nearest whole number (halves up).
    func times(_ factor: Int) -> Int? {
        let (product, overflow) = numerator.multipliedReportingOverflow(by: factor)
        guard !overflow, product <= Int.max - denominator else { return nil }
        return product % denominator == 0 ? product / denominator : (product + denominator / 2) / denominator
    }
}
