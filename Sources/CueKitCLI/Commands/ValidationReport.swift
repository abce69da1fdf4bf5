import CueKit
import CueKitCommandSupport
import CueKitQC

/// Where `cuekit validate` prints what it finds, file by file, diagnostic by diagnostic, as it is
/// found: as compiler lines, as JSON, or as SARIF for code-scanning tools.
protocol ValidationReport {
    /// A file is about to be checked (or could not be opened: `file.failure` says why).
    mutating func begin(_ file: FileValidation) throws
    /// One problem found in `file`.
    mutating func take(_ diagnostic: Diagnostic, in file: FileValidation) throws
    /// The file is checked; `file` holds its counts.
    mutating func end(_ file: FileValidation) throws
    /// Every file is checked.
    mutating func finish(_ summary: ValidationSummary) throws
    /// True when the report shows the cues QC findings are about (`take(_:in:)` with a `QCCueFindings`):
    /// their text is then kept for it.
    var showsCues: Bool { get }
    /// The QC findings on one cue of `file` (each already counted in `file`).
    mutating func take(_ cueFindings: QCCueFindings, in file: FileValidation) throws
}

extension ValidationReport {
    /// Reports show diagnostics alone unless they say otherwise.
    var showsCues: Bool { false }

    /// A report that does not show cues takes each finding's diagnostic.
    mutating func take(_ cueFindings: QCCueFindings, in file: FileValidation) throws {
        for finding in cueFindings.findings { try take(finding.diagnostic, in: file) }
    }
}

/// `file:line:column: severity: message [code]` on standard output, a summary line at the end;
/// a file that cannot be read is one `cuekit: error:` line on standard error.
struct TextValidationReport: ValidationReport {
    private var output = FileDescriptorSink.standardOutput()
    /// The lines of the file being checked, and the bytes of one line, reused.
    private var lines = DiagnosticLineWriter(file: nil)
    private var line: [UInt8] = []

    mutating func begin(_ file: FileValidation) throws {
        lines = DiagnosticLineWriter(file: file.path)
    }

    mutating func take(_ diagnostic: Diagnostic, in file: FileValidation) throws {
        line.removeAll(keepingCapacity: true)
        lines.append(diagnostic, to: &line)
        line.append(UInt8(ascii: "\n"))
        try output.write(line)
    }

    mutating func end(_ file: FileValidation) throws {
        if let qc = file.qc {
            for line in qc.lines(file: file.path) { try output.write(line + "\n") }
        }
        try output.flush()
        if let failure = file.failure { StandardError.write("cuekit: error: \(String(describing: failure).escapingControlCharacters)\n") }
    }

    mutating func finish(_ summary: ValidationSummary) throws {
        try output.write(summary.line + "\n")
        try output.flush()
    }
}

/// One JSON object on standard output, streamed:
/// `{"files":[{"path","format","diagnostics":[…],"errors","warnings","notes","valid","failure"}…],"summary":{…}}`.
struct JSONValidationReport: ValidationReport {
    private var writer = JSONWriter(sink: FileDescriptorSink.standardOutput())
    private var filesWritten = 0
    private var diagnosticsWritten = 0
    private let strict: Bool

    init(strict: Bool) {
        self.strict = strict
    }

    mutating func begin(_ file: FileValidation) throws {
        if filesWritten == 0 { writer.raw("{\"files\":[\n") } else { writer.raw(",\n") }
        filesWritten += 1
        diagnosticsWritten = 0
        writer.raw("{")
        writer.key("path")
        writer.string(file.path)
        writer.raw(",")
        writer.key("format")
        if let format = file.format { writer.string(format) } else { writer.raw("null") }
        writer.raw(",")
        writer.key("diagnostics")
        writer.raw("[")
    }

