import CueKit
import CueKitCast
import CueKitWebVTT

/// How a ``TrackConversion`` runs its passes: the first pass (``ConversionPass``) into a file that
/// can be read back, then, when cues came too late for the ordering window, a second pass that
/// reads it back and merges them in; otherwise the first pass's file is the output (committed) or
/// is copied to it.
struct PassPlan {
    /// Where the first pass writes: the destination itself (replaced atomically), or a
    /// temporary file.
    let firstPassPath: String
    /// Where late cues are spilled.
    let spillFolder: String
    /// True when the first pass's file is the output, unless cues came late.
    let firstPassIsOutput: Bool
    let options: TrackConversion.Options
    let source: TrackSource
    /// False when a caller that reads the output back reads the input itself where the output
    /// would be the input's own bytes (``keepsInputUnchanged``): no copy is then made, and the
    /// outcome says so (``TrackConversion/Outcome/isInputUnchanged``).
    var copiesUnchangedInput = true

    /// Runs the conversion. `makeOutput` makes the final sink: called only once the first pass is
    /// done, and only when the first pass's file is not the output as it is. Returns that sink when
    /// it was made.
    func run<Reader: TrackReader, First: TrackWriter, Final: TrackWriter>(
        report: (ConversionDiagnostic) -> Void, makeOutput: () throws -> Final.Sink, reader: Reader,
        makeFirst: @escaping (AtomicFileSink) -> First, writeBlockRun: PassOutput<First>.BlockRunWriter?,
        namesRegion: ((First, String) -> Bool)? = nil,
        writeCueAsRead: ((inout First, WebVTTCueBlockAsRead, borrowing CueSettings) throws -> Void)? = nil,
        makeFinal: (Final.Sink) -> Final,
        cueTextParseCache: CueTextParseCache? = nil
    ) throws -> (outcome: TrackConversion.Outcome, output: Final.Sink?) where First.Sink == AtomicFileSink {
        let path = firstPassPath
        let pass = try runFirstPass(
            output: PassOutput(makeWriter: { makeFirst(try AtomicFileSink(path: path)) }, writeBlockRun: writeBlockRun, namesRegion: namesRegion,
                writeCueAsRead: writeCueAsRead),
            takesCues: writeBlockRun != nil || writeCueAsRead != nil, cueTextParseCache: cueTextParseCache, report: report)
        pass.reportAfterwards(report)
        var outcome = pass.outcome
        let writer = pass.writer
        let late = pass.late
        let first = writer.sink
        defer { first.discard() }
        guard let firstPath = first.temporaryPath else {
            preconditionFailure("the first pass writes a regular file, which can be read back")
        }
        if pass.leavesInputUnchanged {
            // Valid, and nothing asked to change it: the input's own bytes are the output.
            outcome.isInputUnchanged = true
            guard copiesUnchangedInput else { return (outcome, nil) }
            var output = try makeOutput()
            try FileByteSource(path: source.path).forEachChunk { try output.write($0) }
            return (outcome, output)
        }
        if let late {
            var final = makeFinal(try makeOutput())
            try Self.merge(readingBack: firstPath, with: late, reader: reader, into: &final)
            try final.finish()
            return (outcome, final.sink)
        }
        if firstPassIsOutput {
            try first.commit()
            return (outcome, nil)
        }
        var output = try makeOutput()
        try FileByteSource(path: firstPath).forEachChunk { try output.write($0) }
        return (outcome, output)
    }

    /// True when the output is to be the input's own bytes if the input is valid: WebVTT to WebVTT
    /// from a file, with no edit, no style and the writer's default options.
    var keepsInputUnchanged: Bool {
        options.keepsValidInputUnchanged && source.isOneWebVTTFile && options.format == .webVTT && source.canBeReadAgain
            && source.options.encoding == nil && options.timing.isIdentity && !options.dropsEmptyCues && options.style == nil
            && options.webVTT == WebVTTWriterOptions()
    }

