import CueKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The WebVTT parser algorithm (W3C WebVTT, section 6.1), driven one decoded line at a time.
///
/// The spec's algorithm moves a position through the whole input; "collect a WebVTT block" reads
/// lines until an empty line, the end, or a line with `-->` that cannot belong to the block, which
/// is then read again as the first line of the next block. Here each line arrives once: a block's
/// state lives in this struct between lines, and a line that ends a block is handed to the next
/// block straight away. Only the current block is buffered, so memory is bounded by the largest
/// block.
///
/// Events go out as soon as each block is complete. `REGION` definitions are the exception: they
/// are held until the first cue (or the end of input) so that a later definition with the same
/// identifier can replace an earlier one before anyone sees it.
struct WebVTTBlockParser {
    private enum Phase {
        /// Before the first line (the signature line).
        case signature
        /// After the signature line: an empty line ends the header, anything else is header text.
        case afterSignature
        /// Inside a block (the header block when `inHeader`).
        case block
        /// Between blocks, skipping empty lines.
        case betweenBlocks
    }

    /// What the current block turned out to be, by its first lines.
    private enum BlockKind {
        case unknown, stylesheet, region
    }

    private let checks: Bool
    private let checksCueText: Bool
    /// Cues are handed on without identifier and text (``WebVTTReader/Options/CueContent/timingOnly``),
    /// or not at all (``WebVTTReader/Options/CueContent/diagnosticsOnly``, which sets both).
    private let timingOnly: Bool
    private let handsOnCues: Bool
    private let maximumBlockLength: Int
    private let maximumLineLength: Int

    private var phase = Phase.signature
    private var headerRemainder = ""

    // The block being collected ("collect a WebVTT block").
    private var inHeader = false
    private var lineCount = 0
    private var seenArrow = false
    private var buffer: [UInt8] = []
    private var bufferLines = BlockLines()
    private var blockStartLine = 0
    private var kind = BlockKind.unknown
    /// The block's cue, once its timing line was read (its text is the rest of the block); kept
    /// in plain fields rather than an optional struct, which is cheaper on the hot path.
    private var hasCue = false
    private var cueIdentifier = ""
    /// The identifier's bytes, kept for ``cueBytesObserver`` (reused from cue to cue).
    private var cueIdentifierBytes: [UInt8] = []
    private var cueStart = 0
    private var cueEnd = 0
    /// The settings of the cue being read, moved out (``Optional/take()``) into its event.
    private var cueSettings: CueSettings?
    private var cueTimingLine = 0
    /// Why the block's timing line failed, reported when the block ends.
    private var timingFailure: Diagnostic?
    /// The block's failure is already explained by a diagnostic about the line before it.
    private var failureExplained = false

    // The whole file.
    private var seenCue = false
    private var regions = RegionTable()
    private var regionsEmitted = false
    private var cueCount = 0
    private var latestStart: Int?
    private var identifiers: CueIdentifierRegistry
    private var cueTextChecker = CueText.Checker()
    /// This thread's ``CueTextParseCache`` while the parser is fed, when a consumer on the thread
    /// wants the checker's events; set and cleared around each call by the reader, so that it is
    /// only ever used on the thread it belongs to.
    nonisolated(unsafe) private var sharedParse: CueTextParseCache?
    /// What sees each cue's identifier and text as bytes, before its event (``WebVTTCueBytesObserver``).
    nonisolated(unsafe) var cueBytesObserver: (any WebVTTCueBytesObserver)?
    /// What may take cue blocks whole, as their bytes, in place of their events (``WebVTTCueBlockTaker``).
    nonisolated(unsafe) var cueBlockTaker: (any WebVTTCueBlockTaker)?
    /// A timing line written again as the writer writes it (``offerCue``), reused from cue to cue.
    private var rewrittenTimingLine: [UInt8] = []
    /// Settings written again as the writer writes them (``writeSettings(_:readFrom:)``), by the
    /// text they were read from: a file uses few settings texts, over and over.
    private var writtenSettings = WrittenSettingsCache()
    /// The settings of the timing lines read on the fast path, by their text (``CueSettingsCache``).
    private var settingsCache = CueSettingsCache()
    /// The bytes of the STYLE blocks read so far, and their limit.
    private var styleLength = 0
    private let maximumStyleLength: Int

    init(options: WebVTTReader.Options) {
        checks = options.diagnostics != .none
        checksCueText = options.diagnostics == .all
        timingOnly = options.cueContent != .full
        handsOnCues = options.cueContent != .diagnosticsOnly
        maximumBlockLength = options.limits.maximumBlockLength
        maximumLineLength = options.limits.maximumLineLength
        maximumStyleLength = options.limits.maximumStyleLength
        identifiers = CueIdentifierRegistry(limit: options.limits.maximumTrackedIdentifiers)
    }