    mutating func take(_ diagnostic: Diagnostic, in file: FileValidation) throws {
        if diagnosticsWritten > 0 { writer.raw(",") }
        diagnosticsWritten += 1
        writer.raw("\n")
        writer.diagnostic(diagnostic)
        try writer.flushIfFull()
    }

    mutating func end(_ file: FileValidation) throws {
        writer.raw("],")
        writer.key("errors")
        writer.integer(file.errors)
        writer.raw(",")
        writer.key("warnings")
        writer.integer(file.warnings)
        writer.raw(",")
        writer.key("notes")
        writer.integer(file.notes)
        writer.raw(",")
        writer.key("valid")
        writer.bool(file.isValid)
        writer.raw(",")
        writer.key("failure")
        if let failure = file.failure { writer.string(failure) } else { writer.raw("null") }
        if let qc = file.qc {
            writer.raw(",")
            writer.key("qc")
            writer.raw("{")
            writer.key("cues")
            writer.integer(qc.cues)
            writer.raw(",")
            writer.key("rules")
            writer.raw("[")
            for (index, (rule, tally)) in qc.rules.sorted(by: { $0.key < $1.key }).enumerated() {
                writer.raw(index == 0 ? "{" : ",{")
                writer.key("code")
                writer.string(rule.rawValue)
                writer.raw(",")
                writer.key("count")
                writer.integer(tally.count)
                writer.raw(",")
                writer.key("worst")
                writer.number((tally.worst * 100).rounded() / 100)
                writer.raw(",")
                writer.key("unit")
                writer.string(rule.unit)
                writer.raw(",")
                writer.key("share")
                writer.number((qc.share(rule) * 10000).rounded() / 10000)
                writer.raw("}")
            }
            writer.raw("]}")
        }
        writer.raw("}")
        try writer.flush()
    }

    mutating func finish(_ summary: ValidationSummary) throws {
        writer.raw("\n],\n")
        writer.key("summary")
        writer.raw("{")
        writer.key("files")
        writer.integer(summary.files)
        writer.raw(",")
        writer.key("valid")
        writer.integer(summary.valid)
        writer.raw(",")
        writer.key("invalid")
        writer.integer(summary.invalid)
        writer.raw(",")
        writer.key("unreadable")
        writer.integer(summary.failed)
        writer.raw(",")
        writer.key("errors")
        writer.integer(summary.errors)
        writer.raw(",")
        writer.key("warnings")
        writer.integer(summary.warnings)
        writer.raw(",")
        writer.key("strict")
        writer.bool(strict)
        writer.raw("}}\n")
        try writer.flush()
    }
}

/// A SARIF 2.1.0 log on standard output, streamed: one run whose results are the diagnostics
/// (rule id = diagnostic code, columns in Unicode code points as CueKit counts them), files that
/// cannot be read as tool notifications, and the rules of the codes seen.
///
/// JSON members are unordered, so the `tool` member, which lists the rules, comes after the
/// results it describes: nothing has to be held back while files are read.
struct SARIFValidationReport: ValidationReport {
    private var writer = JSONWriter(sink: FileDescriptorSink.standardOutput())
    private var started = false
    private var resultsWritten = 0
    private var codes: Set<DiagnosticCode> = []
    private var failures: [(path: String, message: String)] = []

    mutating func begin(_ file: FileValidation) throws {
        if !started {
            started = true
            writer.raw(
                "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"columnKind\":\"unicodeCodePoints\",\"results\":["
            )
        }
    }

