import CueKit

/// The diagnostic codes of the TTML reader. Each names one kind of problem; the message says what
/// the reader did about it.
extension DiagnosticCode {
    // MARK: The document is refused (ReadError)

    /// The input is empty.
    public static let ttmlEmpty: DiagnosticCode = "ttml-empty"
    /// The input is not well-formed XML (XML 1.0 section 2.1), or is not proper UTF-8/UTF-16.
    public static let ttmlNotWellFormed: DiagnosticCode = "ttml-not-well-formed"
    /// The document has a document type declaration: refused, so that no entity can be declared
    /// (entity bombs, external entities that read files or the network).
    public static let ttmlDocumentType: DiagnosticCode = "ttml-doctype"
    /// The root element is not `tt` in a TTML or DFXP namespace.
    public static let ttmlNotTTML: DiagnosticCode = "ttml-not-ttml"
    /// The document holds image captions (an image profile, `smpte:image`, `image`), which CueKit
    /// does not convert.
    public static let ttmlImageCaptions: DiagnosticCode = "ttml-image-captions"
    /// Elements nest deeper than ``TTMLReader/Options/Limits/maximumNestingDepth``.
    public static let ttmlNestingTooDeep: DiagnosticCode = "ttml-nesting-too-deep"
    /// A paragraph holds more text than ``TTMLReader/Options/Limits/maximumParagraphLength``.
    public static let ttmlParagraphTooLong: DiagnosticCode = "ttml-paragraph-too-long"
    /// An element with more attributes than ``TTMLReader/Options/Limits/maximumAttributesPerElement``.
    public static let ttmlTooManyAttributes: DiagnosticCode = "ttml-too-many-attributes"
    /// A document past one of the limits that bound the reader's memory (nodes in a paragraph,
    /// styles, regions, style references); the message names the option that raises it.
    public static let ttmlLimit: DiagnosticCode = "ttml-limit"

    // MARK: Problems read past

    /// libxml2 reported a recoverable problem (a namespace error, a warning).
    public static let ttmlXMLProblem: DiagnosticCode = "ttml-xml-problem"
    /// A DFXP draft namespace of 2006 was read as TTML, or a styling namespace spelled in a way no
    /// Recommendation uses.
    public static let ttmlLegacyNamespace: DiagnosticCode = "ttml-legacy-namespace"
    /// A `ttp:` parameter has an invalid value; its default is used.
    public static let ttmlBadParameter: DiagnosticCode = "ttml-bad-parameter"
    /// A `begin`, `end` or `dur` cannot be read (or cannot be placed on the media timeline): the
    /// element is not presented.
    public static let ttmlBadTime: DiagnosticCode = "ttml-bad-time"
    /// A time expression has white space around it, which its grammar does not allow; it was read
    /// without it.
    public static let ttmlTimeWhiteSpace: DiagnosticCode = "ttml-time-white-space"
    /// An attribute other than a time or a style has an invalid value (`timeContainer`,
    /// `xml:space`, ...).
    public static let ttmlBadAttribute: DiagnosticCode = "ttml-bad-attribute"
    /// A style attribute has an invalid value; it is ignored.
    public static let ttmlBadStyleValue: DiagnosticCode = "ttml-bad-style-value"
    /// A style WebVTT cannot express; it is left out of the output.
    public static let ttmlStyleNotMapped: DiagnosticCode = "ttml-style-not-mapped"
    /// A style WebVTT can only approximate (a region's background drawn behind the text).
    public static let ttmlStyleApproximated: DiagnosticCode = "ttml-style-approximated"
    /// A `style` attribute names no style.
    public static let ttmlUnknownStyle: DiagnosticCode = "ttml-unknown-style"
    /// A `region` attribute names no region.
    public static let ttmlUnknownRegion: DiagnosticCode = "ttml-unknown-region"
    /// Styles refer to each other in a cycle; the cycle is cut.
    public static let ttmlStyleCycle: DiagnosticCode = "ttml-style-cycle"
    /// Two elements have the same `xml:id`; the first keeps it.
    public static let ttmlDuplicateIdentifier: DiagnosticCode = "ttml-duplicate-id"
    /// Content where TTML does not allow it (text in a `div`, a `span` outside a `p`); ignored.
    public static let ttmlMisplacedContent: DiagnosticCode = "ttml-misplaced-content"
    /// Ruby markup mended so that WebVTT can draw it: text directly in a ruby container moved after
    /// the ruby, an annotation before its base moved after it, an annotation with no container
    /// written in parentheses.
    public static let ttmlRubyRepaired: DiagnosticCode = "ttml-ruby-repaired"
    /// An element in a TTML namespace that TTML does not define there; ignored.
    public static let ttmlUnknownElement: DiagnosticCode = "ttml-unknown-element"
    /// Image content in a text document; skipped.
    public static let ttmlImageSkipped: DiagnosticCode = "ttml-image-skipped"
    /// Content is not presented because it selects no region while the document defines regions
    /// (TTML2 section 11.3.1.3).
    public static let ttmlNoRegion: DiagnosticCode = "ttml-no-region"
    /// Every piece of text selects no region in a document that defines regions: the track is
    /// empty (an error, since a converted film would show nothing).
    public static let ttmlAllContentUnregioned: DiagnosticCode = "ttml-all-content-unregioned"
    /// Content has no end (nothing bounds its time): its cues end at the configured time.
    public static let ttmlUnboundedEnd: DiagnosticCode = "ttml-unbounded-end"
    /// How times of the `clock` or discontinuous `smpte` time base were placed on the media timeline.
    public static let ttmlTimeBase: DiagnosticCode = "ttml-time-base"
    /// Empty lines (two `br` in a row, a `br` at the start or end) cannot be written in WebVTT cue
    /// text; they were left out.
    public static let ttmlEmptyLine: DiagnosticCode = "ttml-empty-line"
    /// Styles written inline in the body need classes that the STYLE block, written before the
    /// first cue, does not have: read the document as a file (`TTMLReader.read(fileAtPath:)`,
    /// which holds its cues or reads it twice) to keep them.
    public static let ttmlInlineStyleLate: DiagnosticCode = "ttml-inline-style-late"
    /// More diagnostics of one code than the reader reports.
    public static let ttmlDiagnosticLimit: DiagnosticCode = "ttml-diagnostic-limit"
}