    /// Shares the checker's parses with `cache` (this thread's, or nil) until told otherwise; not
    /// when whole cue blocks are taken (``cueBlockTaker``), whose consumer writes WebVTT and wants
    /// no parse (a thread that once wrote TTML keeps wanting them).
    mutating func shareCueTextEvents(with cache: CueTextParseCache?) {
        sharedParse = checksCueText && cueBlockTaker == nil ? cache : nil
    }

    // MARK: Lines

    /// Takes the next line of the input.
    mutating func consume(_ line: WebVTTLineDecoder.Line, _ handler: (TrackEvent) throws -> Void) throws {
        if checks, !line.repairs.isEmpty { try reportRepairs(line, handler) }
        switch phase {
        case .signature:
            // The signature was checked on the raw bytes; keep what follows `WEBVTT` and its separator.
            if line.bytes.count > 7 {
                headerRemainder = String(decoding: UnsafeRawBufferPointer(rebasing: line.bytes[7...]), as: UTF8.self)
            }
            phase = .afterSignature
        case .afterSignature:
            if line.bytes.isEmpty {
                try handler(.header(headerRemainder))
                phase = .betweenBlocks
            } else {
                startBlock(at: line.number, inHeader: true)
                try collect(line, handler)
            }
        case .block:
            try collect(line, handler)
        case .betweenBlocks:
            guard !line.bytes.isEmpty else { return }
            startBlock(at: line.number, inHeader: false)
            try collect(line, handler)
        }
    }

    /// The end of input.
    mutating func finish(_ handler: (TrackEvent) throws -> Void) throws {
        switch phase {
        case .signature:
            break
        case .afterSignature:
            try handler(.header(headerRemainder))
        case .block:
            try endBlock(handler)
        case .betweenBlocks:
            break
        }
        phase = .betweenBlocks
        try emitRegions(handler)
    }

    private mutating func startBlock(at line: Int, inHeader: Bool) {
        phase = .block
        self.inHeader = inHeader
        lineCount = 0
        seenArrow = false
        if !buffer.isEmpty { buffer.removeAll(keepingCapacity: true) }
        blockStartLine = line
        kind = .unknown
        hasCue = false
        timingFailure = nil
        failureExplained = false
    }

    /// One line of "collect a WebVTT block", its loop's substeps in order.
    private mutating func collect(_ line: WebVTTLineDecoder.Line, _ handler: (TrackEvent) throws -> Void) throws {
        lineCount += 1
        let bytes = line.bytes
        if let arrow = ByteScanning.firstArrow(in: bytes) {
            if !inHeader, lineCount == 1 || (lineCount == 2 && !seenArrow) {
                seenArrow = true
                try createCue(line, handler)
            } else {
                try cutBlock(at: line, arrow: arrow, handler)
            }
            return
        }
        if bytes.isEmpty {
            try endBlock(handler)
            phase = .betweenBlocks
            return
        }
        if !inHeader, lineCount == 2, !seenCue {
            if startsWithKeyword("STYLE") {
                kind = .stylesheet
                buffer.removeAll(keepingCapacity: true)
            } else if startsWithKeyword("REGION") {
                kind = .region
                buffer.removeAll(keepingCapacity: true)
                // Region settings are reported at their place: remember where each line starts.
                bufferLines.reset(firstLine: line.number)
            }
        }
        if !buffer.isEmpty { buffer.append(UInt8(ascii: "\n")) }
        if kind == .region { bufferLines.starts.append(buffer.count) }
        buffer.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
        guard buffer.count <= maximumBlockLength else {
            throw ReadError(
                .vttBlockTooLong, at: SourceLocation(line: blockStartLine, column: 1),
                "the block starting on line \(blockStartLine) is longer than \(maximumBlockLength) bytes, the limit for one block"
            )
        }
    }

    // MARK: Whole cue blocks

    /// True between blocks, where the next non-empty line starts a block.
    var isBetweenBlocks: Bool { phase == .betweenBlocks }

