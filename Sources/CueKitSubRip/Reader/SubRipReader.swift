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
/// converter to WebVTT, whose `STYLE` blocks must come before the first cue, reads the input twice
/// (``PrescanningTrackReader``): ``prescan(fileAtPath:options:)`` finds the colours by looking only at
/// the `<font` tags (see ``SubRipColorScanner``), in about a tenth of the time of a full read, and a
/// reader made with ``init(options:prescan:)`` hands out their rules right after the header.
///
/// Diagnostics of one code beyond ``Options/Limits/maximumDiagnosticsPerCode`` are counted, not emitted,
/// and summed up at the end, so a file with a systematic fault (a million cues timed with `.`) yields
/// a few diagnostics, not a million. Memory is bounded by ``Options/Limits/maximumLineLength`` and
/// ``Options/Limits/maximumCueTextLength`` whatever the input.
public struct SubRipReader: TrackReader, Sendable {

    /// The options read with.
    public let options: Options

    enum State {
        /// Between cues: blank lines, a number, a timing line or stray text may come.
        case betweenCues
        /// After a sequence number: a timing line must come.
        case afterNumber
        /// In a cue's text.
        case inText
    }

    /// The input decoded and cut into lines.
    var lines: TextLineFeed
    var state = State.betweenCues
    var headerSent = false
    var finished = false
    var lineNumber = 0

    // The pending sequence number line: its bytes, value and line.
    var numberBytes: [UInt8] = []
    var numberValue = 0
    var numberLine = 0
    var hasPendingNumber = false
    var lastNumber: Int?
    /// Inside stray text: further stray lines are not reported again.
    var inStrayRun = false

    // The cue being read.
    var cueStart = 0
    var cueEnd = 0
    /// The line of the cue's timing line, where the cue is located.
    var cueLine = 0
    /// The cue's identifier: its sequence number as written, or empty.
    var cueID: [UInt8] = []
    var text: [UInt8] = []
    /// For each line of `text`: its offset in `text`, its line number, and the characters before
    /// it on that line (more than zero after an ASS `\N` line break).
    var textLines: [(offset: Int, line: Int, column: Int)] = []
    /// True when `textLines` is not kept, as the text's lines are the lines after the timing line,
    /// one after another, each starting after an LF of the text (a block read whole).
    var textLinesFollowTimingLine = false
    var blankLinesPending = 0
    var colorLimitReported = false
    /// The first blank line inside the cue's text, reported when the cue ends.
    var blankLineInText: Int?
    var textCutReported = false
    var cueCount = 0
    /// True once a line other than a blank one came: a file without one is empty.
    var sawNonBlankLine = false

    // Reused buffers.
    var repaired: [UInt8] = []
    var markup: [UInt8] = []
    var timingIssues: [SubRipTimingLine.Issue] = []
    var timingLineBytes: [UInt8] = []
    var converter = SubRipMarkupConverter()
    var markupIssues: [SubRipMarkupConverter.Issue] = []

    var colorsDefined: Set<String> = []
    /// The colours of a prescan, handed out after the header.
    var prescannedColors: [SubRipColor] = []
    var limiter: DiagnosticLimiter
    /// How many blocks were read whole, on the fast path (``takeBlocks(_:from:_:)``).
    package internal(set) var blocksReadWhole = 0
    /// The consumer's hooks, held during the call they came with (``feed(_:hooks:to:)``).
    var hooks = SubRipReaderHooks()

    /// Creates a reader.
    public init(options: Options = Options()) {
        self.options = options
        limiter = DiagnosticLimiter(limit: options.limits.maximumDiagnosticsPerCode)
        lines = TextLineFeed(declared: options.encoding, maximumLineLength: options.limits.maximumLineLength)
    }

