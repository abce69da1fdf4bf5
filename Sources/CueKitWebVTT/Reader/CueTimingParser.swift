import CueKit

/// Reads a timing line: "collect WebVTT cue timings and settings" and "parse the WebVTT cue
/// settings" (W3C WebVTT, section 6.3), step by step, on the line's bytes, and checks the line
/// against the syntax of section 4.3 while doing so.
struct CueTimingParser {
    /// A timing line that the parser accepted.
    struct Timings {
        var start: Int
        var end: Int
        var settings: CueSettings
    }

    /// Why the parser rejected a timing line.
    struct Failure: Error {
        var code: DiagnosticCode
        var offset: Int
        var message: String
    }

    private(set) var line: UnsafeRawBufferPointer
    private(set) var lineNumber: Int
    /// Whether to look for authoring problems (the parse itself is the same either way).
    let checks: Bool
    private(set) var diagnostics: [Diagnostic] = []
    /// Why ``parse(regions:)`` returned nil.
    private(set) var failure: Failure?
    /// Where the setting being parsed starts, for diagnostics about its value.
    var settingStart = 0

    /// Whether the common form of the times and of the settings (``readCommonSettings(from:regions:into:)``)
    /// is read without the general algorithm (tests turn it off to compare the two).
    let readsCommonForm: Bool

    /// The settings of earlier lines by their text, consulted for lines in the common form when
    /// ``cachesSettings`` is set (the reader's fast path, which keeps one cache for the file).
    var settingsCache = CueSettingsCache()
    var cachesSettings = false
    /// False when nothing reads the settings: ``parse(regions:settings:)`` then leaves them
    /// unread on lines in the common form (and at their defaults), where nothing could be
    /// reported anyway without ``checks``.
    var readsSettings = true

    init(line: UnsafeRawBufferPointer, lineNumber: Int, checks: Bool, readsCommonForm: Bool = true) {
        self.line = line
        self.lineNumber = lineNumber
        self.checks = checks
        self.readsCommonForm = readsCommonForm
    }

    /// Makes the parser read `line` next, as a new parser would: the reader's fast path keeps one
    /// parser for a run of cue blocks, where a parser made and destroyed per line cost some 45
    /// instructions a cue (its destruction goes through the runtime's value witnesses).
    @inline(__always)
    mutating func reset(line: UnsafeRawBufferPointer, lineNumber: Int) {
        self.line = line
        self.lineNumber = lineNumber
        if !diagnostics.isEmpty { diagnostics = [] }
        if failure != nil { failure = nil }
        settingStart = 0
        readFullFormTimes = false
        settingsOffset = nil
    }

    /// Runs the algorithm; `regions` are those defined so far, which `region:` may name. Returns
    /// nil when the line is not a valid timing line, and says why in ``failure``.
    mutating func parse(regions: RegionTable) -> Timings? {
        if readsCommonForm, let timings = parseCommonForm(regions: regions) { return timings }
        let count = line.count
        var position = 0
        // Skip whitespace; collect the start time.
        skipWhitespace(&position)
        if checks, position > 0 {
            warn(.vttTimingWhitespace, at: 0, "a timing line starts with its start time, not with white space")
        }
        guard let start = collectTimestamp(&position, which: .start) else { return nil }
        // Skip whitespace; "-->"; skip whitespace.
        let beforeArrow = position
        skipWhitespace(&position)
        let arrow = position
        guard position + 3 <= count,
            line[position] == UInt8(ascii: "-"), line[position + 1] == UInt8(ascii: "-"), line[position + 2] == UInt8(ascii: ">")
        else {
            failure = Failure(code: .vttBadTimings, offset: min(position, count), message: "'-->' expected after the start time")
            return nil
        }
        position += 3
        let afterArrow = position
        skipWhitespace(&position)
        if checks {
            if !isSpaceOrTab(line, beforeArrow, arrow) || !isSpaceOrTab(line, afterArrow, position) {
                warn(.vttTimingWhitespace, at: arrow, "'-->' must have spaces or tabs on both sides")
            }
        }
        // Collect the end time.
        guard let end = collectTimestamp(&position, which: .end) else { return nil }
        if checks, position < count, !isASCIIWhitespace(line[position]) {
            warn(.vttTimingWhitespace, at: position, "settings must be separated from the end time by a space or a tab")
        }
        // Parse the settings from the remainder.
        var settings = CueSettings()
        parseSettings(from: position, regions: regions, into: &settings)
        return Timings(start: start.milliseconds, end: end.milliseconds, settings: settings)
    }

