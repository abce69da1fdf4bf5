internal import CCueKitBytes
import CueKit

// The fast path: with a cue sink (``SubRipCueSink``), ordinary blocks are read straight from
// memory, a whole block at a time, instead of line by line through the state machine.

extension SubRipReader {
    /// ``feed(_:to:)`` with a consumer's hooks: its cue sink is offered each cue in place of its
    /// event, and ordinary blocks are read whole (``takeBlocks(_:from:_:)``).
    package mutating func feed(_ chunk: UnsafeRawBufferPointer, hooks: SubRipReaderHooks, to handler: (TrackEvent) throws -> Void) throws {
        guard hooks.cueSink != nil else { return try feed(chunk, to: handler) }
        precondition(!finished, "SubRipReader fed after finish")
        self.hooks = hooks
        defer { self.hooks = SubRipReaderHooks() }
        try sendHeader(handler)
        var lines = self.lines
        self.lines = .placeholder
        defer { self.lines = lines }
        try lines.feed(chunk, takingWhole: { bytes, offset in try takeBlocks(bytes, from: offset, handler) }) { piece in
            try take(piece, handler)
        }
    }

    /// ``finish(to:)`` with a consumer's hooks.
    package mutating func finish(hooks: SubRipReaderHooks, to handler: (TrackEvent) throws -> Void) throws {
        self.hooks = hooks
        defer { self.hooks = SubRipReaderHooks() }
        try finish(to: handler)
    }

    /// Streams a file's events to `handler` as ``stream(fileAtPath:options:to:)`` does (a prescan
    /// first), with a consumer's hooks.
    package static func stream(
        fileAtPath path: String, options: Options = Options(), hooks: SubRipReaderHooks, to handler: (TrackEvent) throws -> Void
    ) throws {
        do {
            var reader =
                path == "-" ? Self(options: options) : Self(options: options, prescan: try prescan(fileAtPath: path, options: options))
            try FileByteSource(path: path).forEachChunk { chunk in try reader.feed(chunk, hooks: hooks, to: handler) }
            try reader.finish(hooks: hooks, to: handler)
        } catch let error as ReadError where error.path == nil {
            throw error.inFile(path)
        }
    }

    /// Reads the ordinary blocks at `bytes[start...]`, a line start, whole, and returns where it
    /// stopped: before the first block it cannot take, which the line-by-line path then reads.
    ///
    /// A block is taken when the line-by-line path would give it no diagnostic and would surely
    /// end it at the empty line after its text: its number the one expected, its timing line in
    /// the standard form (``SubRipTimingLine/standardForm(_:)``) with the end after the start,
    /// text lines that are clean UTF-8 and neither blank, nor a number, nor like a timing line, nor
    /// holding an ASS line break; then one empty line, the next number, and a line after it that
    /// the line-by-line path reads without a diagnostic (it ends the cue there, whatever the line
    /// is). Lines end at LF or CR LF. The reader must stand between cues, or in a cue's text after
    /// a blank line (that cue then ends as the line-by-line path ends it, before the block).
    ///
    /// The text lines are looked at in one vector pass (`cuekit_scan_subrip_text`); the number
    /// and timing lines eight bytes at a time. The cue is then made as the line-by-line path makes it (``finishCue(atEnd:_:)``): the same
    /// events, or the same offer to the sink.
    mutating func takeBlocks(_ bytes: UnsafeRawBufferPointer, from start: Int, _ handler: (TrackEvent) throws -> Void) throws -> Int {
        var offset = start
        while true {
            let endsPendingCue: Bool
            switch state {
            case .betweenCues where !hasPendingNumber: endsPendingCue = false
            case .inText where !hasPendingNumber && blankLinesPending > 0: endsPendingCue = true
            default: return offset
            }
            guard let block = wholeBlock(in: bytes, from: offset, number: (lastNumber ?? 0) + 1) else { return offset }
            let numberLine = lineNumber + 1
            blocksReadWhole += 1
            if endsPendingCue {
                // The line-by-line path ends the cue in its text as it reads the timing line.
                lineNumber = numberLine + 1
                try finishCue(handler)
            }
            sawNonBlankLine = true
            hasPendingNumber = false
            numberValue = block.number
            self.numberLine = numberLine
            lastNumber = block.number
            cueStart = block.start
            cueEnd = block.end
            cueLine = numberLine + 1
            state = .inText
            inStrayRun = false
            blankLinesPending = 0
            blankLineInText = nil
            textCutReported = false
            let identifier =
                options.cueIdentifiers == .sequenceNumbers
                ? UnsafeRawBufferPointer(rebasing: bytes[block.numberBytes]) : UnsafeRawBufferPointer(start: nil, count: 0)
            let timingLine = UnsafeRawBufferPointer(rebasing: bytes[block.timingLine])
            let textBytes = UnsafeRawBufferPointer(rebasing: bytes[block.text])
            // The line-by-line path ends the cue as it reads the line after the next number.
            let emptyLine = numberLine + 2 + block.textLineCount
            lineNumber = emptyLine + 2
            if block.hasCarriageReturns {
                // The text lines copied without their CRs, as `appendTextLine` keeps them.
                text.removeAll(keepingCapacity: true)
                textLines.removeAll(keepingCapacity: true)
                textLinesFollowTimingLine = false
                var lineStart = 0
                lineNumber = numberLine + 2
                while lineStart < textBytes.count {
                    var lineEnd = ByteScanning.firstIndex(of: 0x0A, in: textBytes, from: lineStart, to: textBytes.count)
                    let next = lineEnd + 1
                    if lineEnd < textBytes.count, textBytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                    appendTextLine(
                        UnsafeRawBufferPointer(rebasing: textBytes[lineStart..<lineEnd]).assumingMemoryBound(to: UInt8.self), columnBase: 0)
                    lineStart = next
                    lineNumber += 1
                }
                lineNumber = emptyLine + 2
                let text = self.text  // shares storage
                try text.withUnsafeBufferPointer { text in
                    try finishCue(text: text, identifier: identifier, isPlain: !block.hasMarkup, standardTimingLine: timingLine, handler)
                }
            } else {
                // Lines that end at LF alone lie in the bytes as the cue's text: read in place.
                textLinesFollowTimingLine = true
                try finishCue(
                    text: textBytes.assumingMemoryBound(to: UInt8.self), identifier: identifier, isPlain: !block.hasMarkup,
                    standardTimingLine: timingLine, handler)
            }
            lineNumber = emptyLine
            offset = block.blockEnd
        }
    }

