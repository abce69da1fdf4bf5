import CueKit
import CueKitCommandSupport
import CueKitConversion

/// Everything `cuekit convert` does to a track, the same for every input of a batch.
struct ConversionSettings: Sendable {
    /// The input format, when the command line names it; otherwise each input's content tells.
    var inputFormat: TrackFormat?
    /// How inputs are read (`--encoding`, the limits, `--unregioned`).
    var reading = TrackSource.Options()
    /// The conversion itself: the output format, the edits, the style.
    var conversion = TrackConversion.Options()
    /// Leave the input's diagnostics out of standard error (the exit status still counts them).
    var quiet = false

    /// The output format.
    var outputFormat: TrackFormat { conversion.format }
}

/// One input converted by the engine every door shares (``TrackConversion``), its diagnostics
/// printed on standard error as they come, each naming the file it is about.
struct ConversionJob {
    let settings: ConversionSettings

    /// Converts `input` (`-` for standard input) to `output` (`-` for standard output, otherwise a
    /// file replaced atomically). Throws a ``ReadError`` when the input cannot be read as a track,
    /// or a file cannot be read or written: then no output file is left behind. Diagnostics name
    /// the input `inputName` when given (a fetched rendition: its address), else its path.
    func run(input: String, output: String, inputName: String? = nil) throws -> TrackConversion.Outcome {
        let inputName = inputName ?? (input == "-" ? "<stdin>" : input)
        let outputName = output == "-" ? "<stdout>" : output
        let source = try TrackSource(path: input, format: settings.inputFormat, options: settings.reading)
        let conversion = TrackConversion(source: source, options: settings.conversion)
        let quiet = settings.quiet
        var printer = DiagnosticPrinter()
        defer { printer.flush() }
        func report(_ found: ConversionDiagnostic) {
            switch found.origin {
            case .input, .conversion:
                if quiet, found.diagnostic.severity < .error { return }
                printer.print(found.diagnostic, file: inputName)
            case .output:
                printer.print(found.diagnostic, file: outputName)
            }
        }
        do {
            var outcome = output == "-" ? try conversion.writeToStandardOutput(report: report) : try conversion.write(toFileAt: output, report: report)
            outcome.stoppedBy = outcome.stoppedBy.map(source.explainedForCommand)
            return outcome
        } catch let error as ReadError {
            throw source.explainedForCommand(error)
        }
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
