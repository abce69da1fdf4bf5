import CueKit
import CueKitCommandSupport
import CueKitQC

/// `cuekit validate --format html`: one self-contained page (no scripts, fonts or images from
/// elsewhere) for a QA team, written as the files are checked and replaced atomically.
///
/// For each file: a summary per diagnostic code (for QC rules, the worst value and the share of
/// cues, as `--qc-summary` prints them), a histogram of the cues' reading speeds drawn as inline
/// SVG with the profile's limit marked (with `--qc`), and a table of the cues with findings (their
/// times and text, the offending line, character or tag marked, each finding's code, its measured
/// value marked beside the limit, and its message). Reader diagnostics outside a cue are rows of
/// their own. Memory stays bounded: rows are written as they come, at most ``maximumRows`` per
/// file (the page says when it stops), the summary holds one counter per code and the histogram
/// one per bin. The summary and histogram are written after the table and shown above it
/// (`order` in a flex column), so that nothing is held back.
struct HTMLValidationReport: ValidationReport {
    /// The most rows a file's table lists; the findings past it still count in the summary.
    static let maximumRows = 1000

    private var sink: OutputSink
    private var buffer = ""
    /// The profile, frame rate and audience, said at the top of the page (nil without `--qc`).
    private let checkedAgainst: String?
    private var started = false
    /// The current file's rows written, rows left out, and findings per code.
    private var rows = 0
    private var rowsLeftOut = 0
    private var counts: [DiagnosticCode: Int] = [:]

    /// The table shows each cue's text.
    var showsCues: Bool { true }

    /// Opens `path` (`-` for standard output); `checkedAgainst` describes the QC profile, if any.
    init(path: String, checkedAgainst: String?) throws {
        sink = try OutputSink(path: path)
        self.checkedAgainst = checkedAgainst
    }

    mutating func begin(_ file: FileValidation) throws {
        if !started {
            started = true
            buffer += Self.pageStart
            if let checkedAgainst { buffer += "<p class=profile>Checked against \(Self.escaped(checkedAgainst)).</p>\n" }
        }
        rows = 0
        rowsLeftOut = 0
        counts = [:]
        buffer += "<section class=file>\n<h2>\(Self.escaped(file.path))"
        if let format = file.format { buffer += " <small>(\(Self.escaped(format)))</small>" }
        buffer += "</h2>\n<table class=findings>\n"
        buffer += "<thead><tr><th>Time</th><th>Line</th><th>Text</th><th>Findings</th></tr></thead>\n<tbody>\n"
        try flushIfFull()
    }

    mutating func take(_ diagnostic: Diagnostic, in file: FileValidation) throws {
        counts[diagnostic.code, default: 0] += 1
        guard startRow() else { return }
        buffer += "<tr class=diagnostic><td class=time></td><td class=where>\(Self.place(diagnostic.location))</td><td class=text></td>"
        buffer += "<td><ul>" + Self.item(diagnostic, value: nil) + "</ul></td></tr>\n"
        try flushIfFull()
    }

    mutating func take(_ cueFindings: QCCueFindings, in file: FileValidation) throws {
        for finding in cueFindings.findings { counts[finding.diagnostic.code, default: 0] += 1 }
        guard startRow() else { return }
        let location = cueFindings.findings.compactMap(\.diagnostic.location).min()
        buffer += "<tr class=cue><td class=time>\(Self.time(cueFindings.start)) &#8594; \(Self.time(cueFindings.end))</td>"
        buffer += "<td class=where>\(Self.place(location))</td>"
        buffer += "<td class=text>\(Self.markedText(cueFindings.text, findings: cueFindings.findings))</td><td><ul>"
        for finding in cueFindings.findings { buffer += Self.item(finding.diagnostic, value: finding) }
        buffer += "</ul></td></tr>\n"
        try flushIfFull()
    }

    mutating func end(_ file: FileValidation) throws {
        buffer += "</tbody>\n</table>\n"
        if rowsLeftOut > 0 {
            buffer +=
                "<p class=cut>The table lists the first \(rows) rows; \(rowsLeftOut) more are left out (the summary counts them all).</p>\n"
        }
        if let failure = file.failure { buffer += "<p class=failure>Not read: \(Self.escaped(failure))</p>\n" }
        buffer += summaryTable(file)
        if let qc = file.qc { buffer += Self.histogram(qc.readingSpeeds) }
        buffer += "</section>\n"
        try flushIfFull()
    }

    mutating func finish(_ summary: ValidationSummary) throws {
        if !started { buffer += Self.pageStart }
        buffer += "<p class=total>\(Self.escaped(summary.line))</p>\n</body>\n</html>\n"
        try sink.write(buffer)
        buffer = ""
        try sink.commit()
    }

    /// True when the table has room for one more row; counts the row either way.
    private mutating func startRow() -> Bool {
        guard rows < Self.maximumRows else {
            rowsLeftOut += 1
            return false
        }
        rows += 1
        return true
    }

