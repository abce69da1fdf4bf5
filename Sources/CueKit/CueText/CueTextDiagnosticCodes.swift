/// The diagnostics of WebVTT cue text (W3C WebVTT, sections 4.2.2 and 6.4), which
/// ``CueText/diagnostics(forUTF8:context:)`` reports and the WebVTT reader passes on.
///
/// Errors mark markup that a browser drops or changes (a tag it ignores, a reference it replaces);
/// warnings mark markup that breaks the syntax but that every browser reads as the author meant.
extension DiagnosticCode {
    /// A start tag whose name WebVTT does not define (`<font>`, `<br>`): ignored, its text kept.
    public static let vttUnknownTag: DiagnosticCode = "vtt-unknown-tag"
    /// A `<` that does not start a tag (`a < b`): what follows up to the next `>` is dropped.
    public static let vttUnescapedLessThan: DiagnosticCode = "vtt-unescaped-less-than"
    /// A tag that the cue text ends inside of (`<b` at the end).
    public static let vttUnterminatedTag: DiagnosticCode = "vtt-unterminated-tag"
    /// An end tag that does not close the span it is in (`<i><b>x</i>`): ignored.
    public static let vttUnmatchedEndTag: DiagnosticCode = "vtt-unmatched-end-tag"
    /// A span without its end tag (allowed only for a voice span that is the whole cue, and for
    /// the last `<rt>` of a ruby).
    public static let vttUnclosedTag: DiagnosticCode = "vtt-unclosed-tag"
    /// An annotation on a tag that takes none (`<c loud>`, `<i Bob>`): ignored.
    public static let vttUnexpectedAnnotation: DiagnosticCode = "vtt-unexpected-annotation"
    /// `<v>` or `<lang>` without the annotation they require.
    public static let vttMissingAnnotation: DiagnosticCode = "vtt-missing-annotation"
    /// A `<lang>` annotation that is not a well-formed BCP 47 language tag.
    public static let vttBadLanguageTag: DiagnosticCode = "vtt-bad-language-tag"
    /// An empty class name (`<c.>`, `<c..loud>`): ignored.
    public static let vttEmptyClass: DiagnosticCode = "vtt-empty-class"
    /// `<rt>` outside a `<ruby>`: ignored.
    public static let vttMisplacedRubyText: DiagnosticCode = "vtt-misplaced-ruby-text"
    /// A `<ruby>` without any `<rt>`.
    public static let vttRubyWithoutText: DiagnosticCode = "vtt-ruby-without-text"
    /// A cue timestamp tag (`<00:00:01.000>`) not after the previous one, or outside the cue.
    public static let vttTimestampTagOrder: DiagnosticCode = "vtt-timestamp-tag-order"
    /// A malformed timestamp, in a timing line or in a timestamp tag (then ignored).
    public static let vttBadTimestamp: DiagnosticCode = "vtt-bad-timestamp"
    /// A timestamp too large for CueKit's millisecond times (hours with 13 digits or more).
    public static let vttTimestampOutOfRange: DiagnosticCode = "vtt-timestamp-out-of-range"
    /// A cue's text holds more than ``CueText/maximumNodes`` spans and pieces of text.
    public static let vttTooManyNodes: DiagnosticCode = "vtt-too-many-nodes"
    /// A `&` that does not start a character reference: write `&amp;`.
    public static let vttUnescapedAmpersand: DiagnosticCode = "vtt-unescaped-ampersand"
    /// A named character reference HTML does not define (`&foo;`): kept as written.
    public static let vttUnknownCharacterReference: DiagnosticCode = "vtt-unknown-character-reference"
    /// A character reference without its `;` (`&amp`): decoded all the same.
    public static let vttUnterminatedCharacterReference: DiagnosticCode = "vtt-unterminated-character-reference"
    /// A numeric character reference without digits, or to a code point HTML replaces.
    public static let vttBadCharacterReference: DiagnosticCode = "vtt-bad-character-reference"
    /// Spans nested deeper than ``CueText/maximumNestingDepth``: the deeper tags are ignored.
    public static let vttNestingTooDeep: DiagnosticCode = "vtt-nesting-too-deep"
    /// A note that one cue text had more than ``CueText/maximumDiagnosticsPerCue`` problems and
    /// the rest are not reported.
    public static let vttMoreProblems: DiagnosticCode = "vtt-more-problems"
}
