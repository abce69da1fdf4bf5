import CueKit

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

    let checks: Bool
    let checksCueText: Bool
    /// Cues are handed on without identifier and text (``WebVTTReader/Options/CueContent/timingOnly``),
    /// or not at all (``WebVTTReader/Options/CueContent/diagnosticsOnly``, which sets both).
    let timingOnly: Bool
    let handsOnCues: Bool
    let maximumBlockLength: Int
    let maximumLineLength: Int

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
    var hasCue = false
    private var cueIdentifier = ""
    /// The identifier's bytes, kept for a sink that looks (reused from cue to cue).
    private var cueIdentifierBytes: [UInt8] = []
    var cueStart = 0
    var cueEnd = 0
    /// The settings of the cue being read, moved out (``Optional/take()``) into its event.
    private var cueSettings: CueSettings?
    var cueTimingLine = 0
    /// Why the block's timing line failed, reported when the block ends.
    private var timingFailure: Diagnostic?
    /// The block's failure is already explained by a diagnostic about the line before it.
    private var failureExplained = false

    // The whole file.
    private var seenCue = false
    var regions = RegionTable()
    private var regionsEmitted = false
    var cueCount = 0
    var latestStart: Int?
    var identifiers: CueIdentifierRegistry
    var cueTextChecker = CueText.Checker()
    /// The consumer's hooks during one call of the reader (``WebVTTReaderHooks``); empty between
    /// calls.
    var hooks = WebVTTReaderHooks()
    /// The settings of the timing lines read on the fast path, by their text (``CueSettingsCache``).
    var settingsCache = CueSettingsCache()
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

    /// Holds a consumer's hooks for the call about to run, or forgets them (an empty set) after it.
    mutating func hold(_ hooks: WebVTTReaderHooks) {
        self.hooks = hooks
        let takes = hooks.cueSink?.takesCues ?? false
        self.hooks.taker = takes ? hooks.cueSink : nil
        self.hooks.seer = takes ? nil : hooks.cueSink
        self.hooks.checkerParseCache = checksCueText ? hooks.cueTextParseCache : nil
    }

    // MARK: Lines

    /// True between blocks, where the next non-empty line starts a block (where the reader may
    /// take whole cue blocks: ``consumeCueBlocks(_:from:limit:firstLine:_:)``).
    var isBetweenBlocks: Bool { phase == .betweenBlocks }

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

    // MARK: Cues

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
    /// is copied for the hooks' cue sink unless `identifierOutlivesCue` (the fast path, which
    /// hands the same bytes to `emitCue`).
    mutating func acceptCue(
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
    mutating func acceptCue(
        start: Int, end: Int, diagnostics: [Diagnostic], identifier: UnsafeRawBufferPointer, timingLine line: WebVTTLineDecoder.Line,
        identifierOutlivesCue: Bool, _ handler: (TrackEvent) throws -> Void
    ) throws {
        if checks { try checkCue(start: start, end: end, identifier: identifier, line: line, handler) }
        for diagnostic in diagnostics { try handler(.diagnostic(diagnostic)) }
        hasCue = true
        // An identifier that outlives the cue's block is made a string when the cue is handed on.
        if !identifierOutlivesCue {
            cueIdentifier = identifier.isEmpty || timingOnly ? "" : String(decoding: identifier, as: UTF8.self)
            if hooks.seer != nil {
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
                if checks { try checkHeaderLines(buffer, firstLine: blockStartLine, handler) }
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

    /// Hands out the cue whose timing line was accepted, with `text`, the rest of its block.
    /// `hasMarkup` and `encoding` say what a scan proved of the text; `identifier`, the
    /// identifier's bytes when they are still in memory (the fast path), else they were copied.
    mutating func emitCue(
        text bytes: UnsafeRawBufferPointer, hasMarkup: Bool = true, encoding: ProvenEncoding = .unknown, identifier: UnsafeRawBufferPointer? = nil,
        _ handler: (TrackEvent) throws -> Void
    ) throws {
        let shared = try reportCueText(bytes, hasMarkup: hasMarkup, handler)
        // The sink is called in place (binding it to a constant retained it for each cue).
        if hooks.seer != nil {
            if let identifier {
                try see(identifier: identifier, text: bytes, hasMarkup: hasMarkup)
            } else {
                try cueIdentifierBytes.withUnsafeBytes { try see(identifier: $0, text: bytes, hasMarkup: hasMarkup) }
            }
        }
        hasCue = false
        // The text is made only for a consumer: the cue's, or the shared parse's.
        guard handsOnCues || shared else {
            cueCount += 1
            return
        }
        let text = bytes.isEmpty || timingOnly ? "" : encoding.string(bytes)
        if shared, !timingOnly { hooks.checkerParseCache?.fill(with: text) }
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

    /// Shows the cue being read to the hooks' sink that looks.
    private func see(identifier: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer, hasMarkup: Bool) throws {
        try hooks.seer?.see(
            WebVTTCueAsRead(identifier: identifier, text: text, textHasMarkup: hasMarkup, start: cueStart, end: cueEnd, timingLine: cueTimingLine))
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

    // MARK: Helpers

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
