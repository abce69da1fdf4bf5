import CueKit
import CueKitSubRip
import CueKitWebVTT

/// The first pass of a ``TrackConversion``: the source's events through the edits
/// (``TrackPipeline``) and the ordering window (``CueOrdering``) into a writer, made on the first
/// event so that an input that cannot be read makes no output.
///
/// A value: the reader hands it events (``take(_:)``); from WebVTT, cue blocks read whole
/// (``take(_:settings:)``), which it copies where a WebVTT writer would write them unchanged, or
/// hands a TTML writer as bytes where no edit would change their cues; and
/// from SubRip to WebVTT, cues as read (``take(_:)``), which it writes as blocks where the writer
/// would write them so. The pipeline, the ordering and the output are separate stored properties,
/// each handed to the next stage `inout`, so that no access overlaps another.
struct ConversionPass<Writer: TrackWriter>: WebVTTBytesConsumer, SubRipCuesConsumer {
    var pipeline: TrackPipeline
    var ordering: CueOrdering
    var output: PassOutput<Writer>
    /// False for TTML output, which times every paragraph itself.
    let ordersCues: Bool
    /// True when WebVTT cue blocks read whole are offered (``take(_:settings:)``): to be copied
    /// (WebVTT output) or written from their bytes (TTML output).
    let takesCues: Bool
    /// What copies a cue's block in place of writing its cue again.
    var copier = WebVTTCueBlockCopier()
    /// What writes a SubRip cue's block in place of building its cue.
    var composer = WebVTTCueBlockComposer()
    /// Shared with a TTML writer, which then takes each cue text's parse from the WebVTT reader.
    let cueTextParseCache: CueTextParseCache?
    /// Cues the writer wrote from the blocks they were read from (TTML output).
    private(set) var cuesWrittenFromBlocks = 0
    /// Error and warning diagnostics of the input.
    private(set) var inputErrors = 0
    private(set) var inputWarnings = 0
    /// Where the input's diagnostics go, as they come.
    let report: (Diagnostic) -> Void

    mutating func take(_ event: TrackEvent) throws {
        if case .diagnostic(let diagnostic) = event {
            switch diagnostic.severity {
            case .error: inputErrors += 1
            case .warning: inputWarnings += 1
            default: break
            }
            report(diagnostic)
            return
        }
        try Self.edit(event, &pipeline, &ordering, &output, ordersCues)
    }

    /// Takes a cue block as its bytes when the writer exists and the cue would pass the edits
    /// unchanged. For WebVTT output, when the copier can copy the block: it then waits in the
    /// window as its bytes, or is refused and comes again as a cue. For TTML output (no window),
    /// the writer writes the cue from the block's bytes at once.
    mutating func take(_ block: WebVTTCueBlockAsRead, settings: borrowing CueSettings) throws -> Bool {
        guard output.hasWriter, pipeline.handsOnNextCueUnchanged else { return false }
        if ordersCues {
            guard try Self.order(block, settings: settings, &copier, &ordering, &output) else { return false }
        } else {
            guard output.writesCuesAsRead else { return false }
            try output.writeCue(block, settings: settings)
            cuesWrittenFromBlocks += 1
        }
        pipeline.countCueHandedOnUnchanged()
        return true
    }

    /// Blocks are written for SubRip cues where cue blocks are taken and put in order (WebVTT
    /// output, with the writer's default layout).
    var takesSubRipCues: Bool { takesCues && ordersCues }

    /// Takes a SubRip cue as the bytes of its block when the writer exists, the cue would pass the
    /// edits unchanged and the writer would write it unchanged: it then waits in the window as its
    /// bytes, or is refused and comes again as a cue.
    mutating func take(_ cue: SubRipCueAsRead) throws -> Bool {
        guard ordersCues, output.hasWriter, pipeline.handsOnNextCueUnchanged else { return false }
        guard try Self.order(cue, &composer, &ordering, &output) else { return false }
        pipeline.countCueHandedOnUnchanged()
        return true
    }

    /// The end of the input: the style sheet if no cue carried it, the window's last cues, and the
    /// writer finished. Returns the writer (made now if no event came).
    mutating func finish() throws -> Writer {
        try Self.finish(&pipeline, &ordering, &output, ordersCues)
        return try output.finish()
    }

    private static func finish(
        _ pipeline: inout TrackPipeline, _ ordering: inout CueOrdering, _ output: inout PassOutput<Writer>, _ ordersCues: Bool
    ) throws {
        try pipeline.finish { try order($0, &ordering, &output, ordersCues) }
        guard ordersCues else { return }
        try ordering.finish(emit: { try output.write($0) }, emitBlock: { try output.writeBlocks($0, count: $1, times: $2) })
    }

    private static func edit(
        _ event: TrackEvent, _ pipeline: inout TrackPipeline, _ ordering: inout CueOrdering, _ output: inout PassOutput<Writer>, _ ordersCues: Bool
    ) throws {
        try pipeline.process(event) { try order($0, &ordering, &output, ordersCues) }
    }

    private static func order(_ event: TrackEvent, _ ordering: inout CueOrdering, _ output: inout PassOutput<Writer>, _ ordersCues: Bool) throws {
        guard ordersCues else { return try output.write(event) }
        try ordering.take(event, emit: { try output.write($0) }, emitBlock: { try output.writeBlocks($0, count: $1, times: $2) })
    }