    /// Takes the next bytes of input, in chunks of any size, handing `handler` each event they
    /// complete: the header first, then diagnostics, colour style sheets and cues in file order.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, to handler: (TrackEvent) throws -> Void) throws {
        precondition(!finished, "SubRipReader fed after finish")
        try sendHeader(handler)
        // The feed is moved out while it calls back into the reader.
        var lines = self.lines
        self.lines = .placeholder
        defer { self.lines = lines }
        try lines.feed(chunk) { piece in try take(piece, handler) }
    }

    /// Marks the end of input: hands on the last cue and what only the end can tell (a cut-off cue,
    /// no cues at all, the count of diagnostics over the limit).
    public mutating func finish(to handler: (TrackEvent) throws -> Void) throws {
        guard !finished else { return }
        try sendHeader(handler)
        finished = true
        var lines = self.lines
        self.lines = .placeholder
        defer { self.lines = lines }
        try lines.finish { piece in try take(piece, handler) }
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
        if lines.transcoder.undecodableUnits > 0, let encoding = lines.transcoder.encoding {
            try report(
                .error, .srtUTF16, line: nil, column: nil,
                "\(lines.transcoder.undecodableUnits) \(encoding) code unit(s) could not be decoded (an unpaired surrogate, a value past U+10FFFF, or a cut-off last unit) and were read as U+FFFD",
                handler)
        }
        // Input with no cue is no track: empty input is refused in every format CueKit reads (as
        // a WebVTT file without its signature and a TTML document without its root are).
        if !sawNonBlankLine {
            throw ReadError(
                .srtEmpty, at: .start,
                "the file is empty; a SubRip file holds cues: a number, a timing line such as '00:00:01,000 --> 00:00:02,000', then text")
        }
        if cueCount == 0 {
            for note in limiter.notes(code: .srtDiagnosticsLimited) { try emit(.diagnostic(note), handler) }
            throw ReadError(
                .srtNoCues, at: nil,
                "the input holds no SubRip cue (a timing line such as '00:00:01,000 --> 00:00:02,000'); it is not a SubRip track")
        }
        for note in limiter.notes(code: .srtDiagnosticsLimited) { try emit(.diagnostic(note), handler) }
    }

    // MARK: Lines

    mutating func take(_ piece: TextLineFeed.Piece, _ handler: (TrackEvent) throws -> Void) throws {
        switch piece {
        case .encoding(.utf16LittleEndian, marked: false) where options.encoding == nil,
            .encoding(.utf16BigEndian, marked: false) where options.encoding == nil:
            try report(
                .warning, .srtUTF16, line: 1, column: 1,
                "the input is UTF-16 without a byte order mark (recognised by its NUL bytes); UTF-8 is what players expect", handler)
        case .encoding:
            break
        case .line(let line):
            try process(line, handler)
        }
    }

    /// Emits the rule of a colour the first time it is seen.
    mutating func defineColor(_ color: SubRipColor, _ handler: (TrackEvent) throws -> Void) throws {
        guard !colorsDefined.contains(color.className) else { return }
        guard colorsDefined.count < options.limits.maximumColors else {
            // Each colour's rule is kept by every reader of the track: their number is bounded.
            if !colorLimitReported {
                colorLimitReported = true
                try report(
                    .warning, .srtTooManyColors, line: lineNumber, column: 1,
                    "more than \(options.limits.maximumColors) distinct font colours (Options.Limits.maximumColors): the others get no style rule, and their text shows in the default colour",
                    handler)
            }
            return
        }
        colorsDefined.insert(color.className)
        try handler(.stylesheet(CueStylesheet(rules: [color.rule])))
    }

    mutating func process(_ line: LineSplitter.Line, _ handler: (TrackEvent) throws -> Void) throws {
        lineNumber += 1
        let rawLine = line.bytes.assumingMemoryBound(to: UInt8.self)
        if !line.isPlainASCII, !UTF8Repair.isClean(line.bytes) {
            try repairUTF8(rawLine, handler)
            let repaired = self.repaired  // shares storage; `self.repaired` is not changed until the next line
            try repaired.withUnsafeBufferPointer { try process(decoded: $0, cut: line.isCut, handler) }
        } else {
            try process(decoded: rawLine, cut: line.isCut, handler)
        }
    }

    mutating func process(decoded: UnsafeBufferPointer<UInt8>, cut: Bool, _ handler: (TrackEvent) throws -> Void) throws {
        var line = decoded
        if cut {
            try report(
                .error, .srtTooLong, line: lineNumber, column: column(of: options.limits.maximumLineLength, in: line),
                "line is longer than \(options.limits.maximumLineLength) bytes; the rest of it is dropped", handler)
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

    mutating func processBetweenCues(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws {
        if Self.isBlank(line) {
            inStrayRun = false
            return
        }
        sawNonBlankLine = true
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

    mutating func processAfterNumber(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws {
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

    mutating func processText(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws {
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
    mutating func appendPendingNumberAsText(_ handler: (TrackEvent) throws -> Void) throws {
        hasPendingNumber = false
        let saved = lineNumber
        lineNumber = numberLine
        defer { lineNumber = saved }
        let bytes = numberBytes
        try bytes.withUnsafeBufferPointer { try appendText($0, handler) }
    }

    mutating func appendText(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws {
        if blankLinesPending > 0 {
            blankLinesPending = 0
            if blankLineInText == nil, !textLines.isEmpty {
                blankLineInText = lineNumber - 1
            }
        }
        let separator = textLines.isEmpty ? 0 : 1
        guard text.count + separator + line.count <= options.limits.maximumCueTextLength else {
            if !textCutReported {
                textCutReported = true
                try report(
                    .error, .srtTooLong, line: lineNumber, column: 1,
                    "cue text is longer than \(options.limits.maximumCueTextLength) bytes; this line and the rest of the cue's text are dropped",
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
    mutating func appendTextLine(_ line: UnsafeBufferPointer<UInt8>, columnBase: Int) {
        if !textLines.isEmpty { text.append(0x0A) }
        textLines.append((text.count, lineNumber, columnBase))
        text.append(contentsOf: line)
    }

    /// Holds a line of digits back as a possible sequence number; false when it is not one.
    mutating func takeNumber(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
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

    // MARK: Encoding

    /// Copies `line` into `repaired` with each invalid sequence and each NUL replaced by U+FFFD
    /// (as WebVTT reads NUL), and reports them.
    mutating func repairUTF8(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws {
        repaired.removeAll(keepingCapacity: true)
        let found = UTF8Repair.repair(UnsafeRawBufferPointer(line), into: &repaired)
        if found.invalidSequences > 0 {
            let hex = found.invalidLeadBytes.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
            var message = "bytes that are not UTF-8 (\(hex)) are read as U+FFFD"
            if found.looksLikeSingleByteEncoding, options.encoding == nil {
                let guessed = String(
                    String.UnicodeScalarView(found.invalidLeadBytes.compactMap { Unicode.Scalar(TextTranscoder.windows1252[Int($0 - 0x80)]) }))
                message +=
                    "; the file looks like Windows-1252 (in which they are '\(guessed)'): convert it to UTF-8, or read it with --encoding windows-1252"
            }
            try report(.error, .srtInvalidUTF8, line: lineNumber, column: found.firstInvalidColumn, message, handler)
        }
        if found.nullCharacters > 0 {
            try report(
                .error, .srtNullCharacter, line: lineNumber, column: found.firstNullColumn, "NUL characters are read as U+FFFD", handler)
        }
    }

    // MARK: Events

    mutating func sendHeader(_ handler: (TrackEvent) throws -> Void) throws {
        guard !headerSent else { return }
        headerSent = true
        try handler(.header(""))
        // The colours a prescan found: their rules before the first cue.
        let prescanned = prescannedColors
        prescannedColors = []
        for color in prescanned { try defineColor(color, handler) }
    }

    func emit(_ event: TrackEvent, _ handler: (TrackEvent) throws -> Void) throws {
        try handler(event)
    }

    mutating func report(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, line: Int?, column: Int?, _ message: String,
        _ handler: (TrackEvent) throws -> Void
    ) throws {
        guard limiter.admit(code) else { return }
        let location = line.map { SourceLocation(line: $0, column: column ?? 1) }
        try handler(.diagnostic(Diagnostic(severity, code, at: location, message)))
    }

    // MARK: Bytes

    func column(of offset: Int, in line: UnsafeBufferPointer<UInt8>) -> Int {
        UTF8Bytes.scalarCount(UnsafeBufferPointer(rebasing: line[0..<min(offset, line.count)])) + 1
    }

    @inline(__always)
    static func isBlankByte(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C || byte == 0x1A
    }

    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line where !isBlankByte(byte) { return false }
        return true
    }
}
