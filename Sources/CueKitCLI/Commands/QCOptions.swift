import ArgumentParser
import CueKit
import CueKitCast
import CueKitCommandSupport
import CueKitConversion
import CueKitQC
import CueKitTTML
import CueKitWebVTT

/// `--qc` and the options that go with it: which style guide a track is checked against (or fixed
/// for), for which language and audience, at which frame rate, and against which shot changes.
struct QCOptions: ParsableArguments {
    @Option(
        name: .customLong("qc"),
        help: ArgumentHelp("Check against a style guide: netflix, bbc, dcmp or fcc-608.", valueName: "profile"))
    var profileName: String?

    @Option(name: .customLong("qc-file"), help: ArgumentHelp("Check against the rules in this JSON profile.", valueName: "rules.json"))
    var profileFile: String?

    @Option(
        name: .customLong("language"),
        help: ArgumentHelp(
            "The track's language for the profile's per-language rules (default: the track's own, else general rules).", valueName: "tag"))
    var language: String?

    @Option(help: ArgumentHelp("adult or children: whose reading speeds apply.", valueName: "audience"))
    var audience: QCAudienceArgument = .adult

    @Option(
        name: .customLong("frame-rate"),
        help: ArgumentHelp("The video's frame rate for the frame-based rules: 24000/1001 (the default), 25, 29.97...", valueName: "rate"))
    var frameRate: FrameRate = .film

    @Option(help: ArgumentHelp("Shot changes, one time a line (seconds, hh:mm:ss.mmm or hh:mm:ss:ff).", valueName: "file"))
    var shotChanges: String?

    @Option(
        help: ArgumentHelp(
            "Shot changes found in this video by ffmpeg's scene detection (scene score over 0.4; needs ffmpeg).", valueName: "media"))
    var shotChangesFrom: String?

    /// True when a profile is named.
    var isOn: Bool { profileName != nil || profileFile != nil }

    func validate() throws {
        if profileName != nil && profileFile != nil { throw ValidationError("Use --qc or --qc-file, not both.") }
        if !isOn && (shotChanges != nil || shotChangesFrom != nil || audience != .adult) {
            throw ValidationError("--audience, --shot-changes and --shot-changes-from go with --qc or --qc-file.")
        }
        if shotChanges != nil && shotChangesFrom != nil { throw ValidationError("Use --shot-changes or --shot-changes-from, not both.") }
    }

    /// The profile named, read and checked.
    func profile() throws -> QCProfile {
        do {
            if let profileName { return try QCProfile.builtIn(named: profileName) }
            guard let profileFile else { throw CommandFailure("no QC profile named") }
            let bytes = try FileByteSource(path: profileFile).readAll()
            return try QCProfile(json: bytes)
        } catch let error as QCProfileError {
            throw CommandFailure("\(profileFile ?? "--qc \(profileName ?? "")"): \(error)")
        } catch let error as ReadError {
            throw CommandFailure(error.diagnostic.message)
        }
    }

    /// The languages a track names for itself when `--language` is not given: `declared` by the
    /// document (a TTML root's `xml:lang`; a WebVTT `Language:` header line is read as the track
    /// streams, by ``QCTrackCheck``), and `named` by its file name as its Cast track's would be
    /// (`movie.fr.srt`, ``CaptionFileHints``), which the declared one wins over. Standard input
    /// has no name, and its TTML is not read ahead.
    static func trackLanguages(of input: TrackSource, file: String) -> (declared: String?, named: String?) {
        guard file != "-" else { return (nil, nil) }
        let named = CaptionFileHints(fileName: file).language
        guard input.format == .ttml else { return (nil, named) }
        return ((try? TTMLReader.rootLanguage(fileAtPath: file)) ?? nil, named)
    }

    /// The shot changes, in milliseconds, sorted; none without --shot-changes or --shot-changes-from.
    func shotChangeTimes() throws -> [Int] {
        if let shotChangesFrom { return try FFmpegSceneDetection.shotChanges(in: shotChangesFrom) }
        guard let shotChanges else { return [] }
        do {
            let bytes = try FileByteSource(path: shotChanges).readAll()
            return try QCShotChanges.parse(String(decoding: bytes, as: UTF8.self), frameRate: frameRate)
        } catch let error as QCShotChangeError {
            throw CommandFailure("\(shotChanges): \(error)")
        } catch let error as ReadError {
            throw CommandFailure(error.diagnostic.message)
        }
    }
}

/// What `--audience` accepts.
enum QCAudienceArgument: String, CommandLineChoice {
    case adult
    case children

