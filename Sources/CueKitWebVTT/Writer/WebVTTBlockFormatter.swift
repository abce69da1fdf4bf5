import CueKit

/// The bytes of WebVTT blocks, formatted from events: all of ``WebVTTWriter`` but its sink.
struct WebVTTBlockFormatter {
    /// How the output is laid out.
    let options: WebVTTWriterOptions
    /// Every change made, in the order made.
    private(set) var diagnostics: [Diagnostic] = []
    /// ``WebVTTWriter/copiesReadCueText``.
    var copiesReadCueText = false

    private enum Phase {
        /// Nothing written yet.
        case start
        /// The header is written, no cue yet: regions and style sheets may still come.
        case beforeCues
        /// Regions and style sheets are written (a cue came, or the end).
        case cues
    }

    private var phase = Phase.start
    /// The bytes of the blocks written since the writer last handed them to its sink.
    var buffer: [UInt8] = []
    /// Regions and style sheets wait for the first cue (they are few and small), so that a region
    /// defined twice is written once, the later definition in place of the earlier, as readers do.
    /// A region replaced by a later definition leaves nil in its place, so that replacing one
    /// costs the same however many are held.
    private var pendingRegions: [CueRegion?] = []
    /// Where each identifier's region is in `pendingRegions`.
    private var pendingRegionPlaces: [String: Int] = [:]
    private var pendingStylesheets: [CueStylesheet] = []
    private var regionIdentifiers: Set<String> = []
    private var reportedRegions: Set<String> = []
    private var cueNumber = 0
    /// The settings of recent cues as written (``WrittenSettingsMemo``).
    private var writtenSettings = WrittenSettingsMemo()

    init(options: WebVTTWriterOptions) {
        self.options = options
        buffer.reserveCapacity(4096)
    }

    /// Formats one event as its block (see ``WebVTTWriter/write(_:)``).
    mutating func write(_ event: TrackEvent) {
        switch event {
        case .header(let text):
            if phase == .start {
                writeHeader(text)
            } else {
                report(.error, .vttWriteLateHeader, "a header came after other blocks; it was left out, since the header starts the file")
            }
        case .region(let region):
            writeSignatureIfNeeded()
            if phase == .cues {
                report(
                    .error, .vttWriteLateRegion,
                    "region \(quoted(region.id)) came after a cue, where WebVTT ignores REGION blocks; it was left out")
            } else {
                addRegion(region)
            }
        case .stylesheet(let stylesheet):
            writeSignatureIfNeeded()
            if phase == .cues {
                report(
                    .error, .vttWriteLateStylesheet, "a style sheet came after a cue, where WebVTT ignores STYLE blocks; it was left out")
            } else {
                pendingStylesheets.append(stylesheet)
            }
        case .note(let note):
            writeSignatureIfNeeded()
            if options.notes == .keep { writeNote(note) }
        case .cue(let cue):
            writeSignatureIfNeeded()
            if phase == .beforeCues { writeRegionsAndStylesheets() }
            writeCue(cue)
        case .diagnostic:
            return
        }
    }

    /// What goes before cue blocks copied as they are (``WebVTTWriter/writeCueBlocks(_:count:)``):
    /// the signature, regions and style sheets if not yet written.
    mutating func beginCueBlocks(count: Int) {
        writeSignatureIfNeeded()
        if phase == .beforeCues { writeRegionsAndStylesheets() }
        cueNumber += count
    }

    /// True when a cue naming region `id` has it written: its definition was.
    func definesRegion(_ id: String) -> Bool { regionIdentifiers.contains(id) }

    /// Forgets the changes made so far (``WebVTTCueBlockFormatter`` keeps none).
    mutating func forgetDiagnostics() { diagnostics.removeAll(keepingCapacity: true) }

    /// True when a cue's `region:` naming `id` is written as it is: the region was written before
    /// the first cue, or waits to be.
    func namesRegion(_ id: String) -> Bool {
        !id.isEmpty && (regionIdentifiers.contains(id) || pendingRegionPlaces[id] != nil)
    }

