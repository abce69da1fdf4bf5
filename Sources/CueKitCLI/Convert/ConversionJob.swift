import CueKit
import CueKitCast
import CueKitCommandSupport
import CueKitConversion
import CueKitSubRip
import CueKitTTML
import CueKitWebVTT

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything `cuekit convert` does to a track, the same for every input of a batch.
struct ConversionSettings: Sendable {
    /// The input format, when the command line names it; otherwise each input's content tells.
    var inputFormat: TrackFormat?
    /// The output format.
    var outputFormat: TrackFormat = .webVTT
    var webVTT = WebVTTWriterOptions()
    var subRip = SubRipWriterOptions()
    var ttml = TTMLWriterOptions()
    var timing = TimingEdit()
    /// Drop cues with no text to show.
    var dropEmpty = false
    /// The Cast style baked into WebVTT output, with where it was read from for its diagnostics.
    var style: (style: TextTrackStyle, path: CastJSONPath, locations: CastJSONLocations)?
    /// Leave the input's diagnostics out of standard error (the exit status still counts them).
    var quiet = false
    /// The WebVTT reader's limits (`--max-line-bytes`, `--max-block-bytes`).
    var webVTTLimits = WebVTTReader.Options.Limits()
    /// The encoding of SubRip and WebVTT input without a byte order mark (`--encoding`).
    var encoding: TextEncoding?
    /// How TTML is read (`--unregioned`).
    var ttmlOptions = TTMLReader.Options()
    /// The most bytes kept of a stream read twice (`--max-spool-bytes`).
    var maximumSpoolBytes = TrackSource.Options.defaultMaximumSpoolBytes
    /// How many cues the ordering window holds, and how many late cues make one spilled run
    /// (``CueOrdering``).
    var orderingWindow = CueOrdering.defaultWindowSize
    var orderingRunLength = CueOrdering.defaultRunLength
    /// From WebVTT to WebVTT, cue blocks that are already what the writer writes for their cue
    /// are copied as they are, where no edit changes them (``WebVTTCueBlockTaker``); tests turn it
    /// off to compare.
    var copiesCueBlocks = true
}

/// What converting one input did.
struct ConversionOutcome: Sendable {
    /// Error diagnostics in the input (the output was written all the same).
    var inputErrors = 0
    /// What the edits did: cues passed on, and those left out by the timing edit or `--drop-empty`.
    var edits = TrackPipeline.Counts()
    /// The style's own diagnostics (reported once per run, not per file).
    var styleDiagnostics: [Diagnostic] = []
    /// Cues that came after a cue with a later start, and were put in order.
    var reordered = 0
    /// Cues handed to the writer.
    var cuesWritten: Int { edits.cuesPassed }
    /// Of those, the cues written as the bytes of the blocks they were read from (WebVTT to
    /// WebVTT, ``ConversionSettings/copiesCueBlocks``).
    var cuesCopied = 0
    /// The error that stopped reading after some cues were read (a TTML document that is not
    /// well-formed half-way, a limit): the output holds every cue read before it.
    var stoppedBy: ReadError?
}

/// One conversion: the input streamed through its reader, the edits, and a writer whose sink is
/// made on the first event, so that an input that cannot be read never creates or touches the
/// output.
struct ConversionJob {
    let settings: ConversionSettings

    /// Converts `input` (`-` for standard input) to `output` (`-` for standard output, otherwise a
    /// file replaced atomically). Throws a ``ReadError`` when the input cannot be read as a track,
    /// or a file cannot be read or written: then no output file is left behind.
    ///
    /// Cues are written in start-time order (``CueOrdering``). The output is first written to a
    /// file that can be read back (the destination's temporary file, or, for standard output, a
    /// temporary file copied out at the end); when cues came too late for the ordering window, it
    /// is read back and merged with them into the final output.
    func run(input: String, output: String) throws -> ConversionOutcome {
        let inputName = input == "-" ? "<stdin>" : input
        let source = try TrackSource(
            path: input, format: settings.inputFormat,
            options: .init(
                encoding: settings.encoding, webVTTLimits: settings.webVTTLimits, ttml: settings.ttmlOptions,
                maximumSpoolBytes: settings.maximumSpoolBytes))
        switch settings.outputFormat {
        case .subRip:
            return try convert(source, inputName: inputName, output: output, makeReader: { SubRipReader() }) {
                SubRipWriter(to: $0, options: settings.subRip)
            }
        case .webVTT:
            // From WebVTT, every cue comes from the reader, its identifier and text untouched by
            // the edits: they are copied as they are, without the writer's check.
            // Where no edit changes them, cue blocks that are already what the writer writes are
            // copied whole.
            let copiesText = source.format == .webVTT
            let copiesBlocks = copiesText && settings.copiesCueBlocks && WebVTTWriter<OutputSink>.copiesCueBlocks(with: settings.webVTT)
            return try convert(
                source, inputName: inputName, output: output, makeReader: { WebVTTReader() },
                writeBlocks: copiesBlocks ? { writer, blocks, count in try writer.writeCueBlocks(blocks, count: count) } : nil
            ) {
                var writer = WebVTTWriter(to: $0, options: settings.webVTT)
                writer.copiesReadCueText = copiesText
                return writer
            }
        case .ttml:
            // TTML times every paragraph itself: cues need no reordering, so the output is never
            // read back (the reader here is never used).
            return try convert(source, inputName: inputName, output: output, makeReader: { TTMLReader() }) {
                TTMLWriter(to: $0, options: settings.ttml)
            }
        }
    }