    /// The line nearly every file has: `start --> end`, each time in a common form
    /// (``CueTimestamp/collectCommonForm(from:at:)``), one space on each side of the arrow, then
    /// the end of the line or white space and settings. Nothing in it can be reported, so the
    /// general algorithm's steps up to the settings are skipped; any other line (and every line
    /// with something to report before its settings) returns nil and takes the general path.
    @inline(__always)
    private mutating func parseCommonForm(regions: RegionTable) -> Timings? {
        guard let (start, end, settingsStart, _) = commonFormTimes() else { return nil }
        // Built in place from the parser's default settings (see ``resetToDefaults(_:)``).
        var timings = Timings(start: start, end: end, settings: Self.defaultSettings)
        if settingsStart < line.count { parseSettingsOrRecall(from: settingsStart, regions: regions, into: &timings.settings) }
        return timings
    }

    /// ``parse(regions:)`` with the settings written into `settings` (whatever it held before):
    /// for the reader's fast path when it hands on no cue, which parses every line's settings
    /// into one value rather than move an optional `Timings` out of each line (which the compiler
    /// destroys through the runtime's generic value witnesses).
    mutating func parse(regions: RegionTable, settings: inout CueSettings) -> (start: Int, end: Int)? {
        if readsCommonForm, let (start, end, settingsStart, inFull) = commonFormTimes() {
            Self.resetToDefaults(&settings)
            readFullFormTimes = inFull
            settingsOffset = settingsStart
            if readsSettings || checks, settingsStart < line.count {
                parseSettingsOrRecall(from: settingsStart, regions: regions, into: &settings)
            }
            return (start, end)
        }
        guard let timings = parse(regions: regions) else { return nil }
        settings = timings.settings
        return (timings.start, timings.end)
    }

    /// True when ``parse(regions:settings:)`` read a line that starts with both times in full:
    /// `hh:mm:ss.ttt --> hh:mm:ss.ttt`, hours in two digits or as many as they need with no
    /// leading zero, then the end of the line (at ``settingsOffset``) or settings.
    private(set) var readFullFormTimes = false

    /// Where the settings start (the line's end when it has none), when ``parse(regions:settings:)``
    /// read the line's times in a common form; else nil.
    private(set) var settingsOffset: Int?


    /// WebVTT's default settings, made once.
    private static let defaultSettings = CueSettings()

    /// Every setting back to its default, field by field: `settings = CueSettings()` built the
    /// default twice, copied one and destroyed the other (some 60 instructions a cue).
    @inline(__always)
    private static func resetToDefaults(_ settings: inout CueSettings) {
        settings.vertical = .horizontal
        settings.line = .auto
        settings.lineAlignment = .start
        settings.position = .auto
        settings.positionAlignment = .auto
        settings.size = 100
        settings.alignment = .center
        // (Assigning nil over nil still called the runtime to release the old value.)
        if settings.region != nil { settings.region = nil }
    }

