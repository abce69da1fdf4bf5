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
public struct TrackGenerator: Sendable {
    /// The formats generated.
    public enum Format: String, CaseIterable, Sendable {
        case webVTT = "vtt"
        case subRip = "srt"
        case ttml
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

        /// Creates options.
        public init(cues: Int, seed: UInt64, format: Format, styleAndRegionBlocks: StyleAndRegionBlocks = .included) {
            self.cues = cues
            self.seed = seed
            self.format = format
            self.styleAndRegionBlocks = styleAndRegionBlocks
        }
    }

    /// What is generated.
    public let options: Options

    // MARK: The drawn cue

    /// A run of a cue's content.
    private enum Segment {
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

    private enum Style: Equatable {
        case plain, italic, bold, underline
        case color(Int)
    }

    /// Where a cue is placed, in each format's terms.
    private enum Placement: Int, CaseIterable {
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

    private struct Cue {
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
    }

    private var random: GeneratorRandom
    private var cue = Cue()
    private var clock = 1_000
    private var output: [UInt8] = []

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
        try sink.write(output)
        for index in 0..<options.cues {
            drawCue(index)
            output.removeAll(keepingCapacity: true)
            switch options.format {
            case .webVTT: writeWebVTTCue()
            case .subRip: writeSubRipCue()
            case .ttml: writeTTMLCue()
            }
            try sink.write(output)
        }
        output.removeAll(keepingCapacity: true)
        if options.format == .ttml { append("</div>\n</body>\n</tt>\n") }
        try sink.write(output)
        try sink.flush()
    }

    // MARK: Drawing

    private var regionsIncluded: Bool { options.format == .ttml || options.styleAndRegionBlocks == .included }

    private mutating func drawCue(_ index: Int) {
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
        let script = drawScript()
        let lines = random.chance(40) ? 2 : 1
        for line in 0..<lines {
            if line > 0 { cue.segments.append(.lineBreak) }
            drawLine(script)
        }
    }

    private mutating func drawScript() -> GeneratorVocabulary.Script {
        var roll = random.below(100)
        for (script, weight) in GeneratorVocabulary.scripts {
            if roll < weight { return script }
            roll -= weight
        }
        return GeneratorVocabulary.english
    }

