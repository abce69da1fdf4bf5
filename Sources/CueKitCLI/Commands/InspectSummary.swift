import CueKit

/// The readable report of `cuekit inspect`: what the file holds, a line per cue, and the
/// diagnostics the way compilers print them.
struct InspectSummary {
    let result: ReadResult
    let name: String
    /// The input's format as people name it (`WebVTT`, `TTML`, `SubRip`).
    var format = "WebVTT"
    /// The subtitle renditions of a multivariant playlist, one line each, the one read marked.
    var renditions: [String] = []

    var text: String {
        let track = result.track
        var lines: [String] = []
        var facts = [format, count(track.cues.count, "cue")]
        if let first = track.cues.map(\.start).min(), let last = track.cues.map(\.end).max() {
            facts[1] += " from \(CueTimestamp.format(first)) to \(CueTimestamp.format(last))"
        }
        if !track.regions.isEmpty { facts.append(count(track.regions.count, "region")) }
        if !track.stylesheets.isEmpty { facts.append(count(track.stylesheets.count, "style sheet")) }
        if !track.notes.isEmpty { facts.append(count(track.notes.count, "comment")) }
        lines.append("\(name): " + facts.joined(separator: ", "))
        if !renditions.isEmpty { lines.append("subtitle renditions (* read):") }
        lines += renditions.map { "  " + $0 }
        if !track.header.isEmpty {
            lines.append("header: " + quoted(track.header))
        }
        for (index, sheet) in track.stylesheets.enumerated() {
            let sheetLines = sheet.text.split(separator: "\n", omittingEmptySubsequences: false).count
            lines.append("style sheet \(index + 1): \(count(sheetLines, "line"))")
        }
        for region in track.regions {
            var parts = [
                "width \(number(region.width))%", count(region.lines, "line"),
                "region anchor \(number(region.regionAnchor.x))%,\(number(region.regionAnchor.y))%"
                    + " at \(number(region.viewportAnchor.x))%,\(number(region.viewportAnchor.y))% of the video",
            ]
            if region.scroll == .up { parts.append("scroll up") }
            lines.append("region \(quoted(region.id)): " + parts.joined(separator: ", "))
        }
        if !track.cues.isEmpty {
            lines.append("")
            let width = String(track.cues.count).count
            for (index, cue) in track.cues.enumerated() {
                let number = String(index + 1)
                var line = String(repeating: " ", count: width - number.count) + number + "  "
                line += CueTimestamp.format(cue.start) + " --> " + CueTimestamp.format(cue.end)
                let settings = describe(cue.settings)
                if !settings.isEmpty { line += "  " + settings }
                if !cue.id.isEmpty { line += "  #" + quoted(cue.id) }
                lines.append(line)
                let indent = String(repeating: " ", count: width + 2)
                for textLine in cue.text.split(separator: "\n", omittingEmptySubsequences: false) {
                    lines.append(indent + textLine)
                }
            }
        }
        lines.append("")
        let errors = result.diagnostics.filter { $0.severity == .error }.count
        let warnings = result.diagnostics.filter { $0.severity == .warning }.count
        if result.diagnostics.isEmpty {
            lines.append("no problems found")
        } else {
            var counts = [count(errors, "error"), count(warnings, "warning")]
            let notes = result.diagnostics.count - errors - warnings
            if notes > 0 { counts.append(count(notes, "note")) }
            lines.append(counts.joined(separator: ", ") + ":")
            for diagnostic in result.diagnostics {
                lines.append(diagnostic.formatted(file: name))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The settings that differ from the defaults, written as WebVTT writes them.
    private func describe(_ settings: CueSettings) -> String {
        var parts: [String] = []
        if settings.vertical != .horizontal { parts.append("vertical:" + settings.vertical.rawValue) }
        switch settings.line {
        case .auto: break
        case .number(let value): parts.append("line:" + number(value) + lineAlignment(settings))
        case .percentage(let value): parts.append("line:" + number(value) + "%" + lineAlignment(settings))
        }
        if case .percentage(let value) = settings.position {
            let alignment = settings.positionAlignment == .auto ? "" : "," + settings.positionAlignment.rawValue
            parts.append("position:" + number(value) + "%" + alignment)
        }
        if settings.size != 100 { parts.append("size:" + number(settings.size) + "%") }
        if settings.alignment != .center { parts.append("align:" + settings.alignment.rawValue) }
        if let region = settings.region { parts.append("region:" + region) }
        return parts.joined(separator: " ")
    }

    private func lineAlignment(_ settings: CueSettings) -> String {
        settings.lineAlignment == .start ? "" : "," + settings.lineAlignment.rawValue
    }

    private func number(_ value: Double) -> String { JSONText.javaScriptNumber(value) }

    private func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }

    private func quoted(_ text: String) -> String { text.debugDescription }
}