    /// The times of a line in the common form (``parseCommonForm(regions:)``), and where its
    /// settings start (the line's end when it has none), or nil.
    @inline(__always)
    private func commonFormTimes() -> (start: Int, end: Int, settingsStart: Int, inFull: Bool)? {
        let count = line.count
        if let times = Self.twoDigitHourTimes(line) { return (times.start, times.end, 29, true) }
        var position = 0
        guard let start = CueTimestamp.collectCommonForm(from: line, at: &position), start.hourDigits != 1,
            position + 5 < count, let base = line.baseAddress,
            base.loadUnaligned(fromByteOffset: position, as: UInt32.self) == Self.spacedArrow,
            base.load(fromByteOffset: position + 4, as: UInt8.self) == 0x20
        else { return nil }
        position += 5
        let endStart = position
        guard let end = CueTimestamp.collectCommonForm(from: line, at: &position), end.hourDigits != 1 else { return nil }
        if position < count {
            let next = line[position]
            guard next == 0x20 || next == 0x09 || next == 0x0C else { return nil }
        }
        // In full: hours in two digits, or as many as they need: no `mm:ss.ttt`, and no zero
        // before hours of three digits or more.
        @inline(__always) func inFull(_ time: CueTimestamp.Collected, at offset: Int) -> Bool {
            time.hourDigits == 2 || (time.hourDigits > 2 && base.load(fromByteOffset: offset, as: UInt8.self) != UInt8(ascii: "0"))
        }
        return (start.milliseconds, end.milliseconds, position, inFull(start, at: 0) && inFull(end, at: endStart))
    }

