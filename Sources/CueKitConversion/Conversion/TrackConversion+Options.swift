import CueKit
import CueKitCast
import CueKitSCC
import CueKitSubRip
import CueKitTTML
import CueKitWebVTT

extension TrackConversion {
    /// What a conversion writes, and the edits it makes on the way.
    public struct Options: Sendable {
        /// The output format.
        public var format: TrackFormat
        /// How WebVTT is written.
        public var webVTT = WebVTTWriterOptions()
        /// How SubRip is written.
        public var subRip = SubRipWriterOptions()
        /// How TTML is written.
        public var ttml = TTMLWriterOptions()
        /// How SCC is written (the timecodes' rate, drop-frame or not).
        public var scc = SCCWriterOptions()
        /// The timing edit applied to every cue.
        public var timing = TimingEdit()
        /// Leave out cues with no text to show.
        public var dropsEmptyCues = false
        /// The Cast style baked in (a WebVTT `STYLE` block, or TTML styles); nil writes the
        /// track's own styles only.
        public var style: TextTrackStyle?
        /// Where the style was read from, to place its diagnostics in its JSON.
        public var stylePath: CastJSONPath = .root
        public var styleLocations = CastJSONLocations()
        /// How many cues the ordering window holds (``CueOrdering``): cues that come later than
        /// this many cues after their place are merged back from sorted runs on disk.
        public var orderingWindowSize = CueOrdering.defaultWindowSize
        /// How many late cues are sorted in memory before they are spilled as one run.
        public var orderingRunLength = CueOrdering.defaultRunLength
        /// From WebVTT to WebVTT, cue blocks that are already what the writer writes for their cue
        /// are copied as they are, where no edit changes them; from SubRip to WebVTT, such cues are
        /// written as blocks as they are read, with no cue built; from WebVTT to TTML, the cue blocks
        /// the reader reads whole are written as paragraphs from their bytes, with no cue built. The
        /// output is the same either way.
        public var copiesCueBlocks = true
        /// From WebVTT to WebVTT with nothing to change (no edit, no style, the writer's default
        /// options), a valid input file (no error or warning, its cues in order) is written as its
        /// own bytes: its NOTE, STYLE and REGION blocks where they were, its settings as written.
        /// False writes the canonical form (`cuekit convert --normalize`).
        public var keepsValidInputUnchanged = true

        /// Options writing `format`, with `style` baked in.
        public init(format: TrackFormat = .webVTT, style: TextTrackStyle? = nil) {
            self.format = format
            self.style = style
        }
    }

    /// What a conversion did.
    public struct Outcome: Sendable {
        /// Error diagnostics of the input, and cues a timing edit took past the latest time (the
        /// output was written all the same).
        public var inputErrors = 0
        /// What the edits did: cues passed on, and those left out.
        public var edits = TrackPipeline.Counts()
        /// The style's own diagnostics: what WebVTT cannot carry, and the input's rules that
        /// override it. Not reported as they come, so that a batch reports them once.
        public var styleDiagnostics: [Diagnostic] = []
        /// Cues that came after a cue with a later start, and were put in order.
        public var reordered = 0
        /// Of those, the cues too late for the ordering window, merged back from sorted runs.
        public var lateCues = 0
        /// Cues written from the bytes of the blocks they were read from, with no cue built: copied
        /// (WebVTT output), or written as paragraphs (TTML output).
        public var cuesCopied = 0
        /// The error that stopped reading after some cues were read (a TTML document that is not
        /// well-formed half-way, a limit): the output holds every cue read before it.
        public var stoppedBy: ReadError?
        /// Cues handed to the writer.
        public var cuesWritten: Int { edits.cuesPassed }
        /// True when the output is the input's own bytes (a valid WebVTT file that nothing asked
        /// to change).
        var isInputUnchanged = false
    }
}

extension DiagnosticCode {
    /// Cues of the input out of start-time order, written in order.
    public static let conversionReordered: DiagnosticCode = "cue-order"
    /// A timing edit (`--shift`, `--scale`, `--frame-rate`) that takes a cue past the latest time.
    public static let timingEditOutOfRange: DiagnosticCode = "timing-edit-out-of-range"
    /// Cues a timing edit moved to end at or before 0, left out.
    public static let timingEditBeforeZero: DiagnosticCode = "timing-edit-before-zero"
    /// Cues with no text to show, left out as asked.
    public static let emptyCuesLeftOut: DiagnosticCode = "empty-cues-left-out"
}
