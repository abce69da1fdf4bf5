/// A streaming writer: ``TrackEvent``s in, bytes out to its ``ByteSink``, cue by cue.
///
/// Writers never build the whole file in memory. Whatever the events hold, the output is a valid
/// file of the writer's format; where the format cannot carry something, the writer adjusts it and
/// says so in ``diagnostics`` rather than dropping it silently.
///
/// ```swift
/// var writer = WebVTTWriter(to: MemorySink())
/// for event in track.events { try writer.write(event) }
/// try writer.finish()
/// ```
public protocol TrackWriter {
    /// Where the bytes go.
    associatedtype Sink: ByteSink

    /// Writes one event. Events come in ``TrackEvent`` order: the header first.
    mutating func write(_ event: TrackEvent) throws

    /// Writes what is still buffered and flushes the sink.
    mutating func finish() throws

    /// What could not be written as it was, in the order found (locations are those of the input,
    /// when the writer knows them; otherwise `nil`).
    var diagnostics: [Diagnostic] { get }

    /// The sink, with everything written so far.
    var sink: Sink { get }
}

extension TrackWriter {
    /// Writes a whole track and finishes.
    public mutating func write(_ track: Track) throws {
        for event in track.events { try write(event) }
        try finish()
    }
}
