import CueKit

/// The rules a track is checked against: each rule is on when it is present, with its limits and
/// the severity its diagnostics carry.
///
/// A profile is rules as data (see <doc:QCProfiles> for the JSON schema): general rules, then rules
/// for children's content and for each language laid over them (``overlaid(with:)``), field by field,
/// so that a language that only changes the reading speed keeps every other limit.
public struct QCRules: Sendable, Hashable, Codable {
    /// Characters per second (and, optionally, words per minute) a viewer is asked to read.
    public var readingSpeed: ReadingSpeed?
    /// Characters per line.
    public var lineLength: LineLength?
    /// Lines per cue.
    public var lineCount: LineCount?
    /// The shortest a cue may last.
    public var minimumDuration: Duration?
    /// The longest a cue may last.
    public var maximumDuration: Duration?
    /// The shortest gap between consecutive cues, in frames.
    public var gap: Gap?
    /// Cues that overlap in time; present means overlaps are forbidden.
    public var overlap: Overlap?
    /// Characters outside an allowed set.
    public var characters: Characters?
    /// Markup (tags) outside an allowed list.
    public var markup: Markup?
    /// Two-line cues whose top line is much longer than the bottom one (a note).
    public var lineBalance: LineBalance?
    /// Cues that start or end close to a shot change without being on it.
    public var shotChanges: ShotChanges?

    /// Rules with none on.
    public init() {}

    /// Reading speed: characters per second, as a viewer counts them (no markup, no line breaks,
    /// a character reference as one character), and words per minute.
    public struct ReadingSpeed: Sendable, Hashable, Codable {
        public var maximumCharactersPerSecond: Double?
        public var maximumWordsPerMinute: Double?
        public var severity: Diagnostic.Severity?
        public init(maximumCharactersPerSecond: Double? = nil, maximumWordsPerMinute: Double? = nil, severity: Diagnostic.Severity? = nil) {
            self.maximumCharactersPerSecond = maximumCharactersPerSecond
            self.maximumWordsPerMinute = maximumWordsPerMinute
            self.severity = severity
        }
    }

    /// The most characters on one line (spaces and punctuation count; markup does not).
    public struct LineLength: Sendable, Hashable, Codable {
        public var maximumCharacters: Int?
        public var severity: Diagnostic.Severity?
        public init(maximumCharacters: Int? = nil, severity: Diagnostic.Severity? = nil) {
            self.maximumCharacters = maximumCharacters
            self.severity = severity
        }
    }

    /// The most lines in one cue.
    public struct LineCount: Sendable, Hashable, Codable {
        public var maximum: Int?
        public var severity: Diagnostic.Severity?
        public init(maximum: Int? = nil, severity: Diagnostic.Severity? = nil) {
            self.maximum = maximum
            self.severity = severity
        }
    }

    /// A duration limit in milliseconds.
    public struct Duration: Sendable, Hashable, Codable {
        public var milliseconds: Int?
        public var severity: Diagnostic.Severity?
        public init(milliseconds: Int? = nil, severity: Diagnostic.Severity? = nil) {
            self.milliseconds = milliseconds
            self.severity = severity
        }
    }

    /// The fewest frames between the end of a cue and the start of the next.
    public struct Gap: Sendable, Hashable, Codable {
        public var minimumFrames: Int?
        public var severity: Diagnostic.Severity?
        public init(minimumFrames: Int? = nil, severity: Diagnostic.Severity? = nil) {
            self.minimumFrames = minimumFrames
            self.severity = severity
        }
    }

    /// Overlapping cues are forbidden.
    public struct Overlap: Sendable, Hashable, Codable {
        public var severity: Diagnostic.Severity?
        public init(severity: Diagnostic.Severity? = nil) {
            self.severity = severity
        }
    }

    /// The characters a cue may hold: a named set (``QCCharacterSet``).
    public struct Characters: Sendable, Hashable, Codable {
        public var allowed: QCCharacterSet?
        public var severity: Diagnostic.Severity?
        public init(allowed: QCCharacterSet? = nil, severity: Diagnostic.Severity? = nil) {
            self.allowed = allowed
            self.severity = severity
        }
    }

    /// The tags a cue may use, by name (`i`, `b`, `u`, `c`, `v`, `lang`, `ruby`, `rt`); timestamp
    /// tags are always allowed.
    public struct Markup: Sendable, Hashable, Codable {
        public var allowedTags: [String]?
        public var severity: Diagnostic.Severity?
        public init(allowedTags: [String]? = nil, severity: Diagnostic.Severity? = nil) {
            self.allowedTags = allowedTags
            self.severity = severity
        }
    }

