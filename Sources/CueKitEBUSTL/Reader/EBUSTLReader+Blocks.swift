import CueKit

// TTI blocks: joined into subtitles, timed, placed, and their text converted.

extension EBUSTLReader {
    mutating func process(block: UnsafeRawBufferPointer, _ handler: (TrackEvent) throws -> Void) throws {
        blockNumber += 1
        guard let gsi else { return }
        if !excessReported, let declared = gsi.declaredBlocks, blockNumber > declared {
            excessReported = true
            try report(
                .warning, .stlMoreBlocksThanDeclared, block: blockNumber, byte: 1,
                "the GSI declares \(declared) TTI blocks (TNB); the file holds more, and they are read to its end", handler)
        }
        let number = Int(block[1]) | Int(block[2]) << 8
        let extensionNumber = block[3]
        // User data and reserved blocks (EBN 0xF0 to 0xFE) hold no subtitle.
        if extensionNumber >= 0xF0, extensionNumber != 0xFF { return }
        if block[15] == 0x01 {
            if !commentReported {
                commentReported = true
                try report(.note, .stlComment, block: blockNumber, byte: 16, "comment blocks (CF 1) are not shown; they are skipped", handler)
            }
            return
        }
        if textBlocks > 0, number != textNumber {
            try report(
                .warning, .stlExtension, block: blockNumber, byte: 2,
                "subtitle \(textNumber) continued in extension blocks is followed by subtitle \(number) before its last block (EBN 0xFF); its text so far is left out",
                handler)
            clearText()
        }
        if textBlocks < options.limits.maximumExtensionBlocks {
            appendText(of: block)
        } else if !textCut {
            textCut = true
            try report(
                .error, .stlExtension, block: blockNumber, byte: 4,
                "subtitle \(number) continues in more than \(options.limits.maximumExtensionBlocks) blocks (Options.Limits.maximumExtensionBlocks); the rest of its text is left out",
                handler)
        }
        textBlocks += 1
        textNumber = number
        guard extensionNumber == 0xFF else { return }
        defer { clearText() }
        if prescanning {
            for byte in text where byte < 0x07 { colorsUsed |= 1 << byte }
            return
        }
        guard let timeIn = timecode(block, at: 5, gsi), let timeOut = timecode(block, at: 9, gsi) else {
            try report(
                .error, .stlBadTimecode, block: blockNumber, byte: timecode(block, at: 5, gsi) == nil ? 6 : 10,
                "subtitle \(number) has a timecode that cannot be read (minutes or seconds over 59, or frames over \(gsi.frameRate - 1)); it is skipped",
                handler)
            return
        }
        let offset = options.keepTimeCodeOfProgramme ? 0 : gsi.startOfProgramme
        let start = timeIn - offset
        let end = timeOut - offset
        if start < 0 {
            try report(
                .warning, .stlBeforeProgramme, block: blockNumber, byte: 6,
                "subtitle \(number) starts (\(CueTimestamp.format(timeIn))) before the programme (TCP \(CueTimestamp.format(gsi.startOfProgramme))); it is skipped (read with --keep-tcp to keep the timecodes)",
                handler)
            return
        }
        if end <= start {
            try report(
                .error, .stlEndBeforeStart, block: blockNumber, byte: 10,
                "subtitle \(number) ends (\(CueTimestamp.format(end))) \(end == start ? "when" : "before") it starts (\(CueTimestamp.format(start))); it is skipped",
                handler)
            return
        }
        markup.removeAll(keepingCapacity: true)
        let result = text.withUnsafeBufferPointer {
            converter.convert($0, table: gsi.characterTable, isTeletext: gsi.isTeletext, into: &markup)
        }
        if result.unsupported & ~reportedUnsupported != 0 {
            for kind in EBUSTLTextField.Unsupported.allCases where result.unsupported & (1 << kind.rawValue) != 0 {
                guard reportedUnsupported & (1 << kind.rawValue) == 0 else { continue }
                reportedUnsupported |= 1 << kind.rawValue
                try report(.note, .stlUnsupported, block: blockNumber, byte: 17, kind.description + " (reported once)", handler)
            }
        }
        if result.unknownCharacters > 0 {
            try report(
                .warning, .stlUnknownCharacter, block: blockNumber, byte: 17 + result.firstUnknownOffset % 112,
                "\(result.unknownCharacters) byte(s) of subtitle \(number)'s text have no character in table \(gsi.characterTable.rawValue); read as U+FFFD",
                handler)
        }
        guard !result.isEmpty else { return }
        if result.colors != 0 { try defineColors(result.colors, handler) }
        var settings = CueSettings()
        let rows = gsi.rows
        let row = min(max(Int(block[13]), 1), rows)
        settings.line = .percentage((1000 + Double(row - 1) / Double(rows) * 8000).rounded() / 100)
        switch block[14] {
        case 0x01: settings.alignment = .left
        case 0x03: settings.alignment = .right
        default: break
        }
        cueCount += 1
        try show(Cue(start: start, end: end, settings: settings, text: String(decoding: markup, as: UTF8.self)), adding: block[4] >= 0x02, number, handler)
    }

    /// Puts a subtitle on screen. A subtitle that is not added to a cumulative set (CS 0 or 1)
    /// replaces what is on screen, as a teletext decoder replaces the page: a cue still shown when
    /// it starts ends then. The cues on screen are held until the next one replaces them.
    mutating func show(_ cue: Cue, adding: Bool, _ number: Int, _ handler: (TrackEvent) throws -> Void) throws {
        if !adding {
            for index in onScreen.indices where onScreen[index].start < cue.start && cue.start < onScreen[index].end {
                if !replacedReported {
                    replacedReported = true
                    try report(
                        .note, .stlReplaced, block: blockNumber, byte: 6,
                        "subtitle \(number) starts while an earlier one is shown: it replaces it, as a teletext decoder replaces the page (reported once)",
                        handler)
                }
                onScreen[index].end = cue.start
            }
            try releaseScreen(handler)
        } else if onScreen.count >= Self.maximumCumulativeCues {
            try handler(.cue(onScreen.removeFirst()))
        }
        onScreen.append(cue)
    }

    /// Hands out the cues on screen.
    mutating func releaseScreen(_ handler: (TrackEvent) throws -> Void) throws {
        for cue in onScreen { try handler(.cue(cue)) }
        onScreen.removeAll(keepingCapacity: true)
    }

    /// The most cues of one cumulative set held on screen.
    static let maximumCumulativeCues = 64

    /// A block's text field, up to its 0x8F filler, added to the subtitle's text.
    mutating func appendText(of block: UnsafeRawBufferPointer) {
        var index = 16
        while index < EBUSTL.ttiBlockSize, block[index] == 0x8F { index += 1 }
        var end = index
        while end < EBUSTL.ttiBlockSize, block[end] != 0x8F { end += 1 }
        text.append(contentsOf: block[index..<end])
    }

    mutating func clearText() {
        text.removeAll(keepingCapacity: true)
        textBlocks = 0
        textCut = false
    }

    /// The milliseconds of the binary timecode at `offset` (hours, minutes, seconds, frames); nil
    /// when a field is out of range.
    func timecode(_ block: UnsafeRawBufferPointer, at offset: Int, _ gsi: EBUSTLGeneralSubtitleInformation) -> Int? {
        let hours = Int(block[offset])
        let minutes = Int(block[offset + 1])
        let seconds = Int(block[offset + 2])
        let frames = Int(block[offset + 3])
        guard hours < 100, minutes < 60, seconds < 60, frames < gsi.frameRate else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + (frames * 1000 + gsi.frameRate / 2) / gsi.frameRate
    }
}
