import ArgumentParser
import CueKit
import CueKitCast
import CueKitCommandSupport
import CueKitConversion

/// `cuekit style INPUT -o OUTPUT`: bake a Cast text track style into a WebVTT file, so that it
/// renders the same on every player.
struct StyleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "style",
        abstract: "Bake a Google Cast TextTrackStyle into a WebVTT file as ::cue CSS.",
        discussion: """
            The style becomes one ::cue rule in a STYLE block after the file's own, so it wins over the file's \
            general ::cue rules while the file's class and voice rules still style their spans. Styling a styled \
            file replaces the earlier style. The window fields (--window-*) have no WebVTT equivalent and are \
            reported, not written. The file is streamed: any size takes the memory of one cue. Exit status: 0 \
            when written; 1 when the input or the style file has errors (the output is still written when the \
            input could be read); 2 for a usage or I/O error.

            Examples:
              cuekit style movie.en.vtt -o styled.vtt \\
                --foreground '#FFFF00' --edge-type outline --font-scale 1.5
              cuekit style movie.en.vtt -o - --style load.json
            """
    )

    @Argument(help: ArgumentHelp("The WebVTT file ('-' for standard input).", valueName: "input"))
    var input: String

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("The styled file ('-' for standard output); it may be the input.", valueName: "output"))
    var output: String

    @OptionGroup(title: "Text track style")
    var style: StyleOptions

    func validate() throws {
        if style.isEmpty {
            throw ValidationError("give a style: --style style.json, or at least one of --foreground, --background, --edge-type, ...")
        }
    }

    func run() throws {
        guard let resolved = try style.resolve() else { return }
        var options = TrackConversion.Options(format: .webVTT, style: resolved.style)
        options.stylePath = resolved.path
        options.styleLocations = resolved.locations
        let outcome: TrackConversion.Outcome
        do {
            let conversion = TrackConversion(source: try TrackSource(path: input, format: .webVTT), options: options)
            var printer = DiagnosticPrinter()
            defer { printer.flush() }
            func report(_ found: ConversionDiagnostic) {
                printer.print(found.diagnostic, file: found.origin == .output ? output : input)
            }
            outcome = output == "-" ? try conversion.writeToStandardOutput(report: report) : try conversion.write(toFileAt: output, report: report)
        } catch let error as WriteError {
            throw CommandFailure(error.message)
        } catch let error as ReadError {
            if error.diagnostic.code == IOFailure.readCode { throw CommandFailure(error.diagnostic.message) }
            StandardError.write(error.description + "\n")
            throw CommandFailure("\(input) cannot be read as WebVTT; nothing was written", status: .invalidInput)
        }
        if TrackPipeline(style: resolved.style).stylesheet == nil {
            StandardError.write(
                "cuekit: note: the style sets nothing WebVTT can carry; \(output) holds the input's cues and styles unchanged\n")
        }
        resolved.report(outcome.styleDiagnostics)
        if let stopped = outcome.stoppedBy {
            ConvertCommand.reportStopped(stopped, input: input, outcome: outcome)
            throw ExitCode(ExitStatus.invalidInput.rawValue)
        }
        if outcome.inputErrors > 0 {
            throw CommandFailure(
                "\(input) has \(CastCheckCommand.count(outcome.inputErrors, "error")); \(output) was written as a receiver reads the input",
                status: .invalidInput
            )
        }
    }
}
