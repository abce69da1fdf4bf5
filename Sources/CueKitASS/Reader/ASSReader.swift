import CueKit

/// Reads ASS and SSA scripts on bytes, streaming: ``TrackEvent``s out as each line completes.
///
/// The reader follows libass, the renderer of mpv, VLC and ffmpeg, where the format's documents
/// are silent or old (see the reference article, *Reading ASS and SSA*):
///
/// - **Sections.** `[Script Info]` gives PlayResX and PlayResY (384 × 288 when neither is given,
///   the other from 4:3 when one is) and WrapStyle; `[V4+ Styles]` and `[V4 Styles]` give styles,
///   their `Format:` line naming the fields of each `Style:` line; `[Events]` gives `Dialogue:`
///   lines, read by its `Format:` line (the last field, `Text`, takes the rest of the line, commas
///   included), and `Comment:` lines, kept as notes. Other sections (`[Fonts]`, `[Graphics]`,
///   `[Aegisub Project Garbage]`) are skipped.
/// - **Styles** become `::cue(.Name)` rules (``ASSStyle/rule(playResY:)``), handed out as one
///   style sheet before the first cue; each event's text is wrapped in its style's class.
/// - **Events** become cues in file order; a converter puts them in start-time order (ASS scripts
///   are often sorted by layer or by style, not by time). Times are `H:MM:SS.CC`.
/// - **Override tags** map as ``ASSOverrideConverter`` describes; what WebVTT cannot carry is
///   reported once per kind (`ass-unsupported`).
///
/// **Style sheets and streaming.** Override colours (`{\c&H00FFFF&}`) are met in the events that use
/// them; each needs a rule before the first cue. As SubRip's reader does, a reader made with a
/// prescan (``PrescanningTrackReader``) hands out every rule after the header; one without hands
/// each out before the first cue that uses it.
///
/// Memory is bounded by ``Options/Limits``: a line, the styles, the colours, a `Format:` line's
/// fields. Diagnostics of one code beyond ``Options/Limits/maximumDiagnosticsPerCode`` are counted.
public struct ASSReader: TrackReader, Sendable {
    /// The options read with.
    public let options: Options

    enum Section {
        case none, scriptInfo, styles(isSSA: Bool), events, other
    }

    /// The input decoded and cut into lines.
    var lines: TextLineFeed
    var section = Section.none
    var lineNumber = 0
    var headerSent = false
    var finished = false
    /// True in a prescan: nothing is emitted but style sheets, and only events with overrides are read.
    var prescanning = false

    var script = ASSScript()
    var styleFormat: [String]?
    /// The `[Events]` Format line's fields, named once (nil: the v4.00+ default).
    var eventFormat: [EventField]?
    /// The last event's style name and its index in the styles (nil: not defined): most events
    /// name the style the one before named.
    var lastStyleName: [UInt8] = []
    var lastStyleIndex: Int??
    var sawScriptInfo = false
    var sawEvents = false
    var stylesLimitReported = false
    /// The style sheet of the styles has been handed out.
    var stylesEmitted = false
    /// The selectors whose rules were handed out (or came from a prescan).
    var definedSelectors: Set<String> = []
    var colorRules = 0
    var prescanned: [CueStylesheet] = []

    var cueCount = 0
    var dialogueCount = 0
    var converter = ASSOverrideConverter()
    var markup: [UInt8] = []
    var repaired: [UInt8] = []
    var reportedKinds: Set<String> = []
    var limiter: DiagnosticLimiter

    /// Creates a reader.
    public init(options: Options = Options()) {
        self.options = options
        limiter = DiagnosticLimiter(limit: options.limits.maximumDiagnosticsPerCode)
        lines = TextLineFeed(declared: options.encoding, maximumLineLength: options.limits.maximumLineLength)
    }

