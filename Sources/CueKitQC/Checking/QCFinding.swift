import CueKit

/// One rule's finding on one cue: its diagnostic, and the numbers behind it, so that a report can
/// show the measured value beside the limit and mark the place in the cue's text.
public struct QCFinding: Sendable, Hashable {
    /// The diagnostic as `cuekit validate` prints it.
    public var diagnostic: Diagnostic
    /// The rule that found it.
    public var rule: QCRule
    /// The value measured, in the rule's unit (``QCRule/unit``): for the character rule, how many
    /// characters are outside the set; for the markup rule, 1.
    public var value: Double
    /// The profile's limit in the same unit (0 for the rules that allow none: characters, markup,
    /// overlaps).
    public var limit: Double
    /// For a rule about one line (line length, characters, markup), that line's index in the cue
    /// text, from 0.
    public var textLine: Int?
    /// For a rule about one character or tag, its column in that line (from 1, markup counted,
    /// in Unicode scalars).
    public var textColumn: Int?

    public init(diagnostic: Diagnostic, rule: QCRule, value: Double, limit: Double, textLine: Int? = nil, textColumn: Int? = nil) {
        self.diagnostic = diagnostic
        self.rule = rule
        self.value = value
        self.limit = limit
        self.textLine = textLine
        self.textColumn = textColumn
    }
}
