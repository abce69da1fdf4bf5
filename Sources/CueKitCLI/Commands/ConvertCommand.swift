import ArgumentParser
import CueKit
import CueKitWebVTT

/// `cuekit convert INPUT -o OUTPUT`: reads a track and writes it as WebVTT, block by block.
///
/// The input is WebVTT, TTML (any profile) or SubRip, told from its content (``TrackInput``). The
/// conversion streams: memory stays that of one block (for TTML, the head and one paragraph)
/// whatever the file's size. The output file is replaced atomically (``AtomicFileSink``): a failure leaves no
/// half-written file and never touches an existing one.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a caption track (WebVTT, TTML, SubRip) to WebVTT.",
        discussion: """
            Reads INPUT in the format its content shows (or --from names): WebVTT as browsers read \
            it, TTML in any profile (TTML1/2, IMSC, DFXP, SMPTE-TT, EBU-TT-D), or SubRip; and writes \
            it to OUTPUT as WebVTT: every cue with its identifier, times, settings and text, the \
            REGION and STYLE blocks and the NOTE comments; TTML styles become STYLE classes and its \
            regions cue settings. The output is written to a temporary file beside OUTPUT, \
            then renamed over it, so OUTPUT is never left half-written.

            Problems found in the input are printed to standard error as \
            'file:line:column: severity: message [code]'; the output is written all the same, as a \
            browser would read the input. Exit status: 0 done, 1 the input has errors (or is not a \
            WebVTT file at all), 2 a usage error or a file that cannot be read or written.
            """
    )

    @Argument(help: ArgumentHelp("The track to read; '-' reads standard input.", valueName: "input"))
    var input: String

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("Where to write; '-' (the default) writes standard output.", valueName: "output"))
    var output: String = "-"

    @Option(help: ArgumentHelp("The input's format: vtt, ttml or srt (default: told from its content).", valueName: "format"))
    var from: FormatArgument?

    @Option(help: "Line ending: lf or crlf.")
    var lineEnding: LineEndingArgument = .lf

    @Option(help: "Timestamps: 'always' with hours (00:01:02.500), or hours only 'when-needed' (01:02.500).")
    var hours: HoursArgument = .always

    @Flag(help: "Leave NOTE comments out.")
    var dropNotes = false

    @OptionGroup(title: "Limits")
    var limits: ReadLimitOptions

    /// The input as diagnostics name it.
    var inputName: String { input == "-" ? "<stdin>" : input }

    /// The writer options the flags ask for.
    var options: WebVTTWriterOptions {
        WebVTTWriterOptions(
            lineEnding: lineEnding == .crlf ? .crlf : .lf,
            hours: hours == .always ? .always : .whenNeeded,
            notes: dropNotes ? .drop : .keep)
    }

    func run() throws {
        let outcome: ConversionOutcome
        do {
            if output == "-" {
                var conversion = Conversion(
                    input: input, format: from?.format, inputName: inputName, outputName: "<stdout>", options: options,
                    limits: limits
                ) {
                    FileDescriptorSink.standardOutput()
                }
                outcome = try conversion.run()
            } else {
                var conversion = Conversion(input: input, format: from?.format, inputName: inputName, outputName: output, options: options, limits: limits) {
                    try AtomicFileSink(path: output)
                }
                outcome = try conversion.run { try $0.commit() }
            }
        } catch let error as ReadError {
            let code = error.diagnostic.code
            if code == IOFailure.readCode || code == IOFailure.writeCode {
                throw CommandFailure(error.diagnostic.message, status: .usageOrIOError)
            }
            // The input is not a track at all (no format recognised; for WebVTT no signature, for
            // TTML not well-formed XML or no tt root; or over a reading limit): nothing was written.
            throw CommandFailure(error.inFile(inputName).description, status: .invalidInput)
        }
        if outcome.inputHasErrors { throw ExitCode(ExitStatus.invalidInput.rawValue) }
    }
}

/// One conversion: the input streamed through a reader into a writer whose sink is made on the
/// first event, so that an input that cannot be read never creates or touches the output.
struct Conversion<Sink: ByteSink> {
    let input: String
    /// The input format, when the command line names it.
    let format: TrackFormat?
    let inputName: String
    let outputName: String
    let options: WebVTTWriterOptions
    /// The reading limits the command line sets.
    var limits: ReadLimitOptions? = nil
    let makeSink: () throws -> Sink

    /// Converts, then calls `complete` with the sink (to commit a file) and prints the writer's
    /// diagnostics.
    mutating func run(complete: (Sink) throws -> Void = { _ in }) throws -> ConversionOutcome {
        let source = try TrackInput.open(input, format: format, limits: limits)
        var writer: WebVTTWriter<Sink>?
        var inputHasErrors = false
        func handle(_ event: TrackEvent) throws {
            if case .diagnostic(let diagnostic) = event {
                if diagnostic.severity == .error { inputHasErrors = true }
                StandardError.write(diagnostic.formatted(file: inputName) + "\n")
                return
            }
            if writer == nil { writer = WebVTTWriter(to: try makeSink(), options: options) }
            try writer!.write(event)
        }
        try source.stream(to: handle)
        if writer == nil { writer = WebVTTWriter(to: try makeSink(), options: options) }
        try writer!.finish()
        try complete(writer!.sink)
        for diagnostic in writer!.diagnostics {
            StandardError.write(diagnostic.formatted(file: outputName) + "\n")
        }
        return ConversionOutcome(inputHasErrors: inputHasErrors)
    }
}

/// What a conversion found.
struct ConversionOutcome {
    /// The input had error diagnostics (the output was written all the same).
    var inputHasErrors: Bool
}

/// `--line-ending` values.
enum LineEndingArgument: String, ExpressibleByArgument, CaseIterable {
    case lf, crlf
}

/// `--from` values: a format's short name (`vtt`, `ttml`, `srt`) or another name
/// ``TrackFormat/init(name:)`` knows (`webvtt`, `dfxp`, `imsc`, `subrip`, ...).
struct FormatArgument: ExpressibleByArgument {
    let format: TrackFormat

    init?(argument: String) {
        guard let format = TrackFormat(name: argument) else { return nil }
        self.format = format
    }

    static var allValueStrings: [String] { TrackFormat.allCases.map(\.name) }
}

/// `--hours` values.
enum HoursArgument: String, ExpressibleByArgument, CaseIterable {
    case always
    case whenNeeded = "when-needed"
}
