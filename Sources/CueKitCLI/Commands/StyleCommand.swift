import ArgumentParser
import CueKit
import CueKitCast
import CueKitCommandSupport
import CueKitWebVTT

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
              cuekit style movie.en.vtt -o movie.en.styled.vtt --foreground '#FFFF00' --edge-type outline --font-scale 1.5
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
        var applier = CastStyleApplier(style: resolved.style, at: resolved.path, locations: resolved.locations)
        var inputErrors = 0
        let writerDiagnostics: [Diagnostic]
        do {
            var writer = WebVTTWriter(to: try OutputSink(path: output))
            var reader = WebVTTReader()
            try reader.stream(fileAtPath: input) { event in
                if case .diagnostic(let diagnostic) = event {
                    if diagnostic.severity == .error { inputErrors += 1 }
                    StandardError.write(diagnostic.formatted(file: input) + "\n")
                    return
                }
                try applier.process(event) { try writer.write($0) }
            }
            try applier.finish { try writer.write($0) }
            try writer.finish()
            var sink = writer.sink
            try sink.commit()
            writerDiagnostics = writer.diagnostics
        } catch let error as WriteError {
            throw CommandFailure(error.message)
        } catch let error as ReadError {
            if error.diagnostic.code == IOFailure.readCode { throw CommandFailure(error.diagnostic.message) }
            StandardError.write(error.description + "\n")
            throw CommandFailure("\(input) cannot be read as WebVTT; nothing was written", status: .invalidInput)
        }
        if applier.stylesheet == nil {
            StandardError.write(
                "cuekit: note: the style sets nothing WebVTT can carry; \(output) holds the input's cues and styles unchanged\n")
        }
        let fileDiagnostics = applier.diagnostics.filter { $0.code == .castFileImportant }
        resolved.report(applier.diagnostics.filter { $0.code != .castFileImportant })
        for diagnostic in fileDiagnostics { StandardError.write(diagnostic.formatted(file: input) + "\n") }
        for diagnostic in writerDiagnostics { StandardError.write(diagnostic.formatted(file: output) + "\n") }
        if inputErrors > 0 {
            throw CommandFailure(
                "\(input) has \(CastCheckCommand.count(inputErrors, "error")); \(output) was written as a receiver reads the input",
                status: .invalidInput
            )
        }
    }
}