    /// Reads the ordinary cue blocks at the start of `bytes[start..<limit]` straight from memory:
    /// the fast path, for bytes with no CR and no NUL (see ``WebVTTCueBlockScanner``). Stops before
    /// the first block it cannot take whole (one that is not a cue, that holds `-->` in its text,
    /// whose timing line fails, or that `limit` cuts), which the line-by-line path then reads.
    ///
    /// Each block gives the same events the line-by-line path gives for it: the identifier, timing
    /// line and text are the same bytes, in memory the block is in instead of a copy. Returns where
    /// reading stopped and how many lines were read (the skipped empty lines among them).
    mutating func consumeCueBlocks(
        _ bytes: UnsafeRawBufferPointer, from start: Int, limit: Int, firstLine: Int, _ handler: (TrackEvent) throws -> Void
    ) throws -> (end: Int, lines: Int) {
        // The block scan reads raw memory up to `limit`, from offsets at or after `start`.
        precondition(start >= 0 && limit <= bytes.count, "cue blocks looked for outside their buffer")
        var offset = start
        var lines = 0
        // Each timing line's settings are parsed into this one value, kept from cue to cue.
        var settings = CueSettings()
        let taker = takesWholeBlocks ? cueBlockTaker : nil
        // One parser for every timing line of the run (see ``CueTimingParser/reset(line:lineNumber:)``).
        var parser = CueTimingParser(line: UnsafeRawBufferPointer(start: nil, count: 0), lineNumber: 0, checks: checks)
        // The file's settings texts, kept from run to run.
        parser.cachesSettings = true
        // With no cue handed on and nothing reported, nothing reads the settings (`inspect --stats`).
        parser.readsSettings = taker != nil || handsOnCues || checks
        swap(&parser.settingsCache, &settingsCache)
        defer { swap(&parser.settingsCache, &settingsCache) }
        while offset < limit {
            if bytes[offset] == UInt8(ascii: "\n") {
                offset += 1
                lines += 1
                continue
            }
            guard
                let block = WebVTTCueBlockScanner.cueBlock(
                    in: bytes, from: offset, limit: limit, maximumLineLength: maximumLineLength, maximumBlockLength: maximumBlockLength)
            else { break }
            let timingLine = WebVTTLineDecoder.Line(
                bytes: block.timingLine, number: firstLine + lines + (block.identifier.isEmpty ? 0 : 1), repairs: .none)
            parser.reset(line: timingLine.bytes, lineNumber: timingLine.number)
            // A timing line that fails is explained by the line-by-line path.
            if let taker {
                guard let times = parser.parse(regions: regions, settings: &settings) else { break }
                try acceptCue(
                    start: times.start, end: times.end, diagnostics: parser.diagnostics, identifier: block.identifier, timingLine: timingLine,
                    identifierOutlivesCue: true, handler)
                try offerCue(
                    block, in: UnsafeRawBufferPointer(start: bytes.baseAddress! + offset, count: block.end - offset), settings: settings,
                    writtenTimes: parser.readWrittenTimes ? parser.settingsOffset : nil,
                    settingsText: parser.settingsOffset.map { UnsafeRawBufferPointer(rebasing: timingLine.bytes[$0...]) }, to: taker, handler)
            } else if handsOnCues {
                guard let timings = parser.parse(regions: regions) else { break }
                try acceptCue(timings, diagnostics: parser.diagnostics, identifier: block.identifier, timingLine: timingLine, identifierOutlivesCue: true, handler)
            } else {
                // No cue to hand on: the settings are parsed (for their diagnostics) into one
                // value kept from cue to cue, and no `Timings` is moved around.
                guard let times = parser.parse(regions: regions, settings: &settings) else { break }
                try acceptCue(
                    start: times.start, end: times.end, diagnostics: parser.diagnostics, identifier: block.identifier, timingLine: timingLine,
                    identifierOutlivesCue: true, handler)
            }
            if taker == nil {
                try emitCue(text: block.text, hasMarkup: block.textHasMarkup, encoding: block.encoding, identifier: block.identifier, handler)
            }
            offset = block.end
            lines += block.lineCount
        }
        return (offset, lines)
    }