    /// `writeBlocks`, when given, writes WebVTT cue blocks the reader offers whole
    /// (``WebVTTCueBlockTaker``) for cues that no edit changes (a run of ``CueOrdering/BlockRun``).
    private func convert<Writer: TrackWriter, Reader: TrackReader>(
        _ source: TrackSource, inputName: String, output: String, makeReader: () -> Reader,
        writeBlocks: ((inout Writer, UnsafeRawBufferPointer, Int) throws -> Void)? = nil, makeWriter: (OutputSink) -> Writer
    ) throws -> ConversionOutcome where Writer.Sink == OutputSink {
        let outputName = output == "-" ? "<stdout>" : output
        // Standard output, a device or a FIFO cannot be read back: the first pass goes to a
        // temporary file, copied (or merged) to the output at the end.
        let direct = output == "-" || !Self.isRegularFileOrAbsent(output)
        let scratch = direct ? Self.temporaryFolder + "/cuekit-output" : output
        let spillFolder = direct ? Self.temporaryFolder : Self.folder(of: output)
        let orderingBox = Unchecked(CueOrdering(windowSize: settings.orderingWindow, runLength: settings.orderingRunLength, spillFolder: spillFolder))
        var (outcome, first) = try pump(source, inputName: inputName, outputName: outputName, ordering: orderingBox, writeBlocks: writeBlocks) {
            makeWriter(try OutputSink(path: scratch))
        }
        let ordering = orderingBox.value
        let written = first.sink
        defer { written.discard() }
        if ordering.reorderedCount > 0, !settings.quiet {
            let late = ordering.late?.count ?? 0
            let how = late > 0 ? " (\(Self.count(late, "cue")) merged back from sorted runs in temporary files)" : ""
            StandardError.write(
                Diagnostic(
                    .warning, .convertReordered, at: nil,
                    "\(Self.count(ordering.reorderedCount, "cue")) start before a cue ahead of them; they are written in start-time order, as WebVTT requires\(how)"
                ).formatted(file: inputName) + "\n")
        }
        guard let path = written.temporaryPath else { preconditionFailure("the first pass writes a file it can read back") }
        if let late = ordering.late {
            var final = makeWriter(try OutputSink(path: output))
            try Self.merge(readingBack: path, with: late, reader: makeReader(), into: &final)
            try final.finish()
            var sink = final.sink
            try sink.commit()
        } else if direct {
            var sink = try OutputSink(path: output)
            try FileByteSource(path: path).forEachChunk { try sink.write($0) }
            try sink.commit()
        } else {
            var sink = written
            try sink.commit()
        }
        outcome.reordered = ordering.reorderedCount
        outcome.cuesCopied = ordering.blocksTaken
        return outcome
    }

