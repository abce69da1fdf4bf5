/// What a ``QCChecker`` found, rule by rule: how many findings, the worst value measured, and the
/// share of cues (`--qc-summary`).
public struct QCSummary: Sendable, Hashable {
    /// Cues checked.
    public internal(set) var cues = 0
    /// Each rule that found something, with its tally.
    public var rules: [QCRule: Tally] {
        var rules: [QCRule: Tally] = [:]
        for rule in QCRule.allCases { if let tally = tallies[rule.ordinal] { rules[rule] = tally } }
        return rules
    }
    /// The tallies by rule (``QCRule/ordinal``): counted for each finding without hashing.
    private var tallies = [Tally?](repeating: nil, count: QCRule.allCases.count)
    /// Every cue's reading speed, in bins, when the checker records them
    /// (``QCChecker/recordsReadingSpeeds``).
    public internal(set) var readingSpeeds = QCReadingSpeedHistogram()

    /// One rule's findings.
    public struct Tally: Sendable, Hashable {
        /// How many findings.
        public var count: Int
        /// The worst value measured (the highest, or for the minimum duration, the gap and the
        /// shot-change distance, the lowest), in the rule's unit (``QCRule/unit``).
        public var worst: Double

        public init(count: Int, worst: Double) {
            self.count = count
            self.worst = worst
        }
    }

    /// The share of cues (0 to 1) with a finding of `rule`.
    public func share(_ rule: QCRule) -> Double {
        cues == 0 ? 0 : Double(tallies[rule.ordinal]?.count ?? 0) / Double(cues)
    }

    mutating func tally(_ rule: QCRule, value: Double) {
        if var tally = tallies[rule.ordinal] {
            tally.count += 1
            tally.worst = rule.lowerIsWorse ? min(tally.worst, value) : max(tally.worst, value)
            tallies[rule.ordinal] = tally
        } else {
            tallies[rule.ordinal] = Tally(count: 1, worst: value)
        }
    }
}

/// How many cues are read at each speed, in bins one character per second wide, the last holding
/// every speed from its start up: a fixed number of counters whatever the track's length.
public struct QCReadingSpeedHistogram: Sendable, Hashable {
    /// Bins: `0..<1`, `1..<2`, ... and the last, ``binCount`` - 1 characters per second and over.
    public static let binCount = 40
    /// The cues in each bin.
    public private(set) var counts = [Int](repeating: 0, count: binCount)
    /// The profile's limit in characters per second, if it has one.
    public internal(set) var limit: Double?

    public init() {}

    /// The cues counted.
    public var total: Int { counts.reduce(0, +) }

    /// Counts one cue read at `speed` characters per second.
    public mutating func add(_ speed: Double) {
        let bin = speed.isFinite ? min(Self.binCount - 1, max(0, Int(speed))) : Self.binCount - 1
        counts[bin] += 1
    }
}

extension QCRule {
    /// True for rules whose worst finding is the lowest value.
    var lowerIsWorse: Bool {
        self == .durationTooShort || self == .gap || self == .shotChange
    }

    /// The unit of the rule's measured values: `characters per second`, `ms`.
    public var unit: String {
        switch self {
        case .readingSpeed: "characters per second"
        case .wordsPerMinute: "words per minute"
        case .lineLength: "characters"
        case .lineCount: "lines"
        case .durationTooShort, .durationTooLong: "ms"
        case .gap, .shotChange: "frames"
        case .overlap: "ms"
        case .character: "characters"
        case .markup: "tags"
        case .lineBalance: "top/bottom ratio"
        }
    }
}
