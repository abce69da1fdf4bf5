import CueKit

/// Writes SubRip (`.srt`), streaming: ``TrackEvent``s in, bytes out to its sink, cue by cue.
///
/// Cues are numbered from 1 in the order they come, timed `HH:MM:SS,mmm --> HH:MM:SS,mmm`, and
/// their text is written with SubRip's tags: `<i>`, `<b>`, `<u>`, and `<font color="…">` for a class
/// whose colour is known (one of WebVTT's default colour classes, a `color-…` class of
/// ``SubRipColor``, or a class given a colour by a `::cue(.class) { color: … }` rule of the track's
/// style sheets). The writer's output always reads back with ``SubRipReader`` as the same cues.
///
/// What SubRip cannot carry is adjusted or left out, and each kind is reported once in
/// ``diagnostics`` with a count (a million voiced cues make one diagnostic, not a million):
/// - voices: the span's text is kept; the name is left out, or written as `Name: ` before the text
///   with ``Options/Voices-swift.enum/namePrefix``. Left out by default because a browser does not
///   show voice names either: the SubRip file shows what the WebVTT track showed.
/// - ruby: written as `base(reading)`, the fallback HTML's `<rp>` gives to renderers without ruby;
/// - language spans, classes without a known colour, inner timestamps: their text is kept;
/// - cue settings: written as an ASS alignment override `{\anN}` (which most players honour) when they
///   place the cue at the top, middle or bottom, left, centre or right; anything finer (positions,
///   sizes, vertical text, regions) is reported;
/// - cue identifiers other than the sequence number written (SubRip numbers cues from 1), regions,
///   notes, style sheets (beyond the colours they give classes) and the WebVTT header;
/// - text SubRip would misread (a line that looks like a timing line, which gets a space inside its
///   arrow; a `<` or `{\` that a reader takes for a tag or an override), and empty lines, which
///   would end the cue.
public struct SubRipWriter<Sink: ByteSink>: TrackWriter {
    /// The writer's options.
    public typealias Options = SubRipWriterOptions

    /// The options written with.
    public let options: Options
    /// The sink, with everything written so far.
    public private(set) var sink: Sink
    /// What could not be written as it was; complete after ``finish()``.
    public private(set) var diagnostics: [Diagnostic] = []

    private var cueNumber = 0
    private var started = false
    private var finished = false
    private var buffer: [UInt8] = []
    private var text: [UInt8] = []
    /// Colours given to classes by the track's style sheets.
    private var classColors: [String: String] = [:]
    private var losses = Losses()

    /// Creates a writer that writes to `sink`.
    public init(to sink: Sink, options: Options = Options()) {
        self.sink = sink
        self.options = options
        buffer.reserveCapacity(1024)
        text.reserveCapacity(512)
    }

    /// Writes one event: a cue becomes its block; style sheets teach the writer class colours;
    /// the header, regions and notes are counted as not written; diagnostics are ignored.
    public mutating func write(_ event: TrackEvent) throws {
        precondition(!finished, "SubRipWriter written to after finish")
        try start()
        switch event {
        case .header(let header):
            if !header.isEmpty { losses.add(.header, cue: 0) }
        case .region:
            losses.add(.regions, cue: 0)
        case .stylesheet(let sheet):
            learnColors(from: sheet)
        case .note:
            losses.add(.notes, cue: 0)
        case .cue(let cue):
            try write(cue)
        case .diagnostic:
            break
        }
    }

    /// Flushes the sink and completes ``diagnostics`` with what could not be written, per kind.
    public mutating func finish() throws {
        guard !finished else { return }
        try start()
        finished = true
        try sink.flush()
        diagnostics += losses.diagnostics(voices: options.voices)
    }

    // MARK: Cues

    private mutating func start() throws {
        guard !started else { return }
        started = true
        if options.byteOrderMark == .utf8 { try sink.write([0xEF, 0xBB, 0xBF]) }
    }

    private mutating func write(_ cue: Cue) throws {
        cueNumber += 1
        buffer.removeAll(keepingCapacity: true)
        let numberStart = buffer.count
        appendDecimal(cueNumber)
        if !cue.id.isEmpty, !cue.id.utf8.elementsEqual(buffer[numberStart...]) { losses.add(.identifiers, cue: cueNumber) }
        appendLineEnding()
        if cue.start < 0 || cue.end < 0 { losses.add(.negativeTimes, cue: cueNumber) }
        CueTimestamp.append(cue.start, hours: .always, separator: UInt8(ascii: ","), to: &buffer)
        buffer.append(contentsOf: " --> ".utf8)
        CueTimestamp.append(cue.end, hours: .always, separator: UInt8(ascii: ","), to: &buffer)
        appendLineEnding()

        text.removeAll(keepingCapacity: true)
        if let override = alignmentOverride(for: cue.settings) {
            text.append(contentsOf: "{\\an".utf8)
            text.append(UInt8(ascii: "0") + UInt8(override))
            text.append(UInt8(ascii: "}"))
        }
        if Self.isPlain(cue.text) {
            text.append(contentsOf: cue.text.utf8)
        } else {
            var state = RenderState()
            render(cue.nodes(), into: &state)
            if state.sawTagLikeText { losses.add(.tagLikeText, cue: cueNumber) }
        }
        appendTextLines()
        appendLineEnding()
        try sink.write(buffer)
    }

