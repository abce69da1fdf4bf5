import CueKit
import CueKitCast
import CueKitSubRip
import CueKitTTML
import CueKitWebVTT

/// Everything `cuekit convert` does to a track, the same for every input of a batch.
struct ConversionSettings: Sendable {
    /// The input format, when the command line names it; otherwise each input's content tells.
    var inputFormat: TrackFormat?
    /// The output format: WebVTT or SubRip.
    var outputFormat: TrackFormat = .webVTT
    var webVTT = WebVTTWriterOptions()
    var subRip = SubRipWriterOptions()
    var timing = TimingEdit()
    /// Drop cues with no text to show.
    var dropEmpty = false
    /// The Cast style baked into WebVTT output, with where it was read from for its diagnostics.
    var style: (style: TextTrackStyle, path: JSONPath, locations: JSONLocations)?
    /// Leave the input's diagnostics out of standard error (the exit status still counts them).
    var quiet = false
    /// The WebVTT reader's limits (`--max-line-bytes`, `--max-block-bytes`).
    var webVTTLimits = WebVTTReader.Options.Limits()
    /// The encoding of SubRip and WebVTT input without a byte order mark (`--encoding`).
    var encoding: TextEncoding?
    /// How TTML is read (`--unregioned`).
    var ttmlOptions = TTMLReaderOptions()
}

/// What converting one input did.
struct ConversionOutcome: Sendable {
    /// Error diagnostics in the input (the output was written all the same).
    var inputErrors = 0
    /// Cues dropped because they end at or before 0 after the timing edit.
    var droppedBeforeZero = 0
    /// Cues dropped by `--drop-empty`.
    var droppedEmpty = 0
    /// The style's own diagnostics (reported once per run, not per file).
    var styleDiagnostics: [Diagnostic] = []
}

/// One conversion: the input streamed through its reader, the edits, and a writer whose sink is
/// made on the first event, so that an input that cannot be read never creates or touches the
/// output.
struct ConversionJob {
    let settings: ConversionSettings

    /// Converts `input` (`-` for standard input) to `output` (`-` for standard output, otherwise a
    /// file replaced atomically). Throws a ``ReadError`` when the input cannot be read as a track,
    /// or a file cannot be read or written: then no output file is left behind.
    func run(input: String, output: String) throws -> ConversionOutcome {
        let inputName = input == "-" ? "<stdin>" : input
        var source = try TrackInput.open(input, format: settings.inputFormat)
        source.webVTTLimits = settings.webVTTLimits
        source.encoding = settings.encoding
        source.ttmlOptions = settings.ttmlOptions
        if output == "-" {
            return try run(source, inputName: inputName, outputName: "<stdout>") { FileDescriptorSink.standardOutput() } complete: { sink in
                var sink = sink
                try sink.flush()
            }
        }
        return try run(source, inputName: inputName, outputName: output) { try AtomicFileSink(path: output) } complete: { try $0.commit() }
    }

    private func run<Sink: ByteSink>(
        _ source: TrackInput, inputName: String, outputName: String, makeSink: () throws -> Sink, complete: (Sink) throws -> Void
    ) throws -> ConversionOutcome {
        switch settings.outputFormat {
        case .subRip:
            return try pump(source, inputName: inputName, outputName: outputName, complete: complete) {
                SubRipWriter(to: try makeSink(), options: settings.subRip)
            }
        case .webVTT, .ttml:
            return try pump(source, inputName: inputName, outputName: outputName, complete: complete) {
                WebVTTWriter(to: try makeSink(), options: settings.webVTT)
            }
        }
    }

    private func pump<Writer: TrackWriter>(
        _ source: TrackInput, inputName: String, outputName: String, complete: (Writer.Sink) throws -> Void,
        makeWriter: () throws -> Writer
    ) throws -> ConversionOutcome {
        var outcome = ConversionOutcome()
        var writer: Writer?
        var applier = settings.style.map { CastStyleApplier(style: $0.style, at: $0.path, locations: $0.locations) }
        let timing = settings.timing
        let quiet = settings.quiet
        let dropEmpty = settings.dropEmpty

        func emit(_ event: TrackEvent) throws {
            if writer == nil { writer = try makeWriter() }
            try writer!.write(event)
        }
        func styled(_ event: TrackEvent) throws {
            if applier != nil { try applier!.process(event, to: emit) } else { try emit(event) }
        }
        try source.stream { event in
            switch event {
            case .diagnostic(let diagnostic):
                if diagnostic.severity == .error { outcome.inputErrors += 1 }
                if !quiet { StandardError.write(diagnostic.formatted(file: inputName) + "\n") }
            case .cue(var cue):
                if !timing.isIdentity {
                    guard let edited = timing.apply(to: cue) else {
                        outcome.droppedBeforeZero += 1
                        return
                    }
                    cue = edited
                }
                if dropEmpty, Self.isEmpty(cue) {
                    outcome.droppedEmpty += 1
                    return
                }
                try styled(.cue(cue))
            default:
                try styled(event)
            }
        }
        if applier != nil {
            try applier!.finish(to: emit)
            outcome.styleDiagnostics = applier!.diagnostics
        }
        if writer == nil { writer = try makeWriter() }
        try writer!.finish()
        try complete(writer!.sink)
        for diagnostic in writer!.diagnostics {
            StandardError.write(diagnostic.formatted(file: outputName) + "\n")
        }
        if outcome.droppedBeforeZero > 0 {
            StandardError.write(
                "\(inputName): note: left out \(Self.count(outcome.droppedBeforeZero, "cue")) that end at or before 00:00:00.000 after the timing edit\n"
            )
        }
        if outcome.droppedEmpty > 0 {
            StandardError.write("\(inputName): note: \(Self.count(outcome.droppedEmpty, "empty cue")) left out (--drop-empty)\n")
        }
        return outcome
    }

    /// True when the cue shows no text: nothing but white space once its markup is removed.
    static func isEmpty(_ cue: Cue) -> Bool {
        let text = cue.text.utf8.contains(UInt8(ascii: "<")) || cue.text.utf8.contains(UInt8(ascii: "&")) ? cue.nodes.plainText : cue.text
        return text.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