    /// Formats a bare header if nothing was written, and the regions and style sheets still held.
    mutating func finish() {
        writeSignatureIfNeeded()
        if phase == .beforeCues { writeRegionsAndStylesheets() }
    }

    // MARK: Blocks

    private mutating func writeSignatureIfNeeded() {
        if phase == .start { writeHeader("") }
    }

    /// `WEBVTT`, a space and the header's first line, then its further lines (section 4.1).
    private mutating func writeHeader(_ header: String) {
        phase = .beforeCues
        buffer += "WEBVTT".utf8
        guard !header.isEmpty else {
            appendLineEnd()
            return
        }
        var adjustments: WebVTTBlockText.Adjustments = []
        let text = WebVTTBlockText.lines(
            header.utf8, keepingEmptyFirstLine: true, arrowsAllowedInFirstLine: true, adjustments: &adjustments)
        if let first = text.first, first != WebVTTBlockText.lf { buffer.append(UInt8(ascii: " ")) }
        appendLines(text)
        appendLineEnd()
        if !adjustments.isEmpty {
            report(
                adjustments, .vttWriteHeaderText, subject: "the header",
                arrows: "'-->' in a header line (which would end the header) was written as '-- >'")
        }
    }

    /// Keeps a region for ``writeRegionsAndStylesheets()``; a later one with the same identifier
    /// replaces it, moving to the end, as in WebVTT readers.
    private mutating func addRegion(_ region: CueRegion) {
        let id = region.id
        if !Self.isWritableRegionIdentifier(id) {
            report(
                .error, .vttWriteRegionIdentifier,
                "region \(quoted(id)) has an identifier with white space, a NUL or '-->', which a REGION block cannot hold; it was left out"
            )
            return
        }
        if let earlier = pendingRegionPlaces[id] {
            pendingRegions[earlier] = nil
            report(
                .warning, .vttWriteDuplicateRegion,
                "\(id.isEmpty ? "a region without identifier" : "region \(quoted(id))") is defined twice; the later definition replaces the earlier one, as in WebVTT readers, and only it was written"
            )
        }
        pendingRegionPlaces[id] = pendingRegions.count
        pendingRegions.append(region)
    }

    /// The regions, then the style sheets, before the first cue.
    private mutating func writeRegionsAndStylesheets() {
        phase = .cues
        for case let region? in pendingRegions { writeRegion(region) }
        for stylesheet in pendingStylesheets { writeStylesheet(stylesheet) }
        pendingRegions = []
        pendingRegionPlaces = [:]
        pendingStylesheets = []
    }

    /// `REGION` and one setting per line, defaults left out (section 4.5).
    private mutating func writeRegion(_ region: CueRegion) {
        let id = region.id
        appendBlockSeparator()
        buffer += "REGION".utf8
        let start = buffer.count
        if !id.isEmpty {
            appendLineEnd()
            buffer += "id:".utf8
            buffer += id.utf8
        }
        let label = id.isEmpty ? "a region without identifier" : "region \(quoted(id))"
        if let width = regionPercentage(region.width, named: "width", default: 100, label: label), width != 100 {
            appendLineEnd()
            buffer += "width:".utf8
            appendPercentage(width)
        }
        var lines = region.lines
        if lines < 0 {
            report(.error, .vttWriteRegionSetting, "\(label): lines \(lines) is negative, which WebVTT cannot express; written as 0")
            lines = 0
        }
        if lines != 3 {
            appendLineEnd()
            buffer += "lines:".utf8
            WebVTTNumberFormat.appendInteger(UInt64(lines), to: &buffer)
        }
        let anchors = [("regionanchor", region.regionAnchor), ("viewportanchor", region.viewportAnchor)]
        for (name, point) in anchors {
            guard let x = regionPercentage(point.x, named: "\(name) x", default: 0, label: label),
                let y = regionPercentage(point.y, named: "\(name) y", default: 100, label: label),
                x != 0 || y != 100
            else { continue }
            appendLineEnd()
            buffer += name.utf8
            buffer.append(UInt8(ascii: ":"))
            appendPercentage(x)
            buffer.append(UInt8(ascii: ","))
            appendPercentage(y)
        }
        if region.scroll == .up {
            appendLineEnd()
            buffer += "scroll:up".utf8
        }
        if buffer.count == start {
            // A lone REGION line is not a region block: WebVTT needs a second line to see one.
            appendLineEnd()
            buffer += "width:100%".utf8
        }
        appendLineEnd()
        regionIdentifiers.insert(id)
    }

