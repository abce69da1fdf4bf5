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
            var reader = path == "-" ? Self(options: options) : Self(options: options, prescan: try prescan(fileAtPath: path, options: options))
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
    /// The cue is then made as the line-by-line path makes it (``finishCue(atEnd:_:)``): the same
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
            cueID.removeAll(keepingCapacity: true)
            if options.cueIdentifiers == .sequenceNumbers { cueID.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[block.numberBytes])) }
            cueStart = block.start
            cueEnd = block.end
            cueLine = numberLine + 1
            state = .inText
            inStrayRun = false
            text.removeAll(keepingCapacity: true)
            textLines.removeAll(keepingCapacity: true)
            blankLinesPending = 0
            blankLineInText = nil
            textCutReported = false
            let textLineCount = wholeBlockLines.count
            for index in 0..<textLineCount {
                let range = wholeBlockLines[index]
                lineNumber = numberLine + 2 + index
                appendTextLine(UnsafeRawBufferPointer(rebasing: bytes[range]).assumingMemoryBound(to: UInt8.self), columnBase: 0)
            }
            // The line-by-line path ends the cue as it reads the line after the next number.
            let emptyLine = numberLine + 2 + textLineCount
            lineNumber = emptyLine + 2
            try finishCue(handler)
            lineNumber = emptyLine
            offset = block.blockEnd
        }
    }

    /// What ``wholeBlock(in:from:number:)`` found; its text lines are left in `wholeBlockLines`.
    struct WholeBlock {
        var numberBytes: Range<Int>
        var number: Int
        /// Start and end, in milliseconds.
        var start: Int
        var end: Int
        /// Just after the empty line that ends the block.
        var blockEnd: Int
    }

    /// The block at `bytes[from...]` when it can be taken whole (see ``takeBlocks(_:from:_:)``),
    /// numbered `number`.
    mutating func wholeBlock(in bytes: UnsafeRawBufferPointer, from: Int, number: Int) -> WholeBlock? {
        let count = bytes.count
        // A timing line longer than the limit is cut, and reported.
        guard options.limits.maximumLineLength >= 29 else { return nil }
        /// The line at `start`: its end (CR or LF), the start of the next, and whether it is plain
        /// ASCII; nil when it does not end in `bytes`, or ends in a CR without an LF.
        @inline(__always) func line(at start: Int) -> (end: Int, next: Int, plain: Bool)? {
            let (end, plain) = ByteScanning.lineEnd(in: bytes, from: start, to: count)
            guard end < count else { return nil }
            if bytes[end] == 0x0A { return (end, end + 1, plain) }
            guard end + 1 < count, bytes[end + 1] == 0x0A else { return nil }
            return (end, end + 2, plain)
        }
        guard let numberLine = line(at: from), Self.number(bytes, from..<numberLine.end) == number,
            let timingLine = line(at: numberLine.next), timingLine.end - numberLine.next == 29,
            let timing = SubRipTimingLine.standardForm(
                UnsafeRawBufferPointer(rebasing: bytes[numberLine.next..<timingLine.end]).assumingMemoryBound(to: UInt8.self)),
            timing.end > timing.start
        else { return nil }
        wholeBlockLines.removeAll(keepingCapacity: true)
        var offset = timingLine.next
        var textLength = -1
        while true {
            guard let textLine = line(at: offset) else { return nil }
            if textLine.end == offset {
                offset = textLine.next
                break
            }
            let range = offset..<textLine.end
            textLength += 1 + range.count
            guard range.count <= options.limits.maximumLineLength, textLength <= options.limits.maximumCueTextLength,
                isOrdinaryText(UnsafeRawBufferPointer(rebasing: bytes[range]), plain: textLine.plain)
            else { return nil }
            wholeBlockLines.append(range)
            offset = textLine.next
        }
        // The next number, and a line after it that is read without a diagnostic.
        guard !wholeBlockLines.isEmpty, let nextNumber = line(at: offset), Self.number(bytes, offset..<nextNumber.end) == number + 1 else {
            return nil
        }
        let (afterEnd, afterPlain) = ByteScanning.lineEnd(in: bytes, from: nextNumber.next, to: count)
        guard afterEnd < count, afterEnd - nextNumber.next <= options.limits.maximumLineLength,
            afterPlain || UTF8Repair.isClean(UnsafeRawBufferPointer(rebasing: bytes[nextNumber.next..<afterEnd]))
        else { return nil }
        return WholeBlock(numberBytes: from..<numberLine.end, number: number, start: timing.start, end: timing.end, blockEnd: offset)
    }

    /// True when the line-by-line path appends `line` to a cue's text as it is, with no diagnostic:
    /// clean UTF-8 without a byte order mark, not blank, not a sequence number, no `-->` (which a
    /// timing line or a broken one holds), no ASS line break (`\N`, `\n`).
    private func isOrdinaryText(_ line: UnsafeRawBufferPointer, plain: Bool) -> Bool {
        guard let first = line.first, !Self.isBlankByte(first) else { return false }
        if !plain {
            guard UTF8Repair.isClean(line), !(line.count >= 3 && first == 0xEF && line[1] == 0xBB && line[2] == 0xBF) else { return false }
        }
        if SubRipTimingLine.isDigit(first) {
            var end = line.count
            while end > 0, Self.isBlankByte(line[end - 1]) { end -= 1 }
            if end <= 9, Self.number(line, 0..<end) != nil { return false }
        }
        var index = 0
        while true {
            index = ByteScanning.firstIndex(of: UInt8(ascii: ">"), in: line, from: index, to: line.count)
            guard index < line.count else { break }
            if index >= 2, line[index - 1] == UInt8(ascii: "-"), line[index - 2] == UInt8(ascii: "-") { return false }
            index += 1
        }
        index = 0
        while true {
            index = ByteScanning.firstIndex(of: UInt8(ascii: "\\"), in: line, from: index, to: line.count)
            guard index + 1 < line.count else { break }
            if line[index + 1] == UInt8(ascii: "N") || line[index + 1] == UInt8(ascii: "n") { return false }
            index += 1
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
