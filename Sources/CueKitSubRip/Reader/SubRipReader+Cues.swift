import CueKit

// Cues: a timing line starts one, its text lines follow, and it is finished (markup converted,
// reported, emitted) when the next block or the end of input comes.

extension SubRipReader {

    /// Reads a timing line, keeping its irregularities in `timingIssues` until ``startCue`` reports them.
    mutating func timingLine(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws -> SubRipTimingLine? {
        if !timingIssues.isEmpty { timingIssues.removeAll(keepingCapacity: true) }
        guard let timing = SubRipTimingLine.parse(line, issues: &timingIssues) else { return nil }
        if !timingIssues.isEmpty {
            timingLineBytes.removeAll(keepingCapacity: true)
            timingLineBytes.append(contentsOf: line)
        }
        return timing
    }

    mutating func reportTimingIssues(_ handler: (TrackEvent) throws -> Void) throws {
        guard !timingIssues.isEmpty else { return }
        let issues = timingIssues
        let bytes = timingLineBytes
        let lineNumber = self.lineNumber
        try bytes.withUnsafeBufferPointer { line in try reportTimingIssues(issues, in: line, lineNumber: lineNumber, handler) }
    }

    mutating func reportTimingIssues(
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

    mutating func reportBadTiming(_ line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void) throws {
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

    mutating func startCue(_ timing: SubRipTimingLine, number: Bool, _ handler: (TrackEvent) throws -> Void) throws {
        if number {
            let expected = (lastNumber ?? 0) + 1
            if numberValue != expected {
                try report(
                    .warning, .srtSequenceNumber, line: numberLine, column: 1,
                    "sequence number is \(numberValue) where \(expected) was expected", handler)
            }
            lastNumber = numberValue
            cueID.removeAll(keepingCapacity: true)
            if options.cueIdentifiers == .sequenceNumbers { cueID.append(contentsOf: numberBytes) }
        } else {
            cueID.removeAll(keepingCapacity: true)
        }
        try reportTimingIssues(handler)
        if timing.end < timing.start {
            try report(
                .error, .srtEndBeforeStart, line: lineNumber, column: 1,
                "cue ends (\(CueTimestamp.format(timing.end))) before it starts (\(CueTimestamp.format(timing.start))), so it is never shown",
                handler)
        } else if timing.end == timing.start {
            try report(
                .error, .srtEndBeforeStart, line: lineNumber, column: 1,
                "cue ends when it starts (\(CueTimestamp.format(timing.start))), so it is never shown", handler)
        }
        cueStart = timing.start
        cueEnd = timing.end
        cueLine = lineNumber
        state = .inText
        inStrayRun = false
        text.removeAll(keepingCapacity: true)
        textLines.removeAll(keepingCapacity: true)
        textLinesFollowTimingLine = false
        blankLinesPending = 0
        blankLineInText = nil
        textCutReported = false
    }

    /// Emits the cue read so far; `atEnd` when the input ended in its text.
    mutating func finishCue(atEnd: Bool = false, _ handler: (TrackEvent) throws -> Void) throws {
        // These share storage; `self.text` and `self.cueID` are not changed until the next cue.
        let text = self.text
        let identifier = cueID
        try identifier.withUnsafeBytes { identifier in
            try text.withUnsafeBufferPointer { try finishCue(text: $0, identifier: identifier, atEnd: atEnd, handler) }
        }
    }

    /// Emits the cue read so far, whose text is `text` (its lines, joined by LF, start where
    /// `textLines` say, or ``textLinesFollowTimingLine``) and identifier `identifier`; `isPlain`
    /// when it is known whether it needs no markup conversion (``SubRipMarkupConverter/isPlain(_:)``),
    /// nil when it is to be looked at; `standardTimingLine` when the timing line was in the
    /// standard form, for the sink.
    mutating func finishCue(
        text: UnsafeBufferPointer<UInt8>, identifier: UnsafeRawBufferPointer, isPlain: Bool? = nil,
        standardTimingLine: UnsafeRawBufferPointer? = nil, atEnd: Bool = false, _ handler: (TrackEvent) throws -> Void
    ) throws {
        state = .betweenCues
        blankLinesPending = 0
        cueCount += 1
        if let blankLine = blankLineInText {
            blankLineInText = nil
            // At the end of the input too, the text after the blank line stays in the cue: players
            // (ffmpeg, pysubs2) keep it, and a last line of dialogue is worth more than credits.
            let place =
                atEnd
                ? "the last cue's text, with no cue after it"
                : "a cue's text (the next line is neither a timing line nor a sequence number followed by one)"
            try report(
                .warning, .srtBlankLineInText, line: blankLine, column: 1,
                "blank line inside \(place): it is left out, as a cue cannot hold an empty line, and the text after it is kept in the cue",
                handler)
        }
        if isPlain ?? SubRipMarkupConverter.isPlain(text) {
            if let sink = hooks.cueSink,
                try sink.take(
                    SubRipCueAsRead(
                        identifier: identifier, text: UnsafeRawBufferPointer(text), settings: nil, start: cueStart,
                        end: cueEnd, standardTimingLine: standardTimingLine, timingLine: cueLine))
            {
                return
            }
            let location = SourceLocation(line: cueLine, column: 1)
            try emit(
                .cue(
                    Cue(
                        id: String(decoding: identifier, as: UTF8.self), start: cueStart, end: cueEnd, text: String(decoding: text, as: UTF8.self),
                        location: location)), handler
            )
            return
        }
        markup.removeAll(keepingCapacity: true)
        markupIssues.removeAll(keepingCapacity: true)
        converter.convert(text, into: &markup) { markupIssues.append($0) }
        for issue in markupIssues { try reportMarkup(issue, in: text, handler) }
        for color in converter.colors { try defineColor(color, handler) }
        let aligned = converter.alignment.map(SubRipMarkupConverter.settings(forAlignment:))
        if let sink = hooks.cueSink {
            let markup = self.markup  // shares storage
            let taken = try markup.withUnsafeBytes { markup in
                try sink.take(
                    SubRipCueAsRead(
                        identifier: identifier, text: markup, settings: aligned, start: cueStart, end: cueEnd,
                        standardTimingLine: standardTimingLine, timingLine: cueLine))
            }
            if taken { return }
        }
        let cue = Cue(
            id: String(decoding: identifier, as: UTF8.self), start: cueStart, end: cueEnd, settings: aligned ?? CueSettings(),
            text: String(decoding: markup, as: UTF8.self),
            location: SourceLocation(line: cueLine, column: 1))
        try emit(.cue(cue), handler)
    }

    mutating func reportMarkup(
        _ issue: SubRipMarkupConverter.Issue, in text: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void
    ) throws {
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
        if limiter.isFull(code) {
            _ = limiter.admit(code)
            return
        }
        // Find the text line the offset falls in.
        var (lineOffset, line, columnBase) = (0, lineNumber, 0)
        if textLinesFollowTimingLine {
            // One line after another from the timing line's next, each after an LF of the text.
            line = cueLine + 1
            for index in 0..<min(issue.offset, text.count) where text[index] == 0x0A {
                lineOffset = index + 1
                line += 1
            }
        } else if !textLines.isEmpty {
            var lineIndex = textLines.count - 1
            while lineIndex > 0, textLines[lineIndex].offset > issue.offset { lineIndex -= 1 }
            (lineOffset, line, columnBase) = textLines[lineIndex]
        }
        let column = UTF8Bytes.scalarCount(UnsafeBufferPointer(rebasing: text[lineOffset..<max(lineOffset, issue.offset)])) + 1 + columnBase
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
}