    /// "Cue creation": the line has `-->` and is the block's first line, or its second after an
    /// identifier.
    private mutating func createCue(_ line: WebVTTLineDecoder.Line, _ handler: (TrackEvent) throws -> Void) throws {
        var parser = CueTimingParser(line: line.bytes, lineNumber: line.number, checks: checks)
        if let timings = parser.parse(regions: regions) {
            // The identifier is the block's first line, in the buffer: taken out while it is read.
            var identifier: [UInt8] = []
            swap(&identifier, &buffer)
            defer {
                if !identifier.isEmpty { identifier.removeAll(keepingCapacity: true) }
                swap(&identifier, &buffer)
            }
            try identifier.withUnsafeBytes { identifier in
                try acceptCue(timings, diagnostics: parser.diagnostics, identifier: identifier, timingLine: line, handler)
            }
        } else {
            hasCue = false
            guard checks, let failure = parser.failure else { return }
            let location = parser.location(failure.offset)
            let block: String? =
                if lineCount == 1 {
                    startsWithNote(line.bytes) ? "a NOTE comment" : nil
                } else if startsWithNote(buffer) {
                    "a NOTE comment"
                } else if !seenCue, startsWithKeyword("STYLE") {
                    "a STYLE block"
                } else if !seenCue, startsWithKeyword("REGION") {
                    "a REGION block"
                } else {
                    nil
                }
            if let block {
                let arrow = ByteScanning.firstArrow(in: line.bytes) ?? 0
                timingFailure = Diagnostic(
                    .error, .vttArrowInBlock, at: SourceLocation(line: line.number, column: ByteScanning.column(of: arrow, in: line.bytes)),
                    "'-->' must not appear in \(block): this line is read as a timing line, and the block is dropped"
                )
            } else {
                timingFailure = Diagnostic(.error, failure.code, at: location, "\(failure.message); the block is dropped")
            }
        }
    }

    /// A block's timing line was read: the cue is checked against the file around it and kept
    /// until its text is complete (``emitCue(text:hasMarkup:encoding:identifier:_:)``).
    /// `identifier` is the block's first line when the timing line is its second, else empty; it
    /// is copied for ``cueBytesObserver`` unless `identifierOutlivesCue` (the fast path, which
    /// hands the same bytes to `emitCue`).
    private mutating func acceptCue(
        _ timings: consuming CueTimingParser.Timings, diagnostics: [Diagnostic], identifier: UnsafeRawBufferPointer, timingLine line: WebVTTLineDecoder.Line,
        identifierOutlivesCue: Bool = false, _ handler: (TrackEvent) throws -> Void
    ) throws {
        try acceptCue(
            start: timings.start, end: timings.end, diagnostics: diagnostics, identifier: identifier, timingLine: line,
            identifierOutlivesCue: identifierOutlivesCue, handler)
        if handsOnCues { cueSettings = (consume timings).settings }
    }

    /// ``acceptCue(_:diagnostics:identifier:timingLine:identifierOutlivesCue:_:)`` by its times
    /// alone, the settings left to the caller.
    private mutating func acceptCue(
        start: Int, end: Int, diagnostics: [Diagnostic], identifier: UnsafeRawBufferPointer, timingLine line: WebVTTLineDecoder.Line,
        identifierOutlivesCue: Bool, _ handler: (TrackEvent) throws -> Void
    ) throws {
        if checks { try checkCue(start: start, end: end, identifier: identifier, line: line, handler) }
        for diagnostic in diagnostics { try handler(.diagnostic(diagnostic)) }
        hasCue = true
        // An identifier that outlives the cue's block is made a string when the cue is handed on.
        if !identifierOutlivesCue {
            cueIdentifier = identifier.isEmpty || timingOnly ? "" : String(decoding: identifier, as: UTF8.self)
            if cueBytesObserver != nil {
                cueIdentifierBytes.removeAll(keepingCapacity: true)
                cueIdentifierBytes.append(contentsOf: identifier)
            }
        }
        cueStart = start
        cueEnd = end
        cueTimingLine = line.number
        if !seenCue {
            seenCue = true
            try emitRegions(handler)
        }
    }

    /// The checks on a cue that need the file around it: identifier, order, duration.
    private mutating func checkCue(
        start: Int, end: Int, identifier: UnsafeRawBufferPointer, line: WebVTTLineDecoder.Line, _ handler: (TrackEvent) throws -> Void
    ) throws {
        if !identifier.isEmpty {
            let outcome = identifiers.record(identifier)
            let idLocation = SourceLocation(line: line.number - 1, column: 1)
            switch outcome {
            case .duplicate:
                try report(
                    .warning, .vttDuplicateCueIdentifier, idLocation,
                    "cue identifier '\(String(decoding: identifier, as: UTF8.self))' is used by an earlier cue; identifiers must be unique",
                    handler)
            case .stoppedNow:
                try report(
                    .note, .vttIdentifierCheckStopped, idLocation,
                    "more than \(identifiers.limit) distinct cue identifiers, the most remembered; later duplicates are not reported (the command line raises the limit with --max-identifiers)",
                    handler)
            case .new, .notChecked:
                break
            }
        }
        let location = SourceLocation(line: line.number, column: 1)
        if let latestStart, start < latestStart {
            try report(
                .warning, .vttStartBeforePrevious, location,
                "this cue starts before the cue before it; cues must be in order of start time", handler)
        }
        latestStart = max(latestStart ?? start, start)
        if end <= start {
            try report(
                .error, .vttEndNotAfterStart, location,
                end == start
                    ? "the cue ends when it starts, so it is never shown" : "the cue ends before it starts, so it is never shown", handler)
        }
    }