    /// The first pass, into `output`'s writer: the source read, edited and put in order. Only the
    /// input's diagnostics are reported as they come; ``FirstPass/reportAfterwards(_:)`` reports
    /// the rest.
    func runFirstPass<Writer: TrackWriter>(
        output: PassOutput<Writer>, takesCues: Bool, cueTextParseCache: CueTextParseCache?, report: (ConversionDiagnostic) -> Void
    ) throws -> FirstPass<Writer> {
        try withoutActuallyEscaping(report) { report in
            var pass = ConversionPass(
                pipeline: TrackPipeline(
                    timing: options.timing, dropsEmptyCues: options.dropsEmptyCues, style: options.style, stylePath: options.stylePath,
                    styleLocations: options.styleLocations),
                ordering: CueOrdering(
                    windowSize: options.orderingWindowSize, runLength: options.orderingRunLength, spillFolder: spillFolder,
                    recordsBlockTimes: output.takesBlockTimes),
                output: output, ordersCues: options.format != .ttml, takesCues: takesCues, cueTextParseCache: cueTextParseCache,
                report: { report(ConversionDiagnostic($0, origin: .input)) })
            var outcome = TrackConversion.Outcome()
            do {
                try source.stream(into: &pass)
            } catch let error as ReadError where pass.pipeline.counts.cuesPassed > 0 && error.diagnostic.code != IOFailure.readCode {
                // Reading stopped half-way: what was read before is good, and kept.
                outcome.stoppedBy = error
            }
            let writer = try pass.finish()
            outcome.inputErrors = pass.inputErrors + pass.pipeline.counts.droppedPastTheLatestTime
            outcome.edits = pass.pipeline.counts
            // What the input's own sheets do to the style is about the input; the rest is the
            // style's own, reported once for a batch.
            let aboutInput: Set<DiagnosticCode> = [.castFileImportant, .castOverriddenByFile]
            outcome.styleDiagnostics = pass.pipeline.styleDiagnostics.filter { !aboutInput.contains($0.code) }
            outcome.reordered = pass.ordering.reorderedCount
            outcome.lateCues = pass.ordering.late?.count ?? 0
            outcome.cuesCopied = pass.ordering.blocksTaken + pass.cuesWrittenFromBlocks
            let unchanged =
                keepsInputUnchanged && outcome.inputErrors == 0 && pass.inputWarnings == 0 && outcome.reordered == 0
                && outcome.stoppedBy == nil && writer.diagnostics.isEmpty
            return FirstPass(
                writer: writer, late: pass.ordering.late, outcome: outcome, leavesInputUnchanged: unchanged,
                styleDiagnosticsAboutInput: pass.pipeline.styleDiagnostics.filter { aboutInput.contains($0.code) })
        }
    }

    /// What the edits left out and reordered, in the order they are reported.
    static func editDiagnostics(_ outcome: TrackConversion.Outcome) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let edits = outcome.edits
        if edits.droppedBeforeZero > 0 {
            diagnostics.append(
                Diagnostic(
                    .note, .timingEditBeforeZero, at: nil,
                    "left out \(count(edits.droppedBeforeZero, "cue")) that end at or before 00:00:00.000 after the timing edit"))
        }
        if let first = edits.firstPastTheLatestTime {
            let name = first.id.isEmpty ? "the cue at \(CueTimestamp.format(first.start))" : "cue '\(first.id)' (\(CueTimestamp.format(first.start)))"
            diagnostics.append(
                Diagnostic(
                    .error, .timingEditOutOfRange, at: nil,
                    "the timing edit takes \(count(edits.droppedPastTheLatestTime, "cue")), the first \(name), past the latest time a track can hold (\(TimingEdit.latestHours) hours); they are left out"
                ))
        }
        if edits.droppedEmpty > 0 {
            diagnostics.append(Diagnostic(.note, .emptyCuesLeftOut, at: nil, "\(count(edits.droppedEmpty, "empty cue")) left out, as asked"))
        }
        if outcome.reordered > 0 {
            let how = outcome.lateCues > 0 ? " (\(count(outcome.lateCues, "cue")) merged back from sorted runs in temporary files)" : ""
            diagnostics.append(
                Diagnostic(
                    .warning, .conversionReordered, at: nil,
                    "\(count(outcome.reordered, "cue")) start before a cue ahead of them; they are written in start-time order, as WebVTT requires\(how)"
                ))
        }
        return diagnostics
    }

    /// The second pass: the first pass's output read back (it is CueKit's own, so it reads as it
    /// was written), with the late cues merged in by start time.
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

    /// `1 cue`, `2 cues`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

/// What a ``PassPlan``'s first pass did.
struct FirstPass<Writer: TrackWriter> {
    /// The pass's writer, finished.
    let writer: Writer
    /// The cues that came too late for the ordering window, to be merged in by a second pass.
    let late: LateCueRuns?
    var outcome: TrackConversion.Outcome
    /// True when the input's own bytes are the output (``PassPlan/keepsInputUnchanged``, and the
    /// input valid and in order).
    let leavesInputUnchanged: Bool
    let styleDiagnosticsAboutInput: [Diagnostic]

    /// Reports, after the input's own diagnostics, what the style's sheets did about the input's,
    /// what the writer changed and what the edits left out or reordered.
    func reportAfterwards(_ report: (ConversionDiagnostic) -> Void) {
        for diagnostic in styleDiagnosticsAboutInput { report(ConversionDiagnostic(diagnostic, origin: .input)) }
        for diagnostic in writer.diagnostics { report(ConversionDiagnostic(diagnostic, origin: .output)) }
        for diagnostic in PassPlan.editDiagnostics(outcome) { report(ConversionDiagnostic(diagnostic, origin: .conversion)) }
    }
}
