import CueKit
import CueKitCast

/// The edits a conversion makes to a stream of events between a reader and a writer: a timing edit,
/// cues with no text left out, and a Cast `TextTrackStyle` baked in as a `STYLE` block.
///
/// It streams: each event is handed on as it comes, and the style sheet goes in just before the
/// first cue. What it leaves out it counts (``counts``), so the caller can say so; diagnostics
/// pass through untouched.
///
/// ```swift
/// var pipeline = TrackPipeline(timing: TimingEdit(shift: -1500), dropsEmptyCues: true, style: style)
/// try source.stream { event in try pipeline.process(event) { try writer.write($0) } }
/// try pipeline.finish { try writer.write($0) }
/// ```
public struct TrackPipeline: Sendable {
    /// What the pipeline did to the cues.
    public struct Counts: Sendable, Hashable {
        /// Cues handed on.
        public var cuesPassed = 0
        /// Cues left out because they end at or before 0 after the timing edit.
        public var droppedBeforeZero = 0
        /// Cues left out because the timing edit takes them past ``TimingEdit/latest``.
        public var droppedPastTheLatestTime = 0
        /// The first of those.
        public var firstPastTheLatestTime: Cue?
        /// Cues left out because they show no text.
        public var droppedEmpty = 0

        /// Nothing done yet.
        public init() {}
    }

    /// The timing edit applied to every cue.
    public let timing: TimingEdit
    /// True when cues with no text to show are left out.
    public let dropsEmptyCues: Bool
    /// What was done so far.
    public private(set) var counts = Counts()
    private var applier: CastStyleApplier?

    /// A pipeline. `stylePath` and `styleLocations` place the style's diagnostics in its JSON.
    public init(
        timing: TimingEdit = TimingEdit(), dropsEmptyCues: Bool = false, style: TextTrackStyle? = nil,
        stylePath: CastJSONPath = .root, styleLocations: CastJSONLocations = CastJSONLocations()
    ) {
        self.timing = timing
        self.dropsEmptyCues = dropsEmptyCues
        applier = style.map { CastStyleApplier(style: $0, at: stylePath, locations: styleLocations) }
    }

    /// The style sheet the style becomes; nil without a style, or when it sets nothing WebVTT carries.
    public var stylesheet: CueStylesheet? { applier?.stylesheet }

    /// What the style holds that WebVTT cannot carry, and what the file's own sheets do to it.
    public var styleDiagnostics: [Diagnostic] { applier?.diagnostics ?? [] }

    /// Hands `event` on, edited, to `handler` (or not at all, for a cue left out).
    public mutating func process(_ event: TrackEvent, to handler: (TrackEvent) throws -> Void) throws {
        guard case .cue = event else {
            try styled(event, handler)
            return
        }
        if timing.isIdentity, !dropsEmptyCues {
            // The common case: the cue goes on in the event it came in, never copied out of it.
            counts.cuesPassed += 1
            try styled(event, handler)
            return
        }
        guard case .cue(var cue) = event else { return }
        if !timing.isIdentity {
            switch timing.apply(to: cue) {
            case .edited(let edited): cue = edited
            case .endsBeforeZero:
                counts.droppedBeforeZero += 1
                return
            case .pastTheLatestTime:
                if counts.droppedPastTheLatestTime == 0 { counts.firstPastTheLatestTime = cue }
                counts.droppedPastTheLatestTime += 1
                return
            }
        }
        if dropsEmptyCues, Self.isEmpty(cue) {
            counts.droppedEmpty += 1
            return
        }
        counts.cuesPassed += 1
        try styled(.cue(cue), handler)
    }

    /// True when the next cue would be handed on as it came, and nothing with it: no timing edit,
    /// no cue left out for being empty, and the applied style (if any) done with cues. A caller may then
    /// write such a cue itself, past the pipeline, and count it with ``countCueHandedOnUnchanged()``.
    public var handsOnNextCueUnchanged: Bool {
        timing.isIdentity && !dropsEmptyCues && !(applier?.watchesCues ?? false)
    }

    /// Counts a cue the caller wrote past the pipeline (see ``handsOnNextCueUnchanged``).
    public mutating func countCueHandedOnUnchanged() {
        assert(handsOnNextCueUnchanged, "a cue went past the pipeline where the pipeline would have changed it")
        counts.cuesPassed += 1
    }

    /// The end of the events: the style sheet, if no cue came to carry it in.
    public mutating func finish(to handler: (TrackEvent) throws -> Void) throws {
        try applier?.finish(to: handler)
    }

    private mutating func styled(_ event: TrackEvent, _ handler: (TrackEvent) throws -> Void) throws {
        if applier != nil {
            try applier?.process(event, to: handler)
        } else {
            try handler(event)
        }
    }

    /// True when the cue shows no text: nothing but white space once its markup is removed.
    public static func isEmpty(_ cue: Cue) -> Bool {
        let text = cue.text.utf8.contains(UInt8(ascii: "<")) || cue.text.utf8.contains(UInt8(ascii: "&")) ? cue.nodes().plainText : cue.text
        return text.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    }
}