    /// A line with `-->` that cannot belong to the current block: the block ends, and the line is
    /// read again as the first line of the next block.
    private mutating func cutBlock(at line: WebVTTLineDecoder.Line, arrow: Int, _ handler: (TrackEvent) throws -> Void) throws {
        var note: Diagnostic?
        if checks {
            var probe = CueTimingParser(line: line.bytes, lineNumber: line.number, checks: false)
            let isTimingLine = probe.parse(regions: regions) != nil
            let location = SourceLocation(line: line.number, column: 1)
            if isTimingLine {
                if lineCount == 2, seenArrow, !hasCue, timingFailure != nil, !failureExplained {
                    timingFailure = Diagnostic(
                        .error, .vttArrowInIdentifier, at: SourceLocation(line: line.number - 1, column: 1),
                        "a cue identifier must not contain '-->': the identifier is read as a timing line and dropped"
                    )
                } else {
                    note = Diagnostic(.warning, .vttMissingBlankLine, at: location, "a blank line must come before this cue")
                }
            } else {
                let arrowLocation = SourceLocation(line: line.number, column: ByteScanning.column(of: arrow, in: line.bytes))
                if hasCue {
                    note = Diagnostic(
                        .error, .vttArrowInPayload, at: arrowLocation,
                        "'-->' must not appear in cue text: it ends the cue before this line, and the text up to the next blank line is dropped"
                    )
                } else if inHeader || kind != .unknown || (!seenArrow && startsWithNote(buffer)) {
                    let block =
                        inHeader
                        ? "the header" : kind == .stylesheet ? "a STYLE block" : kind == .region ? "a REGION block" : "a NOTE comment"
                    note = Diagnostic(
                        .error, .vttArrowInBlock, at: arrowLocation,
                        "'-->' must not appear in \(block): it ends there, and the text up to the next blank line is dropped"
                    )
                }
            }
        }
        try endBlock(handler)
        if let note { try handler(.diagnostic(note)) }
        startBlock(at: line.number, inHeader: false)
        failureExplained = note?.code == .vttArrowInPayload || note?.code == .vttArrowInBlock
        try collect(line, handler)
    }

