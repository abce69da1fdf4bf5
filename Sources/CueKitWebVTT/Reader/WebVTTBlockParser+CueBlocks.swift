import CueKit

/// The fast path: ordinary cue blocks read straight from memory, and offered whole to a
/// ``WebVTTCueBlockTaker`` as the bytes the writer writes for them.
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
        let taker = takesWholeBlocks ? hooks.cueBlockTaker : nil
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

    /// True when whole cue blocks go to ``cueBlockTaker``: it is set, cues are handed on with
    /// their text, and no one else wants their bytes. (No one wants their text's parse then:
    /// ``hold(_:)``.)
    private var takesWholeBlocks: Bool {
        hooks.cueBlockTaker != nil && handsOnCues && !timingOnly && hooks.cueBytesObserver == nil
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
}