    /// `STYLE` and the sheet's lines (section 4.4).
    private mutating func writeStylesheet(_ stylesheet: CueStylesheet) {
        var adjustments: WebVTTBlockText.Adjustments = []
        let text = WebVTTStylesheetText.safe(stylesheet.text.utf8, adjustments: &adjustments)
        if !adjustments.isEmpty {
            report(
                adjustments, .vttWriteStylesheetText, subject: "a style sheet",
                escaped: "'-->', which would end the block, was removed where CSS ignores it or escaped where CSS reads it the same",
                arrows: "'-->' inside a rule, which would end the block, was written as '-- >' (this may change what the rule means)")
        }
        if text.isEmpty {
            report(
                .warning, .vttWriteStylesheetText,
                "an empty style sheet cannot be written (WebVTT needs a line after STYLE); it was left out")
            return
        }
        appendBlockSeparator()
        buffer += "STYLE".utf8
        appendLineEnd()
        appendLines(text)
        appendLineEnd()
    }

    /// `NOTE`, a space and the comment (section 4.1).
    private mutating func writeNote(_ note: CueNote) {
        var adjustments: WebVTTBlockText.Adjustments = []
        let text = WebVTTBlockText.lines(
            note.text.utf8, keepingEmptyFirstLine: true, arrowsAllowedInFirstLine: false, adjustments: &adjustments)
        if !adjustments.isEmpty {
            report(
                adjustments, .vttWriteNoteText, subject: "a comment",
                arrows: "'-->' in a comment (which would end it) was written as '-- >'")
        }
        appendBlockSeparator()
        buffer += "NOTE".utf8
        if let first = text.first, first != WebVTTBlockText.lf { buffer.append(UInt8(ascii: " ")) }
        appendLines(text)
        appendLineEnd()
    }

    /// The identifier line, the timing line with settings, and the cue text (section 4.2).
    private mutating func writeCue(_ cue: Cue) {
        cueNumber += 1
        appendBlockSeparator()
        if !cue.id.isEmpty {
            var id = cue.id
            let safe = id.withUTF8 { bytes in
                if copiesReadCueText || WebVTTBlockText.isSafeLine(bytes) {
                    buffer.append(contentsOf: bytes)
                    return true
                }
                return false
            }
            if !safe {
                var adjustments: WebVTTBlockText.Adjustments = []
                buffer += WebVTTBlockText.line(cue.id.utf8, adjustments: &adjustments)
                report(
                    adjustments, .vttWriteCueIdentifier, subject: "\(cueLabel(cue))'s identifier",
                    arrows: "'-->' (which would make it a timing line) was written as '-- >'")
            }
            appendLineEnd()
        }
        appendTimings(cue)
        if !Self.hasDefaultSettings(cue) { appendSettings(cue.settings, of: cue) }
        appendLineEnd()
        if !cue.text.isEmpty {
            var text = cue.text
            let safe = text.withUTF8 { bytes in
                guard copiesReadCueText || WebVTTBlockText.isSafeCueText(bytes) else { return false }
                appendLines(bytes)
                return true
            }
            if !safe {
                var adjustments: WebVTTBlockText.Adjustments = []
                let adjusted = WebVTTBlockText.cueText(cue.text.utf8, adjustments: &adjustments)
                report(
                    adjustments, .vttWriteCueText, subject: "\(cueLabel(cue))'s text",
                    escaped: "'-->', which would end the cue, was written as '--&gt;' (or '-- >' inside a tag), which reads the same",
                    arrows: "'-->' was written as '-- >'")
                if !adjusted.isEmpty {
                    appendLines(adjusted)
                    appendLineEnd()
                }
                return
            }
            appendLineEnd()
        }
    }

