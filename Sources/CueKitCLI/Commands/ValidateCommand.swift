import ArgumentParser
import CueKit
import CueKitCast
import CueKitCommandSupport
import CueKitConversion
import CueKitQC

/// `cuekit validate FILE...`: checks caption files and Cast messages against their specs, as a
/// compiler checks sources, for CI jobs that must refuse a broken track before it ships.
///
/// Each file is read with its format's own reader (WebVTT by the W3C authoring rules, TTML, SubRip)
/// or, when it is a JSON document, checked as a Cast message as a receiver would. Diagnostics are
/// printed as they are found, never collected, so that memory stays flat whatever the file's size.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check caption files (WebVTT, TTML, SubRip) and Cast messages against their specs.",
        discussion: """
            Prints each problem as FILE:LINE:COLUMN: SEVERITY: MESSAGE [CODE], as it is found, then a \
            summary line. A file is valid when it has no errors (with --strict, no warnings either). \
            A JSON file is checked as a Cast message (LOAD, EDIT_TRACKS_INFO, media information or a \
            text track style). A TTML document is also checked against the constraints of the profile \
            it declares (IMSC 1.1 Text, EBU-TT-D, TTML1), or of --ttml-profile.

            Exit status: 0 every file is valid; 1 some file is invalid; 2 a usage error or a file \
            that cannot be read (the other files are still checked).

            Examples:
              cuekit validate captions/*.vtt
              cuekit validate --strict --format sarif movie.en.vtt > cuekit.sarif
              curl -s https://example.com/captions.srt | cuekit validate -
              cuekit validate --ttml-profile ebu-tt-d delivery/*.ttml
              cuekit validate --qc netflix --shot-changes cuts.txt ep.fr.vtt
              cuekit validate --qc fcc-608 --qc-summary show.vtt
              cuekit validate --qc bbc --format html -o report.html ep1.vtt ep2.srt

            Caption QC: --qc NAME (netflix, bbc, dcmp, fcc-608) or --qc-file RULES.json checks each \
            track against a style guide too: reading speed, characters per line, lines per cue, \
            minimum and maximum duration, the gap between cues in frames at --frame-rate (default \
            24000/1001), overlaps, characters and markup the guide forbids, line balance (a note), \
            and cues near the shot changes in --shot-changes (or found by ffmpeg's scene detection in \
            the video --shot-changes-from names; scene score over 0.4). Each finding has its own code \
            (qc-reading-speed, qc-gap, ...) and says the value measured and the limit. Per-language \
            rules follow --language, else the track's own (a WebVTT 'Language:' header line, a TTML \
            root's xml:lang), else the language its file name gives its Cast track (movie.fr.srt); \
            children's reading speeds follow --audience children. --qc-summary adds, per rule, the \
            count, the worst value and the share of cues.

            --format html -o report.html writes one self-contained page: per file a summary per \
            code (with --qc, the worst value and the share of cues), a histogram of the cues' \
            reading speeds with the profile's limit marked (with --qc), and a table of the cues with \
            findings, the offending values marked (at most 1000 rows a file; the page says when \
            it stops).
            """
    )

    @Argument(help: ArgumentHelp("The files to check; '-' reads standard input.", valueName: "file"))
    var files: [String]

    @Flag(help: ArgumentHelp("Check http or https HLS playlists given as files, downloaded first with their segments (as by 'cuekit fetch')."))
    var fetch = false

    @Option(help: ArgumentHelp("Read every file as: vtt, ttml, srt or cast (default: told from each file's content).", valueName: "format"))
    var from: ValidationFormat?

    @Option(name: .customLong("format"), help: "How to print the results: text, json, sarif or html.")
    var outputFormat: ValidationOutputFormat = .text

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp(
            "With --format html: write the page to this file (replaced atomically; default: standard output).", valueName: "file"))
    var output: String?

    @Flag(help: "Count warnings as errors.")
    var strict = false

    @Option(
        help: ArgumentHelp(
            "Check TTML against this profile's constraints: imsc1.1, ebu-tt-d or ttml1 (default: the profile each document declares).",
            valueName: "profile"))
    var ttmlProfile: TTMLProfileArgument?

    @OptionGroup(title: "Limits")
    var limits: ReadingOptions

    @OptionGroup(title: "Caption QC")
    var qc: QCOptions

    @Flag(help: "With --qc: per rule, the count, the worst value and the share of cues.")
    var qcSummary = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one file to check ('-' for standard input).") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input ('-') can be read only once.") }
        if qcSummary && !qc.isOn { throw ValidationError("--qc-summary goes with --qc or --qc-file.") }
        if output != nil && outputFormat != .html { throw ValidationError("--output goes with --format html.") }
    }

    func run() throws {
        // Input spooled to a temporary file is removed if the command is stopped.
        InterruptCleanup.install()
        let qcSetup = try qc.isOn ? QCSetup(profile: qc.profile(), shotChanges: qc.shotChangeTimes()) : nil
        var report: any ValidationReport
        do {
            report =
                switch outputFormat {
                case .text: TextValidationReport()
                case .json: JSONValidationReport(strict: strict)
                case .sarif: SARIFValidationReport()
                case .html: try HTMLValidationReport(path: output ?? "-", checkedAgainst: qcSetup.map(qcDescription))
                }
        } catch let error as WriteError {
            throw CommandFailure(error.message)
        }
        var summary = ValidationSummary(strict: strict)
        for file in files {
            let outcome: FileValidation
            if RemoteInput.isRemote(file) {
                outcome = try validateRemote(file, into: &report, qc: qcSetup)
            } else {
                outcome = try validate(file, into: &report, qc: qcSetup)
            }
            summary.add(outcome)
            try report.end(outcome)
        }
        try report.finish(summary)
        if summary.failed > 0 { throw ExitCode(ExitStatus.usageOrIOError.rawValue) }
        if summary.invalid > 0 { throw ExitCode(ExitStatus.invalidInput.rawValue) }
    }

    /// `Netflix Timed Text Style Guide (netflix), adult audience, 23.976 fps`, for the HTML page.
    private func qcDescription(_ setup: QCSetup) -> String {
        var text = "\(setup.profile.title) (\(setup.profile.name)), \(qc.audience.rawValue) audience"
        if let language = qc.language { text += ", language \(language)" }
        return text + ", \(qc.frameRate) fps for the frame-based rules"
    }

    /// Checks a remote playlist, fetched first (``RemoteInput``); one that cannot be fetched, or
    /// is not to be without `--fetch`, is a file that could not be checked.
    private func validateRemote(_ url: String, into report: inout any ValidationReport, qc qcSetup: QCSetup?) throws -> FileValidation {
        var reason = "\(url) is remote: add --fetch to check it"
        if fetch {
            do {
                return try RemoteInput.withLocalCopy(of: url, fetches: true) { local, _ in
                    try validate(local, named: url, into: &report, qc: qcSetup)
                }
            } catch is ExitCode {
                reason = "\(url) cannot be fetched"
            }
        }
        var outcome = FileValidation(path: url, strict: strict)
        outcome.failure = reason
        try report.begin(outcome)
        return outcome
    }

    /// Checks one file, handing each diagnostic to `report` as it is found; diagnostics name it
    /// `shownName` when given (a fetched playlist's address).
    private func validate(
        _ file: String, named shownName: String? = nil, into report: inout any ValidationReport, qc qcSetup: QCSetup?
    ) throws -> FileValidation {
        let name = shownName ?? (file == "-" ? "<stdin>" : file)
        var outcome = FileValidation(path: name, strict: strict)
        var input: TrackSource
        do {
            input = try TrackSource.open(file, format: from?.trackFormat, limits: limits)
            input.options.ttmlProfileCheck = ttmlProfile.map { .profile($0.profile) } ?? .declared
            // Validation looks at diagnostics alone: no cue is built.
            input.options.webVTTCueContent = .diagnosticsOnly
        } catch let error as ReadError {
            outcome.failure = error.diagnostic.message
            try report.begin(outcome)
            return outcome
        }
        let isCast = from == .cast || (from == nil && input.startsLikeJSON)
        outcome.format = isCast ? "Cast message" : input.formatDescription
        try report.begin(outcome)
        do {
            if isCast {
                let result = CastMessage.check(try input.readAll(upTo: CastMessage.defaultMaximumLength))
                for diagnostic in result.diagnostics {
                    outcome.count(diagnostic)
                    try report.take(diagnostic, in: outcome)
                }
                if result.message == nil && outcome.errors == 0 {
                    let diagnostic = Diagnostic(.error, "cast-not-a-message", at: nil, "not a Cast message")
                    outcome.count(diagnostic)
                    try report.take(diagnostic, in: outcome)
                }
            } else if let qcSetup {
                let ownLanguages = QCOptions.trackLanguages(of: input, file: file)
                var check = QCTrackCheck(
                    profile: qcSetup.profile, language: qc.language ?? ownLanguages.declared, fallbackLanguage: ownLanguages.named,
                    audience: qc.audience.audience, frameRate: qc.frameRate,
                    shotChanges: qcSetup.shotChanges, recordsReadingSpeeds: outputFormat == .html)
                // A TTML cue is located at its p element; its text lines are not the file's.
                check.textLinesFollowLocation = input.format != .ttml
                var consumer = QCValidationConsumer(check: check, report: report, outcome: outcome)
                defer {
                    report = consumer.report
                    outcome = consumer.outcome
                    if qcSummary || outputFormat == .html { outcome.qc = consumer.check.summary }
                }
                do {
                    try input.stream(into: &consumer)
                    try consumer.flush()
                } catch let error as ReadError {
                    throw input.explainedForCommand(error)
                }
            } else {
                var reportError: (any Error)?
                try input.streamForCommand { event in
                    guard case .diagnostic(let diagnostic) = event, reportError == nil else { return }
                    outcome.count(diagnostic)
                    do { try report.take(diagnostic, in: outcome) } catch { reportError = error }
                }
                if let reportError { throw reportError }
            }
        } catch let error as ReadError {
            if error.diagnostic.code == IOFailure.readCode {
                outcome.failure = error.diagnostic.message
            } else {
                // The reader stopped: not this format at all, or over a limit. It is one more error.
                outcome.count(error.diagnostic)
                try report.take(error.diagnostic, in: outcome)
            }
        }
        return outcome
    }
}

