import CueKit

/// Reads Scenarist SCC files on bytes, streaming, through a CEA-608 decoder
/// (``CEA608Decoder``): a cue out each time the displayed caption changes, memory fixed whatever
/// the file's size.
///
/// - **File.** The header line `Scenarist_SCC V1.0`, then lines of a timecode and
///   words of four hexadecimal digits, one byte pair each, separated by spaces or tabs; blank lines between.
/// - **Time.** A line's timecode is the frame of its first pair, each later pair the next frame,
///   doubled control codes and padding included (one pair a frame is what line 21 carries). The
///   timecode counts frames at ``Options/frameRate`` (29.97 unless set): `hh:mm:ss;ff` is
///   drop-frame (frame labels 0 and 1 skipped each minute but every tenth), `hh:mm:ss:ff` counts
///   every frame, and a frame's time is its number over the rate. A line that starts before the
///   previous line's pairs are all sent starts after them (reported).
/// - **Bytes.** Each byte has odd parity in its top bit (CEA-608-E section 4.1); a byte with even
///   parity is reported by line and word and dropped, as a decoder drops it.
/// - **Cues.** Each change of the displayed memory of the decoded channel ends the cues shown and
///   starts new ones, one per run of adjacent rows (``CEA608Rendering``): a pop-on caption is one
///   cue from its EOC to the next EDM or EOC; roll-up and paint-on show each pair's text from
///   its frame, as a decoder paints it.
///
/// Locations in diagnostics are line and column, from 1, of the word.
public struct SCCReader: TrackReader, Sendable {
    /// The options read with.
    public let options: Options

    enum State { case header, lineStart, timecode, words, skipLine }

    var state = State.header
    var line = 1
    var column = 0
    var token: [UInt8] = []
    var tokenColumn = 0
    var wordValue = 0
    var wordDigits = 0
    var wordInvalid = false
    var wordIndex = 0
    var lineFrame = 0
    var lineStartFrame = -1
    /// The frame after the last pair received.
    var nextFrame = 0
    var decoder: CEA608Decoder
    let rate: SCCFrameRate
    var finished = false
    var headerSent = false
    /// True in a prescan: the colours are looked for, nothing handed out.
    var prescanning = false

    /// The blocks shown, since `shownSince`.
    var shown: [CEA608Rendering.Block] = []
    var shownSince = 0
    var colorsUsed: UInt8 = 0
    var colorsDefined: UInt8 = 0
    var loadedLine = 0
    var reportedUnsupported: UInt8 = 0
    var dropFrameReported = false
    var limiter: DiagnosticLimiter

    /// Creates a reader.
    public init(options: Options = Options()) {
        self.options = options
        rate = options.frameRate ?? .ntsc
        decoder = CEA608Decoder(dataChannel: options.channel.dataChannel)
        limiter = DiagnosticLimiter(limit: options.limits.maximumDiagnosticsPerCode)
    }

