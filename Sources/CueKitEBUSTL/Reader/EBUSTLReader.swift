import CueKit

/// Reads EBU-STL files (EBU Tech 3264) on bytes, streaming: a cue out as each subtitle's last TTI
/// block completes, with memory bounded by one subtitle whatever the file's size.
///
/// - **GSI.** The first 1,024 bytes (``EBUSTLGeneralSubtitleInformation``): the frame rate from the
///   disk format code (`STL25.01`, `STL30.01`, `STL50.01`), teletext or open subtitling, the
///   character code table, and the start of programme (TCP), subtracted from every time unless
///   ``Options/keepTimeCodeOfProgramme``. A file shorter than the GSI, or whose disk format code
///   is not `STLnn.01`, is not read (`stl-not-stl`).
/// - **TTI blocks.** 128 bytes each: subtitle number (SN), extension block number (EBN), cumulative
///   status (CS), TCI and TCO as binary hours, minutes, seconds and frames, vertical position (VP),
///   justification (JC), comment flag (CF), and 112 bytes of text (TF). Blocks with EBN 0x00–0xFE
///   continue in the next (their TF joined up to the 0x8F filler); EBN 0xFF ends a subtitle; user
///   data (EBN 0xF0–0xFD) and comments (CF 1) are skipped. Blocks are read to the end of the file,
///   past the count the GSI declares (reported), subtitle numbers wrapping as they will.
/// - **Cues.** Each subtitle is a cue from TCI to TCO (frames at the disk format code's rate),
///   its text as ``EBUSTLTextField`` reads it. A subtitle replaces the one on screen, as a teletext
///   decoder replaces the page: one still shown when the next starts ends then (reported once). A
///   cumulative set (CS 1–3) is one cue per block, each shown from its own TCI, as a decoder adds
///   them, until the next subtitle replaces the set. VP gives `line:` as a percentage of the
///   frame (rows inside a 10% safe margin at the top and bottom: 23 rows in teletext, MNR in open
///   subtitling), JC `align:` (1 left, 2 centre, 3 right; 0 keeps the centre).
///
/// Locations in diagnostics are block and byte: line 0 is the GSI block, line *n* the *n*-th TTI
/// block, and the column the byte in the block, from 1.
public struct EBUSTLReader: TrackReader, Sendable {
    /// The options read with.
    public let options: Options
    /// The GSI block, once read.
    public private(set) var gsi: EBUSTLGeneralSubtitleInformation?

