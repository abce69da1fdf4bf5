// CueKitSynthetic owns the deterministic synthetic tracks, in every format CueKit reads, that the
// benchmarks and `cuekit generate` use.

import CueKit

/// Writes a synthetic caption track, cue by cue, for benchmarking parsers (`cuekit generate`, the
/// benchmarks in `Benchmarks/`).
///
/// The same seed gives the same cues in every format (times, text, styling, placement), so that a
/// WebVTT, a SubRip and a TTML file of one seed hold the same track, and the same bytes on every
/// machine (see ``GeneratorRandom``). Nothing is built in memory beyond one cue: a file of a billion
/// bytes streams through the sink.
///
/// What a track holds, drawn per cue:
/// - times in increasing order, gaps of 0–1.5 s, durations of 0.8–6 s, and about 3% of cues
///   overlapping the one before (a second speaker);
/// - one line (about two cues in three) or two, in English, accented Latin, Chinese and Japanese,
///   Korean, Arabic or Hebrew, with emoji now and then;
/// - italics, bold, underline and colours on runs of words, a speaker on about a cue in five,
///   and occasionally a language span, ruby and (WebVTT only) an inner timestamp;
/// - non-default placement on about a cue in four (line, position, alignment, size, vertical,
///   regions); identifiers on about a cue in five (WebVTT);
/// - WebVTT: a header, a NOTE, REGION and STYLE blocks (left out with ``Options/styleAndRegionBlocks``),
///   and a NOTE every 250 cues or so; about 100 bytes per cue.
/// - SubRip: sequence numbers, `<i>`, `<b>`, `<u>`, `<font color>`, `{\an8}` for cues at the top.
/// - TTML: an IMSC 1.1 Text Profile document with styles, regions and agents.
/// - ASS: two styles, override tags for the styles and placement, `Comment:` lines for the notes.
/// - EBU-STL: teletext TTI blocks of double-height boxed lines, 80 ms apart (see
///   `writeEBUSTLCue()`), text outside ISO 6937 as `?`.
/// - SCC: pop-on captions ten frames apart, each the first 12 characters of a cue (see `writeSCCCue()`).
public struct TrackGenerator: Sendable {
    /// The formats generated.
    public enum Format: String, CaseIterable, Sendable {
        case webVTT = "vtt"
        case subRip = "srt"
        case ttml
        case ass
        case ebuSTL = "stl"
        case scc
    }

    /// Whether WebVTT output has STYLE and REGION blocks.
    public enum StyleAndRegionBlocks: Sendable {
        /// STYLE and REGION blocks, and cues placed in the regions.
        case included
        /// Neither (ffmpeg drops every cue after the first STYLE or REGION block).
        case omitted
    }

    /// What to generate.
    public struct Options: Sendable {
        /// How many cues.
        public var cues: Int
        /// The seed: the same seed gives the same track.
        public var seed: UInt64
        /// The format written.
        public var format: Format
        /// Whether WebVTT output has STYLE and REGION blocks.
        public var styleAndRegionBlocks: StyleAndRegionBlocks
        /// The kind of track (``Shape/supports(_:)`` says which formats it can be written in).
        public var shape: Shape

        /// Creates options.
        public init(cues: Int, seed: UInt64, format: Format, styleAndRegionBlocks: StyleAndRegionBlocks = .included, shape: Shape = .mixed) {
            precondition(shape.supports(format), "the \(shape.rawValue) shape cannot be written as \(format.rawValue)")
            self.cues = cues
            self.seed = seed
            self.format = format
            self.styleAndRegionBlocks = styleAndRegionBlocks
            self.shape = shape
        }
    }

    /// What is generated.
    public let options: Options

    // MARK: The drawn cue

    /// A run of a cue's content.
    enum Segment {
        /// Text: a range of the cue's text bytes.
        case text(Range<Int>, Style)
        /// A line break.
        case lineBreak
        /// Words in another language (index into ``GeneratorVocabulary/languages``).
        case language(Int)
        /// Ruby (index into ``GeneratorVocabulary/ruby``).
        case ruby(Int)
        /// An inner timestamp, in milliseconds.
        case timestamp(Int)
    }

    enum Style: Equatable {
        case plain, italic, bold, underline
        case color(Int)
    }

    /// Where a cue is placed, in each format's terms.
    enum Placement: Int, CaseIterable {
        case standard, top, topLeft, bottomLeft, bottomRight, middle, narrow, vertical, regionSpeaker, regionTop