    /// True when cue text holds no markup and nothing that needs a look: no `<`, `&` or `>`.
    private static func isPlain(_ text: String) -> Bool {
        for byte in text.utf8
        where byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "{") {
            return false
        }
        return true
    }

    private struct RenderState {
        var sawTagLikeText = false
    }

    /// Appends the SubRip form of a cue text tree to `text`.
    private mutating func render(_ nodes: [CueNode], into state: inout RenderState) {
        for node in nodes {
            switch node {
            case .text(let string):
                var previous: UInt8 = 0
                for byte in string.utf8 {
                    if byte == UInt8(ascii: "<") || (previous == UInt8(ascii: "{") && byte == UInt8(ascii: "\\")) {
                        state.sawTagLikeText = true
                    }
                    text.append(byte)
                    previous = byte
                }
            case .timestamp:
                losses.add(.timestamps, cue: cueNumber)
            case .span(let span):
                render(span, into: &state)
            }
        }
    }

    private mutating func render(_ span: CueSpan, into state: inout RenderState) {
        switch span.kind {
        case .italic, .bold, .underline:
            let tag: UInt8 = span.kind == .italic ? UInt8(ascii: "i") : span.kind == .bold ? UInt8(ascii: "b") : UInt8(ascii: "u")
            text.append(UInt8(ascii: "<"))
            text.append(tag)
            text.append(UInt8(ascii: ">"))
            render(span.children, into: &state)
            text.append(UInt8(ascii: "<"))
            text.append(UInt8(ascii: "/"))
            text.append(tag)
            text.append(UInt8(ascii: ">"))
            countUncoloredClasses(span.classes)
        case .class:
            if let color = color(forClasses: span.classes) {
                text.append(contentsOf: "<font color=\"".utf8)
                text.append(contentsOf: color.utf8)
                text.append(contentsOf: "\">".utf8)
                render(span.children, into: &state)
                text.append(contentsOf: "</font>".utf8)
            } else {
                if !span.classes.isEmpty { losses.add(.classes, cue: cueNumber) }
                render(span.children, into: &state)
            }
        case .voice(let name):
            losses.add(.voices, cue: cueNumber)
            if options.voices == .namePrefix, !name.isEmpty {
                text.append(contentsOf: name.utf8)
                text.append(contentsOf: ": ".utf8)
            }
            render(span.children, into: &state)
        case .ruby:
            losses.add(.ruby, cue: cueNumber)
            render(span.children, into: &state)
        case .rubyText:
            text.append(UInt8(ascii: "("))
            render(span.children, into: &state)
            text.append(UInt8(ascii: ")"))
        case .language:
            losses.add(.languages, cue: cueNumber)
            render(span.children, into: &state)
        }
    }

    private mutating func countUncoloredClasses(_ classes: [String]) {
        if !classes.isEmpty { losses.add(.classes, cue: cueNumber) }
    }

    /// The `<font color>` value for a class span: the first class with a known colour.
    private func color(forClasses classes: [String]) -> String? {
        for name in classes {
            if let known = classColors[name] { return known }
            if let color = SubRipColor(className: name) { return color.cssValue }
        }
        return nil
    }

    /// Copies `text` into `buffer` line by line: empty lines left out, line breaks as the chosen
    /// line ending, and a line that a SubRip reader would take for a timing line defused.
    private mutating func appendTextLines() {
        var lineStart = 0
        var wroteLine = false
        var index = 0
        while index <= text.count {
            if index == text.count || text[index] == 0x0A || text[index] == 0x0D {
                let line = lineStart..<index
                if text[line].allSatisfy(isSubRipBlankByte) {
                    // A line that is empty or only white space would end the cue: left out, and
                    // reported unless it is the end of the text.
                    if index < text.count || !line.isEmpty { losses.add(.emptyLines, cue: cueNumber) }
                } else {
                    if wroteLine { appendLineEnding() }
                    appendDefused(line)
                    wroteLine = true
                }
                if index < text.count, text[index] == 0x0D, index + 1 < text.count, text[index + 1] == 0x0A { index += 1 }
                lineStart = index + 1
            }
            index += 1
        }
        if wroteLine { appendLineEnding() }
    }

    /// Appends a line of text, with a space put into its arrow when the line would read as a
    /// timing line (`12:30 --> noon` becomes `12:30 -- > noon`).
    private mutating func appendDefused(_ line: Range<Int>) {
        let looksLikeTiming = text.withUnsafeBufferPointer { SubRipTimingLine.looksLikeTiming(UnsafeBufferPointer(rebasing: $0[line])) }
        guard looksLikeTiming else {
            buffer.append(contentsOf: text[line])
            return
        }
        losses.add(.timingLikeText, cue: cueNumber)
        var index = line.lowerBound
        while index < line.upperBound {
            if index + 2 < line.upperBound, text[index] == UInt8(ascii: "-"), text[index + 1] == UInt8(ascii: "-"),
                text[index + 2] == UInt8(ascii: ">")
            {
                buffer.append(contentsOf: "-- >".utf8)
                index += 3
            } else {
                buffer.append(text[index])
                index += 1
            }
        }
    }

    // MARK: Placement

    /// The `{\anN}` for a cue's settings, or nil for the default place (bottom centre) or when
    /// placement is not written; counts what the override cannot say.
    private mutating func alignmentOverride(for settings: CueSettings) -> Int? {
        guard !settings.isDefault else { return nil }
        let row: Int  // 0 bottom, 1 middle, 2 top
        switch settings.line {
        case .auto: row = 0
        case .number(let value): row = value >= 0 ? 2 : 0
        case .percentage(let value): row = value < 100.0 / 3 ? 2 : (value < 200.0 / 3 ? 1 : 0)
        }
        let column: Int  // 0 left, 1 centre, 2 right
        switch settings.alignment {
        case .left, .start: column = 0
        case .center: column = 1
        case .right, .end: column = 2
        }
        let code = [1, 4, 7][row] + column
        guard options.placement == .alignmentOverrides else {
            losses.add(.placementOff, cue: cueNumber)
            return nil
        }
        if SubRipMarkupConverter.settings(forAlignment: code) != settings { losses.add(.placementApproximated, cue: cueNumber) }
        return code == 2 ? nil : code
    }

    // MARK: Style sheets

    /// Learns the colours that `::cue(.class) { color: … }` rules give single classes; every other
    /// rule or property is counted as not written.
    private mutating func learnColors(from sheet: CueStylesheet) {
        let (rules, unread) = sheet.rules.map { ($0, 0) } ?? CueStyleRule.parse(sheet.text)
        var used = 0
        for rule in rules {
            guard case .classes(let names) = rule.selector, names.count == 1,
                let value = rule.declarations.first(where: { $0.property == "color" })?.value,
                let color = SubRipColor(attributeValue: value)
            else { continue }
            classColors[names[0]] = color.cssValue
            // A rule that says more than the colour is not written whole.
            if rule.declarations.count == 1 { used += 1 }
        }
        for _ in used..<(rules.count + unread) { losses.add(.styleRules, cue: 0) }
    }

    // MARK: Bytes

    private mutating func appendLineEnding() {
        if options.lineEnding == .crlf { buffer.append(0x0D) }
        buffer.append(0x0A)
    }

    private mutating func appendDecimal(_ value: Int) {
        if value >= 10 { appendDecimal(value / 10) }
        buffer.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}

