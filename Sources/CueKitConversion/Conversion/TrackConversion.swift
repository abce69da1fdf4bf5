import CueKit
import CueKitCast
import CueKitSCC
import CueKitSubRip
import CueKitTTML
import CueKitWebVTT

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One conversion of a track, the same through every door (`cuekit convert`, `cuekit serve`'s
/// `/tracks`, the examples): any format read (``TrackSource``), the edits (``TrackPipeline``: a
/// timing edit, empty cues left out, a Cast style baked in), cues put in start-time order with
/// bounded memory (``CueOrdering``), and a WebVTT, SubRip, TTML or SCC writer.
///
/// The output is first written to a file that can be read back: the destination's temporary file,
/// or for any other sink a temporary file (``TemporaryFiles``). When cues came too late for the
/// ordering window, that file is read back and merged with them. A file destination is replaced
/// atomically, and an input that cannot be read leaves it untouched.
///
/// ```swift
/// let conversion = TrackConversion(source: try TrackSource(path: "movie.srt"),
///                                  options: .init(format: .webVTT, style: style))
/// let outcome = try conversion.write(toFileAt: "movie.vtt") { diagnostic in print(diagnostic) }
/// ```
public struct TrackConversion: Sendable {
    /// The track read.
    public var source: TrackSource
    /// What is written, and how.
    public var options: Options

    /// A conversion of `source`.
    public init(source: TrackSource, options: Options = Options()) {
        self.source = source
        self.options = options
    }

    /// Converts into the file at `path`, replaced atomically (a path that exists and is not a
    /// regular file, such as a FIFO or `/dev/stdout`, is written as a stream). `report` receives
    /// each diagnostic as it is found. Throws the source's fatal ``ReadError`` (no output is then
    /// left behind), or the destination's ``WriteError``.
    @discardableResult
    public func write(toFileAt path: String, report: (ConversionDiagnostic) -> Void = { _ in }) throws -> Outcome {
        guard Self.isRegularFileOrAbsent(path) else {
            var made: AtomicFileSink?
            defer { made?.discard() }
            let outcome = try convert(
                firstPassPath: TemporaryFiles.folder + "/cuekit-output", spillFolder: TemporaryFiles.folder, firstPassIsOutput: false,
                report: report
            ) {
                let sink = try AtomicFileSink(path: path)
                made = sink
                return sink
            }
            try made?.commit()
            return outcome.outcome
        }
        let (outcome, output) = try convert(firstPassPath: path, spillFolder: Self.folder(of: path), firstPassIsOutput: true, report: report) {
            try AtomicFileSink(path: path)
        }
        // The first pass's file was committed, or this one replaces it.
        try output?.commit()
        return outcome
    }

    /// Converts into `sink` (the caller flushes or commits it), through a temporary file.
    @discardableResult
    public func write<Sink: ByteSink>(to sink: inout Sink, report: (ConversionDiagnostic) -> Void = { _ in }) throws -> Outcome {
        let given = sink
        let (outcome, written) = try convert(
            firstPassPath: TemporaryFiles.folder + "/cuekit-output", spillFolder: TemporaryFiles.folder, firstPassIsOutput: false,
            report: report
        ) { given }
        if let written { sink = written }
        return outcome
    }

    /// Converts to standard output, through a temporary file, and flushes it.
    @discardableResult
    public func writeToStandardOutput(report: (ConversionDiagnostic) -> Void = { _ in }) throws -> Outcome {
        var sink = FileDescriptorSink.standardOutput()
        let outcome = try write(to: &sink, report: report)
        try sink.flush()
        return outcome
    }

    /// The conversion with the output format's writers. `firstPassIsOutput`: the first pass writes
    /// the destination's own temporary file (made by `makeOutput`), committed unless cues came late;
    /// otherwise `makeOutput` is the final sink, made once the first pass is done. Returns the
    /// final sink when it was written to. `copiesUnchangedInput`: ``PassPlan/copiesUnchangedInput``.
    func convert<Output: ByteSink>(
        firstPassPath: String, spillFolder: String, firstPassIsOutput: Bool, copiesUnchangedInput: Bool = true,
        report: (ConversionDiagnostic) -> Void, makeOutput: () throws -> Output
    ) throws -> (outcome: Outcome, output: Output?) {
        var plan = PassPlan(
            firstPassPath: firstPassPath, spillFolder: spillFolder, firstPassIsOutput: firstPassIsOutput, options: options, source: source)
        plan.copiesUnchangedInput = copiesUnchangedInput
        switch options.format {
        case .webVTT:
            // From WebVTT, every cue comes from the reader, its identifier and text untouched by
            // the edits: they are copied as they are, without the writer's check. Where no edit
            // changes them, cue blocks that are already what the writer writes are copied whole;
            // from SubRip, such cues are written as blocks by the reader's sink.
            let copiesText = source.isOneWebVTTFile
            let copiesBlocks =
                (copiesText || source.format == .subRip) && options.copiesCueBlocks
                && WebVTTWriter<AtomicFileSink>.copiesCueBlocks(with: options.webVTT)
            let writerOptions = options.webVTT
            return try plan.run(
                report: report, makeOutput: makeOutput, reader: WebVTTReader(),
                makeFirst: { (sink: AtomicFileSink) -> WebVTTWriter<AtomicFileSink> in
                    var writer = WebVTTWriter(to: sink, options: writerOptions)
                    writer.copiesReadCueText = copiesText
                    return writer
                },
                writeBlockRun: copiesBlocks ? { writer, blocks, count, _ in try writer.writeCueBlocks(blocks, count: count) } : nil,
                namesRegion: copiesBlocks ? { writer, id in writer.namesRegion(id) } : nil,
                makeFinal: { (sink: Output) -> WebVTTWriter<Output> in
                    var writer = WebVTTWriter(to: sink, options: writerOptions)
                    writer.copiesReadCueText = copiesText
                    return writer
                })
        case .ass, .ebuSTL:
            throw FormatNotWritten(format: options.format)
        case .scc:
            // Read back (when late cues are merged in), CueKit's own SCC shows the same captions.
            let writerOptions = options.scc
            return try plan.run(
                report: report, makeOutput: makeOutput, reader: SCCReader(options: .init(frameRate: writerOptions.frameRate)),
                makeFirst: { SCCWriter(to: $0, options: writerOptions) }, writeBlockRun: nil,
                makeFinal: { SCCWriter(to: $0, options: writerOptions) })
        case .subRip:
            let writerOptions = options.subRip
            return try plan.run(
                report: report, makeOutput: makeOutput, reader: SubRipReader(), makeFirst: { SubRipWriter(to: $0, options: writerOptions) },
                writeBlockRun: nil, makeFinal: { SubRipWriter(to: $0, options: writerOptions) })
        case .ttml:
            // TTML times every paragraph itself: its cues are not put in order, and the first
            // pass is never read back.
            // From WebVTT, the writer takes each cue text's parse from the reader's check, and
            // writes the cue blocks the reader reads whole straight from their bytes.
            let writerOptions = options.ttml
            let cache = source.isOneWebVTTFile ? CueTextParseCache() : nil
            var writeCueAsRead: ((inout TTMLWriter<AtomicFileSink>, WebVTTCueBlockAsRead, borrowing CueSettings) throws -> Void)?
            if cache != nil, options.copiesCueBlocks { writeCueAsRead = Self.writeTTMLCue }
            return try plan.run(
                report: report, makeOutput: makeOutput, reader: TTMLReader(),
                makeFirst: { (sink: AtomicFileSink) -> TTMLWriter<AtomicFileSink> in
                    cache.map { TTMLWriter(to: sink, options: writerOptions, sharingCueTextEventsWith: $0) } ?? TTMLWriter(to: sink, options: writerOptions)
                },
                writeBlockRun: nil,
                writeCueAsRead: writeCueAsRead,
                makeFinal: { TTMLWriter(to: $0, options: writerOptions) }, cueTextParseCache: cache)
        }
    }

    /// Writes the cue of a WebVTT cue block read whole as a TTML paragraph, from its bytes.
    private static func writeTTMLCue(
        _ writer: inout TTMLWriter<AtomicFileSink>, _ block: WebVTTCueBlockAsRead, _ settings: borrowing CueSettings
    ) throws {
        try writer.writeCue(
            identifier: block.identifier, start: block.start, end: block.end, settings: settings, text: block.text,
            textMayHaveMarkup: block.textHasMarkup)
    }

    /// True when `path` names a regular file, or nothing yet.
    static func isRegularFileOrAbsent(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return true }
        return (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The folder a path is in (`.` for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// A diagnostic of a conversion, with what it is about: the input, the conversion's edits, or the
/// output.
public struct ConversionDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// What a diagnostic is about, and so which file it names.
    public enum Origin: Sendable, Hashable {
        /// The input track (its location is in the input).
        case input
        /// What the conversion did to the cues: left out, or put in order (no location).
        case conversion
        /// The output, as the writer adjusted it.
        case output
    }

    public var diagnostic: Diagnostic
    public var origin: Origin

    public init(_ diagnostic: Diagnostic, origin: Origin) {
        self.diagnostic = diagnostic
        self.origin = origin
    }

    public var description: String { diagnostic.description }
}

/// A conversion to a format CueKit reads but does not write (``TrackFormat/isWritten``).
public struct FormatNotWritten: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format asked for.
    public var format: TrackFormat

    public var description: String { "CueKit reads \(format.displayName) but does not write it: convert to WebVTT, SubRip, TTML or SCC" }
}
