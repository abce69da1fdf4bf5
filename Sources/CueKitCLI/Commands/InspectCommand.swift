import ArgumentParser
import CueKit
import CueKitCommandSupport
import CueKitConversion
import CueKitWebVTT

/// `cuekit inspect FILE|- [--json]`: what a caption file holds, read exactly as a browser reads
/// WebVTT (TTML and SubRip as ``TrackSource`` reads them), and every way it breaks the rules.
///
/// Exit status: 0 for a track (whatever its diagnostics), 1 when the input is not one (no
/// `WEBVTT` signature, not TTML, no format recognised, or over a reading limit), 2 for a usage or
/// I/O error.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a caption file (WebVTT, TTML, SubRip) holds, with its diagnostics.",
        discussion: """
            With --json, prints one JSON object whose keys follow HTML's VTTCue and VTTRegion:
            {"styles", "regions", "cues" (with "nodes", the cue text tree), "diagnostics"}.
            TTML and SubRip are shown as the WebVTT they convert to (cuekit convert).
            With --stats, shows what a reviewer checks instead: the time span, reading speed (median, \
            fastest, and every cue over --max-cps), overlapping cues, lines over --max-line-length and \
            empty cues; the track is streamed, so any size takes the same memory.
            Exit status: 0 for a track, 1 when the input is not one, 2 for a usage or I/O error.

            Examples:
              cuekit inspect movie.en.vtt
              cuekit inspect --json movie.ttml | jq '.cues | length'
              cuekit inspect --stats --max-cps 17 --max-line-length 37 episode.srt
            """
    )

    @Argument(help: "The file to read, or - for standard input.")
    var file: String

    @Option(help: ArgumentHelp("The input's format: vtt, ttml, srt, ass, stl or scc (default: told from its content).", valueName: "format"))
    var from: FormatArgument?

    @OptionGroup(title: "Limits")
    var limits: ReadingOptions

    @Flag(name: .long, help: "Print the track as JSON, with the keys and values a browser exposes on VTTCue and VTTRegion.")
    var json = false

    @Flag(help: "Show statistics instead of the cues: reading speed, overlaps, long lines, empty cues.")
    var stats = false

    @Option(help: ArgumentHelp("With --stats, list cues read faster than this many characters per second.", valueName: "n"))
    var maxCps: Double = 20

    @Option(help: ArgumentHelp("With --stats, list lines longer than this many characters.", valueName: "n"))
    var maxLineLength: Int = 42

    func run() throws {
        // Input spooled to a temporary file is removed if the command is stopped.
        InterruptCleanup.install()
        let input: TrackSource
        do {
            input = try TrackSource.open(file, format: from?.format, limits: limits)
        } catch let error as ReadError {
            try fail(error) { _ in }
        }
        if stats {
            var statistics = StatisticsCollector(TrackStatistics(maximumCharactersPerSecond: maxCps, maximumLineLength: maxLineLength))
            do {
                try input.streamForCommand(statistics: &statistics)
            } catch let error as ReadError {
                try fail(error) { _ in }
            }
            let statisticsFound = statistics.statistics
            if json {
                var writer = JSONWriter(sink: FileDescriptorSink.standardOutput())
                statisticsFound.writeJSON(name: displayName, format: input.format.displayName, to: &writer)
                try writer.flush()
            } else {
                var sink = FileDescriptorSink.standardOutput()
                try sink.write(statisticsFound.text(name: displayName, format: input.formatDescription))
                try sink.flush()
            }
            return
        }
        if json {
            var output = InspectJSONOutput(writer: JSONWriter(sink: FileDescriptorSink.standardOutput()))
            do {
                try input.streamForCommand { try output.take($0) }
                try output.finish(fatal: nil)
            } catch let error as ReadError {
                try fail(error) { fatal in
                    if fatal.diagnostic.code != .vttNoSignature { try output.finish(fatal: fatal.diagnostic) }
                }
            }
        } else {
            var collector = TrackCollector()
            do {
                try input.streamForCommand { collector.collect($0) }
            } catch let error as ReadError {
                try fail(error) { _ in }
            }
            var sink = FileDescriptorSink.standardOutput()
            var summary = InspectSummary(result: collector.result, name: displayName, format: input.formatDescription)
            if let listing = input.hlsMultivariantListing {
                let read = try? listing.rendition(named: input.options.hlsRendition)
                summary.renditions = listing.subtitles.map { ($0 == read ? "* " : "  ") + $0.description + ($0.uri.map { ": " + $0 } ?? "") }
            }
            try sink.write(summary.text)
            try sink.flush()
        }
    }

    private var displayName: String { file == "-" ? "<stdin>" : file }

    /// Ends the command for a read error: I/O errors exit 2, everything else (not WebVTT, a limit)
    /// exits 1, after `partialOutput` has had its say.
    private func fail(_ error: ReadError, partialOutput: (ReadError) throws -> Void) throws -> Never {
        if error.diagnostic.code == IOFailure.readCode {
            throw CommandFailure(error.diagnostic.message, status: .usageOrIOError)
        }
        try partialOutput(error)
        throw CommandFailure(located: error.inFile(displayName).description, status: .invalidInput)
    }
}

/// Streams the JSON of `inspect --json`: style sheets and regions (which all come before the
/// first cue), then each cue as it is read, then the diagnostics.
struct InspectJSONOutput<Sink: ByteSink> {
    private var writer: JSONWriter<Sink>
    private var styles: [CueStylesheet] = []
    private var regions: [CueRegion] = []
    private var regionByIdentifier: [String: CueRegion] = [:]
    private var diagnostics: [Diagnostic] = []
    private var cuesStarted = false
    private var cueCount = 0

