import CueKit
import CueKitCast
import CueKitWebVTT

/// Converts a track file of any format to WebVTT, with a Cast ``TextTrackStyle`` baked in as a
/// `STYLE` block of `::cue` rules: the file a Chromium-based receiver draws as the style says.
///
/// The conversion streams: memory is bounded by the reader's head and one cue, whatever the size.
public struct StyledWebVTTConversion: Sendable {
    /// The track read.
    public var source: TrackSource
    /// The style baked in; nil writes the track's own styles only.
    public var style: TextTrackStyle?
    /// How the WebVTT is written.
    public var writerOptions = WebVTTWriterOptions()

    /// A conversion of `source` with `style`.
    public init(source: TrackSource, style: TextTrackStyle? = nil) {
        self.source = source
        self.style = style
    }

    /// What a conversion found.
    public struct Outcome: Sendable, Hashable {
        /// The source's diagnostics, the style's, then the writer's, in that order.
        public var diagnostics: [Diagnostic]
        /// How many cues were written.
        public var cueCount: Int
    }

    /// Writes the WebVTT to `sink` (the caller commits or flushes it). Throws the source's fatal
    /// ``ReadError``, or the sink's I/O error.
    public func write<Sink: ByteSink>(to sink: Sink) throws -> (outcome: Outcome, sink: Sink) {
        var writer = WebVTTWriter(to: sink, options: writerOptions)
        var pipeline = TrackPipeline(style: style)
        var diagnostics: [Diagnostic] = []
        try source.stream { event in
            if case .diagnostic(let diagnostic) = event {
                diagnostics.append(diagnostic)
                return
            }
            try pipeline.process(event) { try writer.write($0) }
        }
        try pipeline.finish { try writer.write($0) }
        try writer.finish()
        diagnostics += pipeline.styleDiagnostics + writer.diagnostics
        let cueCount = pipeline.counts.cuesPassed
        return (Outcome(diagnostics: diagnostics, cueCount: cueCount), writer.sink)
    }
}
