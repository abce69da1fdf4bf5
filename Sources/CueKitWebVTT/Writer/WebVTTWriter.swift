import CueKit

/// Writes tracks as WebVTT (W3C WebVTT, section 4, "Syntax"), block by block to any ``ByteSink``.
///
/// The writer is streaming: each ``TrackEvent`` becomes the bytes of one block, handed to the sink
/// at once, so that converting a file of any size takes the memory of one cue. It builds bytes, not
/// strings: cue text that is already safe is copied as it is, and timestamps are formatted straight
/// into the buffer.
///
/// ```swift
/// var writer = WebVTTWriter(to: MemorySink(), options: .init(lineEnding: .crlf))
/// try writer.write(track)          // or write(_:) event by event, then finish()
/// print(writer.sink.string, writer.diagnostics)
/// ```
///
/// Whatever the track holds, the output is a valid WebVTT file that reads back, with WebVTT's own
/// parsing algorithm (section 6.1), as the same track:
/// - the header, then `REGION` and `STYLE` blocks, then cues, each block after one empty line;
///   comments wherever they come. Regions and style sheets are held until the first cue (a region
///   defined twice is written once, the later definition, as readers keep it); one arriving after
///   the first cue cannot be written (WebVTT ignores it there) and is reported.
/// - Cue settings in a fixed order, `vertical line position size align region`, defaults left
///   out; `region:` comes last so that no other setting takes the cue out of its region.
/// - Numbers in plain decimal with the shortest digits that read back as the same `Double`.
/// - Free text (cue text, identifiers, comments, the header, style sheets) never holds an empty line,
///   a stray line break or `-->` where it would end or change the block.
///
/// Every change this takes is a ``Diagnostic`` in ``diagnostics`` (codes `vtt-write-...`, see
/// ``CueKit/DiagnosticCode/vttWriteCueText`` and its neighbours): never a silent loss. A track read
/// from a WebVTT file never needs one.
public struct WebVTTWriter<Sink: ByteSink>: TrackWriter {
    /// The writer's options.
    public typealias Options = WebVTTWriterOptions

    /// Where the bytes go; it has every block written so far (buffered as the sink buffers).
    public private(set) var sink: Sink
    /// How the output is laid out.
    public var options: Options { formatter.options }
    /// Every change the writer had to make, in the order made. Locations are `nil`: they are about
    /// the model, not an input file; messages name the cue (`cue 12 ("intro")`) or block.
    public var diagnostics: [Diagnostic] { formatter.diagnostics }

    // Everything but the sink lives in a type that is not generic, so that the work done for every
    // cue never looks up generic metadata.
    private var formatter: WebVTTBlockFormatter

    /// Creates a writer that writes to `sink`.
    public init(to sink: Sink, options: Options = Options()) {
        self.sink = sink
        formatter = WebVTTBlockFormatter(options: options)
    }

    /// Set when every cue written comes unchanged from CueKit's ``WebVTTReader`` (as in a WebVTT to
    /// WebVTT conversion): the reader's identifiers and cue texts never hold what the writer would
    /// have to change (a CR, a NUL, an empty line, a line break at either end, `-->`), since any of
    /// them would have ended the block or been decoded away, so their bytes are copied without the
    /// per-cue check. Tests hold the reader to this on random files.
    package var copiesReadCueText: Bool {
        get { formatter.copiesReadCueText }
        set { formatter.copiesReadCueText = newValue }
    }

    /// Writes one event as its block. A track starts with its header; when the first event is
    /// something else, a bare `WEBVTT` header is written first. Diagnostic events are not written.
    public mutating func write(_ event: TrackEvent) throws {
        formatter.write(event)
        try handOver()
    }

    /// Writes `count` cue blocks copied from the reader's (``WebVTTCueBlockCopier``), each
    /// after the LF of the empty line before it: `blocks` are what ``write(_:)`` writes for their
    /// cues, so they are handed to the sink as they are, in one piece. Only with the default line
    /// ending and hours style, in which such blocks are written.
    package mutating func writeCueBlocks(_ blocks: UnsafeRawBufferPointer, count: Int) throws {
        precondition(Self.copiesCueBlocks(with: options), "cue blocks are copied only with LF line ends and hours always written")
        formatter.beginCueBlocks(count: count)
        try handOver()
        try sink.write(blocks)
    }

    /// ``writeCueBlocks(_:count:)``, with the blocks handed to `handOn` with the sink in place of
    /// the sink's ``ByteSink/write(_:)``, after what comes before them was written to it: for a
    /// sink that takes cue blocks apart from other bytes.
    package mutating func writeCueBlocks(
        _ blocks: UnsafeRawBufferPointer, count: Int, handingOnTo handOn: (inout Sink, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        precondition(Self.copiesCueBlocks(with: options), "cue blocks are copied only with LF line ends and hours always written")
        formatter.beginCueBlocks(count: count)
        try handOver()
        try handOn(&sink, blocks)
    }

    /// Writes `count` cue blocks formatted apart by a ``WebVTTCueBlockFormatter`` with this
    /// writer's options, each after the line end of the empty line before it, as they are.
    package mutating func writeFormattedCueBlocks(_ blocks: UnsafeRawBufferPointer, count: Int) throws {
        formatter.beginCueBlocks(count: count)
        try handOver()
        try sink.write(blocks)
    }

    /// True when a cue's `region:` naming `id` is written as it is (the region's definition is
    /// written, or waits for the first cue): what a ``WebVTTCueBlockCopier`` asks before copying
    /// a block with a region.
    package func namesRegion(_ id: String) -> Bool {
        formatter.namesRegion(id)
    }

    /// True when a cue block copied from the reader's (``WebVTTCueBlockCopier``) is what a writer
    /// with `options` writes for its cue.
    package static func copiesCueBlocks(with options: Options) -> Bool {
        options.lineEnding == .lf && options.hours == .always
    }

    /// Writes a bare header if nothing was written, and flushes the sink.
    public mutating func finish() throws {
        formatter.finish()
        try handOver()
        try sink.flush()
    }

    /// Hands the blocks formatted so far to the sink.
    private mutating func handOver() throws {
        guard !formatter.buffer.isEmpty else { return }
        try sink.write(formatter.buffer)
        formatter.buffer.removeAll(keepingCapacity: true)
    }
}