    /// The first pass: the input through the edits and the ordering window into `makeWriter`'s
    /// writer, made on the first event (so an input that cannot be read makes no file).
    private func pump<Writer: TrackWriter>(
        _ source: TrackSource, inputName: String, outputName: String, ordering: Unchecked<CueOrdering>,
        writeBlocks: ((inout Writer, UnsafeRawBufferPointer, Int) throws -> Void)?, makeWriter: () throws -> Writer
    ) throws -> (ConversionOutcome, Writer) {
        var outcome = ConversionOutcome()
        // The writer and the pipeline are reached from the closures the reader and the ordering
        // window call, once or twice a cue: held in boxes that skip the runtime's exclusivity
        // checks (a captured `var` is checked at each access).
        let output = Unchecked<Writer?>(nil)
        let edits = Unchecked(
            TrackPipeline(
                timing: settings.timing, dropsEmptyCues: settings.dropEmpty, style: settings.style?.style, stylePath: settings.style?.path ?? .root,
                styleLocations: settings.style?.locations ?? CastJSONLocations()))
        let quiet = settings.quiet

        func write(_ event: TrackEvent) throws {
            if output.value == nil { output.value = try makeWriter() }
            try output.value!.write(event)
        }
        // Blocks are written only once a writer exists (the header's event made it).
        let emitBlock: CueOrdering.BlockRun = { blocks, count in try writeBlocks!(&output.value!, blocks, count) }
        let ordersCues = settings.outputFormat != .ttml
        func emit(_ event: TrackEvent) throws {
            if ordersCues {
                try ordering.value.take(event, emit: write, emitBlock: emitBlock)
            } else {
                try write(event)
            }
        }
        func take(_ event: TrackEvent) throws {
            guard case .diagnostic(let diagnostic) = event else {
                try edits.value.process(event, to: emit)
                return
            }
            if diagnostic.severity == .error { outcome.inputErrors += 1 }
            if !quiet { StandardError.write(diagnostic.formatted(file: inputName) + "\n") }
        }
        var source = source
        if writeBlocks != nil, ordersCues {
            // Blocks come after the header, whose event made the writer.
            let writeExisting: (TrackEvent) throws -> Void = { try output.value!.write($0) }
            source.webVTTCueBlockTaker = CueBlockPassage { block, start in
                // The writer exists, and the cue would pass the edits unchanged: the block waits
                // in the window as its bytes, or is refused and comes again as a cue.
                guard output.value != nil, edits.value.handsOnNextCueUnchanged else { return false }
                guard try ordering.value.take(block: block, start: start, emit: writeExisting, emitBlock: emitBlock) else { return false }
                edits.value.countCueHandedOnUnchanged()
                return true
            }
        }
        do {
            try source.streamForCommand { event in
                try take(event)
            }
        } catch let error as ReadError
            where edits.value.counts.cuesPassed > 0 && error.diagnostic.code != IOFailure.readCode
        {
            // Reading stopped half-way: what was read before is good, and kept.
            outcome.stoppedBy = error
        }
        try edits.value.finish(to: emit)
        outcome.styleDiagnostics = edits.value.styleDiagnostics
        outcome.edits = edits.value.counts
        outcome.inputErrors += edits.value.counts.droppedPastTheLatestTime
        try ordering.value.finish(emit: write, emitBlock: emitBlock)
        // Taken out of its box, so that finishing it copies none of its buffers.
        var writer = try output.value ?? makeWriter()
        output.value = nil
        try writer.finish()
        for diagnostic in writer.diagnostics {
            StandardError.write(diagnostic.formatted(file: outputName) + "\n")
        }
        if outcome.edits.droppedBeforeZero > 0 {
            StandardError.write(
                "\(inputName.escapingControlCharacters): note: left out \(Self.count(outcome.edits.droppedBeforeZero, "cue")) that end at or before 00:00:00.000 after the timing edit\n"
            )
        }
        if let first = outcome.edits.firstPastTheLatestTime {
            let name = first.id.isEmpty ? "the cue at \(CueTimestamp.format(first.start))" : "cue '\(first.id)' (\(CueTimestamp.format(first.start)))"
            StandardError.write(
                Diagnostic(
                    .error, .timingEditOutOfRange, at: nil,
                    "the timing edit takes \(Self.count(outcome.edits.droppedPastTheLatestTime, "cue")), the first \(name), past the latest time a track can hold (\(TimingEdit.latestHours) hours); they are left out"
                ).formatted(file: inputName) + "\n")
        }
        if outcome.edits.droppedEmpty > 0 {
            StandardError.write("\(inputName.escapingControlCharacters): note: \(Self.count(outcome.edits.droppedEmpty, "empty cue")) left out (--drop-empty)\n")
        }
        return (outcome, writer)
    }

    /// The second pass, when cues came late: the first pass's output, read back (it is CueKit's own,
    /// so it reads as it was written), with the late cues merged in by start time.
    private static func merge<Reader: TrackReader, Writer: TrackWriter>(
        readingBack path: String, with late: LateCueRuns, reader: Reader, into writer: inout Writer
    ) throws {
        var reader = reader
        let lateCues = try late.merged()
        var pending = try lateCues.next()
        func write(_ event: TrackEvent) throws {
            switch event {
            case .cue(let cue):
                while let entry = pending, entry.cue.start < cue.start {
                    try writer.write(.cue(entry.cue))
                    pending = try lateCues.next()
                }
                try writer.write(event)
            case .diagnostic:
                break
            default:
                try writer.write(event)
            }
        }
        try FileByteSource(path: path).forEachChunk { try reader.feed($0, to: write) }
        try reader.finish(to: write)
        while let entry = pending {
            try writer.write(.cue(entry.cue))
            pending = try lateCues.next()
        }
    }

    /// True when `path` names a regular file, or nothing yet.
    static func isRegularFileOrAbsent(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return true }
        return (status.st_mode & S_IFMT) == S_IFREG
    }

    /// `$TMPDIR`, or `/tmp`.
    static var temporaryFolder: String { TemporaryFiles.folder }

    /// The folder a path is in (`.` for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

/// Hands the WebVTT reader's whole cue blocks to a closure (``WebVTTCueBlockTaker``).
final class CueBlockPassage: WebVTTCueBlockTaker {
    private let body: (WebVTTCueBlockBytes, Int) throws -> Bool

    /// `body` takes a block and its start time, and says whether it took it.
    init(_ body: @escaping (WebVTTCueBlockBytes, Int) throws -> Bool) { self.body = body }

    func take(_ block: WebVTTCueBlockBytes, start: Int, end: Int) throws -> Bool { try body(block, start) }
}

/// A value in a box whose accesses the runtime does not check for exclusivity: for state that
/// closures called once or more a cue reach (a captured `var` is checked at every access). Each
/// use finishes its access before another begins.
final class Unchecked<Value> {
    @exclusivity(unchecked) var value: Value

    init(_ value: Value) { self.value = value }
}
