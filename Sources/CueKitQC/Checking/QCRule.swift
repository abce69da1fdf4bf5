import CueKit

/// One QC rule: its diagnostic code, its name and the help text a SARIF log shows for it.
public enum QCRule: String, Sendable, Hashable, CaseIterable, Comparable {
    case readingSpeed = "qc-reading-speed"
    case wordsPerMinute = "qc-words-per-minute"
    case lineLength = "qc-line-length"
    case lineCount = "qc-line-count"
    case durationTooShort = "qc-duration-short"
    case durationTooLong = "qc-duration-long"
    case gap = "qc-gap"
    case overlap = "qc-overlap"
    case character = "qc-character"
    case markup = "qc-markup"
    case lineBalance = "qc-line-balance"
    case shotChange = "qc-shot-change"

    /// The rule's diagnostic code.
    public var code: DiagnosticCode { DiagnosticCode(rawValue: rawValue) }

    /// The rule's place in ``allCases``.
    var ordinal: Int {
        switch self {
        case .readingSpeed: 0
        case .wordsPerMinute: 1
        case .lineLength: 2
        case .lineCount: 3
        case .durationTooShort: 4
        case .durationTooLong: 5
        case .gap: 6
        case .overlap: 7
        case .character: 8
        case .markup: 9
        case .lineBalance: 10
        case .shotChange: 11
        }
    }

    /// The rule with this diagnostic code, if it is a QC rule's.
    public init?(code: DiagnosticCode) {
        self.init(rawValue: code.rawValue)
    }

    /// A short name: `Reading speed`.
    public var title: String {
        switch self {
        case .readingSpeed: "Reading speed (characters per second)"
        case .wordsPerMinute: "Reading speed (words per minute)"
        case .lineLength: "Characters per line"
        case .lineCount: "Lines per cue"
        case .durationTooShort: "Minimum duration"
        case .durationTooLong: "Maximum duration"
        case .gap: "Minimum gap between cues"
        case .overlap: "Overlapping cues"
        case .character: "Characters outside the allowed set"
        case .markup: "Forbidden markup"
        case .lineBalance: "Line balance"
        case .shotChange: "Timing near a shot change"
        }
    }

    /// What the rule checks and what to do about it, for SARIF's `help` and `--qc-summary`.
    public var help: String {
        switch self {
        case .readingSpeed:
            "The cue's characters (as a viewer sees them: no markup, no line breaks) divided by its duration exceed the profile's characters per second. Lengthen the cue or shorten its text."
        case .wordsPerMinute:
            "The cue's words divided by its duration exceed the profile's words per minute. Lengthen the cue or edit its text."
        case .lineLength:
            "A line holds more characters than the profile allows (spaces and punctuation count). Break the line at punctuation or near its middle."
        case .lineCount: "The cue has more lines than the profile allows. Split the cue or edit its text."
        case .durationTooShort: "The cue is shown for less than the profile's minimum duration. Extend it into the time after it."
        case .durationTooLong: "The cue is shown for longer than the profile's maximum duration. Split it or end it sooner."
        case .gap:
            "The time between the end of a cue and the start of the next is under the profile's minimum, counted in frames at the frame rate. End the earlier cue sooner, on a frame."
        case .overlap: "The cue starts before an earlier cue ends, which the profile forbids. End the earlier cue first."
        case .character:
            "The text holds a character outside the profile's allowed set (for 608 captions, one a decoder cannot draw). Replace it."
        case .markup: "The text uses a tag the profile does not allow. Remove the tag; the text stays."
        case .lineBalance:
            "The top line of a two-line cue is much longer than the bottom one, where the profile prefers bottom-heavy or pyramid lines."
        case .shotChange:
            "The cue starts or ends a few frames from a shot change without being on it, which makes captions flash across the cut. Move the time onto the shot change or away from it."
        }
    }

    public static func < (lhs: QCRule, rhs: QCRule) -> Bool { lhs.rawValue < rhs.rawValue }
}
