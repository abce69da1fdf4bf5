import CueKit

/// Reads SubRip (`.srt`) on bytes, streaming: ``TrackEvent``s out as each cue completes.
///
/// SubRip has no specification; files in the wild break every rule of the de facto format. The
/// reader recovers the way players do and reports each departure as a diagnostic (codes `srt-…`,
/// see ``CueKit/DiagnosticCode``):
///
/// - **Encoding.** A byte order mark (UTF-8, UTF-16 or UTF-32) says which; without one,
///   ``Options/encoding`` does, or UTF-16 is recognised by a NUL beside the first ASCII byte (see
///   `TextTranscoder`). Other input is UTF-8: bytes that are not UTF-8 become U+FFFD, reported per
///   line, with a hint when they look like Windows-1252 (`--encoding windows-1252` reads them).
/// - **Lines** end at LF, CRLF or CR. A line holding only white space (or the DOS end-of-file
///   byte 0x1A) is blank.
/// - **Blocks.** A cue is an optional sequence number line, a timing line (see
///   ``SubRipTimingLine``), and text lines. Sequence numbers may be missing, wrong or out of order:
///   they become cue identifiers (``Options/CueIdentifiers-swift.enum``) and are only checked.
/// - **Where a cue's text ends** (SubRip's ambiguity: text may hold blank lines, and a line of digits
///   may be text or the next cue's number). The reader looks ahead, never more than one line.
///   The text ends at a timing line; at a line of digits directly followed by a timing line (that
///   line is the next cue's number); at a broken timing line (one that starts with a digit and holds
///   `:` and `-->`, alone or after a line of digits: that cue is skipped, reported); after blank lines,
///   at a line holding the next expected sequence number, even with no timing line after it (that
///   cue is skipped, reported); and at the end of input. Anything else after blank lines is more
///   text of the same cue: the blank lines are left out (a cue cannot hold an empty line) and
///   reported, in the last cue too (as ffmpeg and pysubs2 keep it: a last line of dialogue is worth
///   more than the credits some files end with). A timing line with no blank
///   line before it still starts a new cue, reported. A number at the very end after a blank line is
///   a cut-off cue, dropped and reported.
/// - **Other text** outside cues (before the first, or after a number with no timing line) is
///   skipped and reported once per run of lines.
/// - **Markup** (`<i>`, `<b>`, `<u>`, `<font color>`, `{\anN}`) maps to the model as
///   ``SubRipMarkupConverter`` describes.
///
/// **Colours and streaming.** A `<font color>` becomes a class span plus a style sheet rule (see
/// ``SubRipColor``). The rule of each colour is emitted as a ``TrackEvent/stylesheet(_:)``, once, just
/// before the first cue that uses the colour. A whole-track reader (``TrackReader/read(_:)``) thus
/// collects every rule into ``Track/stylesheets``, which writers put before the cues. A streaming
/// converter to WebVTT, whose `STYLE` blocks must come before the first cue, reads the input twice:
/// first with ``Options/Events-swift.enum/stylesheetsOnly``, writing the style sheets, then whole,
/// dropping the stylesheet events it already wrote. The first pass is cheap: it only looks for
/// `<font` tags (see ``SubRipColorScanner``), in about a tenth of the time of a full read.
///
/// Diagnostics of one code beyond ``Options/maximumDiagnosticsPerCode`` are counted, not emitted,
/// and summed up at the end, so a file with a systematic fault (a million cues timed with `.`) yields
/// a few diagnostics, not a million. Memory is bounded by ``Options/maximumLineLength`` and
/// ``Options/maximumCueTextLength`` whatever the input.
public struct SubRipReader: TrackReader, Sendable {
    /// How the reader reads.
    public struct Options: Sendable, Hashable {
        /// The text encoding of input without a byte order mark; nil: UTF-8, or UTF-16 when its
        /// NUL bytes show it.
        public var encoding: TextEncoding?
        /// What cue identifiers are made of.
        public var cueIdentifiers: CueIdentifiers
        /// Which events are emitted.
        public var events: Events
        /// The longest line kept, in bytes; the rest of a longer line is dropped and reported.
        public var maximumLineLength: Int
        /// The longest cue text kept, in bytes; further lines are dropped and reported.
        public var maximumCueTextLength: Int
        /// How many diagnostics of one code are emitted; the rest are counted in one note at the end.
        /// `Int.max` emits every one.
        public var maximumDiagnosticsPerCode: Int
        /// The most distinct font colours given a style rule: 1,000 by default.
        public var maximumColors: Int