/// What `--from` of `cuekit validate` accepts: a track format or a Cast message.
enum ValidationFormat: ExpressibleByArgument, Equatable {
    case track(TrackFormat)
    case cast

    init?(argument: String) {
        if argument.lowercased() == "cast" || argument.lowercased() == "json" {
            self = .cast
        } else if let format = TrackFormat(name: argument) {
            self = .track(format)
        } else {
            return nil
        }
    }

    var trackFormat: TrackFormat? {
        if case .track(let format) = self { return format }
        return nil
    }

    static var allValueStrings: [String] { TrackFormat.allCases.map(\.name) + ["cast"] }
}

/// What `--format` of `cuekit validate` accepts.
enum ValidationOutputFormat: String, CommandLineChoice {
    case text
    case json
    case sarif
    case html
}

/// What checking one file found: counts, never the diagnostics themselves.
struct FileValidation {
    /// The file as diagnostics name it (`<stdin>` for standard input).
    var path: String
    /// Whether warnings count as errors.
    var strict: Bool
    /// The format it was read as, once known.
    var format: String?
    var errors = 0
    var warnings = 0
    var notes = 0
    /// Why the file could not be read at all (an I/O error), if it could not.
    var failure: String?
    /// What the QC rules found, rule by rule (`--qc-summary`).
    var qc: QCSummary?