        var webVTTSettings: String {
            switch self {
            case .standard: ""
            case .top: " line:0"
            case .topLeft: " line:10%,start position:10%,line-left align:left"
            case .bottomLeft: " position:10%,line-left align:left"
            case .bottomRight: " align:end"
            case .middle: " line:50%,center"
            case .narrow: " size:60% line:-2"
            case .vertical: " vertical:rl line:90% align:start"
            case .regionSpeaker: " region:speaker align:left"
            case .regionTop: " region:top"
            }
        }
    }

    struct Cue {
        var index = 0
        var start = 0
        var end = 0
        var hasID = false
        var speaker: Int?
        var placement = Placement.standard
        var text: [UInt8] = []
        var segments: [Segment] = []
        var timestamps = 0
        var note: Int?
        /// WebVTT settings drawn for this cue, in place of the placement's.
        var settings: String?
        /// Classes the whole text is wrapped in (`<c.yellow>`), and the voice's classes.
        var cueClass: String?
        var voiceClass: String?
        /// A recoverable problem written into the cue (the diagnostics shape), by number.
        var problem: Int?
        /// Timestamps written without hours where they are zero.
        var withoutHours = false
    }

    var random: GeneratorRandom
    var cue = Cue()
    var clock = 1_000
    /// The end of the last style-guide cue (``retimeForStyleGuide()``).
    var previousEnd = 0
    var output: [UInt8] = []
    /// Where the open timed `div` begins (the timed-divs shape).
    var divisionStart = 0
    /// Where the crlf shape makes its lines, from ``output``.
    var crlfOutput: [UInt8] = []
    /// An EBU-STL subtitle's text field, before it is cut into blocks.
    var stlText: [UInt8] = []

    /// A generator; nothing is drawn until ``write(to:)``.
    public init(options: Options) {
        self.options = options
        random = GeneratorRandom(seed: options.seed)
        output.reserveCapacity(4096)
        cue.text.reserveCapacity(256)
    }

    /// Writes the whole track to `sink` and flushes it.
    public mutating func write<Sink: ByteSink>(to sink: inout Sink) throws {
        output.removeAll(keepingCapacity: true)
        writeHeader()
        try flushOutput(to: &sink)
        for index in 0..<options.cues {
            drawCue(index)
            output.removeAll(keepingCapacity: true)
            switch options.format {
            case .webVTT: writeWebVTTCue()
            case .subRip: writeSubRipCue()
            case .ttml: writeTTMLCue()
            case .ass: writeASSCue()
            case .ebuSTL: writeEBUSTLCue()
            case .scc: writeSCCCue()
            }
            try flushOutput(to: &sink)
        }
        output.removeAll(keepingCapacity: true)
        if options.format == .ttml {
            append(options.shape == .timedDivs && options.cues == 0 ? "</body>\n</tt>\n" : "</div>\n</body>\n</tt>\n")
        }
        try flushOutput(to: &sink)
        try sink.flush()
    }

    // MARK: Drawing

    var regionsIncluded: Bool { options.format == .ttml || options.styleAndRegionBlocks == .included }

    mutating func drawCue(_ index: Int) {
        cue.index = index
        cue.text.removeAll(keepingCapacity: true)
        cue.segments.removeAll(keepingCapacity: true)
        cue.timestamps = 0
        // Times.
        let duration = random.inRange(800...6_000)
        if index > 0, random.chance(3) {
            cue.start = cue.start + random.inRange(0...500)
        } else {
            cue.start = clock + (random.chance(35) ? 0 : random.inRange(40...1_500))
        }
        cue.end = cue.start + duration
        clock = max(clock, cue.end)
        cue.hasID = random.chance(20)
        cue.speaker = random.chance(20) ? random.below(GeneratorVocabulary.speakers.count) : nil
        cue.note = index > 0 && random.below(250) == 0 ? random.below(GeneratorVocabulary.notes.count) : nil
        // Placement.
        if random.chance(24) {
            var placement = Placement(rawValue: 1 + random.below(Placement.allCases.count - 1))!
            if !regionsIncluded, placement == .regionSpeaker || placement == .regionTop { placement = .top }
            cue.placement = placement
        } else {
            cue.placement = .standard
        }
        // Text.
        if options.shape != .mixed { drawShape(index) }
        let script = options.shape == .mixed ? drawScript() : drawShapeScript()
        let lines = random.chance(40) ? 2 : 1
        for line in 0..<lines {
            if line > 0 { cue.segments.append(.lineBreak) }
            drawLine(script)
        }
        if options.shape == .styleGuide { retimeForStyleGuide() }
    }