        /// Creates options; the defaults suit files from anywhere.
        public init(
            encoding: TextEncoding? = nil,
            cueIdentifiers: CueIdentifiers = .sequenceNumbers,
            events: Events = .all,
            maximumLineLength: Int = 64 * 1024,
            maximumCueTextLength: Int = 1024 * 1024,
            maximumDiagnosticsPerCode: Int = 100,
            maximumColors: Int = 1000
        ) {
            self.maximumColors = max(0, maximumColors)
            self.encoding = encoding
            self.cueIdentifiers = cueIdentifiers
            self.events = events
            self.maximumLineLength = max(16, maximumLineLength)
            self.maximumCueTextLength = max(16, maximumCueTextLength)
            self.maximumDiagnosticsPerCode = max(0, maximumDiagnosticsPerCode)
        }

        /// What cue identifiers are made of.
        public enum CueIdentifiers: Sendable, Hashable, CaseIterable {
            /// The sequence number as written (`"12"`); empty when the cue has none.
            case sequenceNumbers
            /// None: every cue's identifier is empty (a WebVTT file written from it has no
            /// identifier lines).
            case none
        }

        /// Which events are emitted.
        public enum Events: Sendable, Hashable, CaseIterable {
            /// Everything: the header, style sheets, cues and diagnostics.
            case all
            /// The header and the colour style sheets only, found by looking at tags alone: the first
            /// pass of a streaming converter. It may give a rule more than a full read (for a colour
            /// used only in text the full read skips), never one less.
            case stylesheetsOnly
        }
    }

    /// The options read with.
    public let options: Options

    private enum State {
        /// Between cues: blank lines, a number, a timing line or stray text may come.
        case betweenCues
        /// After a sequence number: a timing line must come.
        case afterNumber
        /// In a cue's text.
        case inText
    }

    private var decoder: TextTranscoder
    private var splitter: SubRipLineSplitter
    private var scanner: SubRipColorScanner
    private var state = State.betweenCues
    private var headerSent = false
    private var finished = false
    private var lineNumber = 0

    // The pending sequence number line: its bytes, value and line.
    private var numberBytes: [UInt8] = []
    private var numberValue = 0
    private var numberLine = 0
    private var hasPendingNumber = false
    private var lastNumber: Int?
    /// Inside stray text: further stray lines are not reported again.
    private var inStrayRun = false

    // The cue being read.
    private var cueStart = 0
    private var cueEnd = 0
    private var cueID = ""
    private var text: [UInt8] = []
    /// For each line of `text`: its offset in `text`, its line number, and the characters before
    /// it on that line (more than zero after an ASS `\N` line break).
    private var textLines: [(offset: Int, line: Int, column: Int)] = []
    private var blankLinesPending = 0
    private var colorLimitReported = false
    /// The first blank line inside the cue's text, reported when the cue ends.
    private var blankLineInText: Int?
    private var textCutReported = false
    private var cueCount = 0

    // Reused buffers.
    private var repaired: [UInt8] = []
    private var markup: [UInt8] = []
    private var timingIssues: [SubRipTimingLine.Issue] = []
    private var timingLineBytes: [UInt8] = []
    private var converter = SubRipMarkupConverter()
    private var markupIssues: [SubRipMarkupConverter.Issue] = []

    private var colorsDefined: Set<String> = []
    private var limiter: DiagnosticLimiter

    /// Creates a reader.
    public init(options: Options = Options()) {
        self.options = options
        limiter = DiagnosticLimiter(limit: options.maximumDiagnosticsPerCode)
        decoder = TextTranscoder(declared: options.encoding)
        splitter = SubRipLineSplitter(maximumLineLength: options.maximumLineLength)
        scanner = SubRipColorScanner(maximumTagLength: options.maximumLineLength)
    }