    /// Takes the next bytes of input, in chunks of any size.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, to handler: (TrackEvent) throws -> Void) throws {
        precondition(!finished, "ASSReader fed after finish")
        try sendHeader(handler)
        // The feed is moved out while it calls back into the reader.
        var lines = self.lines
        self.lines = .placeholder
        defer { self.lines = lines }
        try lines.feed(chunk) { piece in try take(piece, handler) }
    }

    /// Marks the end of input: the last line, and what only the end can tell.
    public mutating func finish(to handler: (TrackEvent) throws -> Void) throws {
        guard !finished else { return }
        try sendHeader(handler)
        finished = true
        var lines = self.lines
        self.lines = .placeholder
        defer { self.lines = lines }
        try lines.finish { piece in try take(piece, handler) }
        guard !prescanning else {
            try emitStyles(handler)
            return
        }
        if !sawScriptInfo, !sawEvents {
            throw ReadError(
                .assNotScript, at: .start, "not an ASS or SSA script: it has no [Script Info] and no [Events] section")
        }
        try emitStyles(handler)
        if !sawEvents {
            try report(.warning, .assNoEvents, line: nil, column: nil, "the script has no [Events] section: it holds no subtitles", handler)
        } else if dialogueCount == 0 {
            try report(.warning, .assNoEvents, line: nil, column: nil, "the [Events] section holds no Dialogue line", handler)
        }
        for note in limiter.notes(code: .assDiagnosticsLimited) { try handler(.diagnostic(note)) }
    }

    // MARK: Lines

    mutating func take(_ piece: TextLineFeed.Piece, _ handler: (TrackEvent) throws -> Void) throws {
        guard case .line(let line) = piece else { return }
        try process(line, handler)
    }

    mutating func process(_ line: LineSplitter.Line, _ handler: (TrackEvent) throws -> Void) throws {
        lineNumber += 1
        let raw = line.bytes.assumingMemoryBound(to: UInt8.self)
        if line.isCut {
            try report(
                .error, .assTooLong, line: lineNumber, column: nil,
                "line is longer than \(options.limits.maximumLineLength) bytes (Options.Limits.maximumLineLength); the rest of it is dropped",
                handler)
        }
        if !line.isPlainASCII, !UTF8Repair.isClean(line.bytes) {
            repaired.removeAll(keepingCapacity: true)
            let found = UTF8Repair.repair(line.bytes, into: &repaired)
            if found.invalidSequences > 0 {
                try report(
                    .error, .assInvalidUTF8, line: lineNumber, column: found.firstInvalidColumn,
                    "bytes that are not UTF-8 are read as U+FFFD (read the script with --encoding when it is in another encoding)", handler)
            }
            let copy = repaired
            try copy.withUnsafeBufferPointer { try process(text: $0, handler) }
        } else {
            try process(text: raw, handler)
        }
    }

    mutating func process(text line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws {
        var start = 0
        if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF { start = 3 }
        while start < line.count, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        guard start < line.count else { return }
        if line[start] == UInt8(ascii: "[") {
            try sectionHeader(UnsafeBufferPointer(rebasing: line[start...]), column: start + 1, handler)
            return
        }
        if line[start] == UInt8(ascii: ";") { return }
        if case .other = section { return }
        guard let colon = line[start...].firstIndex(of: UInt8(ascii: ":")) else {
            if case .scriptInfo = section { return }
            try report(
                .warning, .assStrayLine, line: lineNumber, column: start + 1,
                section.isNone ? "text before the first section is skipped" : "a line that is not 'Key: value' is skipped", handler)
            return
        }
        var valueStart = colon + 1
        while valueStart < line.count, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
        let key = UnsafeBufferPointer(rebasing: line[start..<colon])
        let value = UnsafeBufferPointer(rebasing: line[valueStart...])
        switch section {
        case .none:
            try report(.warning, .assStrayLine, line: lineNumber, column: start + 1, "text before the first section is skipped", handler)
        case .scriptInfo:
            scriptInfo(key, value)
        case .styles(let isSSA):
            if Self.equals(key, "format") {
                styleFormat = try format(value, column: valueStart + 1, handler)
            } else if Self.equals(key, "style") {
                try style(value, isSSA: isSSA, column: valueStart + 1, handler)
            }
        case .events:
            if Self.equals(key, "dialogue") {
                dialogueCount += 1
                try event(value, column: valueStart + 1, line: line, handler)
            } else if Self.equals(key, "comment") {
                if !prescanning {
                    var end = line.count
                    while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
                    try handler(.note(CueNote(String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self), cueIndex: cueCount)))
                }
            } else if Self.equals(key, "format") {
                eventFormat = try format(value, column: valueStart + 1, handler).map(EventField.init(name:))
            } else {
                let name = String(decoding: key, as: UTF8.self)
                try reportOnce(
                    "event:" + name, .assEventIgnored, line: lineNumber, column: start + 1,
                    "'\(name):' lines have no equivalent in the cue model; they are skipped", handler)
            }
        case .other:
            break
        }
    }

    mutating func sectionHeader(_ line: UnsafeBufferPointer<UInt8>, column: Int, _ handler: (TrackEvent) throws -> Void) throws {
        var end = line.firstIndex(of: UInt8(ascii: "]"))
        if end == nil {
            try report(
                .error, .assSectionHeader, line: lineNumber, column: column + line.count,
                "section header has no closing ']'; read up to the end of the line", handler)
            var last = line.count
            while last > 1, line[last - 1] == 0x20 || line[last - 1] == 0x09 { last -= 1 }
            end = last
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: line[1..<end!]), as: UTF8.self).lowercased()
        switch name {
        case "script info":
            section = .scriptInfo
            sawScriptInfo = true
        case "v4+ styles", "v4 styles+":
            section = .styles(isSSA: false)
            styleFormat = nil
        case "v4 styles":
            section = .styles(isSSA: true)
            styleFormat = nil
        case "events":
            section = .events
            sawEvents = true
            eventFormat = nil
        default:
            section = .other
        }
    }

    mutating func scriptInfo(_ key: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) {
        if Self.equals(key, "playresx") {
            script.playResX = Self.integer(value).flatMap { $0 > 0 ? $0 : nil }
        } else if Self.equals(key, "playresy") {
            script.playResY = Self.integer(value).flatMap { $0 > 0 ? $0 : nil }
        } else if Self.equals(key, "wrapstyle") {
            script.wrapStyle = Self.integer(value) ?? 0
            converter.wrapStyle = script.wrapStyle
        } else if Self.equals(key, "scripttype") {
            script.scriptType = String(decoding: value.prefix(32), as: UTF8.self)
        }
    }

    /// The lower-case field names of a `Format:` line, at most ``Options/Limits/maximumFields``.
    mutating func format(_ value: UnsafeBufferPointer<UInt8>, column: Int, _ handler: (TrackEvent) throws -> Void) throws -> [String] {
        var fields = value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { field in
            String(decoding: field.filter { $0 != 0x20 && $0 != 0x09 }, as: UTF8.self).lowercased()
        }
        if fields.count > options.limits.maximumFields {
            try report(
                .error, .assLimit, line: lineNumber, column: column,
                "the Format line names \(fields.count) fields, more than \(options.limits.maximumFields) (Options.Limits.maximumFields); the rest are left out",
                handler)
            fields.removeLast(fields.count - options.limits.maximumFields)
        }
        return fields
    }

    // MARK: Events out

    mutating func sendHeader(_ handler: (TrackEvent) throws -> Void) throws {
        guard !headerSent else { return }
        headerSent = true
        guard !prescanning else { return }
        try handler(.header(""))
        let sheets = prescanned
        prescanned = []
        for sheet in sheets {
            for rule in sheet.cueRules { definedSelectors.insert(rule.selector.css) }
            try handler(.stylesheet(sheet))
        }
    }

    /// Hands out the rules of `rules` not handed out yet, as one style sheet.
    mutating func emitRules(_ rules: [CueStyleRule], _ handler: (TrackEvent) throws -> Void) throws {
        var fresh: [CueStyleRule] = []
        for rule in rules where definedSelectors.insert(rule.selector.css).inserted { fresh.append(rule) }
        guard !fresh.isEmpty else { return }
        try handler(.stylesheet(CueStylesheet(rules: fresh)))
    }

    /// Hands out the styles' rules, once, before the first cue (or at the end of a script without one).
    mutating func emitStyles(_ handler: (TrackEvent) throws -> Void) throws {
        guard !stylesEmitted else { return }
        stylesEmitted = true
        let height = script.resolution.height
        var rules = converter.styles.map { $0.rule(playResY: height) }
        if converter.styles.isEmpty { rules.append(ASSStyle(name: "Default").rule(playResY: height)) }
        try emitRules(rules, handler)
    }

    mutating func report(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, line: Int?, column: Int?, _ message: String,
        _ handler: (TrackEvent) throws -> Void
    ) throws {
        guard !prescanning, limiter.admit(code) else { return }
        let location = line.map { SourceLocation(line: $0, column: column ?? 1) }
        try handler(.diagnostic(Diagnostic(severity, code, at: location, message)))
    }

    /// Reports `key`'s problem the first time only.
    mutating func reportOnce(
        _ key: String, _ code: DiagnosticCode, line: Int?, column: Int?, _ message: String, _ handler: (TrackEvent) throws -> Void
    ) throws {
        guard !prescanning, reportedKinds.count < 1024, reportedKinds.insert(key).inserted else { return }
        try report(.warning, code, line: line, column: column, message, handler)
    }

    // MARK: Bytes

    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard end == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: end)
        for index in 0..<end where bytes[index] | 0x20 != expected[index] { return false }
        return true
    }

    static func integer(_ bytes: some Collection<UInt8>) -> Int? {
        ASSOverrideConverter.integer(ArraySlice(bytes.drop { $0 == 0x20 || $0 == 0x09 }))
    }
}

extension ASSReader.Section {
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}
