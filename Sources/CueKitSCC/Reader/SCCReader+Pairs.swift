import CueKit

// Byte pairs: parity checked, decoded, and the displayed memory's changes made cues.

extension SCCReader {
    /// Takes the pair of the current word, at its frame.
    mutating func receive(_ first: UInt8, _ second: UInt8, _ handler: (TrackEvent) throws -> Void) throws {
        let frame = lineFrame + wordIndex
        nextFrame = frame + 1
        let firstValid = Self.hasOddParity(first)
        let secondValid = Self.hasOddParity(second)
        if !firstValid || !secondValid {
            let which = !firstValid && !secondValid ? "both bytes" : !firstValid ? "the first byte" : "the second byte"
            try report(
                .warning, .sccParity, line: line, column: tokenColumn,
                "word \(wordIndex + 1) (\(Self.hex(first, second))): \(which) have even parity (CEA-608-E asks for odd): dropped, as a decoder drops them",
                handler)
        }
        let wasLoading = decoder.isLoading
        let effect = decoder.receive(firstValid ? first & 0x7F : nil, secondValid ? second & 0x7F : nil)
        if !wasLoading, decoder.isLoading { loadedLine = line }
        guard !prescanning else { return }
        if effect.displayChanged { try displayChanged(at: frame, handler) }
        if effect != CEA608Decoder.Effect(displayChanged: effect.displayChanged) { try reportEffect(effect, first, second, handler) }
    }

    /// Ends the cues shown and starts the displayed memory's, at `frame`.
    mutating func displayChanged(at frame: Int, _ handler: (TrackEvent) throws -> Void) throws {
        var colors: UInt8 = 0
        let blocks = CEA608Rendering.blocks(of: decoder.displayed, colors: &colors)
        guard blocks != shown else { return }
        if colors & ~colorsDefined != 0 { try defineColors(colors, handler) }
        if !shown.isEmpty, frame > shownSince {
            try emit(shown, from: rate.milliseconds(ofFrame: shownSince), to: rate.milliseconds(ofFrame: frame), handler)
        }
        shown = blocks
        shownSince = frame
    }

    mutating func emit(_ blocks: [CEA608Rendering.Block], from start: Int, to end: Int, _ handler: (TrackEvent) throws -> Void) throws {
        guard end > start else { return }
        try sendHeader(handler)
        for block in blocks { try handler(.cue(Cue(start: start, end: end, settings: block.settings, text: block.text))) }
    }

    mutating func reportEffect(_ effect: CEA608Decoder.Effect, _ first: UInt8, _ second: UInt8, _ handler: (TrackEvent) throws -> Void)
        throws
    {
        if effect.droppedPastLastColumn {
            try report(
                .warning, .sccPastLastColumn, line: line, column: tokenColumn,
                "word \(wordIndex + 1) (\(Self.hex(first, second))) writes past column 32 of the caption grid: dropped, as a decoder drops it",
                handler)
        }
        if effect.unknownCode {
            try report(
                .warning, .sccUnknownCode, line: line, column: tokenColumn,
                "word \(wordIndex + 1) (\(Self.hex(first, second))) is no CEA-608 code: ignored", handler)
        }
        let fresh = effect.unsupported & ~reportedUnsupported
        guard fresh != 0 else { return }
        reportedUnsupported |= fresh
        for kind in CEA608Decoder.Unsupported.allCases where fresh & (1 << kind.rawValue) != 0 {
            try report(.note, .sccUnsupported, line: line, column: tokenColumn, kind.description + " (reported once)", handler)
        }
    }

    /// Hands out the rules of the colour classes in `colors` not handed out yet.
    mutating func defineColors(_ colors: UInt8, _ handler: (TrackEvent) throws -> Void) throws {
        let fresh = colors & ~colorsDefined
        guard fresh != 0, !prescanning else { return }
        try sendHeader(handler)
        colorsDefined |= fresh
        var rules: [CueStyleRule] = []
        for code in 1..<7 where fresh & (1 << code) != 0 {
            rules.append(CueStyleRule(.classes([CEA608Style.colorClasses[code]]), [.init("color", CEA608Style.colorValues[code])]))
        }
        try handler(.stylesheet(CueStylesheet(rules: rules)))
    }

    /// Says which channels carry captions, when it is not the decoded one alone.
    mutating func reportChannels(_ handler: (TrackEvent) throws -> Void) throws {
        let seen = decoder.channelsSeen
        let decoded: UInt8 = 1 << (options.channel.dataChannel - 1)
        guard seen != decoded else { return }
        let field2 = options.channel == .cc3 || options.channel == .cc4
        let names = (0..<2).filter { seen & (1 << $0) != 0 }.map { field2 ? "CC\($0 + 3)" : "CC\($0 + 1)" }
        if seen & decoded == 0 {
            let carried = names.isEmpty ? "no caption channel" : names.joined(separator: ", ")
            try report(
                .warning, .sccChannels, line: 1, column: 1,
                "\(options.channel.rawValue) carries no captions; the file carries \(carried) (--channel picks one)", handler)
        } else {
            try report(
                .note, .sccChannels, line: 1, column: 1,
                "the file carries captions on \(names.joined(separator: ", ")); \(options.channel.rawValue) is read (--channel picks another)",
                handler)
        }
    }

    mutating func report(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, line: Int, column: Int, _ message: String,
        _ handler: (TrackEvent) throws -> Void
    ) throws {
        guard !prescanning, limiter.admit(code) else { return }
        try sendHeader(handler)
        try handler(.diagnostic(Diagnostic(severity, code, at: SourceLocation(line: line, column: column), message)))
    }

    static func hasOddParity(_ byte: UInt8) -> Bool { byte.nonzeroBitCount & 1 == 1 }

    static func hex(_ first: UInt8, _ second: UInt8) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(
            decoding: [digits[Int(first >> 4)], digits[Int(first & 15)], digits[Int(second >> 4)], digits[Int(second & 15)]], as: UTF8.self)
    }
}