    /// Takes the next bytes of input, in chunks of any size, handing `handler` each event they
    /// complete: the header first, then diagnostics, colour style sheets and cues in file order.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, to handler: (TrackEvent) throws -> Void) throws {
        precondition(!finished, "SubRipReader fed after finish")
        try sendHeader(handler)
        // The decoder and splitter are moved out while they call back into the reader.
        var decoder = self.decoder
        self.decoder = TextTranscoder(declared: nil)
        defer { self.decoder = decoder }
        try decoder.decode(chunk) { output in try decoded(output, handler) }
    }

    /// Marks the end of input: hands on the last cue and what only the end can tell (a cut-off cue,
    /// no cues at all, the count of diagnostics over the limit).
    public mutating func finish(to handler: (TrackEvent) throws -> Void) throws {
        guard !finished else { return }
        try sendHeader(handler)
        var decoder = self.decoder
        self.decoder = TextTranscoder(declared: nil)
        defer { self.decoder = decoder }
        try decoder.finish { output in try decoded(output, handler) }
        finished = true
        if options.events == .stylesheetsOnly {
            scanner.finish()
            return
        }
        var splitter = self.splitter
        self.splitter = SubRipLineSplitter(maximumLineLength: 0)
        defer { self.splitter = splitter }
        try splitter.finish { line, cut in try process(line, cut: cut, handler) }
        switch state {
        case .betweenCues:
            break
        case .afterNumber:
            try report(
                .warning, .srtIncompleteCue, line: numberLine, column: 1,
                "the input ends after sequence number \(numberValue), with no timing line; that cue is dropped", handler)
        case .inText:
            if hasPendingNumber, blankLinesPending > 0 {
                try finishCue(atEnd: true, handler)
                try report(
                    .warning, .srtIncompleteCue, line: numberLine, column: 1,
                    "the input ends with sequence number \(numberValue) after a blank line and no timing line; that cut-off cue is dropped",
                    handler)
            } else {
                if hasPendingNumber { try appendPendingNumberAsText(handler) }
                try finishCue(atEnd: true, handler)
            }
        }
        if decoder.undecodableUnits > 0, let encoding = decoder.encoding {
            try report(
                .error, .srtUTF16, line: nil, column: nil,
                "\(decoder.undecodableUnits) \(encoding) code unit(s) could not be decoded (an unpaired surrogate, a value past U+10FFFF, or a cut-off last unit) and were read as U+FFFD",
                handler)
        }
        if cueCount == 0 {
            try report(
                .warning, .srtNoCues, line: nil, column: nil,
                "the input holds no SubRip cue (a timing line such as '00:00:01,000 --> 00:00:02,000')", handler)
        }
        for note in limiter.notes(code: .srtDiagnosticsLimited) { try emit(.diagnostic(note), handler) }
    }

    // MARK: Lines

    private mutating func decoded(_ output: TextTranscoder.Output, _ handler: (TrackEvent) throws -> Void) throws {
        switch output {
        case .encoding(.utf16LittleEndian, marked: false) where options.encoding == nil,
            .encoding(.utf16BigEndian, marked: false) where options.encoding == nil:
            try report(
                .warning, .srtUTF16, line: 1, column: 1,
                "the input is UTF-16 without a byte order mark (recognised by its NUL bytes); UTF-8 is what players expect", handler)
        case .encoding:
            break
        case .utf8(let bytes) where options.events == .stylesheetsOnly:
            var scanner = self.scanner
            self.scanner = SubRipColorScanner(maximumTagLength: 0)
            defer { self.scanner = scanner }
            try scanner.scan(bytes) { color in try defineColor(color, handler) }
        case .utf8(let bytes):
            try split(bytes, handler)
        }
    }

    /// Emits the rule of a colour the first time it is seen.
    private mutating func defineColor(_ color: SubRipColor, _ handler: (TrackEvent) throws -> Void) throws {
        guard !colorsDefined.contains(color.className) else { return }
        guard colorsDefined.count < options.maximumColors else {
            // Each colour's rule is kept by every reader of the track: their number is bounded.
            if !colorLimitReported {
                colorLimitReported = true
                try report(
                    .warning, .srtTooManyColors, line: lineNumber, column: 1,
                    "more than \(options.maximumColors) distinct font colours (Options.maximumColors): the others get no style rule, and their text shows in the default colour",
                    handler)
            }
            return
        }
        colorsDefined.insert(color.className)
        try handler(.stylesheet(Stylesheet(color.rule)))
    }

    private mutating func split(_ utf8: UnsafeRawBufferPointer, _ handler: (TrackEvent) throws -> Void) throws {
        var splitter = self.splitter
        self.splitter = SubRipLineSplitter(maximumLineLength: 0)
        defer { self.splitter = splitter }
        try splitter.split(utf8) { line, cut in try process(line, cut: cut, handler) }
    }

    private mutating func process(_ rawLine: UnsafeBufferPointer<UInt8>, cut: Bool, _ handler: (TrackEvent) throws -> Void) throws {
        lineNumber += 1
        if let invalid = Self.firstInvalidUTF8(rawLine) {
            try repairUTF8(rawLine, from: invalid, handler)
            let repaired = self.repaired  // shares storage; `self.repaired` is not changed until the next line
            try repaired.withUnsafeBufferPointer { try process(decoded: $0, cut: cut, handler) }
        } else {
            try process(decoded: rawLine, cut: cut, handler)
        }
    }

    private mutating func process(decoded: UnsafeBufferPointer<UInt8>, cut: Bool, _ handler: (TrackEvent) throws -> Void) throws {
        var line = decoded
        if cut {
            try report(
                .error, .srtTooLong, line: lineNumber, column: column(of: options.maximumLineLength, in: line),
                "line is longer than \(options.maximumLineLength) bytes; the rest of it is dropped", handler)
        }
        // A byte order mark inside the input (files joined together) is not text.
        if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
            line = UnsafeBufferPointer(rebasing: line[3...])
        }
        switch state {
        case .betweenCues:
            try processBetweenCues(line, handler)
        case .afterNumber:
            try processAfterNumber(line, handler)
        case .inText:
            try processText(line, handler)
        }
    }

    private mutating func processBetweenCues(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws {
        if Self.isBlank(line) {
            inStrayRun = false
            return
        }
        if takeNumber(line) {
            state = .afterNumber
            return
        }
        if let timing = try timingLine(line, handler) {
            try report(
                .warning, .srtMissingSequenceNumber, line: lineNumber, column: 1, "cue has no sequence number line before its timing line",
                handler)
            try startCue(timing, number: false, handler)
            return
        }
        if SubRipTimingLine.looksLikeTiming(line) {
            try reportBadTiming(line, handler)
            inStrayRun = true
            return
        }
        if !inStrayRun {
            inStrayRun = true
            try report(
                .error, .srtStrayText, line: lineNumber, column: 1,
                "text outside any cue (no sequence number and timing line before it) is skipped, up to the next blank line", handler)
        }
    }

    private mutating func processAfterNumber(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws {
        if let timing = try timingLine(line, handler) {
            hasPendingNumber = false
            try startCue(timing, number: true, handler)
            return
        }
        state = .betweenCues
        hasPendingNumber = false
        lastNumber = numberValue
        if Self.isBlank(line) {
            try report(
                .error, .srtMissingTiming, line: numberLine, column: 1,
                "sequence number \(numberValue) is followed by a blank line, not a timing line; it is skipped", handler)
            return
        }
        if SubRipTimingLine.looksLikeTiming(line) {
            try reportBadTiming(line, handler)
            inStrayRun = true
            return
        }
        if takeNumber(line) {
            try report(
                .error, .srtStrayText, line: lineNumber - 1, column: 1, "a line of digits with no timing line after it is skipped", handler)
            state = .afterNumber
            return
        }
        try report(
            .error, .srtMissingTiming, line: lineNumber, column: 1,
            "sequence number \(numberValue) is not followed by a timing line (such as '00:00:01,000 --> 00:00:02,000'); the block is skipped",
            handler)
        inStrayRun = true
    }

    private mutating func processText(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws {
        if hasPendingNumber {
            if let timing = try timingLine(line, handler) {
                // The line of digits was the next cue's number.
                if blankLinesPending == 0 {
                    try report(
                        .warning, .srtMissingBlankLine, line: numberLine, column: 1, "no blank line between a cue's text and the next cue",
                        handler)
                }
                try finishCue(handler)
                hasPendingNumber = false
                try startCue(timing, number: true, handler)
                return
            }
            let isNextNumber = numberValue == (lastNumber ?? 0) + 1
            if SubRipTimingLine.looksLikeTiming(line) || (blankLinesPending > 0 && isNextNumber) {
                // A cue whose timing line is broken or missing: the number was its number.
                try finishCue(handler)
                state = .afterNumber
                try processAfterNumber(line, handler)
                return
            }
            try appendPendingNumberAsText(handler)
        }
        if Self.isBlank(line) {
            blankLinesPending += 1
            return
        }
        if let timing = try timingLine(line, handler) {
            if blankLinesPending == 0 {
                try report(
                    .warning, .srtMissingBlankLine, line: lineNumber, column: 1, "no blank line between a cue's text and the next cue",
                    handler)
            }
            try report(
                .warning, .srtMissingSequenceNumber, line: lineNumber, column: 1, "cue has no sequence number line before its timing line",
                handler)
            try finishCue(handler)
            try startCue(timing, number: false, handler)
            return
        }
        if SubRipTimingLine.looksLikeTiming(line) {
            try finishCue(handler)
            try reportBadTiming(line, handler)
            inStrayRun = true
            return
        }
        if takeNumber(line) { return }
        try appendText(line, handler)
    }

    /// The line of digits held back turned out to be text.
    private mutating func appendPendingNumberAsText(_ handler: (TrackEvent) throws -> Void) throws {
        hasPendingNumber = false
        let saved = lineNumber
        lineNumber = numberLine
        defer { lineNumber = saved }
        let bytes = numberBytes
        try bytes.withUnsafeBufferPointer { try appendText($0, handler) }
    }

    private mutating func appendText(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws {
        if blankLinesPending > 0 {
            blankLinesPending = 0
            if blankLineInText == nil, !textLines.isEmpty {
                blankLineInText = lineNumber - 1
            }
        }
        let separator = textLines.isEmpty ? 0 : 1
        guard text.count + separator + line.count <= options.maximumCueTextLength else {
            if !textCutReported {
                textCutReported = true
                try report(
                    .error, .srtTooLong, line: lineNumber, column: 1,
                    "cue text is longer than \(options.maximumCueTextLength) bytes; this line and the rest of the cue's text are dropped",
                    handler)
            }
            return
        }
        // ASS's line breaks `\N` and `\n`, which tools converting from ASS leave in: read as
        // ffmpeg and pysubs2 read them, as line breaks. Empty pieces between them are left out, as a
        // cue cannot hold an empty line.
        guard line.contains(UInt8(ascii: "\\")) else {
            appendTextLine(line, columnBase: 0)
            return
        }
        var segmentStart = 0
        var index = 0
        while index + 1 < line.count {
            guard line[index] == UInt8(ascii: "\\"), line[index + 1] == UInt8(ascii: "N") || line[index + 1] == UInt8(ascii: "n") else {
                index += 1
                continue
            }
            if index > segmentStart {
                appendTextLine(UnsafeBufferPointer(rebasing: line[segmentStart..<index]), columnBase: column(of: segmentStart, in: line) - 1)
            }
            try report(
                .note, .srtASSLineBreak, line: lineNumber, column: column(of: index, in: line),
                "'\\\(Character(Unicode.Scalar(line[index + 1])))' is an ASS line break: read as one, as ffmpeg and pysubs2 read it", handler)
            index += 2
            segmentStart = index
        }
        if segmentStart == 0 || segmentStart < line.count {
            appendTextLine(UnsafeBufferPointer(rebasing: line[segmentStart...]), columnBase: column(of: segmentStart, in: line) - 1)
        }
    }

    /// Appends one line of cue text; `columnBase` counts the characters before it on its line.
    private mutating func appendTextLine(_ line: UnsafeBufferPointer<UInt8>, columnBase: Int) {
        if !textLines.isEmpty { text.append(0x0A) }
        textLines.append((text.count, lineNumber, columnBase))
        text.append(contentsOf: line)
    }

    /// Holds a line of digits back as a possible sequence number; false when it is not one.
    private mutating func takeNumber(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        var end = line.count
        while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        while end > start, Self.isBlankByte(line[end - 1]) { end -= 1 }
        guard end > start, end - start <= 9 else { return false }
        var value = 0
        for index in start..<end {
            let byte = line[index]
            guard SubRipTimingLine.isDigit(byte) else { return false }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        numberBytes.removeAll(keepingCapacity: true)
        numberBytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[start..<end]))
        numberValue = value
        numberLine = lineNumber
        hasPendingNumber = true
        return true
    }

    // MARK: Cues

    /// Reads a timing line, keeping its irregularities in `timingIssues` until ``startCue`` reports them.
    private mutating func timingLine(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws -> SubRipTimingLine?
    {
        if !timingIssues.isEmpty { timingIssues.removeAll(keepingCapacity: true) }
        guard let timing = SubRipTimingLine.parse(line, issues: &timingIssues) else { return nil }
        if !timingIssues.isEmpty {
            timingLineBytes.removeAll(keepingCapacity: true)
            timingLineBytes.append(contentsOf: line)
        }
        return timing
    }

    private mutating func reportTimingIssues(_ handler: (TrackEvent) throws -> Void) throws {
        guard !timingIssues.isEmpty else { return }
        let issues = timingIssues
        let bytes = timingLineBytes
        let lineNumber = self.lineNumber
        try bytes.withUnsafeBufferPointer { line in try reportTimingIssues(issues, in: line, lineNumber: lineNumber, handler) }
    }

    private mutating func reportTimingIssues(
        _ issues: [SubRipTimingLine.Issue], in line: UnsafeBufferPointer<UInt8>, lineNumber: Int, _ handler: (TrackEvent) throws -> Void
    ) throws {
        for issue in issues {
            let column = column(of: issue.offset, in: line)
            switch issue.kind {
            case .separator(let byte):
                try report(
                    .warning, .srtTimestampSeparator, line: lineNumber, column: column,
                    "milliseconds are separated by '\(Character(Unicode.Scalar(byte)))' instead of ','", handler)
            case .oneDigitHours:
                try report(
                    .warning, .srtTimestampDigits, line: lineNumber, column: column, "timestamp hours have one digit instead of two",
                    handler)
            case .missingHours:
                try report(
                    .warning, .srtTimestampDigits, line: lineNumber, column: column,
                    "timestamp has no hours (read as 0); SubRip writes 'hh:mm:ss,mmm'", handler)
            case .minuteOrSecondDigits:
                try report(
                    .warning, .srtTimestampDigits, line: lineNumber, column: column, "timestamp minutes or seconds do not have two digits",
                    handler)
            case .missingMilliseconds:
                try report(
                    .warning, .srtTimestampMilliseconds, line: lineNumber, column: column, "timestamp has no milliseconds; read as ',000'",
                    handler)
            case .shortMilliseconds(let digits, let milliseconds):
                try report(
                    .error, .srtTimestampMilliseconds, line: lineNumber, column: column,
                    "milliseconds have \(digits) digit(s) instead of three: read as a fraction of a second (\(milliseconds) ms), though some players read them as a number of milliseconds",
                    handler)
            case .longMilliseconds:
                try report(
                    .warning, .srtTimestampMilliseconds, line: lineNumber, column: column,
                    "milliseconds have more than three digits; the rest are dropped", handler)
            case .outOfRange:
                try report(
                    .error, .srtTimestampRange, line: lineNumber, column: column,
                    "timestamp minutes or seconds are over 59; added up as written", handler)
            case .coordinates:
                try report(
                    .warning, .srtCoordinatesIgnored, line: lineNumber, column: column,
                    "position coordinates (X1:… X2:… Y1:… Y2:…) are ignored: they are pixels of a video size the file does not give",
                    handler)
            case .trailingText:
                try report(
                    .warning, .srtTimingTrailingText, line: lineNumber, column: column, "text after the timing line's end time is ignored",
                    handler)
            }
        }
    }

    private mutating func reportBadTiming(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws {
        if let minus = SubRipTimingLine.negativeTimeOffset(line) {
            try report(
                .error, .srtBadTiming, line: lineNumber, column: column(of: minus, in: line),
                "time is negative: SubRip times count from 00:00:00,000, so the cue is skipped",
                handler)
            return
        }
        var start = 0
        while start < line.count, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        try report(
            .error, .srtBadTiming, line: lineNumber, column: column(of: start, in: line),
            "timing line cannot be read (SubRip writes '00:00:01,000 --> 00:00:02,000'); the cue is skipped", handler)
    }

    private mutating func startCue(_ timing: SubRipTimingLine, number: Bool, _ handler: (TrackEvent) throws -> Void) throws {
        if number {
            let expected = (lastNumber ?? 0) + 1
            if numberValue != expected {
                try report(
                    .warning, .srtSequenceNumber, line: numberLine, column: 1,
                    "sequence number is \(numberValue) where \(expected) was expected", handler)
            }
            lastNumber = numberValue
            cueID = options.cueIdentifiers == .sequenceNumbers ? String(decoding: numberBytes, as: UTF8.self) : ""
        } else {
            cueID = ""
        }
        try reportTimingIssues(handler)
        if timing.end < timing.start {
            try report(
                .error, .srtEndBeforeStart, line: lineNumber, column: 1,
                "cue ends (\(Timestamp.format(timing.end))) before it starts (\(Timestamp.format(timing.start))), so it is never shown",
                handler)
        } else if timing.end == timing.start {
            try report(
                .error, .srtEndBeforeStart, line: lineNumber, column: 1,
                "cue ends when it starts (\(Timestamp.format(timing.start))), so it is never shown", handler)
        }
        cueStart = timing.start
        cueEnd = timing.end
        state = .inText
        inStrayRun = false
        text.removeAll(keepingCapacity: true)
        textLines.removeAll(keepingCapacity: true)
        blankLinesPending = 0
        blankLineInText = nil
        textCutReported = false
    }

    /// Emits the cue read so far; `atEnd` when the input ended in its text.
    private mutating func finishCue(atEnd: Bool = false, _ handler: (TrackEvent) throws -> Void) throws {
        state = .betweenCues
        blankLinesPending = 0
        cueCount += 1
        if let blankLine = blankLineInText {
            blankLineInText = nil
            // At the end of the input too, the text after the blank line stays in the cue: players
            // (ffmpeg, pysubs2) keep it, and a last line of dialogue is worth more than credits.
            let place = atEnd ? "the last cue's text, with no cue after it" : "a cue's text (the next line is neither a timing line nor a sequence number followed by one)"
            try report(
                .warning, .srtBlankLineInText, line: blankLine, column: 1,
                "blank line inside \(place): it is left out, as a cue cannot hold an empty line, and the text after it is kept in the cue",
                handler)
        }
        let isPlain = text.withUnsafeBufferPointer { SubRipMarkupConverter.isPlain($0) }
        if isPlain {
            guard options.events == .all else { return }
            try emit(.cue(Cue(id: cueID, start: cueStart, end: cueEnd, text: String(decoding: text, as: UTF8.self))), handler)
            return
        }
        markup.removeAll(keepingCapacity: true)
        markupIssues.removeAll(keepingCapacity: true)
        text.withUnsafeBufferPointer { text in
            converter.convert(text, into: &markup) { markupIssues.append($0) }
        }
        for issue in markupIssues { try reportMarkup(issue, handler) }
        for color in converter.colors { try defineColor(color, handler) }
        guard options.events == .all else { return }
        let settings = converter.alignment.map(SubRipMarkupConverter.settings(forAlignment:)) ?? CueSettings()
        try emit(
            .cue(Cue(id: cueID, start: cueStart, end: cueEnd, settings: settings, text: String(decoding: markup, as: UTF8.self))), handler)
    }

    private mutating func reportMarkup(_ issue: SubRipMarkupConverter.Issue, _ handler: (TrackEvent) throws -> Void) throws {
        // Past the limit a diagnostic is only counted: skip finding its line and column.
        let code: DiagnosticCode
        switch issue.kind {
        case .unknownTag: code = .srtUnknownTag
        case .unmatchedEndTag: code = .srtUnmatchedEndTag
        case .unclosedTag: code = .srtUnclosedTag
        case .fontAttributeIgnored, .badColor: code = .srtFontAttributeIgnored
        case .tagIgnored, .nestedTooDeep: code = .srtTagIgnored
        case .overrideIgnored: code = .srtOverrideIgnored
        }
        if options.events != .all || limiter.isFull(code) {
            if options.events == .all { _ = limiter.admit(code) }
            return
        }
        // Find the text line the offset falls in.
        var lineIndex = textLines.count - 1
        while lineIndex > 0, textLines[lineIndex].offset > issue.offset { lineIndex -= 1 }
        let (lineOffset, line, columnBase) = textLines.isEmpty ? (0, lineNumber, 0) : textLines[lineIndex]
        let column =
            text.withUnsafeBufferPointer {
                UTF8Bytes.scalarCount(UnsafeBufferPointer(rebasing: $0[lineOffset..<max(lineOffset, issue.offset)]))
            } + 1 + columnBase
        switch issue.kind {
        case .unknownTag(let tag):
            try report(
                .warning, .srtUnknownTag, line: line, column: column,
                "'\(tag)' is not a SubRip tag (<i>, <b>, <u>, <font>); it is kept as text", handler)
        case .unmatchedEndTag(let tag):
            try report(
                .warning, .srtUnmatchedEndTag, line: line, column: column, "end tag '\(tag)' has no open tag; it is ignored", handler)
        case .unclosedTag(let name):
            try report(
                .warning, .srtUnclosedTag, line: line, column: column, "<\(name)> is not closed; it is closed at the end of the cue",
                handler)
        case .fontAttributeIgnored(let attribute):
            try report(
                .warning, .srtFontAttributeIgnored, line: line, column: column,
                "font attribute \(attribute) has no equivalent in the cue model; it is ignored", handler)
        case .badColor(let value):
            try report(
                .warning, .srtFontAttributeIgnored, line: line, column: column,
                "font color \"\(value)\" is not a colour name or hex value (#rrggbb); it is ignored", handler)
        case .tagIgnored(let tag):
            try report(
                .warning, .srtTagIgnored, line: line, column: column,
                "\(tag) has no equivalent in the cue model; the tag is left out and its text kept", handler)
        case .overrideIgnored(let block):
            try report(
                .warning, .srtOverrideIgnored, line: line, column: column,
                "ASS override '\(block)' is left out (only {\\an1} to {\\an9} are read)", handler)
        case .nestedTooDeep:
            try report(
                .warning, .srtTagIgnored, line: line, column: column,
                "tags nested more than \(SubRipMarkupConverter.maximumNestingDepth) deep are left out, their text kept", handler)
        }
    }

    // MARK: Encoding

    /// The offset of the first byte that is not part of valid UTF-8, or is NUL; nil when there is none.
    private static func firstInvalidUTF8(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = line.count
        // Most lines are ASCII: skip eight bytes at a time.
        if let base = line.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // A byte of 0x80 or more, or a NUL byte, needs a closer look.
                if (word | ((word &- 0x0101_0101_0101_0101) & ~word)) & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
        }
        while index < count {
            if line[index] < 0x80 {
                if line[index] == 0 { return index }
                index += 1
                continue
            }
            let length = UTF8Bytes.sequenceLength(in: line, at: index)
            if length == 0 { return index }
            index += length
        }
        return nil
    }

    /// Copies `line` into `repaired` with each invalid sequence and each NUL replaced by U+FFFD
    /// (as WebVTT reads NUL), and reports them.
    private mutating func repairUTF8(_ line: UnsafeBufferPointer<UInt8>, from first: Int, _ handler: (TrackEvent) throws -> Void) throws {
        repaired.removeAll(keepingCapacity: true)
        repaired.append(contentsOf: UnsafeBufferPointer(rebasing: line[0..<first]))
        var index = first
        var invalidBytes: [UInt8] = []
        var firstInvalid: Int?
        var firstNull: Int?
        // Valid UTF-8 beside the bad bytes means a damaged UTF-8 file, not Windows-1252.
        var looksLikeWindows1252 = !UnsafeBufferPointer(rebasing: line[0..<first]).contains { $0 >= 0x80 }
        while index < line.count {
            if line[index] == 0 {
                if firstNull == nil { firstNull = index }
                UTF8Bytes.append(0xFFFD, to: &repaired)
                index += 1
                continue
            }
            let length = line[index] < 0x80 ? 1 : UTF8Bytes.sequenceLength(in: line, at: index)
            if length > 0 {
                if length > 1 { looksLikeWindows1252 = false }
                repaired.append(contentsOf: UnsafeBufferPointer(rebasing: line[index..<(index + length)]))
                index += length
                continue
            }
            let invalid = UTF8Bytes.invalidLength(in: line, at: index)
            if invalid != 1 { looksLikeWindows1252 = false }
            if firstInvalid == nil { firstInvalid = index }
            if invalidBytes.count < 4 { invalidBytes.append(line[index]) }
            UTF8Bytes.append(0xFFFD, to: &repaired)
            index += invalid
        }
        // Columns count the scalars before the offset; a sequence that is not UTF-8 counts as one.
        func column(of offset: Int) -> Int {
            var count = 0
            var cursor = 0
            while cursor < offset {
                let valid = line[cursor] < 0x80 ? 1 : UTF8Bytes.sequenceLength(in: line, at: cursor)
                cursor += valid > 0 ? valid : UTF8Bytes.invalidLength(in: line, at: cursor)
                count += 1
            }
            return count + 1
        }
        if let firstInvalid {
            let hex = invalidBytes.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
            var message = "bytes that are not UTF-8 (\(hex)) are read as U+FFFD"
            if looksLikeWindows1252, options.encoding == nil {
                let guessed = invalidBytes.map { String(Character(Unicode.Scalar(TextTranscoder.windows1252[Int($0 - 0x80)])!)) }
                    .joined()
                message +=
                    "; the file looks like Windows-1252 (in which they are '\(guessed)'): convert it to UTF-8, or read it with --encoding windows-1252"
            }
            try report(.error, .srtInvalidUTF8, line: lineNumber, column: column(of: firstInvalid), message, handler)
        }
        if let firstNull {
            try report(
                .error, .srtNullCharacter, line: lineNumber, column: column(of: firstNull), "NUL characters are read as U+FFFD", handler)
        }
    }

    // MARK: Events

    private mutating func sendHeader(_ handler: (TrackEvent) throws -> Void) throws {
        guard !headerSent else { return }
        headerSent = true
        try handler(.header(""))
    }

    private func emit(_ event: TrackEvent, _ handler: (TrackEvent) throws -> Void) throws {
        if options.events == .stylesheetsOnly {
            switch event {
            case .header, .stylesheet: break
            default: return
            }
        }
        try handler(event)
    }

    private mutating func report(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, line: Int?, column: Int?, _ message: String,
        _ handler: (TrackEvent) throws -> Void
    ) throws {
        guard options.events == .all, limiter.admit(code) else { return }
        let location = line.map { SourceLocation(line: $0, column: column ?? 1) }
        try handler(.diagnostic(Diagnostic(severity, code, at: location, message)))
    }

    // MARK: Bytes

    private func column(of offset: Int, in line: UnsafeBufferPointer<UInt8>) -> Int {
        UTF8Bytes.scalarCount(UnsafeBufferPointer(rebasing: line[0..<min(offset, line.count)])) + 1
    }

    @inline(__always)
    private static func isBlankByte(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C || byte == 0x1A
    }

    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line where !isBlankByte(byte) { return false }
        return true
    }
}

extension SubRipReader {
    /// Reads a whole SubRip document held in a string.
    public static func read(_ text: String, options: Options = Options()) throws -> ReadResult {
        var reader = SubRipReader(options: options)
        return try reader.read(Array(text.utf8))
    }

    /// Reads a whole SubRip document held in memory as bytes.
    public static func read(bytes: some Collection<UInt8>, options: Options = Options()) throws -> ReadResult {
        var reader = SubRipReader(options: options)
        return try reader.read(bytes)
    }

    /// Reads a SubRip file (`-` for standard input) in 64 KiB chunks; memory is bounded by the
    /// longest cue, not by the file. Throws only for I/O: every input is read as SubRip.
    public static func read(fileAtPath path: String, options: Options = Options()) throws -> ReadResult {
        var reader = SubRipReader(options: options)
        return try reader.read(fileAtPath: path)
    }
}