    /// The line as nearly every file writes it, `hh:mm:ss.ttt --> hh:mm:ss.ttt` (29 bytes), then
    /// the end of the line or white space before settings, read in four overlapping 64-bit words;
    /// nil for any other line (which ``commonFormTimes()`` then reads timestamp by timestamp).
    ///
    /// Each word is xor-ed with the form's own bytes (`0` for a digit, the separator itself
    /// elsewhere): a digit becomes its value and a separator zero, so one test checks every byte
    /// below ten, a second every separator zero, and a third the tens of minutes and seconds below
    /// six. Pairs of digits are then joined in place (ten times a word plus itself a byte along).
    @inline(__always)
    static func twoDigitHourTimes(_ line: UnsafeRawBufferPointer) -> (start: Int, end: Int)? {
        let count = line.count
        guard count >= 29, let base = line.baseAddress else { return nil }
        if count > 29 {
            let next = base.load(fromByteOffset: 29, as: UInt8.self)
            guard next == 0x20 || next == 0x09 || next == 0x0C else { return nil }
        }
        // Bytes 0-7 `hh:mm:ss`, 8-15 `.ttt -->`, 16-23 ` hh:mm:s`, 21-28 `m:ss.ttt`.
        let startClock = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)) ^ Self.startClockForm
        let startFraction = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) ^ Self.startFractionForm
        let endClock = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) ^ Self.endClockForm
        let endTail = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 21, as: UInt64.self)) ^ Self.endTailForm
        let highBits: UInt64 = 0x8080_8080_8080_8080, belowTen: UInt64 = 0x7676_7676_7676_7676
        @inline(__always) func aboveNine(_ word: UInt64) -> UInt64 { word | (word &+ belowTen) }
        guard (aboveNine(startClock) | aboveNine(startFraction) | aboveNine(endClock) | aboveNine(endTail)) & highBits == 0,
            startClock & 0x0000_FF00_00FF_0000 | startFraction & 0xFFFF_FFFF_0000_00FF | endClock & 0x00FF_0000_FF00_00FF
                | endTail & 0x0000_00FF_0000_FF00 == 0,
            // Tens of minutes and of seconds: bytes 3 and 6 of the start, 20 and 23 of the line.
            (startClock &+ 0x007A_0000_7A00_0000) & 0x0080_0000_8000_0000 | (endClock &+ 0x0000_007A_0000_0000) & 0x0000_0080_0000_0000
                | (endTail &+ 0x0000_0000_007A_0000) & 0x0000_0000_0080_0000 == 0
        else { return nil }
        // Each byte now holds ten times itself plus the next: a pair's value where a pair starts.
        @inline(__always) func pairs(_ word: UInt64) -> UInt64 { word &* 10 &+ (word >> 8) }
        @inline(__always) func byte(_ word: UInt64, _ index: UInt64) -> Int { Int(truncatingIfNeeded: (word >> (8 * index)) & 0xFF) }
        let startPairs = pairs(startClock), endPairs = pairs(endClock), tailPairs = pairs(endTail)
        let start = byte(startPairs, 0) * 3_600_000 + byte(startPairs, 3) * 60_000 + byte(startPairs, 6) * 1_000
            + byte(startFraction, 1) * 100 + byte(startFraction, 2) * 10 + byte(startFraction, 3)
        let end = byte(endPairs, 1) * 3_600_000 + byte(endPairs, 4) * 60_000 + byte(tailPairs, 2) * 1_000
            + byte(endTail, 5) * 100 + byte(endTail, 6) * 10 + byte(endTail, 7)
        return (start, end)
    }

    /// The bytes of the form ``twoDigitHourTimes(_:)`` reads, as little-endian words at offsets
    /// 0, 8, 16 and 21: `00:00:00`, `.000 -->`, ` 00:00:0` and `0:00.000` (a test spells them).
    static let startClockForm: UInt64 = 0x3030_3A30_303A_3030
    static let startFractionForm: UInt64 = 0x3E2D_2D20_3030_302E
    static let endClockForm: UInt64 = 0x303A_3030_3A30_3020
    static let endTailForm: UInt64 = 0x3030_302E_3030_3A30

    /// ` -->` as a little-endian 32-bit word.
    private static let spacedArrow = UInt32(0x20) | UInt32(UInt8(ascii: "-")) << 8 | UInt32(UInt8(ascii: "-")) << 16 | UInt32(UInt8(ascii: ">")) << 24

    // MARK: Timestamps

    private enum Which: String { case start, end }

    private mutating func collectTimestamp(_ position: inout Int, which: Which) -> CueTimestamp.Collected? {
        let start = position
        switch CueTimestamp.collect(from: line, at: &position) {
        case .success(let collected):
            if checks, collected.hourDigits == 1 {
                warn(.vttTimestampHours, at: start, "the hours of the \(which.rawValue) time take at least two digits")
            }
            return collected
        case .failure(let reason):
            let code: DiagnosticCode = reason.reason == .outOfRange ? .vttTimestampOutOfRange : .vttBadTimestamp
            var message = "bad \(which.rawValue) time: \(reason.message)"
            if case .expectedSeparator = reason.reason, reason.offset < line.count, line[reason.offset] < 0x80 {
                message +=
                    ", not '\(String(decoding: UnsafeRawBufferPointer(rebasing: line[reason.offset..<reason.offset + 1]), as: UTF8.self))'"
            }
            failure = Failure(code: code, offset: reason.offset, message: message)
            return nil
        }
    }

    // MARK: Helpers

    func skipWhitespace(_ position: inout Int) {
        while position < line.count, isASCIIWhitespace(line[position]) { position += 1 }
    }

    private func isSpaceOrTab(_ bytes: UnsafeRawBufferPointer, _ from: Int, _ to: Int) -> Bool {
        guard to > from else { return false }
        for index in from..<to where bytes[index] != 0x20 && bytes[index] != 0x09 { return false }
        return true
    }

    func text(_ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: line[from..<to]), as: UTF8.self)
    }

    mutating func warn(_ code: DiagnosticCode, at offset: Int, _ message: String) {
        diagnostics.append(Diagnostic(.warning, code, at: location(offset), message))
    }

    mutating func error(_ code: DiagnosticCode, at offset: Int, _ message: String) {
        diagnostics.append(Diagnostic(.error, code, at: location(offset), message))
    }

    func location(_ offset: Int) -> SourceLocation {
        SourceLocation(line: lineNumber, column: ByteScanning.column(of: offset, in: line))
    }
}

@inline(__always)
func isASCIIWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
}