    mutating func take(_ diagnostic: Diagnostic, in file: FileValidation) throws {
        if resultsWritten > 0 { writer.raw(",") }
        resultsWritten += 1
        codes.insert(diagnostic.code)
        writer.raw("\n{")
        writer.key("ruleId")
        writer.string(diagnostic.code.rawValue)
        writer.raw(",")
        writer.key("level")
        writer.string(diagnostic.severity.rawValue)
        writer.raw(",")
        writer.key("message")
        writer.raw("{")
        writer.key("text")
        writer.string(diagnostic.message)
        writer.raw("},")
        writer.key("locations")
        writer.raw("[{")
        writer.key("physicalLocation")
        writer.raw("{")
        writer.key("artifactLocation")
        writer.raw("{")
        writer.key("uri")
        writer.string(Self.uri(file.path))
        writer.raw("}")
        if let location = diagnostic.location {
            writer.raw(",")
            writer.key("region")
            writer.raw("{")
            writer.key("startLine")
            writer.integer(location.line)
            writer.raw(",")
            writer.key("startColumn")
            writer.integer(location.column)
            writer.raw("}")
        }
        writer.raw("}}]}")
        try writer.flushIfFull()
    }

    mutating func end(_ file: FileValidation) throws {
        if let failure = file.failure { failures.append((file.path, failure)) }
        try writer.flush()
    }

    mutating func finish(_ summary: ValidationSummary) throws {
        writer.raw("\n],")
        writer.key("invocations")
        writer.raw("[{")
        writer.key("executionSuccessful")
        writer.bool(failures.isEmpty)
        writer.raw(",")
        writer.key("toolExecutionNotifications")
        writer.raw("[")
        for (index, failure) in failures.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("{")
            writer.key("level")
            writer.string("error")
            writer.raw(",")
            writer.key("message")
            writer.raw("{")
            writer.key("text")
            writer.string(failure.message)
            writer.raw("},")
            writer.key("locations")
            writer.raw("[{")
            writer.key("physicalLocation")
            writer.raw("{")
            writer.key("artifactLocation")
            writer.raw("{")
            writer.key("uri")
            writer.string(Self.uri(failure.path))
            writer.raw("}}}]}")
        }
        writer.raw("]}],")
        writer.key("tool")
        writer.raw("{")
        writer.key("driver")
        writer.raw("{")
        writer.key("name")
        writer.string("cuekit")
        writer.raw(",")
        writer.key("version")
        writer.string(CueKitCommand.configuration.version)
        writer.raw(",")
        writer.key("rules")
        writer.raw("[")
        for (index, code) in codes.sorted().enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("{")
            writer.key("id")
            writer.string(code.rawValue)
            if let rule = QCRule(code: code) {
                writer.raw(",")
                writer.key("name")
                writer.string(rule.title)
                writer.raw(",")
                writer.key("shortDescription")
                writer.raw("{")
                writer.key("text")
                writer.string(rule.title)
                writer.raw("},")
                writer.key("help")
                writer.raw("{")
                writer.key("text")
                writer.string(rule.help)
                writer.raw("}")
            }
            writer.raw("}")
        }
        writer.raw("]}}}]}\n")
        try writer.flush()
    }

    /// A relative URI reference for a path: unreserved characters and `/` as they are, every other
    /// byte percent-encoded (RFC 3986).
    static func uri(_ path: String) -> String {
        if path == "<stdin>" { return "stdin" }
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return result
    }
}

extension QCSummary {
    /// `file: qc: qc-reading-speed: 12 of 340 cues (3.5%), worst 31.2 characters per second`, one
    /// line per rule that found something, or one line saying none did.
    func lines(file: String) -> [String] {
        guard !rules.isEmpty else { return ["\(file): qc: \(cues) cues, no findings"] }
        return rules.sorted { $0.key < $1.key }.map { rule, tally in
            let percent = Self.number((share(rule) * 1000).rounded() / 10)
            let worst = Self.number(tally.worst)
            return "\(file): qc: \(rule.rawValue): \(tally.count) of \(cues) cues (\(percent)%), worst \(worst) \(rule.unit)"
        }
    }

    /// A number with at most two decimals, as JSON and the summary lines print it.
    static func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        let fraction = magnitude % 100
        if fraction == 0 { return sign + "\(magnitude / 100)" }
        return sign + "\(magnitude / 100)." + (fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0" : "") + "\(fraction)")
    }
}
