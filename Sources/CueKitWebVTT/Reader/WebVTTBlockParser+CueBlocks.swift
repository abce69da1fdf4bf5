import CueKit

/// The fast path: ordinary cue blocks read straight from memory, and offered whole to a
/// ``WebVTTCueSink`` that takes cues.
extension WebVTTBlockParser {
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
        let sink = takesWholeBlocks ? hooks.taker : nil
        // One parser for every timing line of the run (see ``CueTimingParser/reset(line:lineNumber:)``).
        var parser = CueTimingParser(line: UnsafeRawBufferPointer(start: nil, count: 0), lineNumber: 0, checks: checks)
        // The file's settings texts, kept from run to run.
        parser.cachesSettings = true
        // With no cue handed on and nothing reported, nothing reads the settings (`inspect --stats`).
        parser.readsSettings = sink != nil || handsOnCues || checks
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
            if let sink {
                guard let times = parser.parse(regions: regions, settings: &settings) else { break }
                try acceptCue(
                    start: times.start, end: times.end, diagnostics: parser.diagnostics, identifier: block.identifier, timingLine: timingLine,
                    identifierOutlivesCue: true, handler)
                try offerCue(
                    block, in: UnsafeRawBufferPointer(start: bytes.baseAddress! + offset, count: block.end - offset), settings: settings,
                    fullFormTimesLength: parser.readFullFormTimes ? parser.settingsOffset : nil,
                    settingsText: parser.settingsOffset.map { UnsafeRawBufferPointer(rebasing: timingLine.bytes[$0...]) }, to: sink, handler)
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
            if sink == nil {
                try emitCue(text: block.text, hasMarkup: block.textHasMarkup, encoding: block.encoding, identifier: block.identifier, handler)
            }
            offset = block.end
            lines += block.lineCount
        }
        return (offset, lines)
    }

    /// True when cue blocks are offered whole to a sink that takes cues: cues are handed on with
    /// their text.
    private var takesWholeBlocks: Bool {
        hooks.taker != nil && handsOnCues && !timingOnly
    }

    /// The fast path's cue whose timing line was accepted, offered with its block to `sink`,
    /// which may take it. `fullFormTimesLength` and `settingsText` are what the timing parser
    /// learnt of the line. Its event is handed out when the sink does not take it.
    private mutating func offerCue(
        _ block: WebVTTCueBlock, in blockBytes: UnsafeRawBufferPointer, settings: borrowing CueSettings, fullFormTimesLength: Int?,
        settingsText: UnsafeRawBufferPointer?, to sink: any WebVTTCueSink, _ handler: (TrackEvent) throws -> Void
    ) throws {
        // A sink that writes the text again (TTML) takes the checker's parse of it, as bytes.
        if try reportCueText(block.text, hasMarkup: block.textHasMarkup, handler) { hooks.checkerParseCache?.fill(withBytes: block.text) }
        hasCue = false
        cueCount += 1
        let read = WebVTTCueBlockAsRead(
            bytes: blockBytes, timingLine: block.timingLine, identifier: block.identifier, text: block.text,
            textHasMarkup: block.textHasMarkup, fullFormTimesLength: fullFormTimesLength, settingsText: settingsText, start: cueStart,
            end: cueEnd)
        if try sink.take(read, settings: settings) { return }
        let id = block.identifier.isEmpty ? "" : block.encoding.string(block.identifier)
        let text = block.text.isEmpty ? "" : block.encoding.string(block.text)
        try handler(.cue(Cue(id: id, start: cueStart, end: cueEnd, settings: copy settings, text: text)))
    }
}