    private static func order(
        _ read: WebVTTCueBlockAsRead, settings: borrowing CueSettings, _ copier: inout WebVTTCueBlockCopier, _ ordering: inout CueOrdering,
        _ output: inout PassOutput<Writer>
    ) throws -> Bool {
        // Whether the writer names the cue's region, asked before the copy (the window and the
        // writer are reached inside it).
        let regionIsNamed = settings.region.map { output.namesRegion($0) } ?? false
        return try copier.withCopy(of: read, settings: settings, regionIsNamed: regionIsNamed) { block in
            try ordering.take(block: block, start: read.start, end: read.end, namesRegion: regionIsNamed, emit: { try output.write($0) }, emitBlock: { try output.writeBlocks($0, count: $1, times: $2) })
        }
    }
}

extension ConversionPass {
    /// The length of a SubRip timing line in the standard form, `hh:mm:ss,mmm --> hh:mm:ss,mmm`.
    fileprivate static var standardTimingLineLength: Int { 29 }

    fileprivate static func order(
        _ cue: SubRipCueAsRead, _ composer: inout WebVTTCueBlockComposer, _ ordering: inout CueOrdering, _ output: inout PassOutput<Writer>
    ) throws -> Bool {
        func compose(times: UnsafeRawBufferPointer?) throws -> Bool {
            // The reader's text never holds what a writer must change (``SubRipCueAsRead/text``).
            try composer.withBlock(
                identifier: cue.identifier, start: cue.start, end: cue.end, times: times, settings: cue.settings, text: cue.text,
                textIsSafe: true
            ) { block in
                try ordering.take(block: block, start: cue.start, end: cue.end, namesRegion: false, emit: { try output.write($0) }, emitBlock: { try output.writeBlocks($0, count: $1, times: $2) })
            }
        }
        guard let line = cue.standardTimingLine, line.count == Self.standardTimingLineLength else { return try compose(times: nil) }
        // `hh:mm:ss,mmm --> hh:mm:ss,mmm` is WebVTT's `hh:mm:ss.mmm --> hh:mm:ss.mmm` re-punctuated.
        return try withUnsafeTemporaryAllocation(byteCount: Self.standardTimingLineLength, alignment: 1) { times in
            times.copyMemory(from: line)
            times[8] = UInt8(ascii: ".")
            times[25] = UInt8(ascii: ".")
            return try compose(times: UnsafeRawBufferPointer(times))
        }
    }
}

/// The writer of a pass, made on the first event, and how it writes cue blocks taken whole.
struct PassOutput<Writer: TrackWriter> {
    /// Writes a run of `count` cue blocks (``CueOrdering/BlockRun``).
    typealias BlockRunWriter = (inout Writer, UnsafeRawBufferPointer, _ count: Int, _ times: UnsafeBufferPointer<CueBlockTimes>) throws -> Void

    private var writer: Writer?
    private let makeWriter: () throws -> Writer
    /// Writes a run of cue blocks (WebVTT output only; nil where blocks are never taken).
    private let writeBlockRun: BlockRunWriter?
    /// True when ``writeBlockRun`` takes each block's times (the ordering then records them).
    let takesBlockTimes: Bool
    /// Whether the writer names a region in a cue's settings (``WebVTTWriter/namesRegion(_:)``;
    /// nil where blocks are never taken).
    private let namesRegionIn: ((Writer, String) -> Bool)?
    /// Writes the cue of a cue block read whole from its bytes (TTML output only; nil elsewhere).
    private let writeCueAsRead: ((inout Writer, WebVTTCueBlockAsRead, borrowing CueSettings) throws -> Void)?

    init(
        makeWriter: @escaping () throws -> Writer, writeBlockRun: BlockRunWriter?, takesBlockTimes: Bool = false,
        namesRegion: ((Writer, String) -> Bool)? = nil, writeCueAsRead: ((inout Writer, WebVTTCueBlockAsRead, borrowing CueSettings) throws -> Void)? = nil
    ) {
        self.makeWriter = makeWriter
        self.writeBlockRun = writeBlockRun
        self.takesBlockTimes = takesBlockTimes
        namesRegionIn = namesRegion
        self.writeCueAsRead = writeCueAsRead
    }

    /// True when the writer writes cues from the blocks they were read from (``writeCue(_:settings:)``).
    var writesCuesAsRead: Bool { writeCueAsRead != nil }

    /// Writes the cue of a block read whole, from its bytes (only where ``writesCuesAsRead``,
    /// after the writer was made).
    mutating func writeCue(_ block: WebVTTCueBlockAsRead, settings: borrowing CueSettings) throws {
        guard let writeCueAsRead, writer != nil else {
            preconditionFailure("cues are written from their blocks only by a pass that writes them so, after its writer was made")
        }
        // In place: a TTML writer is large, and moving it out and back would copy it for each cue.
        try writeCueAsRead(&writer!, block, settings)
    }

    /// True when the writer, made, names the region `id` in a cue's settings.
    func namesRegion(_ id: String) -> Bool {
        guard let namesRegionIn, let writer else { return false }
        return namesRegionIn(writer, id)
    }

    /// True once the first event made the writer (cue blocks come only after the header's event).
    var hasWriter: Bool { writer != nil }

    mutating func write(_ event: TrackEvent) throws {
        if writer == nil { writer = try makeWriter() }
        try writer?.write(event)
    }

    mutating func writeBlocks(_ bytes: UnsafeRawBufferPointer, count: Int, times: UnsafeBufferPointer<CueBlockTimes>) throws {
        guard let writeBlockRun, var taken = writer.take() else {
            preconditionFailure("cue blocks are taken only by a pass that writes them, after its writer was made")
        }
        defer { writer = taken }
        try writeBlockRun(&taken, bytes, count, times)
    }

    /// Finishes the writer (made now if no event came) and hands it over.
    mutating func finish() throws -> Writer {
        var finished = try writer.take() ?? makeWriter()
        try finished.finish()
        return finished
    }
}