    private mutating func flushIfFull() throws {
        guard buffer.utf8.count >= 1 << 16 else { return }
        try sink.write(buffer)
        buffer = ""
    }

    /// One row per code: the count, and for QC rules the worst value and the share of cues.
    private func summaryTable(_ file: FileValidation) -> String {
        var html = "<div class=summary><h3>Summary</h3>"
        guard !counts.isEmpty else {
            let cues = file.qc.map { " in \(ValidationSummary.count($0.cues, "cue"))" } ?? ""
            return html + "<p class=clean>No findings\(cues).</p></div>\n"
        }
        html += "<table><thead><tr><th>Code</th><th>Rule</th><th>Findings</th><th>Worst</th><th>Share of cues</th></tr></thead><tbody>\n"
        for (code, count) in counts.sorted(by: { $0.key < $1.key }) {
            let rule = QCRule(code: code)
            let tally = rule.flatMap { file.qc?.rules[$0] }
            html += "<tr data-code=\"\(Self.escaped(code.rawValue))\"><td><code>\(Self.escaped(code.rawValue))</code></td>"
            html += "<td>\(Self.escaped(rule?.title ?? ""))</td><td class=count>\(count)</td>"
            if let rule, let tally, let qc = file.qc {
                html += "<td class=worst>\(QCSummary.number(tally.worst)) \(Self.escaped(rule.unit))</td>"
                html += "<td class=share>\(QCSummary.number((qc.share(rule) * 1000).rounded() / 10))%</td>"
            } else {
                html += "<td class=worst></td><td class=share></td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody></table></div>\n"
    }

    /// The reading-speed histogram: one bar per bin with cues, the limit a dashed line.
    static func histogram(_ histogram: QCReadingSpeedHistogram) -> String {
        let binWidth = 15
        let plotHeight = 160
        let left = 40
        let top = 20
        let width = left + binWidth * QCReadingSpeedHistogram.binCount + 20
        let height = top + plotHeight + 40
        let tallest = max(1, histogram.counts.max() ?? 0)
        var svg = "<figure class=histogram><figcaption>Reading speed of \(ValidationSummary.count(histogram.total, "cue"))"
        svg += " (characters per second, bins of 1; the last bin holds \(QCReadingSpeedHistogram.binCount - 1) and over)</figcaption>\n"
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
        svg += " role=img aria-label=\"reading-speed histogram\">\n"
        let baseline = top + plotHeight
        svg += "<line class=axis x1=\"\(left)\" y1=\"\(baseline)\" x2=\"\(width - 20)\" y2=\"\(baseline)\" stroke=\"#444\"/>\n"
        svg += "<text x=\"\(left - 4)\" y=\"\(top + 4)\" text-anchor=end font-size=11>\(tallest)</text>\n"
        svg += "<text x=\"\(left - 4)\" y=\"\(baseline)\" text-anchor=end font-size=11>0</text>\n"
        for tick in stride(from: 0, through: QCReadingSpeedHistogram.binCount, by: 5) {
            let x = left + tick * binWidth
            svg += "<text x=\"\(x)\" y=\"\(baseline + 16)\" text-anchor=middle font-size=11>\(tick)</text>\n"
        }
        for (bin, count) in histogram.counts.enumerated() where count > 0 {
            let barHeight = max(1, count * plotHeight / tallest)
            let x = left + bin * binWidth
            let over = histogram.limit.map { Double(bin) >= $0 } ?? false
            let label = bin == QCReadingSpeedHistogram.binCount - 1 ? "\(bin) and over" : "\(bin) to \(bin + 1)"
            svg += "<rect class=\"bar\(over ? " over" : "")\" data-bin=\"\(bin)\" data-count=\"\(count)\" x=\"\(x + 1)\""
            svg +=
                " y=\"\(baseline - barHeight)\" width=\"\(binWidth - 2)\" height=\"\(barHeight)\" fill=\"\(over ? "#c62828" : "#1565c0")\">"
            svg += "<title>\(label) characters per second: \(ValidationSummary.count(count, "cue"))</title></rect>\n"
        }
        if let limit = histogram.limit {
            let x = Double(left) + min(limit, Double(QCReadingSpeedHistogram.binCount)) * Double(binWidth)
            let shown = QCSummary.number(x)
            svg += "<line class=limit data-limit=\"\(QCSummary.number(limit))\" x1=\"\(shown)\" y1=\"\(top - 10)\" x2=\"\(shown)\""
            svg += " y2=\"\(baseline)\" stroke=\"#000\" stroke-width=2 stroke-dasharray=\"4 3\"/>\n"
            svg += "<text x=\"\(shown)\" y=\"\(top - 12)\" text-anchor=middle font-size=11>limit \(QCSummary.number(limit))</text>\n"
        }
        svg += "<text x=\"\(left + binWidth * QCReadingSpeedHistogram.binCount / 2)\" y=\"\(height - 4)\" text-anchor=middle font-size=11>"
        svg += "characters per second</text>\n</svg></figure>\n"
        return svg
    }

    /// One finding: severity, code, the measured value marked beside the limit, the message.
    static func item(_ diagnostic: Diagnostic, value finding: QCFinding?) -> String {
        var html = "<li class=\"\(diagnostic.severity.rawValue)\"><span class=severity>\(diagnostic.severity.rawValue)</span> "
        html += "<code>\(escaped(diagnostic.code.rawValue))</code> "
        if let finding {
            html += "<mark class=value>\(QCSummary.number(finding.value))</mark> \(escaped(finding.rule.unit))"
            if finding.limit > 0 { html += " <span class=limit>(limit \(QCSummary.number(finding.limit)))</span>" }
            html += ": "
        }
        return html + escaped(diagnostic.message) + "</li>"
    }

    /// The cue text as written (markup shown as text), lines broken, the offending lines,
    /// characters and tags marked.
    static func markedText(_ text: String, findings: [QCFinding]) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var html = ""
        for (index, line) in lines.enumerated() {
            if index > 0 { html += "<br>" }
            let onLine = findings.filter { $0.textLine == index }
            let spans = onLine.compactMap { finding in finding.textColumn.map { span(in: line, column: $0) } }.sorted {
                $0.lowerBound < $1.lowerBound
            }
            var lineHTML = ""
            var position = 0
            let scalars = Array(line.unicodeScalars)
            for span in spans where span.lowerBound >= position && span.upperBound <= scalars.count {
                lineHTML += escaped(scalars[position..<span.lowerBound])
                lineHTML += "<mark class=offending>" + escaped(scalars[span]) + "</mark>"
                position = span.upperBound
            }
            lineHTML += escaped(scalars[position...])
            let wholeLine = onLine.contains { $0.textColumn == nil }
            html += wholeLine ? "<mark class=\"offending line\">" + lineHTML + "</mark>" : lineHTML
        }
        return html
    }

    /// The scalars a finding at `column` (from 1) points at: a tag up to its `>`, a character
    /// reference up to its `;`, else one character.
    static func span(in line: Substring, column: Int) -> Range<Int> {
        let scalars = Array(line.unicodeScalars)
        let start = column - 1
        guard start >= 0, start < scalars.count else { return 0..<0 }
        let closing: Unicode.Scalar? = scalars[start] == "<" ? ">" : scalars[start] == "&" ? ";" : nil
        if let closing, let end = scalars[start...].firstIndex(of: closing) { return start..<(end + 1) }
        return start..<(start + 1)
    }

    /// `4:1`, or a dash without a location.
    static func place(_ location: SourceLocation?) -> String {
        location.map { "\($0.line):\($0.column)" } ?? "&#8212;"
    }

    /// `00:01:02.345`.
    static func time(_ milliseconds: Int) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let value = max(0, milliseconds)
        return padded(value / 3_600_000, 2) + ":" + padded(value / 60_000 % 60, 2) + ":" + padded(value / 1000 % 60, 2) + "."
            + padded(value % 1000, 3)
    }

