import CueKit

/// The checks on cues and lines beyond the parse itself: cue text, identifiers, order and
/// duration, and the bytes the line decoder repaired.
extension WebVTTBlockParser {
    /// The checker's diagnostics about a cue's text. Returns true when its parse was shared
    /// (``sharedParse``).
    @inline(__always)
    mutating func reportCueText(_ bytes: UnsafeRawBufferPointer, hasMarkup: Bool, _ handler: (TrackEvent) throws -> Void) throws -> Bool {
        // The checker's parse is left for a consumer on this thread that would parse the same
        // text again (the TTML writer), with the text it is of. Text known to have neither `<`
        // nor `&` is one text node, which the checker would pass after a scan for either.
        guard checksCueText, hasMarkup, !bytes.isEmpty else { return false }
        @inline(__always) func context() -> CueText.Context {
            CueText.Context(origin: SourceLocation(line: cueTimingLine + 1, column: 1), cueStart: cueStart, cueEnd: cueEnd)
        }
        if let sharedParse = hooks.checkerParseCache {
            var diagnostics: [Diagnostic] = []
            let shared = cueTextChecker.diagnostics(forUTF8: bytes, context: context(), sharingEventsWith: sharedParse, diagnostics: &diagnostics)
            for diagnostic in diagnostics { try handler(.diagnostic(diagnostic)) }
            return shared
        }
        // Most marked-up text is in the shapes the quick check knows, of which nothing is
        // reported: no context is made and no list of diagnostics handed back for it.
        if CueTextQuickCheck.isClean(bytes, cueStart: cueStart, cueEnd: cueEnd) { return false }
        for diagnostic in cueTextChecker.diagnosticsByParsing(bytes, context: context()) { try handler(.diagnostic(diagnostic)) }
        return false
    }

    /// The checks on a cue that need the file around it: identifier, order, duration.
    mutating func checkCue(
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

    func reportRepairs(_ line: WebVTTLineDecoder.Line, _ handler: (TrackEvent) throws -> Void) throws {
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

    /// The lines under `WEBVTT`: an HLS segment's `X-TIMESTAMP-MAP` (RFC 8216, section 3.5) is
    /// accepted when it reads, and reported where it does not; any other text is ignored by every
    /// reader, and warned about once, at its first line.
    func checkHeaderLines(_ lines: [UInt8], firstLine: Int, _ handler: (TrackEvent) throws -> Void) throws {
        var otherTextLine: Int?
        for (offset, line) in lines.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let number = firstLine + offset
            guard WebVTTTimestampMap.names(line) else {
                if otherTextLine == nil { otherTextLine = number }
                continue
            }
            do {
                _ = try WebVTTTimestampMap.parse(line)
            } catch {
                try report(
                    .error, .vttTimestampMap, SourceLocation(line: number, column: error.column),
                    "the X-TIMESTAMP-MAP line cannot be read (\(error.reason)); an HLS player cannot place this segment's cues", handler)
            }
        }
        if let otherTextLine {
            try report(
                .warning, .vttHeaderText, SourceLocation(line: otherTextLine, column: 1),
                "text on the lines after 'WEBVTT' is ignored; a blank line must follow the WEBVTT line", handler)
        }
    }

    func report(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ location: SourceLocation, _ message: String,
        _ handler: (TrackEvent) throws -> Void
    ) throws {
        try handler(.diagnostic(Diagnostic(severity, code, at: location, message)))
    }
}