/// The bytes a SubRip reader takes a line of only for a blank line.
private func isSubRipBlankByte(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C || byte == 0x1A
}

/// What a SubRip writer could not write as it was: per kind, how often and the first cue.
private struct Losses {
    enum Kind: Int, CaseIterable, Comparable {
        case header, regions, notes, styleRules, identifiers
        case voices, ruby, languages, classes, timestamps
        case placementOff, placementApproximated
        case negativeTimes, emptyLines, timingLikeText, tagLikeText

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private var counts: [Kind: (count: Int, firstCue: Int)] = [:]

    /// Counts one loss, in cue `cue` (0 when it is not in a cue).
    mutating func add(_ kind: Kind, cue: Int) {
        if let existing = counts[kind] {
            counts[kind] = (existing.count + 1, existing.firstCue)
        } else {
            counts[kind] = (1, cue)
        }
    }

    func diagnostics(voices: SubRipWriterOptions.Voices) -> [Diagnostic] {
        counts.keys.sorted().map { kind in
            let (count, firstCue) = counts[kind]!
            let first = firstCue > 0 ? " (first in cue \(firstCue))" : ""
            let code: DiagnosticCode
            let message: String
            switch kind {
            case .header:
                (code, message) = (.srtWriteUnsupported, "the WebVTT header text is not written: SubRip has no header")
            case .regions:
                (code, message) = (.srtWriteUnsupported, "\(count) region(s) not written: SubRip has no regions")
            case .notes:
                (code, message) = (.srtWriteUnsupported, "\(count) NOTE comment(s) not written: SubRip has no comments")
            case .styleRules:
                (code, message) = (
                    .srtWriteUnsupported,
                    "\(count) style sheet rule(s) not written: SubRip has no style sheets (colours given to single classes are written as <font color>)"
                )
            case .identifiers:
                (code, message) = (
                    .srtWriteUnsupported,
                    "\(count) cue identifier(s)\(first) replaced by the cue's sequence number: SubRip numbers its cues and has no identifiers"
                )
            case .voices where voices == .namePrefix:
                (code, message) = (
                    .srtWriteUnsupported, "\(count) voice span(s)\(first) written as 'Name: ' before their text: SubRip has no voices"
                )
            case .voices:
                (code, message) = (
                    .srtWriteUnsupported,
                    "\(count) voice span(s)\(first) written as their text alone, as a browser shows them: SubRip has no voices (the name-prefix option writes 'Name: ')"
                )
            case .ruby:
                (code, message) = (.srtWriteUnsupported, "\(count) ruby span(s)\(first) written as 'base(reading)': SubRip has no ruby")
            case .languages:
                (code, message) = (
                    .srtWriteUnsupported, "\(count) language span(s)\(first) written as their text alone: SubRip has no language markup"
                )
            case .classes:
                (code, message) = (
                    .srtWriteUnsupported, "\(count) span(s)\(first) with classes that give no known colour written without their classes"
                )
            case .timestamps:
                (code, message) = (.srtWriteUnsupported, "\(count) inner timestamp(s)\(first) not written: SubRip has no karaoke timing")
            case .placementOff:
                (code, message) = (
                    .srtWriteUnsupported,
                    "\(count) cue(s)\(first) placed off the default written without their placement ({\\anN} overrides are switched off)"
                )
            case .placementApproximated:
                (code, message) = (
                    .srtWriteUnsupported,
                    "\(count) cue(s)\(first) with settings that {\\anN} cannot say exactly (positions, sizes, line numbers, vertical text, regions) written with the nearest alignment override"
                )
            case .negativeTimes:
                (code, message) = (.srtWriteNegativeTime, "\(count) cue(s)\(first) with a negative time written with 00:00:00,000 for it")
            case .emptyLines:
                (code, message) = (
                    .srtWriteCueText,
                    "\(count) empty or white-space line(s) in cue text\(first) left out: a SubRip reader takes them for the end of the cue"
                )
            case .timingLikeText:
                (code, message) = (
                    .srtWriteCueText,
                    "\(count) line(s) of cue text\(first) that a SubRip reader would take for a timing line written with '-- >' for '-->'"
                )
            case .tagLikeText:
                (code, message) = (
                    .srtWriteCueText,
                    "\(count) cue(s)\(first) hold a literal '<' or '{\\' that SubRip readers may take for a tag or an override (SubRip cannot escape them)"
                )
            }
            return Diagnostic(.warning, code, at: nil, message)
        }
    }
}

/// How ``SubRipWriter`` writes: small enums, each with a documented default.
public struct SubRipWriterOptions: Sendable, Hashable {
    /// The line ending.
    public var lineEnding: LineEnding
    /// What becomes of voice spans.
    public var voices: Voices
    /// What becomes of cue placement.
    public var placement: Placement
    /// Whether the file starts with a UTF-8 byte order mark.
    public var byteOrderMark: ByteOrderMark