    /// What ``wholeBlock(in:from:number:)`` found.
    struct WholeBlock {
        var numberBytes: Range<Int>
        var number: Int
        /// Start and end, in milliseconds.
        var start: Int
        var end: Int
        /// The timing line, in the standard form.
        var timingLine: Range<Int>
        /// The text lines with the line breaks between them (not the last one's).
        var text: Range<Int>
        var textLineCount: Int
        /// True when lines end in CR LF, and the text lines are to be copied without their CRs.
        var hasCarriageReturns: Bool
        /// True when the text has one of `<`, `>`, `&` and `{`: markup to map, or bytes to escape.
        var hasMarkup: Bool
        /// Just after the empty line that ends the block.
        var blockEnd: Int
    }

    /// The block at `bytes[from...]` when it can be taken whole (see ``takeBlocks(_:from:_:)``),
    /// numbered `number`.
    func wholeBlock(in bytes: UnsafeRawBufferPointer, from: Int, number: Int) -> WholeBlock? {
        let count = bytes.count
        let maximumLineLength = options.limits.maximumLineLength
        // A timing line longer than the limit is cut, and reported.
        guard maximumLineLength >= 29, let base = bytes.baseAddress else { return nil }
        @inline(__always) func byte(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }
        /// Just after the line break (LF or CR LF) at `offset`, or nil when there is none.
        @inline(__always) func lineBreak(at offset: Int) -> Int? {
            guard offset < count else { return nil }
            if byte(offset) == 0x0A { return offset + 1 }
            guard byte(offset) == 0x0D, offset + 1 < count, byte(offset + 1) == 0x0A else { return nil }
            return offset + 2
        }
        /// The line of one to nine digits at `offset`: its value, its end, and the next line's start.
        @inline(__always) func numberLine(at offset: Int) -> (value: Int, end: Int, next: Int)? {
            var index = offset
            var value = 0
            if offset + 8 <= count {
                // Eight bytes at once: each digit's value where it is; the first other byte (one
                // at or past 10, or with its high bit set) ends the number.
                var word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ 0x3030_3030_3030_3030
                let others = ((word &+ 0x7676_7676_7676_7676) | word) & 0x8080_8080_8080_8080
                let digits = others.trailingZeroBitCount / 8
                if digits < 8 {
                    guard digits > 0, let next = lineBreak(at: offset + digits) else { return nil }
                    for _ in 0..<digits {
                        value = value &* 10 &+ Int(truncatingIfNeeded: word & 0xFF)
                        word >>= 8
                    }
                    return (value, offset + digits, next)
                }
            }
            while index < count, index - offset < 10 {
                let digit = byte(index) &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                value = value * 10 + Int(digit)
                index += 1
            }
            guard index > offset, index - offset <= 9, let next = lineBreak(at: index) else { return nil }
            return (value, index, next)
        }
        /// The standard timing line at `offset`, and the next line's start.
        @inline(__always) func timingLine(at offset: Int) -> (timing: SubRipTimingLine, next: Int)? {
            guard let next = lineBreak(at: offset + 29),
                let timing = SubRipTimingLine.standardForm(
                    UnsafeBufferPointer(start: (base + offset).assumingMemoryBound(to: UInt8.self), count: 29))
            else { return nil }
            return (timing, next)
        }
        guard let numbered = numberLine(at: from), numbered.value == number, let timed = timingLine(at: numbered.next),
            timed.timing.end > timed.timing.start
        else { return nil }
        let textStart = timed.next
        // One pass over the text lines, up to the empty line after them.
        var shape = CueKitSubRipTextShape()
        guard cuekit_scan_subrip_text(base.assumingMemoryBound(to: UInt8.self), textStart, count, &shape), shape.lineCount > 0,
            shape.longestLine <= maximumLineLength, shape.hasStrayCarriageReturn == 0, shape.hasArrow == 0, shape.hasASSBreak == 0
        else { return nil }
        let textEnd = shape.textEnd
        // The text as the line-by-line path keeps it: lines joined by LF, without their CRs.
        guard textEnd - textStart - shape.carriageReturns <= options.limits.maximumCueTextLength else { return nil }
        let text = UnsafeRawBufferPointer(start: base + textStart, count: textEnd - textStart)
        if shape.lineStartToCheck != 0 {
            var lineStart = 0
            while lineStart < text.count {
                let lineFeed = ByteScanning.firstIndex(of: 0x0A, in: text, from: lineStart, to: text.count)
                let lineEnd = lineFeed < text.count && text[lineFeed - 1] == 0x0D ? lineFeed - 1 : lineFeed
                guard Self.startsOrdinaryText(UnsafeRawBufferPointer(rebasing: text[lineStart..<lineEnd])) else { return nil }
                lineStart = lineFeed + 1
            }
        }
        // A NUL is repaired by the line-by-line path; bytes beyond ASCII are checked as UTF-8.
        guard shape.hasNUL == 0,
            shape.hasNonASCII == 0 || cuekit_utf8_is_valid(base.assumingMemoryBound(to: UInt8.self) + textStart, textEnd - textStart)
        else { return nil }
        let offset = shape.blockEnd
        let hasCarriageReturns = shape.carriageReturns > 0
        let textLineCount = shape.lineCount
        // The next number, and a line after it that is read without a diagnostic (the next timing
        // line, mostly).
        guard let next = numberLine(at: offset), next.value == number + 1 else { return nil }
        // A standard timing line, the line nearly always there, needs no scan for its end.
        let after = next.next
        if timingLine(at: after) == nil {
            let (afterEnd, afterPlain) = ByteScanning.lineEnd(in: bytes, from: after, to: count)
            guard afterEnd < count, afterEnd - after <= maximumLineLength,
                afterPlain || UTF8Repair.isClean(UnsafeRawBufferPointer(rebasing: bytes[after..<afterEnd]))
            else { return nil }
        }
        return WholeBlock(
            numberBytes: from..<numbered.end, number: number, start: timed.timing.start, end: timed.timing.end,
            timingLine: numbered.next..<(numbered.next + 29), text: textStart..<textEnd, textLineCount: textLineCount,
            hasCarriageReturns: hasCarriageReturns, hasMarkup: shape.hasMarkup != 0, blockEnd: offset)
    }

    /// True when the line-by-line path appends a line starting as `line` does to a cue's text,
    /// unless it holds `-->` or an ASS line break (which `cuekit_scan_subrip_text` looks for): not
    /// blank, not a sequence number, no byte order mark.
    private static func startsOrdinaryText(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first, !isBlankByte(first) else { return false }
        if first == 0xEF, line.count >= 3, line[1] == 0xBB, line[2] == 0xBF { return false }
        if SubRipTimingLine.isDigit(first) {
            var end = line.count
            while end > 0, isBlankByte(line[end - 1]) { end -= 1 }
            if end <= 9, number(line, 0..<end) != nil { return false }
        }
        return true
    }

    /// The value of `bytes[range]` when it is one to nine digits and nothing else.
    @inline(__always)
    static func number(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count <= 9 else { return nil }
        var value = 0
        for index in range {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }
}