    /// `cue.settings.isDefault`, field by field, without copying the settings (the hot path).
    @inline(__always)
    private static func hasDefaultSettings(_ cue: Cue) -> Bool {
        cue.settings.region == nil && cue.settings.vertical == .horizontal && cue.settings.line == .auto
            && cue.settings.lineAlignment == .start && cue.settings.position == .auto && cue.settings.positionAlignment == .auto
            && cue.settings.size == 100 && cue.settings.alignment == .center
    }

    private mutating func appendTimings(_ cue: Cue) {
        var start = cue.start
        var end = cue.end
        if start < 0 || end < 0 {
            report(
                .error, .vttWriteNegativeTime,
                "\(cueLabel(cue)) has a negative time (\(start) ms --> \(end) ms), which no WebVTT timestamp can express; written as 0")
            start = max(0, start)
            end = max(0, end)
        }
        if end <= start {
            report(
                .warning, .vttWriteEndNotAfterStart,
                "\(cueLabel(cue)) does not end after it starts (\(CueTimestamp.format(start)) --> \(CueTimestamp.format(end))); written as it is, as browsers keep it (and never show it)"
            )
        }
        WebVTTTimingLineText.appendTimes(start: start, end: end, hours: options.hours, to: &buffer)
    }

    /// The settings that differ from their defaults, in a fixed order (section 4.3); what cannot
    /// be written as it is, reported.
    private mutating func appendSettings(_ settings: CueSettings, of cue: Cue) {
        // A track's cues mostly share a few settings: those written before, without an issue
        // and without a region (whose writing depends on the regions defined so far), are copied.
        if settings.region == nil, writtenSettings.append(settings, to: &buffer) { return }
        let start = buffer.count
        let issuesBefore = diagnostics.count
        appendSettingsAfresh(settings, of: cue)
        if settings.region == nil, diagnostics.count == issuesBefore {
            writtenSettings.keep(settings, written: buffer[start...])
        }
    }

    private mutating func appendSettingsAfresh(_ settings: CueSettings, of cue: Cue) {
        var issues: [WebVTTTimingLineText.Issue] = []
        var bytes: [UInt8] = []
        swap(&bytes, &buffer)
        WebVTTTimingLineText.appendSettings(settings, to: &bytes, writesRegion: { !$0.isEmpty && regionIdentifiers.contains($0) }) { issues.append($0) }
        swap(&bytes, &buffer)
        for issue in issues {
            switch issue {
            case .lineNotANumber(let number):
                report(
                    .error, .vttWriteCueSetting,
                    "\(cueLabel(cue)): line \(number) is not a number WebVTT can express; the line setting was left out")
            case .percentage(let name, let value):
                _ = percentage(value, code: .vttWriteCueSetting, subject: "\(cueLabel(cue)): \(name)", consequence: "the setting was left out")
            case .lineAlignmentWithoutLine(let alignment):
                report(
                    .error, .vttWriteCueSetting,
                    "\(cueLabel(cue)): line alignment '\(alignment.rawValue)' cannot be written without a line position; it was left out")
            case .positionAlignmentWithoutPosition(let alignment):
                report(
                    .error, .vttWriteCueSetting,
                    "\(cueLabel(cue)): position alignment '\(alignment.rawValue)' cannot be written without a position; it was left out")
            case .undefinedRegion(let region):
                if reportedRegions.insert(region).inserted {
                    report(
                        .error, .vttWriteUndefinedRegion,
                        "\(cueLabel(cue)) is in region \(quoted(region)), which the track does not define before its first cue; the region setting was left out of it and of every later cue naming that region"
                    )
                }
            }
        }
    }

    // MARK: Numbers

