/// One cue: an interval of time, where to show it, and what to show.
///
/// Times are integer milliseconds from the start of the media, as WebVTT and SubRip write them;
/// readers of formats with finer timing (TTML) round once, at the end, and document how.
///
/// The cue's content is held as WebVTT cue text (``text``), exactly as `VTTCue.text` exposes it:
/// markup such as `<v Bob>`, `<i>`, `&amp;` included. ``nodes()`` parses it into a ``CueNode`` tree on
/// demand (WebVTT section 6.4), so that reading a large file does not build trees nobody asked for,
/// and ``setNodes(_:)`` writes the markup back. Readers of other formats build nodes and store
/// their markup.
public struct Cue: Sendable, Hashable {
    /// The cue identifier; empty when the cue has none.
    public var id: String

    /// Start time in milliseconds.
    public var start: Int

    /// End time in milliseconds.
    public var end: Int

    /// Where and how the cue is laid out.
    public var settings: CueSettings

    /// The cue payload as WebVTT cue text, lines joined by `"\n"`.
    public var text: String

    /// Where the cue was read from, so that a check of its content (caption QC) can point at it:
    /// the SubRip timing line, the TTML `p` element's start tag; nil for a cue made in code or
    /// read by a reader that does not say. Not part of the cue's value: cues that differ only in
    /// where they were read compare equal and hash alike.
    public var location: SourceLocation?

    /// Creates a cue from WebVTT cue text, read at `location` if a reader gives one.
    public init(
        id: String = "", start: Int, end: Int, settings: CueSettings = CueSettings(), text: String, location: SourceLocation? = nil
    ) {
        self.id = id
        self.start = start
        self.end = end
        self.settings = settings
        self.text = text
        self.location = location
    }

    /// Creates a cue from a cue text tree, stored as its WebVTT markup.
    public init(id: String = "", start: Int, end: Int, settings: CueSettings = CueSettings(), nodes: [CueNode]) {
        self.init(id: id, start: start, end: end, settings: settings, text: CueText.markup(for: nodes))
    }

    /// The duration in milliseconds (negative when the cue ends before it starts).
    public var duration: Int { end - start }

    /// Equal when identifier, times, settings and text are: ``location`` is left out.
    public static func == (lhs: Cue, rhs: Cue) -> Bool {
        lhs.start == rhs.start && lhs.end == rhs.end && lhs.id == rhs.id && lhs.text == rhs.text && lhs.settings == rhs.settings
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(start)
        hasher.combine(end)
        hasher.combine(settings)
        hasher.combine(text)
    }
}
