/// A time in seconds held exactly, as a fraction, or the indefinite time of SMIL.
///
/// TTML times mix units that have no common decimal form: frames at 30000/1001 per second, ticks
/// at 10 MHz, sub-frames, decimal fractions. CueKit keeps every time as an exact fraction of a
/// second, does all of TTML's arithmetic (offsets, sums, clipping) on fractions, and rounds once,
/// at the end, to the integer milliseconds of the cue model (``milliseconds``).
///
/// The fraction is `numerator / denominator` in lowest terms with a positive denominator. A
/// denominator of zero stands for SMIL's `indefinite` (TTML2 section 12.4): later than every
/// time, absorbing in sums. Arithmetic that would overflow 64 bits (which needs denominators
/// beyond 10^18, far past anything a document writes) rounds the result to the nanosecond.
struct TTMLTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The numerator, in lowest terms with ``denominator``.
    private(set) var numerator: Int64
    /// The denominator: positive, or zero for the indefinite time.
    private(set) var denominator: Int64

    /// Zero seconds.
    static let zero = TTMLTime(numerator: 0, denominator: 1)
    /// SMIL's indefinite time: later than any time.
    static let indefinite = TTMLTime(numerator: 1, denominator: 0)

    private init(numerator: Int64, denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The time `numerator / denominator` seconds; the denominator must be positive.
    init(_ numerator: Int64, over denominator: Int64) {
        precondition(denominator > 0, "a time's denominator is positive")
        if denominator == 1 || numerator == 0 {
            self.numerator = numerator
            self.denominator = numerator == 0 ? 1 : denominator
            return
        }
        let divisor = Self.gcd(numerator.magnitude, denominator.magnitude)
        self.numerator = numerator / Int64(divisor)
        self.denominator = denominator / Int64(divisor)
    }

    /// A number of milliseconds: the time of most captions, reduced by the factors 2 and 5 that it
    /// can share with 1000 (what ``init(_:over:)`` finds with a division loop).
    init(milliseconds: Int64) {
        guard milliseconds != 0 else {
            self.init(numerator: 0, denominator: 1)
            return
        }
        let twos = min(milliseconds.trailingZeroBitCount, 3)
        var numerator = milliseconds >> twos
        var denominator = Int64(1000) >> twos
        for _ in 0..<3 where numerator % 5 == 0 {
            numerator /= 5
            denominator /= 5
        }
        self.init(numerator: numerator, denominator: denominator)
    }

    /// A whole number of seconds.
    init(seconds: Int64) {
        self.init(numerator: seconds, denominator: 1)
    }

    /// True for the indefinite time.
    var isIndefinite: Bool { denominator == 0 }

    /// The time in milliseconds, rounded to the nearest millisecond, a tie to the even one (as IEEE
    /// 754 rounds by default, and as ttconv rounds): the single rounding step of the TTML reader.
    /// Ties happen only with frame-based times, such as 12 frames at 24000/1001 per second,
    /// 0.5005 s. The rounding is monotonic, so two times that are equal stay equal and two that
    /// are ordered stay ordered (or become equal). `nil` for the indefinite time; times past
    /// `Int.max` milliseconds saturate.
    var milliseconds: Int? {
        guard !isIndefinite else { return nil }
        // Exact when the denominator divides 1000 (times read from milliseconds, seconds, or
        // tenths): no rounding, and the product fits, as |numerator| stays below 2^53 then.
        if 1000 % denominator == 0, numerator.magnitude < 1 << 53 {
            return Int(numerator * (1000 / denominator))
        }
        let magnitude = numerator.magnitude
        // Unsigned arithmetic throughout: 1000 × |numerator| / denominator, whose quotient fits in
        // 64 bits once the high half of the product is below the denominator.
        let product = UInt64(1000).multipliedFullWidth(by: magnitude)
        let divisor = denominator.magnitude
        guard product.high < divisor else { return numerator < 0 ? -Int.max : Int.max }
        let (quotient, remainder) = divisor.dividingFullWidth(product)
        let twice = remainder.multipliedReportingOverflow(by: 2)
        let comparison: Int
        if twice.overflow || twice.partialValue > divisor {
            comparison = 1
        } else {
            comparison = twice.partialValue == divisor ? 0 : -1
        }
        var rounded = quotient
        if comparison > 0 || (comparison == 0 && quotient % 2 != 0) { rounded += 1 }
        guard rounded <= UInt64(Int.max) else { return numerator < 0 ? -Int.max : Int.max }
        return numerator < 0 ? -Int(rounded) : Int(rounded)
    }

    /// The latest time the reader reads, in hours: a billion hours (114,000 years), far past any
    /// programme, and small enough that sums of such times stay exact in 64 bits.
    static let latestHours: Int64 = 1_000_000_000
    /// ``latestHours`` as a time.
    static let latest = TTMLTime(seconds: latestHours * 3600)

    /// True for the indefinite time and for times no later than ``latest`` (and no earlier than its
    /// negative): what the reader turns into cue times. A time past it, one expression or a sum of
    /// nested offsets, is a `ttml-bad-time` error, never a clamp.
    var isWithinReach: Bool {
        if isIndefinite { return true }
        // |numerator / denominator| <= latest, as |numerator| <= latest × denominator (the
        // denominator is positive); a product past `Int64` is past every numerator. (Comparing
        // the fractions, and making the negative bound each time, cost some 120 instructions.)
        let (bound, overflow) = (Self.latestHours * 3600).multipliedReportingOverflow(by: denominator)
        return overflow || numerator.magnitude <= bound.magnitude
    }

    // MARK: Arithmetic

    static func + (lhs: TTMLTime, rhs: TTMLTime) -> TTMLTime {
        if lhs.isIndefinite || rhs.isIndefinite { return .indefinite }
        if rhs.numerator == 0 { return lhs }
        if lhs.numerator == 0 { return rhs }
        if lhs.denominator == rhs.denominator {
            let sum = lhs.numerator.addingReportingOverflow(rhs.numerator)
            if !sum.overflow { return TTMLTime(sum.partialValue, over: lhs.denominator) }
        }
        return combine(lhs, rhs, subtracting: false)
    }

    static func - (lhs: TTMLTime, rhs: TTMLTime) -> TTMLTime {
        if lhs.isIndefinite { return .indefinite }
        precondition(!rhs.isIndefinite, "nothing is subtracted from the indefinite time")
        return combine(lhs, rhs, subtracting: true)
    }

    /// The time multiplied by the fraction `numerator / denominator` (denominator positive).
    func scaled(by numerator: Int64, over denominator: Int64) -> TTMLTime {
        if isIndefinite { return self }
        let top = self.numerator.multipliedReportingOverflow(by: numerator)
        let bottom = self.denominator.multipliedReportingOverflow(by: denominator)
        if !top.overflow, !bottom.overflow { return TTMLTime(top.partialValue, over: bottom.partialValue) }
        return Self.approximate(
            Double(self.numerator) * Double(numerator) / (Double(self.denominator) * Double(denominator)))
    }

    private static func combine(_ lhs: TTMLTime, _ rhs: TTMLTime, subtracting: Bool) -> TTMLTime {
        let divisor = Int64(gcd(lhs.denominator.magnitude, rhs.denominator.magnitude))
        let lhsFactor = rhs.denominator / divisor
        let rhsFactor = lhs.denominator / divisor
        let left = lhs.numerator.multipliedReportingOverflow(by: lhsFactor)
        let right = rhs.numerator.multipliedReportingOverflow(by: rhsFactor)
        let common = lhs.denominator.multipliedReportingOverflow(by: lhsFactor)
        if !left.overflow, !right.overflow, !common.overflow {
            let result =
                subtracting
                ? left.partialValue.subtractingReportingOverflow(right.partialValue)
                : left.partialValue.addingReportingOverflow(right.partialValue)
            if !result.overflow { return TTMLTime(result.partialValue, over: common.partialValue) }
        }
        let value = lhs.doubleValue + (subtracting ? -rhs.doubleValue : rhs.doubleValue)
        return approximate(value)
    }

    /// The nearest nanosecond to a value that exact arithmetic could not hold.
    private static func approximate(_ seconds: Double) -> TTMLTime {
        guard seconds.isFinite else { return .indefinite }
        let nanoseconds = (seconds * 1e9).rounded()
        guard abs(nanoseconds) < 9e18 else { return .indefinite }
        return TTMLTime(Int64(nanoseconds), over: 1_000_000_000)
    }

    /// The time as a floating-point number of seconds (infinity when indefinite), for messages.
    var doubleValue: Double {
        isIndefinite ? .infinity : Double(numerator) / Double(denominator)
    }

    static func < (lhs: TTMLTime, rhs: TTMLTime) -> Bool {
        if lhs.isIndefinite { return false }
        if rhs.isIndefinite { return true }
        if lhs.denominator == rhs.denominator { return lhs.numerator < rhs.numerator }
        let left = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
        let right = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
        return (left.high, left.low) < (right.high, right.low)
    }

    var description: String {
        if isIndefinite { return "indefinite" }
        return denominator == 1 ? "\(numerator)s" : "\(numerator)/\(denominator)s"
    }

    private static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }
}
