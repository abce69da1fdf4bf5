import CueKit

/// Writes a track as Scenarist SCC pop-on captions on CC1, streaming: each cue a caption loaded
/// into non-displayed memory and shown by its EOC at the cue's start frame, erased (EDM) at its
/// end frame unless the next caption replaces it first.
///
/// - **Text.** The cue text without markup, each line wrapped at 32 columns; at most
///   ``Options/maximumRows`` rows (the rest left out, reported). Characters 608 lacks become their
///   608 equivalents (`’` as `'`, `–` as `-`) or are left out, reported; extended characters are
///   sent after their basic fallback, as CEA-608-E asks.
/// - **Place.** `line` gives the rows (a percentage of the 80% safe area, a line number, or the
///   bottom when auto), `position` and `align` the column of each row: a PAC's indent (a multiple
///   of four) and a tab offset for the rest.
/// - **Time.** A caption's bytes take a frame a pair, so they are sent from the frame that puts
///   its EOC at the cue's start. A caption whose bytes cannot be sent before its start (they
///   would overlap the previous caption's) is sent as soon as they can, and reported with the
///   time it shows at (`scc-late-caption`); it is never moved silently.
/// - **Timecodes.** Drop-frame at 29.97 (``Options/frameRate`` `.ntsc`), non-drop at any other rate
///   or when ``Options/dropFrame`` is false.
public struct SCCWriter<Sink: ByteSink>: TrackWriter {
    /// How the writer writes.
    public typealias Options = SCCWriterOptions

    /// A caption made from a cue: its pairs up to and including its EOC, and its frames.
    struct Caption {
        var pairs: [UInt16]
        var startFrame: Int
        var endFrame: Int
        var start: Int
        /// A frame at which the previous caption is erased while this one loads.
        var eraseAt: Int?
    }

    public let options: Options
    public private(set) var sink: Sink
    public private(set) var diagnostics: [Diagnostic] = []
    var pending: Caption?
    /// The first frame after the pairs written.
    var nextFree = 0
    var headerWritten = false
    var reportedCharacters: Set<Unicode.Scalar> = []
    var line: [UInt8] = []

    /// A writer to `sink`.
    public init(to sink: Sink, options: Options = Options()) {
        self.sink = sink
        self.options = options
    }

    public mutating func write(_ event: TrackEvent) throws {
        switch event {
        case .header: try writeHeader()
        case .cue(let cue): try add(cue)
        case .region, .stylesheet, .note, .diagnostic: break
        }
    }

    public mutating func finish() throws {
        try writeHeader()
        if var last = pending {
            pending = nil
            try flush(&last, next: nil)
        }
        try sink.flush()
    }

    mutating func writeHeader() throws {
        guard !headerWritten else { return }
        headerWritten = true
        try sink.write(Array((SCC.header + "\n\n").utf8))
    }

    mutating func add(_ cue: Cue) throws {
        try writeHeader()
        let rate = options.frameRate
        let startFrame = rate.frame(atOrAfter: cue.start)
        let endFrame = max(rate.frame(atOrAfter: cue.end), startFrame + 1)
        let pairs = captionPairs(cue)
        guard !pairs.isEmpty else { return }
        var caption = Caption(pairs: pairs, startFrame: startFrame, endFrame: endFrame, start: cue.start)
        if var previous = pending {
            try flush(&previous, next: &caption)
        }
        pending = caption
    }

    /// Writes `caption`'s pairs, and its erasure unless `next` replaces it first (or carries the
    /// erasure in its own pairs, when it must load while `caption` is shown).
    mutating func flush(_ caption: inout Caption, next: UnsafeMutablePointer<Caption>?) throws {
        try writeLoad(caption)
        let eoc = nextFree - 2
        let end = max(caption.endFrame, eoc + 1)
        guard let next else {
            try writeLine(at: max(end, nextFree), [Self.edm, Self.edm])
            return
        }
        if next.pointee.startFrame <= end { return }  // Its EOC replaces this caption.
        let nextLoad = next.pointee.startFrame - (next.pointee.pairs.count - 2)
        if end + 2 <= nextLoad || end + 2 <= nextFree {
            try writeLine(at: max(end, nextFree), [Self.edm, Self.edm])
        } else {
            next.pointee.eraseAt = end
        }
    }

    mutating func flush(_ caption: inout Caption, next: inout Caption) throws {
        try withUnsafeMutablePointer(to: &next) { try flush(&caption, next: $0) }
    }