    init(writer: JSONWriter<Sink>) {
        self.writer = writer
    }

    var sink: Sink { writer.sink }

    mutating func take(_ event: TrackEvent) throws {
        switch event {
        case .header, .note:
            break
        case .stylesheet(let sheet):
            styles.append(sheet)
        case .region(let region):
            regions.append(region)
            regionByIdentifier[region.id] = region
        case .diagnostic(let diagnostic):
            diagnostics.append(diagnostic)
        case .cue(let cue):
            if !cuesStarted { startCues() }
            writer.raw(cueCount == 0 ? "\n" : ",\n")
            cueCount += 1
            write(cue)
            try writer.flushIfFull()
        }
    }

    /// Closes the object; a fatal error that stopped reading is listed last among the diagnostics.
    mutating func finish(fatal: Diagnostic?) throws {
        if !cuesStarted { startCues() }
        writer.raw("\n],\n")
        writer.key("diagnostics")
        writer.raw("[")
        for (index, diagnostic) in (diagnostics + (fatal.map { [$0] } ?? [])).enumerated() {
            writer.raw(index == 0 ? "\n" : ",\n")
            writer.diagnostic(diagnostic)
        }
        writer.raw("\n]}\n")
        try writer.flush()
    }

    private mutating func startCues() {
        cuesStarted = true
        writer.raw("{")
        writer.key("styles")
        writer.raw("[")
        for (index, sheet) in styles.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(sheet.text)
        }
        writer.raw("],\n")
        writer.key("regions")
        writer.raw("[")
        for (index, region) in regions.enumerated() {
            writer.raw(index == 0 ? "\n" : ",\n")
            write(region)
        }
        writer.raw(regions.isEmpty ? "],\n" : "\n],\n")
        writer.key("cues")
        writer.raw("[")
    }

    private mutating func write(_ region: CueRegion) {
        writer.raw("{")
        writer.key("id")
        writer.string(region.id)
        writer.raw(",")
        writer.key("width")
        writer.number(region.width)
        writer.raw(",")
        writer.key("lines")
        writer.integer(region.lines)
        writer.raw(",")
        writer.key("regionAnchorX")
        writer.number(region.regionAnchor.x)
        writer.raw(",")
        writer.key("regionAnchorY")
        writer.number(region.regionAnchor.y)
        writer.raw(",")
        writer.key("viewportAnchorX")
        writer.number(region.viewportAnchor.x)
        writer.raw(",")
        writer.key("viewportAnchorY")
        writer.number(region.viewportAnchor.y)
        writer.raw(",")
        writer.key("scroll")
        writer.string(region.scroll.rawValue)
        writer.raw("}")
    }

    private mutating func write(_ cue: Cue) {
        let settings = cue.settings
        writer.raw("{")
        writer.key("id")
        writer.string(cue.id)
        writer.raw(",")
        writer.key("startTime")
        writer.number(CueTimestamp.seconds(cue.start))
        writer.raw(",")
        writer.key("endTime")
        writer.number(CueTimestamp.seconds(cue.end))
        writer.raw(",")
        writer.key("text")
        writer.string(cue.text)
        writer.raw(",")
        writer.key("vertical")
        writer.string(settings.vertical.rawValue)
        writer.raw(",")
        writer.key("snapToLines")
        writer.bool(settings.line.snapsToLines)
        writer.raw(",")
        writer.key("line")
        switch settings.line {
        case .auto: writer.string("auto")
        case .number(let value), .percentage(let value): writer.number(value)
        }
        writer.raw(",")
        writer.key("lineAlign")
        writer.string(settings.lineAlignment.rawValue)
        writer.raw(",")
        writer.key("position")
        switch settings.position {
        case .auto: writer.string("auto")
        case .percentage(let value): writer.number(value)
        }
        writer.raw(",")
        writer.key("positionAlign")
        writer.string(settings.positionAlignment.rawValue)
        writer.raw(",")
        writer.key("size")
        writer.number(settings.size)
        writer.raw(",")
        writer.key("align")
        writer.string(settings.alignment.rawValue)
        writer.raw(",")
        writer.key("region")
        if let id = settings.region, let region = regionByIdentifier[id] {
            write(region)
        } else {
            writer.raw("null")
        }
        writer.raw(",")
        writer.key("nodes")
        write(cue.nodes())
        writer.raw("}")
    }

    /// The cue text tree. Recursion is bounded: the parser nests at most
    /// ``CueText/maximumNestingDepth`` spans.
    private mutating func write(_ nodes: [CueNode]) {
        writer.raw("[")
        for (index, node) in nodes.enumerated() {
            if index > 0 { writer.raw(",") }
            switch node {
            case .text(let text):
                writer.raw("{")
                writer.key("type")
                writer.string("text")
                writer.raw(",")
                writer.key("value")
                writer.string(text)
                writer.raw("}")
            case .timestamp(let milliseconds):
                writer.raw("{")
                writer.key("type")
                writer.string("timestamp")
                writer.raw(",")
                writer.key("value")
                writer.number(CueTimestamp.seconds(milliseconds))
                writer.raw("}")
            case .span(let span):
                writer.raw("{")
                writer.key("type")
                writer.string(span.kind.tagName)
                writer.raw(",")
                writer.key("classes")
                writer.raw("[")
                for (classIndex, name) in span.classes.enumerated() {
                    if classIndex > 0 { writer.raw(",") }
                    writer.string(name)
                }
                writer.raw("],")
                writer.key("annotation")
                writer.string(span.kind.annotation ?? "")
                writer.raw(",")
                writer.key("children")
                write(span.children)
                writer.raw("}")
            }
        }
        writer.raw("]")
    }
}