    /// A two-line cue is flagged when its top line has more than `maximumTopToBottomRatio` times the
    /// characters of its bottom line (guides that ask for bottom-heavy or pyramid lines).
    public struct LineBalance: Sendable, Hashable, Codable {
        public var maximumTopToBottomRatio: Double?
        public var severity: Diagnostic.Severity?
        public init(maximumTopToBottomRatio: Double? = nil, severity: Diagnostic.Severity? = nil) {
            self.maximumTopToBottomRatio = maximumTopToBottomRatio
            self.severity = severity
        }
    }

    /// A cue that starts or ends fewer than `windowFrames` frames from a shot change, but not on
    /// it, is flagged (checked only when shot changes are given). The window may be given as a
    /// time instead, `windowMilliseconds`, counted in frames at the frame rate (rounded): a guide
    /// that says "half a second" means 12 frames at 24 fps and 15 at 30. `windowFrames` wins when
    /// both are given.
    public struct ShotChanges: Sendable, Hashable, Codable {
        public var windowFrames: Int?
        public var windowMilliseconds: Int?
        public var severity: Diagnostic.Severity?
        public init(windowFrames: Int? = nil, windowMilliseconds: Int? = nil, severity: Diagnostic.Severity? = nil) {
            self.windowFrames = windowFrames
            self.windowMilliseconds = windowMilliseconds
            self.severity = severity
        }
    }

    /// These rules with every rule and field `other` sets laid over them.
    public func overlaid(with other: QCRules) -> QCRules {
        var result = self
        if let rule = other.readingSpeed {
            var merged = result.readingSpeed ?? ReadingSpeed()
            merged.maximumCharactersPerSecond = rule.maximumCharactersPerSecond ?? merged.maximumCharactersPerSecond
            merged.maximumWordsPerMinute = rule.maximumWordsPerMinute ?? merged.maximumWordsPerMinute
            merged.severity = rule.severity ?? merged.severity
            result.readingSpeed = merged
        }
        if let rule = other.lineLength {
            var merged = result.lineLength ?? LineLength()
            merged.maximumCharacters = rule.maximumCharacters ?? merged.maximumCharacters
            merged.severity = rule.severity ?? merged.severity
            result.lineLength = merged
        }
        if let rule = other.lineCount {
            var merged = result.lineCount ?? LineCount()
            merged.maximum = rule.maximum ?? merged.maximum
            merged.severity = rule.severity ?? merged.severity
            result.lineCount = merged
        }
        result.minimumDuration = Self.merge(result.minimumDuration, other.minimumDuration)
        result.maximumDuration = Self.merge(result.maximumDuration, other.maximumDuration)
        if let rule = other.gap {
            var merged = result.gap ?? Gap()
            merged.minimumFrames = rule.minimumFrames ?? merged.minimumFrames
            merged.severity = rule.severity ?? merged.severity
            result.gap = merged
        }
        if let rule = other.overlap {
            result.overlap = Overlap(severity: rule.severity ?? result.overlap?.severity)
        }
        if let rule = other.characters {
            result.characters = Characters(
                allowed: rule.allowed ?? result.characters?.allowed, severity: rule.severity ?? result.characters?.severity)
        }
        if let rule = other.markup {
            result.markup = Markup(
                allowedTags: rule.allowedTags ?? result.markup?.allowedTags, severity: rule.severity ?? result.markup?.severity)
        }
        if let rule = other.lineBalance {
            result.lineBalance = LineBalance(
                maximumTopToBottomRatio: rule.maximumTopToBottomRatio ?? result.lineBalance?.maximumTopToBottomRatio,
                severity: rule.severity ?? result.lineBalance?.severity)
        }
        if let rule = other.shotChanges {
            // A window given in one unit replaces one given in the other.
            let replacesWindow = rule.windowFrames != nil || rule.windowMilliseconds != nil
            result.shotChanges = ShotChanges(
                windowFrames: replacesWindow ? rule.windowFrames : result.shotChanges?.windowFrames,
                windowMilliseconds: replacesWindow ? rule.windowMilliseconds : result.shotChanges?.windowMilliseconds,
                severity: rule.severity ?? result.shotChanges?.severity)
        }
        return result
    }

    private static func merge(_ base: Duration?, _ over: Duration?) -> Duration? {
        guard let over else { return base }
        return Duration(milliseconds: over.milliseconds ?? base?.milliseconds, severity: over.severity ?? base?.severity)
    }
}

extension Diagnostic.Severity: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let severity = Diagnostic.Severity(rawValue: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a severity: note, warning or error"))
        }
        self = severity
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