    mutating func drawScript() -> GeneratorVocabulary.Script {
        var roll = random.below(100)
        for (script, weight) in GeneratorVocabulary.scripts {
            if roll < weight { return script }
            roll -= weight
        }
        return GeneratorVocabulary.english
    }

    mutating func drawLine(_ script: GeneratorVocabulary.Script) {
        // A style guide's 42 characters: the target, then a word of at most 11.
        let target = options.shape == .styleGuide ? random.inRange(16...28) : random.inRange(script.lineBytes)
        var length = 0
        var style = Style.plain
        var styledWordsLeft = 0
        var runStart = cue.text.count
        var firstWord = true
        func closeRun(_ segments: inout [Segment], _ text: [UInt8]) {
            if text.count > runStart { segments.append(.text(runStart..<text.count, style)) }
            runStart = text.count
        }
        while length < target {
            // Something other than a word, now and then.
            let extra = random.below(1_000)
            let scale = options.shape.extrasScale
            if extra < 6 * scale {
                closeRun(&cue.segments, cue.text)
                cue.segments.append(.language(random.below(GeneratorVocabulary.languages.count)))
                length += 8
            } else if extra < 10 * scale {
                closeRun(&cue.segments, cue.text)
                cue.segments.append(.ruby(random.below(GeneratorVocabulary.ruby.count)))
                length += 12
            } else if extra < 14 * scale, options.format == .webVTT, cue.timestamps < 7 {
                // Inner timestamps rise through the cue: an eighth of its duration apart.
                closeRun(&cue.segments, cue.text)
                cue.timestamps += 1
                cue.segments.append(.timestamp(cue.start + cue.timestamps * (cue.end - cue.start) / 8))
            }
            // Styling starts on a run of one to three words.
            if style == .plain, options.shape.styledRunChance > 0, random.chance(options.shape.styledRunChance) {
                closeRun(&cue.segments, cue.text)
                switch random.below(10) {
                case 0...4: style = .italic
                case 5, 6: style = .bold
                case 7: style = .underline
                default: style = .color(random.below(GeneratorVocabulary.colors.count))
                }
                styledWordsLeft = random.inRange(1...3)
            }
            let word = random.pick(script.words)
            if script.spaced, !firstWord || cue.text.count > runStart {
                if style != .plain, cue.text.count == runStart {
                    // Keep the space outside the styled run.
                    let saved = style
                    style = .plain
                    cue.text.append(0x20)
                    closeRun(&cue.segments, cue.text)
                    style = saved
                } else {
                    cue.text.append(0x20)
                }
            }
            cue.text.append(contentsOf: word)
            length += word.count + 1
            firstWord = false
            if style != .plain {
                styledWordsLeft -= 1
                if styledWordsLeft == 0 {
                    closeRun(&cue.segments, cue.text)
                    style = .plain
                }
            }
        }
        if options.shape != .plain, options.shape != .styleGuide, random.chance(4) {
            cue.text.append(0x20)
            cue.text.append(contentsOf: random.pick(GeneratorVocabulary.emoji))
        }
        closeRun(&cue.segments, cue.text)
    }

    // MARK: Bytes

    /// Writes what ``output`` holds, each LF as CR LF in the crlf shape.
    mutating func flushOutput<Sink: ByteSink>(to sink: inout Sink) throws {
        guard options.shape == .crlf else { return try sink.write(output) }
        crlfOutput.removeAll(keepingCapacity: true)
        for byte in output {
            if byte == 0x0A { crlfOutput.append(0x0D) }
            crlfOutput.append(byte)
        }
        try sink.write(crlfOutput)
    }

    @inline(__always)
    mutating func append(_ text: String) {
        output.append(contentsOf: text.utf8)
    }

    mutating func appendDecimal(_ value: Int) {
        if value >= 10 { appendDecimal(value / 10) }
        output.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Appends text bytes, escaping what the format's markup would read as markup.
    mutating func appendEscaped(_ range: Range<Int>, xml: Bool) {
        for byte in cue.text[range] { appendEscapedByte(byte, xml: xml) }
    }

    mutating func appendEscaped(_ bytes: [UInt8]) {
        for byte in bytes { appendEscapedByte(byte, xml: true) }
    }

    @inline(__always)
    mutating func appendEscapedByte(_ byte: UInt8, xml: Bool) {
        switch byte {
        case UInt8(ascii: "&"): append("&amp;")
        case UInt8(ascii: "<"): append("&lt;")
        case UInt8(ascii: ">"): append("&gt;")
        case UInt8(ascii: "\"") where xml: append("&quot;")
        default: output.append(byte)
        }
    }
}