    init(path: String, strict: Bool) {
        self.path = path
        self.strict = strict
    }

    mutating func count(_ diagnostic: Diagnostic) {
        switch diagnostic.severity {
        case .error: errors += 1
        case .warning: warnings += 1
        case .note: notes += 1
        }
    }

    /// True when the file was read and has no errors (no warnings either, when strict).
    var isValid: Bool { failure == nil && errors == 0 && !(strict && warnings > 0) }
}

/// The totals over every file, for the summary line and the exit status.
struct ValidationSummary {
    var strict: Bool
    var files = 0
    var valid = 0
    var invalid = 0
    var failed = 0
    var errors = 0
    var warnings = 0

    mutating func add(_ file: FileValidation) {
        files += 1
        errors += file.errors
        warnings += file.warnings
        if file.failure != nil {
            failed += 1
        } else if file.isValid {
            valid += 1
        } else {
            invalid += 1
        }
    }

    /// `3 files: 2 valid, 1 invalid (4 errors, 2 warnings)`.
    var line: String {
        var parts = ["\(valid) valid"]
        if invalid > 0 { parts.append("\(invalid) invalid") }
        if failed > 0 { parts.append("\(failed) unreadable") }
        var text = "\(Self.count(files, "file")): " + parts.joined(separator: ", ")
        text +=
            " (\(Self.count(errors, "error")), \(Self.count(warnings, "warning"))\(strict && warnings > 0 ? ", warnings are errors" : ""))"
        return text
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

/// The QC profile and shot changes of one `cuekit validate --qc` run, read once for every file.
struct QCSetup {
    var profile: QCProfile
    var shotChanges: [Int]
}
