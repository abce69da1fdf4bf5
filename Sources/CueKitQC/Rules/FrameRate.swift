/// A video frame rate as an exact fraction, such as 24000/1001 (23.976 frames per second).
///
/// The frame-based rules (minimum gap, shot changes) count frames at this rate; their messages say
/// which rate they used, since the same gap in milliseconds is a different number of frames at 25
/// and at 29.97. Drop-frame rates count their *nominal* rate (24 for 23.976) in `hh:mm:ss:ff`
/// timecodes, as editing systems print them.
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    /// Frames per `denominator` seconds.
    public let numerator: Int
    /// Seconds per `numerator` frames.
    public let denominator: Int

    /// Creates a rate of `numerator`/`denominator` frames per second; nil unless both are positive.
    public init?(numerator: Int, denominator: Int = 1) {
        guard numerator > 0, denominator > 0, numerator <= 1_000_000, denominator <= 1_000_000 else { return nil }
        self.numerator = numerator
        self.denominator = denominator
    }

    /// 24000/1001, the rate of film transferred to NTSC video, and the default of the frame-based rules.
    public static let film = FrameRate(numerator: 24000, denominator: 1001)!

    /// Reads `24000/1001`, `25`, `23.976`, `29.97` or `59.94` (the last three as the NTSC fractions
    /// they stand for).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let numerator = Int(parts[0]), let denominator = Int(parts[1]) else { return nil }
            self.init(numerator: numerator, denominator: denominator)
            return
        }
        guard parts.count == 1, let value = Double(text), value > 0, value < 1000 else { return nil }
        if value.rounded() == value {
            self.init(numerator: Int(value))
            return
        }
        // 23.976, 29.97, 47.952, 59.94, 119.88: N×1000/1001.
        let nominal = (value * 1.001).rounded()
        if abs(nominal * 1000 / 1001 - value) < 0.01 {
            self.init(numerator: Int(nominal) * 1000, denominator: 1001)
        } else {
            self.init(numerator: Int((value * 1000).rounded()), denominator: 1000)
        }
    }

    /// The whole frames per second a timecode counts: 24 for 23.976, 30 for 29.97.
    public var nominal: Int { max(1, (numerator + denominator / 2) / denominator) }

    /// Frames per second as a decimal, to three places: `23.976`, `25`.
    public var description: String {
        let thousandths = (numerator * 1000 + denominator / 2) / denominator
        if thousandths % 1000 == 0 { return "\(thousandths / 1000)" }
        var fraction = String(thousandths % 1000)
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(thousandths / 1000).\(fraction)"
    }

    /// The frame that is showing at `milliseconds` (the frame whose span contains it).
    public func frame(at milliseconds: Int) -> Int {
        floorDivide(milliseconds * numerator, 1000 * denominator)
    }

    /// The first millisecond of `frame`, rounded up to a whole millisecond so that
    /// `frame(at: start(of: n)) == n`.
    public func start(of frame: Int) -> Int {
        let exact = frame * 1000 * denominator
        return -floorDivide(-exact, numerator)
    }

    /// How many frames, as a fraction, `milliseconds` lasts: for messages.
    public func frames(in milliseconds: Int) -> Double {
        Double(milliseconds) * Double(numerator) / (1000 * Double(denominator))
    }

    /// True when `milliseconds` lasts fewer than `frames` frames (exact, in integers).
    public func isShorter(_ milliseconds: Int, thanFrames frames: Int) -> Bool {
        milliseconds * numerator < frames * 1000 * denominator
    }

    /// The fewest whole milliseconds that last at least `frames` frames.
    public func milliseconds(forFrames frames: Int) -> Int {
        let exact = frames * 1000 * denominator
        return (exact + numerator - 1) / numerator
    }

    private func floorDivide(_ a: Int, _ b: Int) -> Int {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }
}