    /// The end of "collect a WebVTT block": the block becomes a cue, a style sheet, a region, a
    /// comment, or nothing.
    private mutating func endBlock(_ handler: (TrackEvent) throws -> Void) throws {
        defer {
            if !buffer.isEmpty { buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16) }
            hasCue = false
        }
        if inHeader {
            inHeader = false
            if buffer.isEmpty {
                try handler(.header(headerRemainder))
            } else {
                try handler(.header(headerRemainder + "\n" + String(decoding: buffer, as: UTF8.self)))
                if checks {
                    try report(
                        .warning, .vttHeaderText, SourceLocation(line: blockStartLine, column: 1),
                        "text on the lines after 'WEBVTT' is ignored; a blank line must follow the WEBVTT line", handler)
                }
            }
            return
        }
        if hasCue {
            // The cue's text is the buffer: taken out while it is read.
            var text: [UInt8] = []
            swap(&text, &buffer)
            defer { swap(&text, &buffer) }
            try text.withUnsafeBytes { try emitCue(text: $0, handler) }
            return
        }
        switch kind {
        case .stylesheet:
            styleLength += buffer.count
            guard styleLength <= maximumStyleLength else {
                throw ReadError(
                    .vttStylesTooLong, at: SourceLocation(line: blockStartLine, column: 1),
                    "the STYLE blocks hold more than \(maximumStyleLength) bytes in all, the limit for a track's style sheets")
            }
            try handler(.stylesheet(CueStylesheet(String(decoding: buffer, as: UTF8.self))))
            return
        case .region:
            try addRegion(handler)
            return
        case .unknown:
            break
        }
        if seenArrow {
            if let timingFailure, !failureExplained { try handler(.diagnostic(timingFailure)) }
            return
        }
        if startsWithNote(buffer) {
            let skip = buffer.count > 4 && (buffer[4] == 0x20 || buffer[4] == 0x09) ? 5 : 4
            try handler(.note(CueNote(String(decoding: buffer[skip...], as: UTF8.self), cueIndex: cueCount)))
            return
        }
        guard checks else { return }
        let location = SourceLocation(line: blockStartLine, column: 1)
        if startsWithKeyword("STYLE", firstLineOnly: true) {
            try report(.error, .vttStyleAfterCue, location, "STYLE blocks must come before the first cue; this one is ignored", handler)
        } else if startsWithKeyword("REGION", firstLineOnly: true) {
            try report(.error, .vttRegionAfterCue, location, "REGION blocks must come before the first cue; this one is ignored", handler)
        } else {
            try report(
                .error, .vttUnknownBlock, location,
                "this block is ignored: it is not a cue (no line with '-->' as its first or second line), a NOTE, a STYLE or a REGION block",
                handler)
        }
    }

    /// True when whole cue blocks go to ``cueBlockTaker``: it is set, cues are handed on with
    /// their text, and no one else wants their bytes. (No one wants their text's parse then:
    /// ``shareCueTextEvents(with:)``.)
    private var takesWholeBlocks: Bool {
        cueBlockTaker != nil && handsOnCues && !timingOnly && cueBytesObserver == nil
    }

    /// The fast path's cue whose timing line was accepted, offered to `taker` as the bytes the
    /// writer writes for it, when it ends after it starts and the writer writes its settings as
    /// they are: `blockBytes` themselves when the timing line is in the writer's form; else the
    /// block with the settings (after times in the writer's form: `writtenTimes` is their length)
    /// or the whole timing line written again. `settingsText`, what the settings were read from,
    /// when known. Its event is handed out when the block is not offered or not taken.
    private mutating func offerCue(
        _ block: WebVTTCueBlock, in blockBytes: UnsafeRawBufferPointer, settings: borrowing CueSettings, writtenTimes: Int?,
        settingsText: UnsafeRawBufferPointer?, to taker: any WebVTTCueBlockTaker, _ handler: (TrackEvent) throws -> Void
    ) throws {
        _ = try reportCueText(block.text, hasMarkup: block.textHasMarkup, handler)
        hasCue = false
        cueCount += 1
        if cueEnd > cueStart, let base = blockBytes.baseAddress, let line = block.timingLine.baseAddress {
            let lineEnd = line + block.timingLine.count
            let tail = UnsafeRawBufferPointer(start: lineEnd, count: base + blockBytes.count - lineEnd)
            if let writtenTimes, block.timingLine.count == writtenTimes {
                if try taker.take(WebVTTCueBlockBytes(head: blockBytes), start: cueStart, end: cueEnd) { return }
            } else if let entry = writtenSettings.entry(for: settings, readFrom: settingsText) {
                let taken: Bool
                if let writtenTimes {
                    // The block up to its times, the settings written again, the rest.
                    let head = UnsafeRawBufferPointer(start: base, count: line + writtenTimes - base)
                    taken = try writtenSettings.withText(of: entry) {
                        try taker.take(WebVTTCueBlockBytes(head: head, middle: $0, tail: tail), start: cueStart, end: cueEnd)
                    }
                } else {
                    // The block up to its timing line, the line written again, the rest.
                    let head = UnsafeRawBufferPointer(start: base, count: line - base)
                    rewrittenTimingLine.removeAll(keepingCapacity: true)
                    WebVTTTimingLineText.appendTimes(start: cueStart, end: cueEnd, hours: .always, to: &rewrittenTimingLine)
                    writtenSettings.withText(of: entry) { rewrittenTimingLine.append(contentsOf: $0) }
                    taken = try rewrittenTimingLine.withUnsafeBytes {
                        try taker.take(WebVTTCueBlockBytes(head: head, middle: $0, tail: tail), start: cueStart, end: cueEnd)
                    }
                }
                if taken { return }
            }
        }
        let id = block.identifier.isEmpty ? "" : block.encoding.string(block.identifier)
        let text = block.text.isEmpty ? "" : block.encoding.string(block.text)
        try handler(.cue(Cue(id: id, start: cueStart, end: cueEnd, settings: copy settings, text: text)))
    }



    /// The checker's diagnostics about a cue's text. Returns true when its parse was shared
    /// (``sharedParse``).
    @inline(__always)
    private mutating func reportCueText(_ bytes: UnsafeRawBufferPointer, hasMarkup: Bool, _ handler: (TrackEvent) throws -> Void) throws -> Bool {
        // The checker's parse is left for a consumer on this thread that would parse the same
        // text again (the TTML writer), with the text it is of. Text known to have neither `<`
        // nor `&` is one text node, which the checker would pass after a scan for either.
        guard checksCueText, hasMarkup, !bytes.isEmpty else { return false }
        @inline(__always) func context() -> CueText.Context {
            CueText.Context(origin: SourceLocation(line: cueTimingLine + 1, column: 1), cueStart: cueStart, cueEnd: cueEnd)
        }
        if let sharedParse {
            var diagnostics: [Diagnostic] = []
            let shared = cueTextChecker.diagnostics(forUTF8: bytes, context: context(), sharingEventsWith: sharedParse, diagnostics: &diagnostics)
            for diagnostic in diagnostics { try handler(.diagnostic(diagnostic)) }
            return shared
        }
        // Most marked-up text is in the shapes the quick check knows, of which nothing is
        // reported: no context is made and no list of diagnostics handed back for it.
        if CueTextQuickCheck.isClean(bytes) { return false }
        for diagnostic in cueTextChecker.diagnosticsByParsing(bytes, context: context()) { try handler(.diagnostic(diagnostic)) }
        return false
    }

    /// Hands out the cue whose timing line was accepted, with `text`, the rest of its block.
    /// `hasMarkup` and `encoding` say what a scan proved of the text; `identifier`, the
    /// identifier's bytes when they are still in memory (the fast path), else they were copied.
    private mutating func emitCue(
        text bytes: UnsafeRawBufferPointer, hasMarkup: Bool = true, encoding: ProvenEncoding = .unknown, identifier: UnsafeRawBufferPointer? = nil,
        _ handler: (TrackEvent) throws -> Void
    ) throws {
        let shared = try reportCueText(bytes, hasMarkup: hasMarkup, handler)
        // The observer is called in place (binding it to a constant retained it for each cue).
        if cueBytesObserver != nil {
            if let identifier {
                cueBytesObserver?.observe(identifier: identifier, text: bytes, textHasMarkup: hasMarkup, start: cueStart, end: cueEnd)
            } else {
                cueIdentifierBytes.withUnsafeBytes {
                    cueBytesObserver?.observe(identifier: $0, text: bytes, textHasMarkup: hasMarkup, start: cueStart, end: cueEnd)
                }
            }
        }
        hasCue = false
        // The text is made only for a consumer: the cue's, or the shared parse's.
        guard handsOnCues || shared else {
            cueCount += 1
            return
        }
        let text = bytes.isEmpty || timingOnly ? "" : encoding.string(bytes)
        if shared, !timingOnly { sharedParse?.fill(with: text) }
        guard handsOnCues else {
            cueCount += 1
            return
        }
        let id: String
        if let identifier {
            id = identifier.isEmpty || timingOnly ? "" : encoding.string(identifier)
        } else {
            id = cueIdentifier
            cueIdentifier = ""
        }
        try handler(.cue(Cue(id: id, start: cueStart, end: cueEnd, settings: cueSettings.take() ?? CueSettings(), text: text)))
        cueCount += 1
    }

    private mutating func addRegion(_ handler: (TrackEvent) throws -> Void) throws {
        let (region, diagnostics) = buffer.withUnsafeBytes { text in
            var parser = RegionSettingsParser(text: text, lines: bufferLines, checks: checks)
            let region = parser.parse(headerLine: blockStartLine)
            return (region, parser.diagnostics)
        }
        for diagnostic in diagnostics { try handler(.diagnostic(diagnostic)) }
        // A region without an identifier is reported as such; that it replaces an earlier one without
        // an identifier is no second problem.
        if let replacedLine = regions.add(region, line: blockStartLine), checks, !region.id.isEmpty {
            try report(
                .error, .vttDuplicateRegionIdentifier, SourceLocation(line: blockStartLine, column: 1),
                "region identifier '\(region.id)' is already used by the REGION on line \(replacedLine), which this one replaces", handler)
        }
    }

    private mutating func emitRegions(_ handler: (TrackEvent) throws -> Void) throws {
        guard !regionsEmitted else { return }
        regionsEmitted = true
        for region in regions.regions { try handler(.region(region)) }
    }

    private func reportRepairs(_ line: WebVTTLineDecoder.Line, _ handler: (TrackEvent) throws -> Void) throws {
        let repairs = line.repairs
        if repairs.invalidSequences > 0 {
            let count = repairs.invalidSequences == 1 ? "a byte sequence" : "\(repairs.invalidSequences) byte sequences"
            try report(
                .error, .vttInvalidUTF8, SourceLocation(line: line.number, column: repairs.firstInvalidColumn),
                "\(count) on this line \(repairs.invalidSequences == 1 ? "is" : "are") not valid UTF-8 and read as U+FFFD; WebVTT files are UTF-8",
                handler)
        }
        if repairs.nullCharacters > 0 {
            try report(
                .error, .vttNullCharacter, SourceLocation(line: line.number, column: repairs.firstNullColumn),
                "U+0000 NULL characters are read as U+FFFD", handler)
        }
    }

    // MARK: Helpers

    private func report(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ location: SourceLocation, _ message: String,
        _ handler: (TrackEvent) throws -> Void
    ) throws {
        try handler(.diagnostic(Diagnostic(severity, code, at: location, message)))
    }

    /// "buffer starts with the substring `keyword`, and the remaining characters in buffer (if any)
    /// are all ASCII whitespace".
    /// With `firstLineOnly`, looks at the buffer's first line alone (a block after the first cue,
    /// whose later lines were buffered too).
    private func startsWithKeyword(_ keyword: StaticString, firstLineOnly: Bool = false) -> Bool {
        let length = keyword.utf8CodeUnitCount
        guard buffer.count >= length else { return false }
        let matches = keyword.withUTF8Buffer { key in buffer.prefix(length).elementsEqual(key) }
        guard matches else { return false }
        let rest = buffer[length...]
        let end = firstLineOnly ? rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex : rest.endIndex
        return rest[..<end].allSatisfy(isASCIIWhitespace)
    }

    /// A comment block: `NOTE`, then nothing, a space, a tab or a line break.
    private func startsWithNote<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool where Bytes.Index == Int {
        guard bytes.count >= 4, bytes.prefix(4).elementsEqual("NOTE".utf8) else { return false }
        if bytes.count == 4 { return true }
        let next = bytes[bytes.startIndex + 4]
        return next == 0x20 || next == 0x09 || next == 0x0A
    }
}