    /// Text made safe inside HTML elements and quoted attributes.
    static func escaped(_ text: String) -> String {
        escaped(text.unicodeScalars[...])
    }

    static func escaped<Scalars: Collection<Unicode.Scalar>>(_ scalars: Scalars) -> String {
        var result = ""
        for scalar in scalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}": result += "&#xFFFD;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The page's head and style: everything it needs is inline.
    static let pageStart = """
        <!doctype html>
        <html lang=en>
        <head>
        <meta charset=utf-8>
        <meta name=viewport content="width=device-width, initial-scale=1">
        <title>cuekit validate report</title>
        <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
        section.file { display: flex; flex-direction: column; border-top: 2px solid #888; margin-top: 1.5em; }
        section.file > h2 { order: 0; }
        section.file > .summary { order: 1; }
        section.file > .histogram { order: 2; }
        section.file > .failure { order: 3; color: #b71c1c; }
        section.file > .cut { order: 4; font-style: italic; }
        section.file > table.findings { order: 5; }
        table { border-collapse: collapse; margin: 0.5em 0; }
        th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
        td.text { font-family: ui-monospace, monospace; white-space: pre-wrap; }
        td.time, td.where { white-space: nowrap; font-family: ui-monospace, monospace; }
        ul { margin: 0; padding-left: 1.2em; }
        li.error .severity { color: #b71c1c; font-weight: bold; }
        li.warning .severity { color: #e65100; font-weight: bold; }
        li.note .severity { color: #455a64; }
        mark.value { background: #ffd54f; font-weight: bold; }
        mark.offending { background: #ef9a9a; }
        figure.histogram { margin: 0.5em 0; }
        </style>
        </head>
        <body>
        <h1>cuekit validate report</h1>

        """
}