    var audience: QCProfile.Audience { self == .children ? .children : .adult }
}

extension FrameRate: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(parsing: argument)
    }

    public var defaultValueDescription: String { numerator % denominator == 0 ? description : "\(numerator)/\(denominator)" }
}

/// Reads a track for `cuekit validate --qc`: the reader's diagnostics, and the QC rules' findings
/// on each cue, handed to the report in the order they are found and counted in the file's outcome.
///
/// WebVTT cues are checked on the reader's bytes with their timing line
/// (``WebVTTBytesConsumer/see(_:)``), so the
/// reader still builds no cue; other formats hand over whole cues. A report that shows cues
/// (``ValidationReport/showsCues``) gets each cue's findings with its times and text, the text made
/// a string only for a cue with findings; the others get the diagnostics alone.
struct QCValidationConsumer: WebVTTBytesConsumer {
    var check: QCTrackCheck
    var report: any ValidationReport
    var outcome: FileValidation
    /// True when the report takes findings cue by cue, with the cue's text.
    private let showsCues: Bool
    /// Findings made inside `see`: handed on at the next event.
    private var pending: [Diagnostic] = []
    private var pendingCues: [QCCueFindings] = []
    /// The first error thrown while checking a cue inside `see`.
    private var failure: (any Error)?
    /// The findings of the cue being checked, for a report that shows cues.
    private var found: [QCFinding] = []

    init(check: QCTrackCheck, report: any ValidationReport, outcome: FileValidation) {
        self.check = check
        self.report = report
        self.outcome = outcome
        showsCues = report.showsCues
    }

    var seesCuesAsRead: Bool { true }

    mutating func see(_ cue: WebVTTCueAsRead) {
        check(text: cue.text, textHasMarkup: cue.textHasMarkup, start: cue.start, end: cue.end, timingLine: cue.timingLine)
    }

    private mutating func check(text: UnsafeRawBufferPointer, textHasMarkup: Bool, start: Int, end: Int, timingLine: Int) {
        guard failure == nil else { return }
        do {
            guard showsCues else {
                try check.take(text: text, textHasMarkup: textHasMarkup, start: start, end: end, timingLine: timingLine) {
                    pending.append($0)
                }
                return
            }
            try check.take(text: text, textHasMarkup: textHasMarkup, start: start, end: end, timingLine: timingLine) {
                found.append($0)
            }
        } catch {
            failure = error
        }
        guard !found.isEmpty else { return }
        pendingCues.append(QCCueFindings(start: start, end: end, text: String(decoding: text, as: UTF8.self), findings: found))
        found.removeAll(keepingCapacity: true)
    }

    mutating func take(_ event: TrackEvent) throws {
        try flush()
        if case .diagnostic(let diagnostic) = event { try deliver(diagnostic) }
        guard showsCues else {
            var diagnostics: [Diagnostic] = []
            try check.take(event) { diagnostics.append($0) }
            for diagnostic in diagnostics { try deliver(diagnostic) }
            return
        }
        try check.take(event) { found.append($0) }
        if case .cue(let cue) = event, !found.isEmpty {
            let cueFindings = QCCueFindings(start: cue.start, end: cue.end, text: cue.text, findings: found)
            found.removeAll(keepingCapacity: true)
            try deliver(cueFindings)
        }
    }

    /// Counts one diagnostic and hands it to the report.
    mutating func deliver(_ diagnostic: Diagnostic) throws {
        outcome.count(diagnostic)
        try report.take(diagnostic, in: outcome)
    }

    /// Counts one cue's findings and hands them to the report.
    mutating func deliver(_ cueFindings: QCCueFindings) throws {
        for finding in cueFindings.findings { outcome.count(finding.diagnostic) }
        try report.take(cueFindings, in: outcome)
    }

    /// Hands on the findings kept back.
    mutating func flush() throws {
        if let failure { throw failure }
        if !pending.isEmpty {
            let held = pending
            pending.removeAll(keepingCapacity: true)
            for diagnostic in held { try deliver(diagnostic) }
        }
        if !pendingCues.isEmpty {
            let held = pendingCues
            pendingCues.removeAll(keepingCapacity: true)
            for cueFindings in held { try deliver(cueFindings) }
        }
    }
}

/// One cue's QC findings with the cue's times and text, for a report that shows the cue.
struct QCCueFindings {
    var start: Int
    var end: Int
    /// The cue's WebVTT cue text, lines joined by LF.
    var text: String
    var findings: [QCFinding]
}