    private mutating func drawLine(_ script: GeneratorVocabulary.Script) {
        let target = random.inRange(script.lineBytes)
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
            if extra < 6 {
                closeRun(&cue.segments, cue.text)
                cue.segments.append(.language(random.below(GeneratorVocabulary.languages.count)))
                length += 8
            } else if extra < 10 {
                closeRun(&cue.segments, cue.text)
                cue.segments.append(.ruby(random.below(GeneratorVocabulary.ruby.count)))
                length += 12
            } else if extra < 14, options.format == .webVTT, cue.timestamps < 7 {
                // Inner timestamps rise through the cue: an eighth of its duration apart.
                closeRun(&cue.segments, cue.text)
                cue.timestamps += 1
                cue.segments.append(.timestamp(cue.start + cue.timestamps * (cue.end - cue.start) / 8))
            }
            // Styling starts on a run of one to three words.
            if style == .plain, random.chance(7) {
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
        if random.chance(4) {
            cue.text.append(0x20)
            cue.text.append(contentsOf: random.pick(GeneratorVocabulary.emoji))
        }
        closeRun(&cue.segments, cue.text)
    }

    // MARK: WebVTT

    private mutating func writeHeader() {
        switch options.format {
        case .webVTT: writeWebVTTHeader()
        case .subRip: break
        case .ttml: writeTTMLHeader()
        }
    }

    private mutating func writeWebVTTHeader() {
        append("WEBVTT - cuekit generate: seed \(options.seed), \(options.cues) cues\n\n")
        append("NOTE\nA synthetic track for benchmarking parsers. The same seed gives the same bytes.\n\n")
        guard options.styleAndRegionBlocks == .included else { return }
        append("REGION\nid:speaker\nwidth:40%\nlines:3\nregionanchor:0%,100%\nviewportanchor:10%,90%\nscroll:up\n\n")
        append("REGION\nid:top\nwidth:80%\nlines:2\nregionanchor:50%,0%\nviewportanchor:50%,10%\n\n")
        append("STYLE\n::cue {\n  font-family: sans-serif;\n  background-color: rgba(0, 0, 0, 0.8);\n}\n")
        append("::cue(.yellow) { color: #ffff00; }\n::cue(.cyan) { color: #00ffff; }\n::cue(.lime) { color: #00ff00; }\n")
        append(
            "::cue(.magenta) { color: #ff00ff; }\n::cue(.loud) { font-weight: bold; }\n::cue(.whisper) { color: #c0c0c0; font-style: italic; }\n"
        )
        append("::cue(v[voice=\"Alice\"]) { color: #80c0ff; }\n::cue(ruby) { ruby-position: over; }\n\n")
    }

    private mutating func writeWebVTTCue() {
        if let note = cue.note {
            append("NOTE ")
            output.append(contentsOf: GeneratorVocabulary.notes[note])
            append("\n\n")
        }
        if cue.hasID {
            append("c")
            appendDecimal(cue.index + 1)
            append("\n")
        }
        CueTimestamp.append(cue.start, hours: .always, to: &output)
        append(" --> ")
        CueTimestamp.append(cue.end, hours: .always, to: &output)
        append(cue.placement.webVTTSettings)
        append("\n")
        if let speaker = cue.speaker {
            append("<v ")
            append(GeneratorVocabulary.speakers[speaker].name)
            append(">")
        }
        for segment in cue.segments {
            switch segment {
            case .text(let range, let style):
                let tag: String
                switch style {
                case .plain: tag = ""
                case .italic: tag = "i"
                case .bold: tag = "b"
                case .underline: tag = "u"
                case .color(let color): tag = "c." + GeneratorVocabulary.colors[color].webVTTClasses
                }
                if !tag.isEmpty { append("<\(tag)>") }
                appendEscaped(range, xml: false)
                if !tag.isEmpty { append("</\(tag.prefix { $0 != "." })>") }
            case .lineBreak:
                append("\n")
            case .language(let index):
                let language = GeneratorVocabulary.languages[index]
                append(" <lang \(language.tag)>")
                output.append(contentsOf: language.text)
                append("</lang>")
            case .ruby(let index):
                let ruby = GeneratorVocabulary.ruby[index]
                append("<ruby>")
                output.append(contentsOf: ruby.base)
                append("<rt>")
                output.append(contentsOf: ruby.reading)
                append("</rt></ruby>")
            case .timestamp(let time):
                append("<")
                CueTimestamp.append(time, hours: .always, to: &output)
                append(">")
            }
        }
        if cue.speaker != nil { append("</v>") }
        append("\n\n")
    }

    // MARK: SubRip

    private mutating func writeSubRipCue() {
        appendDecimal(cue.index + 1)
        append("\n")
        CueTimestamp.append(cue.start, hours: .always, separator: UInt8(ascii: ","), to: &output)
        append(" --> ")
        CueTimestamp.append(cue.end, hours: .always, separator: UInt8(ascii: ","), to: &output)
        append("\n")
        switch cue.placement {
        case .top, .regionTop: append("{\\an8}")
        case .topLeft: append("{\\an7}")
        default: break
        }
        for segment in cue.segments {
            switch segment {
            case .text(let range, let style):
                switch style {
                case .plain: break
                case .italic: append("<i>")
                case .bold: append("<b>")
                case .underline: append("<u>")
                case .color(let color): append("<font color=\"\(GeneratorVocabulary.colors[color].subRip)\">")
                }
                output.append(contentsOf: cue.text[range])
                switch style {
                case .plain: break
                case .italic: append("</i>")
                case .bold: append("</b>")
                case .underline: append("</u>")
                case .color: append("</font>")
                }
            case .lineBreak:
                append("\n")
            case .language(let index):
                append(" ")
                output.append(contentsOf: GeneratorVocabulary.languages[index].text)
            case .ruby(let index):
                let ruby = GeneratorVocabulary.ruby[index]
                output.append(contentsOf: ruby.base)
                append("(")
                output.append(contentsOf: ruby.reading)
                append(")")
            case .timestamp:
                break
            }
        }
        append("\n\n")
    }

    // MARK: TTML

    private mutating func writeTTMLHeader() {
        append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" \
            xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ttm="http://www.w3.org/ns/ttml#metadata" \
            xmlns:itts="http://www.w3.org/ns/ttml/profile/imsc1#styling" \
            ttp:contentProfiles="http://www.w3.org/ns/ttml/profile/imsc1.1/text" ttp:timeBase="media" \
            ttp:cellResolution="32 15" xml:lang="en">
            <head>
            <metadata>
            <ttm:title>cuekit generate: seed \(options.seed), \(options.cues) cues</ttm:title>

            """)
        for speaker in GeneratorVocabulary.speakers {
            append("<ttm:agent xml:id=\"\(speaker.id)\" type=\"character\"><ttm:name type=\"full\">")
            appendEscaped(Array(speaker.name.utf8))
            append("</ttm:name></ttm:agent>\n")
        }
        append(
            """
            </metadata>
            <styling>
            <style xml:id="base" tts:fontFamily="proportionalSansSerif" tts:fontSize="100%" tts:lineHeight="125%" \
            tts:color="white" tts:backgroundColor="rgba(0,0,0,204)" tts:textAlign="center"/>
            <style xml:id="left" tts:textAlign="left"/>
            <style xml:id="right" tts:textAlign="right"/>
            <style xml:id="yellow" tts:color="yellow"/>
            <style xml:id="cyan" tts:color="cyan"/>
            <style xml:id="lime" tts:color="lime"/>
            <style xml:id="magenta" tts:color="magenta" tts:fontWeight="bold"/>
            <style xml:id="whisper" tts:color="#c0c0c0" tts:fontStyle="italic"/>
            </styling>
            <layout>
            <region xml:id="bottom" tts:origin="10% 75%" tts:extent="80% 20%" tts:displayAlign="after"/>
            <region xml:id="top" tts:origin="10% 5%" tts:extent="80% 20%" tts:displayAlign="before"/>
            <region xml:id="middle" tts:origin="10% 40%" tts:extent="80% 20%" tts:displayAlign="center"/>
            <region xml:id="speaker" tts:origin="10% 60%" tts:extent="40% 30%" tts:displayAlign="after"/>
            <region xml:id="vertical" tts:origin="80% 10%" tts:extent="15% 80%" tts:writingMode="tbrl"/>
            </layout>
            </head>
            <body style="base">
            <div>

            """)
    }

    private mutating func writeTTMLCue() {
        if let note = cue.note {
            append("<!-- ")
            output.append(contentsOf: GeneratorVocabulary.notes[note])
            append(" -->\n")
        }
        append("<p xml:id=\"c")
        appendDecimal(cue.index + 1)
        append("\" begin=\"")
        CueTimestamp.append(cue.start, hours: .always, to: &output)
        append("\" end=\"")
        CueTimestamp.append(cue.end, hours: .always, to: &output)
        append("\" region=\"")
        switch cue.placement {
        case .standard, .bottomLeft, .bottomRight, .narrow: append("bottom")
        case .top, .topLeft, .regionTop: append("top")
        case .middle: append("middle")
        case .regionSpeaker: append("speaker")
        case .vertical: append("vertical")
        }
        append("\"")
        switch cue.placement {
        case .topLeft, .bottomLeft, .regionSpeaker: append(" style=\"left\"")
        case .bottomRight: append(" style=\"right\"")
        default: break
        }
        if let speaker = cue.speaker {
            append(" ttm:agent=\"\(GeneratorVocabulary.speakers[speaker].id)\"")
        }
        append(">")
        for segment in cue.segments {
            switch segment {
            case .text(let range, let style):
                switch style {
                case .plain: break
                case .italic: append("<span tts:fontStyle=\"italic\">")
                case .bold: append("<span tts:fontWeight=\"bold\">")
                case .underline: append("<span tts:textDecoration=\"underline\">")
                case .color(let color): append("<span style=\"\(GeneratorVocabulary.colors[color].ttmlStyle)\">")
                }
                appendEscaped(range, xml: true)
                if style != .plain { append("</span>") }
            case .lineBreak:
                append("<br/>")
            case .language(let index):
                let language = GeneratorVocabulary.languages[index]
                append(" <span xml:lang=\"\(language.tag)\">")
                output.append(contentsOf: language.text)
                append("</span>")
            case .ruby(let index):
                let ruby = GeneratorVocabulary.ruby[index]
                append("<span tts:ruby=\"container\"><span tts:ruby=\"base\">")
                output.append(contentsOf: ruby.base)
                append("</span><span tts:ruby=\"text\">")
                output.append(contentsOf: ruby.reading)
                append("</span></span>")
            case .timestamp:
                break
            }
        }
        append("</p>\n")
    }

    // MARK: Bytes

    @inline(__always)
    private mutating func append(_ text: String) {
        output.append(contentsOf: text.utf8)
    }

    private mutating func appendDecimal(_ value: Int) {
        if value >= 10 { appendDecimal(value / 10) }
        output.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Appends text bytes, escaping what the format's markup would read as markup.
    private mutating func appendEscaped(_ range: Range<Int>, xml: Bool) {
        for byte in cue.text[range] { appendEscapedByte(byte, xml: xml) }
    }

    private mutating func appendEscaped(_ bytes: [UInt8]) {
        for byte in bytes { appendEscapedByte(byte, xml: true) }
    }

    @inline(__always)
    private mutating func appendEscapedByte(_ byte: UInt8, xml: Bool) {
        switch byte {
        case UInt8(ascii: "&"): append("&amp;")
        case UInt8(ascii: "<"): append("&lt;")
        case UInt8(ascii: ">"): append("&gt;")
        case UInt8(ascii: "\"") where xml: append("&quot;")
        default: output.append(byte)
        }
    }
}