    var headerBytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: EBUSTL.ttiBlockSize)
    var blockFill = 0
    var blockNumber = 0
    var finished = false
    var headerSent = false
    /// True in a prescan: only the colours are looked for.
    var prescanning = false

    // The subtitle being joined from extension blocks.
    var text: [UInt8] = []
    var textBlocks = 0
    var textNumber = 0
    var textCut = false

    /// The cues on screen: the last subtitle, or the cumulative set it belongs to.
    var onScreen: [Cue] = []
    var replacedReported = false
    var markup: [UInt8] = []
    var converter = EBUSTLTextField()
    var colorsDefined: UInt8 = 0
    var colorsUsed: UInt8 = 0
    var reportedUnsupported: UInt16 = 0
    var excessReported = false
    var commentReported = false
    var cueCount = 0
    var limiter: DiagnosticLimiter

    /// Creates a reader.
    public init(options: Options = Options()) {
        self.options = options
        limiter = DiagnosticLimiter(limit: options.limits.maximumDiagnosticsPerCode)
        headerBytes.reserveCapacity(EBUSTL.gsiBlockSize)
        text.reserveCapacity(4 * 112)
        markup.reserveCapacity(256)
    }

    /// Takes the next bytes of input, in chunks of any size.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, to handler: (TrackEvent) throws -> Void) throws {
        precondition(!finished, "EBUSTLReader fed after finish")
        var index = 0
        if gsi == nil {
            let needed = EBUSTL.gsiBlockSize - headerBytes.count
            headerBytes.append(contentsOf: chunk[0..<min(needed, chunk.count)])
            index = min(needed, chunk.count)
            guard headerBytes.count == EBUSTL.gsiBlockSize else { return }
            try readGSI(handler)
        }
        let count = chunk.count
        // Whole blocks straight from the chunk; a block cut by the chunk's end is copied.
        if blockFill > 0 {
            let take = min(EBUSTL.ttiBlockSize - blockFill, count - index)
            block.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: blockFill).copyMemory(from: chunk.baseAddress!.advanced(by: index), byteCount: take) }
            blockFill += take
            index += take
            guard blockFill == EBUSTL.ttiBlockSize else { return }
            blockFill = 0
            let copy = block
            try copy.withUnsafeBytes { try process(block: $0, handler) }
        }
        while count - index >= EBUSTL.ttiBlockSize {
            try process(block: UnsafeRawBufferPointer(rebasing: chunk[index..<(index + EBUSTL.ttiBlockSize)]), handler)
            index += EBUSTL.ttiBlockSize
        }
        if index < count {
            block.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: chunk.baseAddress!.advanced(by: index), byteCount: count - index) }
            blockFill = count - index
        }
    }

    /// Marks the end of input.
    public mutating func finish(to handler: (TrackEvent) throws -> Void) throws {
        guard !finished else { return }
        finished = true
        guard gsi != nil else {
            throw ReadError(
                .stlNotSTL, at: SourceLocation(line: 0, column: 1),
                "not an EBU-STL file: \(headerBytes.count) bytes, fewer than the 1,024 of a GSI block")
        }
        if blockFill > 0 {
            try report(
                .error, .stlTruncatedBlock, block: blockNumber + 1, byte: 1,
                "the file ends \(blockFill) bytes into a TTI block (of 128); that block is left out", handler)
        }
        if !text.isEmpty || textBlocks > 0 {
            try report(
                .warning, .stlExtension, block: blockNumber, byte: 4,
                "the file ends inside a subtitle continued in extension blocks; its text so far is left out", handler)
        }
        guard !prescanning else { return }
        try releaseScreen(handler)
        for note in limiter.notes(code: .stlDiagnosticsLimited) { try handler(.diagnostic(note)) }
    }

    mutating func readGSI(_ handler: (TrackEvent) throws -> Void) throws {
        var problems: [(offset: Int, message: String)] = []
        let read = headerBytes.withUnsafeBytes { EBUSTLGeneralSubtitleInformation($0, problems: &problems) }
        guard let read else {
            let code = String(decoding: headerBytes[3..<11].map { $0 < 0x20 || $0 > 0x7E ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
            throw ReadError(
                .stlNotSTL, at: SourceLocation(line: 0, column: 4),
                "not an EBU-STL file: the disk format code (bytes 4 to 11) is '\(code)', not STL25.01, STL30.01 or STL50.01")
        }
        gsi = read
        guard !prescanning else { return }
        try sendHeader(handler)
        for problem in problems {
            try report(.warning, .stlGSIField, block: 0, byte: problem.offset + 1, problem.message, handler)
        }
    }

    mutating func sendHeader(_ handler: (TrackEvent) throws -> Void) throws {
        guard !headerSent else { return }
        headerSent = true
        try handler(.header(""))
        if colorsUsed != 0 { try defineColors(colorsUsed, handler) }
    }

    /// Hands out the rules of the colour classes in `colors` not handed out yet.
    mutating func defineColors(_ colors: UInt8, _ handler: (TrackEvent) throws -> Void) throws {
        let fresh = colors & ~colorsDefined
        guard fresh != 0, !prescanning else { return }
        colorsDefined |= fresh
        var rules: [CueStyleRule] = []
        for code in 0..<8 where fresh & (1 << code) != 0 {
            rules.append(CueStyleRule(.classes([EBUSTLTextField.colorClasses[code]]), [.init("color", EBUSTLTextField.colorValues[code])]))
        }
        try handler(.stylesheet(CueStylesheet(rules: rules)))
    }

    mutating func report(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, block: Int, byte: Int, _ message: String,
        _ handler: (TrackEvent) throws -> Void
    ) throws {
        guard !prescanning, limiter.admit(code) else { return }
        try handler(.diagnostic(Diagnostic(severity, code, at: SourceLocation(line: block, column: byte), message)))
    }
}