    /// Creates options; the defaults write what the most players read.
    public init(
        lineEnding: LineEnding = .crlf, voices: Voices = .textOnly, placement: Placement = .alignmentOverrides,
        byteOrderMark: ByteOrderMark = .none
    ) {
        self.lineEnding = lineEnding
        self.voices = voices
        self.placement = placement
        self.byteOrderMark = byteOrderMark
    }

    /// The line ending.
    public enum LineEnding: Sendable, Hashable, CaseIterable {
        /// CR LF, as SubRip wrote and as Windows players expect; the default.
        case crlf
        /// LF alone.
        case lf
    }

    /// What becomes of voice spans (`<v Bob>…</v>`).
    public enum Voices: Sendable, Hashable, CaseIterable {
        /// The text alone, as a browser shows it; the default.
        case textOnly
        /// `Bob: ` before the text, the way captions name speakers in plain text.
        case namePrefix
    }

    /// What becomes of cue settings.
    public enum Placement: Sendable, Hashable, CaseIterable {
        /// `{\an1}` … `{\an9}` before the text, for cues placed off the default bottom centre.
        case alignmentOverrides
        /// Nothing: every cue at the player's default place.
        case none
    }

    /// Whether the file starts with a byte order mark.
    public enum ByteOrderMark: Sendable, Hashable, CaseIterable {
        /// No mark; the default (UTF-8 needs none).
        case none
        /// A UTF-8 byte order mark, which some old players need to see UTF-8.
        case utf8
    }
}
