// CueKit owns the cue model every reader fills and every writer reads (Track, Cue, CueSettings,
// Region, CueNode), diagnostics, the reader and writer protocols, and byte I/O. No Foundation.

/// A caption or subtitle track: everything a reader found in a file, in a form every writer can emit.
///
/// The model follows the WebVTT data model (W3C WebVTT, section 3) because it is the richest of the
/// formats CueKit handles: SubRip and TTML readers fill the same structure, and parts a format cannot
/// carry are reported by its writer rather than dropped silently.
///
/// Blocks that a browser ignores but an author wrote on purpose (the header text, `NOTE` comments,
/// `STYLE` sheets) are kept verbatim so that a read-then-write round trip loses nothing.
public struct Track: Sendable, Hashable {
    /// Text of the header block: what follows `WEBVTT` and its separating space or tab on the
    /// signature line, then any further header lines, joined by `"\n"`.
    ///
    /// `"- Episode 1"` stands for `WEBVTT - Episode 1`; `"\nKind: captions"` for a bare `WEBVTT` line
    /// followed by the legacy line `Kind: captions`. Empty for a bare `WEBVTT` line.
    public var header: String

    /// The `STYLE` blocks before the first cue, in file order.
    public var stylesheets: [CueStylesheet]

    /// The `REGION` definitions before the first cue, in file order, after the spec's rule that a
    /// later region with the same identifier replaces an earlier one.
    public var regions: [CueRegion]

    /// The cues, in file order (not sorted by time).
    public var cues: [Cue]

    /// `NOTE` comments, each anchored to the cue it preceded.
    public var notes: [CueNote]

    /// Creates a track.
    public init(
        header: String = "",
        stylesheets: [CueStylesheet] = [],
        regions: [CueRegion] = [],
        cues: [Cue] = [],
        notes: [CueNote] = []
    ) {
        self.header = header
        self.stylesheets = stylesheets
        self.regions = regions
        self.cues = cues
        self.notes = notes
    }

    /// The region a cue refers to, if the track defines one with that identifier.
    public func region(for cue: Cue) -> CueRegion? {
        guard let id = cue.settings.region else { return nil }
        return regions.last { $0.id == id }
    }
}

/// A style sheet: the CSS of a WebVTT `STYLE` block. It is verbatim text, as read from a file, or
/// typed ``CueStyleRule``s, as a reader or a Cast style makes them; either way ``text`` is its CSS,
/// and two sheets with the same text are equal. Writers make sure the text cannot end the block
/// early when written back.
public struct CueStylesheet: Sendable, Hashable {
    /// The style sheet: the block's lines after the `STYLE` line, joined by `"\n"`.
    public private(set) var text: String
    /// The rules it was made from; nil for verbatim text (``cueRules`` reads those).
    public let rules: [CueStyleRule]?

    /// A style sheet of verbatim CSS text.
    public init(_ text: String) {
        self.text = text
        self.rules = nil
    }

    /// A style sheet of typed rules, written one a line in `layout`, after a `/* comment */` line
    /// when `comment` is given.
    public init(rules: [CueStyleRule], comment: String? = nil, layout: CueStyleRule.Layout = .singleLine) {
        var lines = rules.map { $0.css(layout) }
        if let comment { lines.insert("/* \(comment) */", at: 0) }
        self.text = lines.joined(separator: "\n")
        self.rules = rules
    }

    /// The `::cue` rules: the typed ones, or those read from the text (``CueStyleRule/parse(_:)``).
    public var cueRules: [CueStyleRule] { rules ?? CueStyleRule.parse(text).rules }

    public static func == (left: CueStylesheet, right: CueStylesheet) -> Bool { left.text == right.text }

    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// A `NOTE` comment block (WebVTT section 4.1), kept so that a writer can put it back where it stood.
public struct CueNote: Sendable, Hashable {
    /// What follows `NOTE` and its separating space or tab, with further lines joined by `"\n"`.
    /// `"\nline"` stands for a bare `NOTE` line followed by `line`.
    public var text: String

    /// Index in `Track.cues` of the cue this comment preceded; `cues.count` for a comment after the
    /// last cue. Comments before the first cue have index 0 and are written before the track's
    /// `REGION` and `STYLE` blocks.
    public var cueIndex: Int

    /// Creates a comment anchored before the cue at `cueIndex`.
    public init(_ text: String, cueIndex: Int) {
        self.text = text
        self.cueIndex = cueIndex
    }
}
