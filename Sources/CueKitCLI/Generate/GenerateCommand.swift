import ArgumentParser
import CueKit
import CueKitCommandSupport
import CueKitSynthetic

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `cuekit generate`: a deterministic synthetic track, for benchmarking parsers.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a deterministic synthetic caption track, for benchmarking parsers.",
        discussion: """
            The same seed gives the same bytes on every machine, and the same cues in every format. \
            Cues have realistic timing, placement, styling tags, speakers and non-ASCII text (accents, CJK, \
            right-to-left scripts, emoji). The track is streamed: a file of any size takes no memory.

            Examples:
              cuekit generate --cues 1000000 --seed 7 -o big.vtt
              cuekit generate --cues 500 --format srt | head
              cuekit generate --cues 1000000 --no-style-region -o for-ffmpeg.vtt
              cuekit generate --cues 100000 --shape markup-heavy -o markup.vtt
            """
    )

    @Option(help: "The number of cues.")
    var cues: Int = 1_000

    @Option(help: "The seed: the same seed gives the same track.")
    var seed: UInt64 = 1

    @Option(help: "The format: vtt, srt, ttml, ass, stl or scc.")
    var format: GeneratedFormat = .vtt

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("Where to write: a file, or - for standard output.", valueName: "file"))
    var output: String = "-"

    @Flag(
        name: .customLong("no-style-region"),
        help: "Leave out WebVTT STYLE and REGION blocks (ffmpeg drops every cue after the first of them).")
    var noStyleRegion = false

    @Option(
        help: ArgumentHelp(
            "The kind of track: mixed (the default), plain, markup-heavy, settings-heavy, short-times (vtt only), crlf, non-latin, diagnostics, style-guide (what caption QC passes; not scc), styled or timed-divs (ttml only).",
            valueName: "shape"))
    var shape: GeneratedShape = .mixed

    func validate() throws {
        guard cues >= 0 else { throw ValidationError("--cues must be 0 or more, not \(cues).") }
        if noStyleRegion, format != .vtt { throw ValidationError("--no-style-region applies to --format vtt only.") }
        if !shape.shape.supports(format.generatorFormat) {
            throw ValidationError("The \(shape.rawValue) shape cannot be written as \(format.rawValue).")
        }
    }

    func run() throws {
        var generator = TrackGenerator(
            options: .init(
                cues: cues, seed: seed, format: format.generatorFormat, styleAndRegionBlocks: noStyleRegion ? .omitted : .included,
                shape: shape.shape)
        )
        do {
            var sink = try OutputSink(path: output)
            try generator.write(to: &sink)
            try sink.commit()
        } catch let error as WriteError {
            throw CommandFailure(error.message + "; check that its directory exists and is writable")
        }
    }
}

/// The formats `cuekit generate` writes, as named on its command line.
enum GeneratedFormat: String, CommandLineChoice {
    case vtt, srt, ttml, ass, stl, scc

    var generatorFormat: TrackGenerator.Format {
        switch self {
        case .vtt: .webVTT
        case .srt: .subRip
        case .ttml: .ttml
        case .ass: .ass
        case .stl: .ebuSTL
        case .scc: .scc
        }
    }
}

/// `--shape` values: ``TrackGenerator/Shape``.
enum GeneratedShape: String, CommandLineChoice {
    case mixed, plain, crlf, diagnostics, styled
    case markupHeavy = "markup-heavy"
    case settingsHeavy = "settings-heavy"
    case shortTimes = "short-times"
    case nonLatin = "non-latin"
    case timedDivs = "timed-divs"
    case styleGuide = "style-guide"

    var shape: TrackGenerator.Shape { TrackGenerator.Shape(rawValue: rawValue)! }
}