/// Cue settings as ``WebVTTWriter`` writes them (``WebVTTTimingLineText``), kept by the text they
/// were read from for the reader's offer of whole cue blocks: a file uses few settings texts, over
/// and over, and formatting them costs more than the rest of copying a block. A few entries, the
/// oldest replaced.
///
/// A text always reads as the same settings where the cache is used: settings depend on nothing
/// but their text and the regions defined, and regions are defined only before the first cue.
struct WrittenSettingsCache {
    private struct Entry {
        /// The text the settings were read from.
        var source: [UInt8]
        var text: [UInt8]
        /// False when the writer would not write the settings as they are.
        var writable: Bool
    }

    private var entries: [Entry] = []
    private var next = 0
    /// The settings of a cue whose settings text is not known or too long to keep: made for it
    /// alone, without taking an entry's place (``oneOffIndex``).
    private var oneOff = Entry(source: [], text: [], writable: true)
    private static let oneOffIndex = -1
    static let capacity = 8
    /// Settings texts longer than this are written again each time, not kept.
    static let longestSource = 128

    /// The entry for `settings`, read from `source` (nil when not known), made if need be; nil
    /// when the writer would not write them as they are (a region, which it names only once it
    /// has written its definition; a value out of range).
    mutating func entry(for settings: borrowing CueSettings, readFrom source: UnsafeRawBufferPointer?) -> Int? {
        if let source, let found = index(of: source) { return entries[found].writable ? found : nil }
        // A region is written only once its definition is (`writesRegion`), so it is an issue too.
        var text: [UInt8] = []
        var writable = true
        WebVTTTimingLineText.appendSettings(settings, to: &text, writesRegion: { _ in false }) { _ in writable = false }
        guard let source, source.count <= Self.longestSource else {
            oneOff = Entry(source: [], text: text, writable: writable)
            return writable ? Self.oneOffIndex : nil
        }
        let kept = Entry(source: Array(source), text: text, writable: writable)
        let index: Int
        if entries.count < Self.capacity {
            index = entries.count
            entries.append(kept)
        } else {
            index = next
            entries[index] = kept
            next = (next + 1) % Self.capacity
        }
        return writable ? index : nil
    }

    /// The entry kept for the settings text `source`.
    private func index(of source: UnsafeRawBufferPointer) -> Int? {
        guard let bytes = source.baseAddress else { return nil }
        return entries.withUnsafeBufferPointer { entries in
            for index in entries.indices where entries[index].source.count == source.count {
                // (An empty array's bytes may have no address: no settings match at once.)
                let same = source.isEmpty || entries[index].source.withUnsafeBytes { memcmp($0.baseAddress!, bytes, source.count) == 0 }
                if same { return index }
            }
            return nil
        }
    }

    /// Calls `body` with the written text of entry `index`.
    func withText<Result>(of index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try (index == Self.oneOffIndex ? oneOff.text : entries[index].text).withUnsafeBytes(body)
    }
}
