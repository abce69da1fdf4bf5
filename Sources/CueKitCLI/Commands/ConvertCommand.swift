import ArgumentParser
import CueKit
import CueKitCommandSupport
import CueKitConversion
import CueKitQC
import CueKitSCC
import CueKitSubRip
import CueKitTTML
import CueKitWebVTT

#if canImport(Glibc)
import Glibc
#endif

/// `cuekit convert INPUT... (-o OUTPUT | --output-dir DIR)`: reads tracks and writes them as WebVTT
/// or SubRip, block by block, with the timing edits and the Cast style a pipeline asks for.
///
/// The input is WebVTT, TTML (any profile) or SubRip, told from its content (``TrackSource``). Each
/// conversion streams: memory stays that of one block (for TTML, the head and one paragraph)
/// whatever the file's size. Output files are replaced atomically (``AtomicFileSink``): a failure or
/// Ctrl-C leaves no half-written file and never touches an existing one. Many inputs are converted
/// in parallel (``BatchConversion``).
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert caption tracks (WebVTT, TTML, SubRip, ASS, EBU-STL, SCC) to WebVTT, SubRip, TTML or SCC.",
        discussion: """
            Reads each INPUT in the format its content shows (or --from names): WebVTT as browsers read \
            it, TTML in any profile (TTML1/2, IMSC, DFXP, SMPTE-TT, EBU-TT-D), or SubRip; and writes it \
            as WebVTT (every cue with its identifier, times, settings and text, the REGION and STYLE \
            blocks and the NOTE comments; TTML styles become STYLE classes), SubRip, or TTML (IMSC 1.1 \
            Text, EBU-TT-D or TTML1: cue settings become regions, ::cue rules styles). Outputs are \
            written to a temporary file beside them, then renamed, so none is ever left half-written. \
            WebVTT and SubRip cues are written in start-time order, as WebVTT requires, with memory \
            bounded (sorted runs spill to temporary files); the reordering is reported once.

            Timing edits: every time t becomes t x SCALE + SHIFT, exactly, rounded to the millisecond \
            (halves away from zero). --frame-rate 25:23.976 retimes a track made for a 25 fps (PAL \
            sped-up) video for the 23.976 fps one: times x 25/(24000/1001).

            Problems in the inputs go to standard error as 'file:line:column: severity: message \
            [code]'; the output is written all the same, as a browser would read the input, and the \
            conversion succeeds: malformed captions are the normal case, and a pipeline under \
            'set -e' should not stop on them (--strict makes input errors fail). Exit status: 0 \
            every output written; 1 some output could not be made (an input that is not a track, or \
            in a batch a file that failed), or --strict and an input has errors; 2 a usage error, or \
            (one input) a file that cannot be read or written; 128 + the signal's number when \
            interrupted (130 for Ctrl-C, 143 for SIGTERM).

            Examples:
              cuekit convert episode.srt -o episode.vtt
              cuekit convert movie.ttml -o - | gzip > movie.vtt.gz
              cuekit convert captions/*.ttml --output-dir web/ --jobs 4
              cuekit convert pal.vtt -o film.vtt --frame-rate 25:23.976 --shift -1.5s
              cuekit convert in.vtt -o out.vtt --foreground '#FFFF00' --edge-type OUTLINE
              cuekit convert ep.srt -o ep.ttml --ttml-profile ebu-tt-d
            """
    )

    @Argument(help: ArgumentHelp("The tracks to read; '-' reads standard input.", valueName: "input"))
    var inputs: [String]

    @Flag(
        help: ArgumentHelp(
            "Read an http or https HLS playlist given as input, downloaded first with its segments (as by 'cuekit fetch').",
            discussion: "Diagnostics name the address; the downloaded files are removed after the conversion."))
    var fetch = false

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("Where to write one input; '-' writes standard output (the default).", valueName: "output"))
    var output: String?

    @Option(help: ArgumentHelp("Write each input into this folder (made if missing), named after it.", valueName: "dir"))
    var outputDir: String?

    @Option(help: ArgumentHelp("The inputs' format: vtt, ttml, srt, ass, stl or scc (default: told from each one's content).", valueName: "format"))
    var from: FormatArgument?

    @Option(help: ArgumentHelp("The output format: vtt, srt, ttml or scc (default: from the output's extension, else vtt).", valueName: "format"))
    var to: FormatArgument?

    @Option(help: ArgumentHelp("The TTML profile written: imsc1.1 (the default), ebu-tt-d or ttml1.", valueName: "profile"))
    var ttmlProfile: TTMLProfileArgument = .imsc11

    @Option(help: ArgumentHelp("The TTML document's language, xml:lang (BCP 47; default: und).", valueName: "tag"))
    var language: String = "und"

    @Option(
        help: ArgumentHelp(
            "Inner timestamps in TTML output: whole-cue (the default: the whole text for the whole cue, as WebVTT players show it) or paint-on (the text after each one shown from its time).",
            valueName: "mode"))
    var timestamps: InnerTimestampsArgument = .wholeCue

    @Option(
        help: ArgumentHelp(
            "The look TTML cues start from: webvtt (the default: white sans-serif on 80% black, 5% of the video high, as WebVTT players draw cues) or ttml (only the track's own styles, at TTML's default size).",
            valueName: "look"))
    var ttmlLook: TTMLLookArgument = .webVTT

    @Option(help: ArgumentHelp("How many files to convert at once (default: one per core).", valueName: "n"))
    var jobs: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Move every time by this much: -1.5s, 250ms, 2m, 00:00:01.500.", valueName: "duration"))
    var shift: String?

    @Option(help: ArgumentHelp("Multiply every time by this factor: 1.001, 25/24.", valueName: "factor"))
    var scale: String?

    @Option(
        help: ArgumentHelp(
            "Retime from one frame rate to another: FROM:TO, such as 25:23.976. TTML output writes its times in frames at TO, or at RATE given alone; SCC output its timecodes at RATE (30: non-drop; default 29.97 drop-frame), and SCC input (.scc, --from scc) is read at RATE.",
            valueName: "[from:]to"))
    var frameRate: String?

    @Flag(help: "SCC output: non-drop-frame timecodes (hh:mm:ss:ff) at 29.97, in place of drop-frame (hh:mm:ss;ff).")
    var nonDropFrame = false

    @Flag(help: "Leave out cues with no text to show.")
    var dropEmpty = false

    @Option(
        name: .customLong("qc-fix"),
        help: ArgumentHelp(
            "Make a style guide's mechanical fixes (netflix, bbc, dcmp, fcc-608): widen short gaps, extend short cues, split long lines; each change is reported.",
            valueName: "profile"))
    var qcFix: String?

    @Option(help: ArgumentHelp("With --qc-fix: adult or children.", valueName: "audience"))
    var audience: QCAudienceArgument = .adult

    @Option(
        help: ArgumentHelp("With --qc-fix: the video's frame rate gaps are counted in (default 24000/1001).", valueName: "rate"))
    var qcFrameRate: FrameRate = .film

    @Option(help: "Line ending: lf or crlf (default: lf for WebVTT, crlf for SubRip).")
    var lineEnding: LineEndingArgument?

    @Option(help: "WebVTT timestamps: 'always' with hours (00:01:02.500), or hours only 'when-needed' (01:02.500).")
    var hours: HoursArgument = .always

    @Flag(help: "Leave NOTE comments out (WebVTT).")
    var dropNotes = false

    @Flag(help: "Write WebVTT in its canonical form even when the input is valid WebVTT and nothing asks to change it (by default such a file is written byte for byte).")
    var normalize = false

    @Option(
        help: ArgumentHelp(
            "TTML text that selects no region in a document that defines regions: 'hidden', as TTML says, or shown in the 'default-region', as players do.",
            valueName: "mode"))
    var unregioned: UnregionedArgument = .hidden

    @Flag(name: [.customShort("q"), .long], help: "Do not print the inputs' diagnostics (with --strict, the exit status still counts them).")
    var quiet = false

    @Flag(help: "Exit 1 when an input has errors, though its output was written.")
    var strict = false

    // How many cues the ordering window holds and how many late cues make one spilled run: hidden,
    // for tests that make the spilling path run on small inputs.
    @Option(help: .hidden) var orderingWindow = TrackConversion.Options().orderingWindowSize
    @Option(help: .hidden) var orderingRunLength = TrackConversion.Options().orderingRunLength

    @OptionGroup(title: "Limits")
    var limits: ReadingOptions

    @OptionGroup(title: "Text track style (WebVTT output)")
    var style: StyleOptions

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("Name at least one input ('-' for standard input).") }
        if output != nil && outputDir != nil { throw ValidationError("Give either -o/--output or --output-dir, not both.") }
        if let unknown = unknownOutputExtension {
            let known = TrackFormat.allCases.filter(\.isWritten).map { "\($0.displayName) (\($0.fileExtensions.map { "." + $0 }.joined(separator: ", ")))" }
            throw ValidationError(
                "'.\(unknown)' names no format cuekit writes: \(known.joined(separator: ", ")); name the output with one of those, or give --to vtt|srt|ttml|scc.")
        }
        if !outputFormat.isWritten {
            throw ValidationError("cuekit reads \(outputFormat.displayName) but does not write it: give --to vtt|srt|ttml|scc, or an output named .vtt, .srt, .ttml or .scc.")
        }
        if inputs.count > 1 {
            if outputDir == nil { throw ValidationError("Many inputs need --output-dir DIR; -o names the output of one input.") }
            if inputs.contains("-") { throw ValidationError("Standard input ('-') is converted alone, with -o.") }
            let outputs = BatchConversion.outputPaths(for: inputs, in: outputDir!, format: outputFormat)
            var seen: [String: String] = [:]
            for (input, path) in zip(inputs, outputs) {
                if let other = seen[path] { throw ValidationError("'\(other)' and '\(input)' would both be written to '\(path)'.") }
                seen[path] = input
            }
        }
        if qcFix != nil && (inputs.count > 1 || outputDir != nil) { throw ValidationError("--qc-fix converts one input, with -o.") }
        if qcFix == nil && audience != .adult { throw ValidationError("--audience goes with --qc-fix.") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a number of 1 or more.") }
        if scale != nil && frameRate != nil { throw ValidationError("Give either --scale or --frame-rate, not both.") }
        _ = try timing()
        if !style.isEmpty && outputFormat == .subRip {
            throw ValidationError("The style options write a WebVTT STYLE block or TTML styles; they need WebVTT or TTML output.")
        }
        if let frameRate, !frameRate.contains(":") {
            if outputFormat == .scc || readsSCC {
                guard SCCFrameRate(argument: frameRate) != nil else {
                    throw ValidationError("--frame-rate: '\(frameRate)' is not a rate SCC timecodes count at (\(SCCFrameRate.allCases.map(\.rawValue).joined(separator: ", "))).")
                }
            } else if outputFormat != .ttml {
                throw ValidationError(
                    "--frame-rate with one rate writes TTML times in frames, or SCC timecodes, or reads SCC timecodes; to retime, give FROM:TO.")
            }
        }
        if outputFormat == .ttml, let frameRate, ttmlFrameRate == nil {
            throw ValidationError("--frame-rate: '\(frameRate)' is not a frame rate TTML can write (25, 29.97, 30000/1001).")
        }
    }

    /// True when the inputs are SCC by `--from scc` or their extension: then a single
    /// `--frame-rate RATE` is also the rate their timecodes count at (unless `--scc-frame-rate`).
    var readsSCC: Bool {
        from.map { $0.format == .scc } ?? inputs.contains { TrackFormat(path: $0) == .scc }
    }

    /// The output format: `--to`, else the output file's extension, else WebVTT.
    var outputFormat: TrackFormat {
        if let to { return to.format }
        if let output, output != "-", let format = TrackFormat(path: output) { return format }
        return .webVTT
    }

    /// The output's extension when it names no format CueKit writes (and `--to` does not say).
    var unknownOutputExtension: String? {
        guard to == nil, let output, output != "-", TrackFormat(path: output) == nil else { return nil }
        let name = output.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// The frame rate TTML times are written in: `--frame-rate`'s rate, or its TO.
    var ttmlFrameRate: TTMLWriterOptions.FrameRate? {
        guard let frameRate else { return nil }
        let rate = frameRate.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? frameRate
        return TTMLWriterOptions.FrameRate(rate)
    }

    /// The timing edit the flags ask for.
    func timing() throws -> TimingEdit {
        var edit = TimingEdit()
        do {
            if let scale { (edit.numerator, edit.denominator) = try TimingEdit.parseScale(scale) }
            if let frameRate, frameRate.contains(":") { (edit.numerator, edit.denominator) = try TimingEdit.parseFrameRates(frameRate) }
            if let shift { edit.shift = try TimingEdit.parseDuration(shift) }
        } catch {
            throw ValidationError(error.description)
        }
        return edit
    }

    func run() throws {
        InterruptCleanup.install()
        var settings = ConversionSettings()
        settings.inputFormat = from?.format
        settings.conversion.format = outputFormat
        settings.conversion.webVTT = WebVTTWriterOptions(
            lineEnding: lineEnding == .crlf ? .crlf : .lf,
            hours: hours == .always ? .always : .whenNeeded,
            notes: dropNotes ? .drop : .keep)
        settings.conversion.subRip = SubRipWriterOptions(lineEnding: lineEnding == .lf ? .lf : .crlf)
        settings.conversion.ttml = TTMLWriterOptions(
            profile: ttmlProfile.profile, frameRate: ttmlFrameRate, language: language, innerTimestamps: timestamps.mode,
            look: ttmlLook.look)
        settings.conversion.scc = SCCWriterOptions(
            frameRate: frameRate.flatMap { $0.contains(":") ? nil : SCCFrameRate(argument: $0) } ?? .ntsc, dropFrame: !nonDropFrame)
        settings.conversion.timing = try timing()
        settings.conversion.dropsEmptyCues = dropEmpty
        settings.conversion.keepsValidInputUnchanged = !normalize
        settings.conversion.orderingWindowSize = orderingWindow
        settings.conversion.orderingRunLength = orderingRunLength
        settings.quiet = quiet
        limits.apply(to: &settings.reading)
        if limits.sccFrameRate == nil, readsSCC, let frameRate, !frameRate.contains(":") {
            settings.reading.scc.frameRate = SCCFrameRate(argument: frameRate)
        }
        settings.reading.ttml.unregionedContent = unregioned.content
        let resolved = try style.resolve()
        if let resolved {
            settings.conversion.style = resolved.style
            settings.conversion.stylePath = resolved.path
            settings.conversion.styleLocations = resolved.locations
        }

        if let outputDir {
            try Self.makeFolder(outputDir)
            let results = BatchConversion(
                inputs: inputs, outputDirectory: outputDir, jobs: jobs ?? Self.activeCores, settings: settings
            ).run()
            var failed = 0, withErrors = 0
            for result in results {
                switch result {
                case .failed: failed += 1
                case .converted(let outcome):
                    if outcome.stoppedBy != nil {
                        failed += 1
                    } else if outcome.inputErrors > 0 {
                        withErrors += 1
                    }
                }
            }
            if let resolved, case .converted(let first)? = results.first(where: { if case .converted = $0 { true } else { false } }) {
                resolved.report(first.styleDiagnostics)
            }
            if failed > 0 || withErrors > 0 {
                StandardError.write(
                    "cuekit: \(results.count - failed) of \(results.count) files converted; \(failed) failed, \(withErrors) with errors in the input\n")
            }
            if failed > 0 || (strict && withErrors > 0) { throw ExitCode(ExitStatus.invalidInput.rawValue) }
            return
        }

        try RemoteInput.withLocalCopy(of: inputs[0], fetches: fetch) { local, remote in
            try convert(local, named: remote ? inputs[0] : nil, settings: settings, style: resolved)
        }
    }

    /// Converts one input (`convert` without `--output-dir`), named `inputName` in diagnostics
    /// when given.
    private func convert(_ local: String, named inputName: String?, settings: ConversionSettings, style resolved: StyleOptions.ResolvedStyle?) throws {
        var settings = settings
        var input = local
        var fixedInput: String?
        if let qcFix {
            fixedInput = try fixForQC(input: input, profileName: qcFix, settings: &settings)
            input = fixedInput!
        }
        defer { if let fixedInput { unlink(fixedInput) } }
        let outcome: TrackConversion.Outcome
        do {
            outcome = try ConversionJob(settings: settings).run(input: input, output: output ?? "-", inputName: inputName)
        } catch let error as WriteError {
            throw CommandFailure(error.message, status: .usageOrIOError)
        } catch let error as ReadError {
            if error.diagnostic.code == IOFailure.readCode {
                throw CommandFailure(error.diagnostic.message, status: .usageOrIOError)
            }
            // The input is not a track at all (no format recognised; for WebVTT no signature, for
            // TTML not well-formed XML or no tt root; or over a reading limit): nothing was written.
            throw CommandFailure(located: error.inFile(inputName ?? (input == "-" ? "<stdin>" : input)).description, status: .invalidInput)
        }
        resolved?.report(outcome.styleDiagnostics)
        if let stopped = outcome.stoppedBy {
            Self.reportStopped(stopped, input: inputName ?? input, outcome: outcome)
            throw ExitCode(ExitStatus.invalidInput.rawValue)
        }
        if strict, outcome.inputErrors > 0 { throw ExitCode(ExitStatus.invalidInput.rawValue) }
    }

    /// Reading stopped half-way: the error, and what the output holds.
    static func reportStopped(_ error: ReadError, input: String, outcome: TrackConversion.Outcome) {
        let name = input == "-" ? "<stdin>" : input
        StandardError.write(error.diagnostic.formatted(file: name) + "\n")
        StandardError.write(
            "\(name.escapingControlCharacters): note: reading stopped there; the output holds the \(ConversionJob.count(outcome.cuesWritten, "cue")) read before it\n")
    }

    /// The cores this process may run on.
    static var activeCores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Makes `path` and its parents, as `mkdir -p`; an I/O failure names it.
    static func makeFolder(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o777) != 0 && errno != EEXIST {
                throw CommandFailure("cannot make the folder '\(prefix)': \(String(cString: strerror(errno)))")
            }
            prefix += "/"
        }
        var status = stat()
        if stat(path, &status) != 0 || (status.st_mode & S_IFMT) != S_IFDIR {
            throw CommandFailure("'\(path)' is not a folder")
        }
    }
}