    /// The caption's pairs from the frame that puts its EOC at its start, or as soon as the
    /// pairs before it allow (reported).
    mutating func writeLoad(_ caption: Caption) throws {
        var pairs = caption.pairs
        var eocIndex = pairs.count - 2
        var wanted = caption.startFrame - eocIndex
        if let erase = caption.eraseAt {
            wanted -= 2
            eocIndex += 2
            let index = min(max(0, erase - max(wanted, nextFree)), pairs.count - 2)
            pairs.insert(contentsOf: [Self.edm, Self.edm], at: index)
        }
        let frame = max(wanted, nextFree, 0)
        if frame > wanted {
            let shown = options.frameRate.milliseconds(ofFrame: frame + eocIndex)
            diagnostics.append(
                Diagnostic(
                    .warning, .sccLateCaption, at: nil,
                    "the caption at \(CueTimestamp.format(caption.start)) needs \(eocIndex) frames to load after the one before it: it shows at \(CueTimestamp.format(shown))"
                ))
        }
        try writeLine(at: frame, pairs)
    }

    mutating func writeLine(at frame: Int, _ pairs: [UInt16]) throws {
        line.removeAll(keepingCapacity: true)
        appendTimecode(frame)
        line.append(0x09)
        let digits = Array("0123456789abcdef".utf8)
        for (index, pair) in pairs.enumerated() {
            if index > 0 { line.append(0x20) }
            for shift in [12, 8, 4, 0] { line.append(digits[Int(pair >> UInt16(shift)) & 15]) }
        }
        line.append(contentsOf: [0x0A, 0x0A])
        try sink.write(line)
        nextFree = frame + pairs.count
    }

    /// `hh:mm:ss;ff` (drop-frame) or `hh:mm:ss:ff`.
    mutating func appendTimecode(_ frame: Int) {
        let rate = options.frameRate
        var label = frame
        let dropFrame = options.dropFrame && rate.allowsDropFrame
        if dropFrame {
            let tens = frame / 17982
            let rest = frame % 17982
            label += 18 * tens + (rest > 1 ? 2 * ((rest - 2) / 1798) : 0)
        }
        let base = rate.timecodeBase
        let seconds = label / base
        let fields = [seconds / 3600 % 100, seconds / 60 % 60, seconds % 60, label % base]
        for (index, value) in fields.enumerated() {
            if index > 0 { line.append(index == 3 && dropFrame ? UInt8(ascii: ";") : UInt8(ascii: ":")) }
            line.append(UInt8(ascii: "0") + UInt8(value / 10))
            line.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
    }

    static var edm: UInt16 { SCCCaptionLayout.edm }

    /// The caption's pairs (ENM, RCL, each row's PAC, tab offset and text, EOC), its problems
    /// reported.
    mutating func captionPairs(_ cue: Cue) -> [UInt16] {
        var layout = SCCCaptionLayout(maximumRows: options.maximumRows)
        let pairs = layout.pairs(for: cue)
        for scalar in layout.missing where reportedCharacters.insert(scalar).inserted && reportedCharacters.count <= 100 {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            diagnostics.append(
                Diagnostic(
                    .warning, .sccNotWritten, at: nil,
                    "U+\(hex) (\(Character(scalar))) has no CEA-608 character or equivalent: it is left out (reported once)"))
        }
        if layout.droppedRows > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning, .sccNotWritten, at: nil,
                    "the cue at \(CueTimestamp.format(cue.start)) takes \(layout.droppedRows + options.maximumRows) rows of 32 columns: the last \(layout.droppedRows) are left out (at most \(options.maximumRows))"
                ))
        }
        return pairs
    }
}

/// How ``SCCWriter`` writes.
public struct SCCWriterOptions: Sendable, Hashable {
    /// The rate of the timecodes written (29.97 unless set).
    public var frameRate: SCCFrameRate
    /// Drop-frame timecodes (`hh:mm:ss;ff`) at 29.97; at other rates timecodes are non-drop.
    public var dropFrame: Bool
    /// The most rows of one caption (4, as 608 captioning practice has it).
    public var maximumRows: Int

    /// Options; the defaults are broadcast's.
    public init(frameRate: SCCFrameRate = .ntsc, dropFrame: Bool = true, maximumRows: Int = 4) {
        self.frameRate = frameRate
        self.dropFrame = dropFrame
        self.maximumRows = min(max(1, maximumRows), SCC.rows)
    }
}

extension DiagnosticCode {
    /// A caption whose bytes cannot all be sent before its start time (one pair a frame, after the
    /// previous caption's): it shows later, at the time the message gives.
    public static let sccLateCaption: DiagnosticCode = "scc-late-caption"
    /// Text the writer cannot send: a character CEA-608 has no equivalent for, or rows past
    /// ``SCCWriter/Options/maximumRows``.
    public static let sccNotWritten: DiagnosticCode = "scc-not-written"
}
