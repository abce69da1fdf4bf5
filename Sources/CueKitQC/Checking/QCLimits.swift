import CueKit

/// ``QCRules`` made ready to check with: every rule on has its limit, its severity (a warning when
/// the profile names none), and its tag names as bytes.
struct QCLimits: Sendable {
    struct Limit<Value: Sendable>: Sendable {
        var value: Value
        var severity: Diagnostic.Severity
    }

    var charactersPerSecond: Limit<Double>?
    var wordsPerMinute: Limit<Double>?
    var lineLength: Limit<Int>?
    var lineCount: Limit<Int>?
    var minimumDuration: Limit<Int>?
    var maximumDuration: Limit<Int>?
    var gapFrames: Limit<Int>?
    var overlap: Diagnostic.Severity?
    var characters: Limit<QCCharacterSet>?
    var allowedTags: Limit<[[UInt8]]>?
    var lineBalance: Limit<Double>?
    var shotChangeFrames: Limit<Int>?

    /// No rule on.
    init() {}

    /// Checks that every rule on has what it needs, and that limits are in range; a time given
    /// for a count of frames is counted at `frameRate`.
    init(_ rules: QCRules, frameRate: FrameRate = .film) throws(QCProfileError) {
        func severity(_ given: Diagnostic.Severity?) -> Diagnostic.Severity { given ?? .warning }
        func positive<T: Comparable & Numeric>(_ value: T?, _ path: String) throws(QCProfileError) -> T {
            guard let value else { throw QCProfileError(path: path, "is required when the rule is on") }
            guard value > 0 else { throw QCProfileError(path: path, "must be greater than 0") }
            return value
        }
        if let rule = rules.readingSpeed {
            guard rule.maximumCharactersPerSecond != nil || rule.maximumWordsPerMinute != nil else {
                throw QCProfileError(path: "readingSpeed", "needs maximumCharactersPerSecond or maximumWordsPerMinute")
            }
            if rule.maximumCharactersPerSecond != nil {
                charactersPerSecond = Limit(
                    value: try positive(rule.maximumCharactersPerSecond, "readingSpeed.maximumCharactersPerSecond"),
                    severity: severity(rule.severity))
            }
            if rule.maximumWordsPerMinute != nil {
                wordsPerMinute = Limit(
                    value: try positive(rule.maximumWordsPerMinute, "readingSpeed.maximumWordsPerMinute"), severity: severity(rule.severity)
                )
            }
        }
        if let rule = rules.lineLength {
            lineLength = Limit(
                value: try positive(rule.maximumCharacters, "lineLength.maximumCharacters"), severity: severity(rule.severity))
        }
        if let rule = rules.lineCount {
            lineCount = Limit(value: try positive(rule.maximum, "lineCount.maximum"), severity: severity(rule.severity))
        }
        if let rule = rules.minimumDuration {
            minimumDuration = Limit(
                value: try positive(rule.milliseconds, "minimumDuration.milliseconds"), severity: severity(rule.severity))
        }
        if let rule = rules.maximumDuration {
            maximumDuration = Limit(
                value: try positive(rule.milliseconds, "maximumDuration.milliseconds"), severity: severity(rule.severity))
        }
        if let rule = rules.gap {
            gapFrames = Limit(value: try positive(rule.minimumFrames, "gap.minimumFrames"), severity: severity(rule.severity))
        }
        if let rule = rules.overlap { overlap = severity(rule.severity) }
        if let rule = rules.characters {
            guard let allowed = rule.allowed else { throw QCProfileError(path: "characters.allowed", "is required when the rule is on") }
            characters = Limit(value: allowed, severity: severity(rule.severity))
        }
        if let rule = rules.markup {
            allowedTags = Limit(value: (rule.allowedTags ?? []).map { Array($0.utf8) }, severity: severity(rule.severity))
        }
        if let rule = rules.lineBalance {
            lineBalance = Limit(
                value: try positive(rule.maximumTopToBottomRatio, "lineBalance.maximumTopToBottomRatio"), severity: rule.severity ?? .note)
        }
        if let rule = rules.shotChanges {
            let frames: Int
            if rule.windowFrames == nil, let milliseconds = rule.windowMilliseconds {
                let window = try positive(milliseconds, "shotChanges.windowMilliseconds")
                frames = max(1, Int((Double(window) * Double(frameRate.numerator) / Double(frameRate.denominator) / 1000).rounded()))
            } else {
                guard rule.windowFrames != nil else {
                    throw QCProfileError(path: "shotChanges", "needs windowFrames or windowMilliseconds")
                }
                frames = try positive(rule.windowFrames, "shotChanges.windowFrames")
            }
            shotChangeFrames = Limit(value: frames, severity: severity(rule.severity))
        }
    }
}

/// The limits of ``QCLimits`` that a cue's measures are compared with, as plain numbers: a rule
/// that is off has a limit no cue passes (infinity, `Int.max`, `Int.min`), so that the first look at
/// each cue unwraps nothing and copies nothing.
struct QCThresholds: Sendable {
    var charactersPerSecond = Double.infinity
    var wordsPerMinute = Double.infinity
    var countsWords = false
    var minimumDuration = Int.min
    var maximumDuration = Int.max
    var lineLength = Int.max
    var lineCount = Int.max
    var lineBalance = Double.infinity
    var checksOverlap = false
    /// The shortest gap between cues, in whole milliseconds, that lasts the rule's fewest frames
    /// (a gap in milliseconds is shorter than those frames exactly when it is under this); 0 when
    /// the rule is off.
    var minimumGap = 0
    /// True when every cue needs the detailed check: shot changes are checked, or reading speeds
    /// recorded.
    var checksEveryCueInDetail = false

    init(_ limits: QCLimits, frameRate: FrameRate, checksShotChanges: Bool, recordsReadingSpeeds: Bool) {
        if let limit = limits.charactersPerSecond { charactersPerSecond = limit.value }
        if let limit = limits.wordsPerMinute {
            wordsPerMinute = limit.value
            countsWords = true
        }
        if let limit = limits.minimumDuration { minimumDuration = limit.value }
        if let limit = limits.maximumDuration { maximumDuration = limit.value }
        if let limit = limits.lineLength { lineLength = limit.value }
        if let limit = limits.lineCount { lineCount = limit.value }
        if let limit = limits.lineBalance { lineBalance = limit.value }
        checksOverlap = limits.overlap != nil
        if let limit = limits.gapFrames { minimumGap = frameRate.milliseconds(forFrames: limit.value) }
        checksEveryCueInDetail = (limits.shotChangeFrames != nil && checksShotChanges) || recordsReadingSpeeds
    }
}