    /// Takes the next bytes of input, in chunks of any size.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, to handler: (TrackEvent) throws -> Void) throws {
        precondition(!finished, "SCCReader fed after finish")
        for byte in chunk {
            column += 1
            if byte == 0x0A {
                try endLine(handler)
                line += 1
                column = 0
                continue
            }
            let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0D
            switch state {
            case .header:
                if token.count < 64 { token.append(byte) }
            case .lineStart:
                guard !isSpace else { continue }
                token.removeAll(keepingCapacity: true)
                token.append(byte)
                tokenColumn = column
                state = .timecode
            case .timecode:
                if isSpace {
                    try startWords(handler)
                } else if token.count < 32 {
                    token.append(byte)
                }
            case .words:
                if isSpace {
                    try endWord(handler)
                } else {
                    if wordDigits == 0 { tokenColumn = column }
                    wordDigits += 1
                    let digit = Self.hexValue(byte)
                    if digit < 0 { wordInvalid = true }
                    wordValue = (wordValue << 4 | max(digit, 0)) & 0xFFFF
                }
            case .skipLine:
                break
            }
        }
    }

    /// Marks the end of input.
    public mutating func finish(to handler: (TrackEvent) throws -> Void) throws {
        guard !finished else { return }
        finished = true
        try endLine(handler)
        guard headerSent || prescanning else {
            throw ReadError(.sccNotSCC, at: .start, "not an SCC file: the file is empty, and its first line must be '\(SCC.header)'")
        }
        guard !prescanning else { return }
        if !shown.isEmpty {
            try report(
                .note, .sccShownAtEnd, line: line, column: 1,
                "a caption is still displayed at the end of the file (no EDM erases it): it ends ten seconds after it was last changed",
                handler)
            let start = rate.milliseconds(ofFrame: shownSince)
            try emit(shown, from: start, to: start + 10_000, handler)
            shown = []
        }
        if decoder.isLoading, !decoder.nonDisplayed.isEmpty {
            try report(
                .warning, .sccNeverShown, line: loadedLine, column: 1,
                "a pop-on caption loaded from this line is never displayed (no End of Caption follows it): it is left out", handler)
        }
        try reportChannels(handler)
        for note in limiter.notes(code: .sccDiagnosticsLimited) { try handler(.diagnostic(note)) }
    }

    // MARK: Lines and words

    mutating func endLine(_ handler: (TrackEvent) throws -> Void) throws {
        switch state {
        case .header:
            try readHeader(handler)
            state = .lineStart
            return
        case .timecode:
            try startWords(handler)
        case .words:
            try endWord(handler)
        case .lineStart, .skipLine:
            break
        }
        state = .lineStart
    }

    mutating func readHeader(_ handler: (TrackEvent) throws -> Void) throws {
        var text = token[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        while let last = text.last, last == 0x20 || last == 0x09 || last == 0x0D { text = text.dropLast() }
        guard text.elementsEqual(SCC.header.utf8) else {
            let shownText = String(decoding: text.prefix(40).map { $0 < 0x20 || $0 > 0x7E ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
            throw ReadError(.sccNotSCC, at: .start, "not an SCC file: the first line is '\(shownText)', not '\(SCC.header)'")
        }
        token.removeAll(keepingCapacity: true)
        guard !prescanning else {
            headerSent = true
            return
        }
        try sendHeader(handler)
    }

    mutating func sendHeader(_ handler: (TrackEvent) throws -> Void) throws {
        guard !headerSent else { return }
        headerSent = true
        try handler(.header(""))
        if colorsUsed != 0 { try defineColors(colorsUsed, handler) }
    }

    /// Reads the line's timecode; its words follow.
    mutating func startWords(_ handler: (TrackEvent) throws -> Void) throws {
        guard let frame = try timecodeFrame(handler) else {
            state = .skipLine
            return
        }
        if frame < nextFrame {
            if frame < lineStartFrame {
                try report(
                    .warning, .sccTimeBackwards, line: line, column: tokenColumn,
                    "this line's timecode is earlier than the previous line's: its pairs are received after the previous line's, from \(CueTimestamp.format(rate.milliseconds(ofFrame: nextFrame)))",
                    handler)
            } else {
                try report(
                    .note, .sccTimeBackwards, line: line, column: tokenColumn,
                    "this line starts before the previous line's \(nextFrame - lineStartFrame) pairs are all received (one a frame): its pairs follow them, from \(CueTimestamp.format(rate.milliseconds(ofFrame: nextFrame)))",
                    handler)
            }
        }
        lineStartFrame = frame
        lineFrame = max(frame, nextFrame)
        wordIndex = 0
        wordValue = 0
        wordDigits = 0
        wordInvalid = false
        state = .words
    }

    /// The frame number of the timecode in `token`; nil (reported) when it cannot be read.
    mutating func timecodeFrame(_ handler: (TrackEvent) throws -> Void) throws -> Int? {
        var fields = [0, 0, 0, 0]
        var field = 0
        var digits = 0
        var dropFrame = false
        var valid = true
        for byte in token {
            if byte >= 0x30, byte <= 0x39 {
                digits += 1
                valid = valid && digits <= 2
                // A field of more digits is refused below; its value is not counted (it could overflow).
                if valid { fields[field] = fields[field] * 10 + Int(byte - 0x30) }
            } else if byte == UInt8(ascii: ":") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") {
                valid = valid && digits > 0 && field < 3
                guard valid else { break }
                if field == 2 { dropFrame = byte != UInt8(ascii: ":") }
                field += 1
                digits = 0
            } else {
                valid = false
            }
        }
        let base = rate.timecodeBase
        let text = String(decoding: token.map { $0 < 0x20 || $0 > 0x7E ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
        guard valid, field == 3, digits > 0 else {
            try report(
                .error, .sccBadTimecode, line: line, column: tokenColumn,
                "'\(text)' is not a timecode hh:mm:ss:ff or hh:mm:ss;ff: the line is skipped", handler)
            return nil
        }
        if fields[1] >= 60 || fields[2] >= 60 || fields[3] >= base {
            // Readable all the same: the fields are counted on, as every reader counts them.
            try report(
                .warning, .sccBadTimecode, line: line, column: tokenColumn,
                "'\(text)' has minutes or seconds over 59, or frames over \(base - 1): counted on (frame \(fields[3]) is \(fields[3] / base) s and \(fields[3] % base) frames)",
                handler)
        }
        var frame = ((fields[0] * 60 + fields[1]) * 60 + fields[2]) * base + fields[3]
        if dropFrame {
            if rate.allowsDropFrame {
                let minutes = fields[0] * 60 + fields[1]
                frame -= 2 * (minutes - minutes / 10)
            } else if !dropFrameReported {
                dropFrameReported = true
                try report(
                    .warning, .sccBadTimecode, line: line, column: tokenColumn,
                    "a drop-frame timecode (;) at \(rate.rawValue) frames a second, where no frame is dropped: read as non-drop (reported once)",
                    handler)
            }
        }
        return frame
    }

    mutating func endWord(_ handler: (TrackEvent) throws -> Void) throws {
        guard wordDigits > 0 else { return }
        defer {
            wordValue = 0
            wordDigits = 0
            wordInvalid = false
            wordIndex += 1
        }
        guard wordDigits == 4, !wordInvalid else {
            try report(
                .error, .sccBadWord, line: line, column: tokenColumn,
                "word \(wordIndex + 1) is not four hexadecimal digits: it is skipped (and takes no frame)", handler)
            wordIndex -= 1
            return
        }
        try receive(UInt8(wordValue >> 8), UInt8(wordValue & 0xFF), handler)
    }

    static func hexValue(_ byte: UInt8) -> Int {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x37)
        case 0x61...0x66: Int(byte - 0x57)
        default: -1
        }
    }
}