/// `--ttml-profile` values: ``TTMLWriterOptions/Profile``.
enum TTMLProfileArgument: String, CommandLineChoice {
    case imsc11 = "imsc1.1"
    case ebuTTD = "ebu-tt-d"
    case ttml1

    var profile: TTMLProfile {
        switch self {
        case .imsc11: .imsc11
        case .ebuTTD: .ebuTTD
        case .ttml1: .ttml1
        }
    }
}

/// `--timestamps` values: ``TTMLWriterOptions/InnerTimestamps``.
enum InnerTimestampsArgument: String, CommandLineChoice {
    case wholeCue = "whole-cue"
    case paintOn = "paint-on"

    var mode: TTMLWriterOptions.InnerTimestamps {
        switch self {
        case .wholeCue: .wholeCue
        case .paintOn: .paintOn
        }
    }
}

/// `--line-ending` values.
enum LineEndingArgument: String, CommandLineChoice {
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
/// `--unregioned` values: ``TTMLReader/Options/UnregionedContent``.
enum UnregionedArgument: String, CommandLineChoice {
    case hidden
    case defaultRegion = "default-region"

    var content: TTMLReader.Options.UnregionedContent {
        switch self {
        case .hidden: .hidden
        case .defaultRegion: .defaultRegion
        }
    }
}

enum HoursArgument: String, CommandLineChoice {
    case always
    case whenNeeded = "when-needed"
}

/// `--ttml-look` values: ``TTMLWriterOptions/Look``.
enum TTMLLookArgument: String, CommandLineChoice {
    case webVTT = "webvtt"
    case ttml

    var look: TTMLWriterOptions.Look {
        switch self {
        case .webVTT: .webVTT
        case .ttml: .ttml
        }
    }
}