    private mutating func regionPercentage(_ value: Double, named name: String, default defaultValue: Double, label: String) -> Double? {
        percentage(
            value, code: .vttWriteRegionSetting, subject: "\(label): \(name)",
            consequence: "the default, \(Self.decimal(defaultValue))%, was written")
    }

    private mutating func percentage(_ value: Double, code: DiagnosticCode, subject: String, consequence: String) -> Double? {
        if value.isNaN {
            report(.error, code, "\(subject) is not a number; \(consequence)")
            return nil
        }
        if value < 0 || value > 100 {
            let clamped = min(100, max(0, value))
            report(.error, code, "\(subject) \(value)% is outside the 0–100% WebVTT allows; written as \(Self.decimal(clamped))%")
            return clamped
        }
        return value
    }

    private mutating func appendPercentage(_ value: Double) {
        WebVTTNumberFormat.append(value, to: &buffer)
        buffer.append(UInt8(ascii: "%"))
    }

    private static func decimal(_ value: Double) -> String {
        var bytes: [UInt8] = []
        WebVTTNumberFormat.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Bytes

    private mutating func appendLineEnd() {
        if options.lineEnding == .crlf { buffer.append(WebVTTBlockText.cr) }
        buffer.append(WebVTTBlockText.lf)
    }

    private mutating func appendBlockSeparator() {
        appendLineEnd()
    }

    /// Appends text whose lines are joined by LF, ending each line as the options say.
    private mutating func appendLines(_ bytes: UnsafeBufferPointer<UInt8>) {
        if options.lineEnding == .lf {
            buffer.append(contentsOf: bytes)
            return
        }
        for byte in bytes {
            if byte == WebVTTBlockText.lf { buffer.append(WebVTTBlockText.cr) }
            buffer.append(byte)
        }
    }

    private mutating func appendLines(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { appendLines($0) }
    }

    // MARK: Diagnostics

    private static func isWritableRegionIdentifier(_ id: String) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in id.utf8 {
            switch byte {
            case 0, 0x09, 0x0A, 0x0C, 0x0D, 0x20:
                return false
            case UInt8(ascii: ">") where previous == UInt8(ascii: "-") && beforePrevious == UInt8(ascii: "-"):
                return false
            default:
                break
            }
            beforePrevious = previous
            previous = byte
        }
        return true
    }

    private func cueLabel(_ cue: Cue) -> String {
        cue.id.isEmpty ? "cue \(cueNumber)" : "cue \(cueNumber) (\(quoted(cue.id)))"
    }

    private func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\0": result += "\\0"
            case "\"": result += "\\\""
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private mutating func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String) {
        diagnostics.append(Diagnostic(severity, code, at: nil, message))
    }

    /// One diagnostic listing what a text adjustment changed: an error when it changed the text
    /// (`arrowsBroken`, `lineBreaks`), a warning when every reader reads it the same.
    private mutating func report(
        _ adjustments: WebVTTBlockText.Adjustments,
        _ code: DiagnosticCode,
        subject: String,
        escaped: String = "'-->' was written in a form that reads the same",
        arrows: String
    ) {
        var changes: [String] = []
        if adjustments.contains(.lineBreaks) { changes.append("line breaks were written as spaces") }
        if adjustments.contains(.arrowsBroken) { changes.append(arrows) }
        if adjustments.contains(.arrowsEscaped) { changes.append(escaped) }
        if adjustments.contains(.emptyLines) {
            changes.append("empty lines and line breaks at its start or end, which would end the block, were left out")
        }
        if adjustments.contains(.carriageReturns) { changes.append("carriage returns were written as line feeds") }
        if adjustments.contains(.nulls) { changes.append("NUL characters were written as U+FFFD, as WebVTT readers read them") }
        let severity: Diagnostic.Severity = adjustments.isDisjoint(with: [.arrowsBroken, .lineBreaks]) ? .warning : .error
        report(severity, code, "\(subject): " + changes.joined(separator: "; "))
    }
}
