extension TrackGenerator {
    /// What kind of track is generated: the mix of the default, or one trait pushed to the limit,
    /// so that every path can be measured on more than one shape of input.
    public enum Shape: String, CaseIterable, Sendable {
        /// The default mix: a little of everything, as described on ``TrackGenerator``.
        case mixed
        /// Text alone: no markup, settings, speakers, notes or emoji; English and accented Latin.
        case plain
        /// Markup on every other run: classes (a third of cues wrapped in one), voices with
        /// classes, `<lang>`, ruby, entities, inner timestamps, and a third of timestamps without
        /// hours.
        case markupHeavy = "markup-heavy"
        /// Every cue placed: `position`, `line`, `size` and `align` drawn per cue, a fifth in a
        /// region (SubRip: `{\anN}` on every cue; TTML: every cue in a placed region).
        case settingsHeavy = "settings-heavy"
        /// Timestamps as `mm:ss.ttt` (WebVTT only).
        case shortTimes = "short-times"
        /// Every line ending in CR LF.
        case crlf
        /// Only scripts other than Latin: Chinese and Japanese, Korean, Arabic, Hebrew, Devanagari
        /// (and so no language spans, which are partly Latin).
        case nonLatin = "non-latin"
        /// One cue in ten with a problem the reader recovers from and reports.
        case diagnostics
        /// Plain English timed as a style guide asks (Netflix's English numbers): lines of at most
        /// 42 characters, at most 14 characters a second, from 1.2 to 7 seconds, gaps of at least
        /// 100 ms, no overlap. What caption QC finds nothing in, so that its rules' own cost shows.
        case styleGuide = "style-guide"
        /// TTML only: referenced and inline styles on every paragraph, nested spans, colours from
        /// a palette of 64, every region in turn.
        case styled
        /// TTML only: paragraphs in timed `div`s of eight, their times relative to the `div`.
        case timedDivs = "timed-divs"

        /// Whether the shape can be written in `format`.
        public func supports(_ format: Format) -> Bool {
            switch self {
            case .shortTimes: format == .webVTT
            case .styled, .timedDivs: format == .ttml
            // Binary: no line ends to change, and text in ISO 6937; SCC's text is CEA-608's.
            case .crlf, .nonLatin: format != .ebuSTL && format != .scc
            // SCC's lines hold 32 characters.
            case .styleGuide: format != .scc
            // The problems written are SubRip's and WebVTT's (and TTML's).
            case .diagnostics: format != .ebuSTL && format != .ass && format != .scc
            default: true
            }
        }

        /// How likely a run of words is to be styled, in percent.
        var styledRunChance: Int {
            switch self {
            case .plain, .styleGuide: 0
            case .markupHeavy: 30
            default: 7
            }
        }

        /// How much more often than the mix languages, ruby and inner timestamps come.
        var extrasScale: Int {
            switch self {
            case .plain, .nonLatin, .styleGuide: 0
            case .markupHeavy: 4
            default: 1
            }
        }
    }

    /// What the shape changes in a drawn cue, drawn after the mix's own draws (so that the mix
    /// draws what it always drew).
    mutating func drawShape(_ index: Int) {
        cue.settings = nil
        cue.cueClass = nil
        cue.voiceClass = nil
        cue.problem = nil
        cue.withoutHours = options.shape == .shortTimes
        switch options.shape {
        case .plain, .styleGuide:
            cue.speaker = nil
            cue.placement = .standard
            cue.note = nil
            cue.hasID = false
        case .markupHeavy:
            if random.chance(33) { cue.cueClass = random.pick(["yellow", "cyan.loud", "whisper", "lime"]) }
            if cue.speaker == nil, random.chance(25) { cue.speaker = random.below(GeneratorVocabulary.speakers.count) }
            if cue.speaker != nil, random.chance(50) { cue.voiceClass = random.pick(["loud", "whisper"]) }
            cue.withoutHours = random.chance(33)
        case .settingsHeavy:
            cue.placement = Placement(rawValue: 1 + random.below(Placement.allCases.count - 1))!
            let align = random.pick(["start", "center", "end", "left", "right"])
            var settings = " position:\(random.inRange(5...95))% line:\(random.inRange(0...90))%"
            settings += " size:\(random.inRange(30...100))% align:\(align)"
            if regionsIncluded, random.chance(20) { settings += random.chance(50) ? " region:speaker" : " region:top" }
            cue.settings = settings
        case .diagnostics:
            if index % 10 == 9 { cue.problem = random.below(3) }
        case .mixed, .shortTimes, .crlf, .nonLatin, .styled, .timedDivs:
            break
        }
    }

    /// A style-guide cue's times, drawn again once its text is known: long enough to read at 14
    /// characters a second (and 0.5 s more), from 1.2 to 7 seconds, after a gap of 100 ms to 1.2 s.
    mutating func retimeForStyleGuide() {
        let characters = cue.text.count { $0 & 0xC0 != 0x80 }
        let duration = min(7_000, max(1_200, characters * 1_000 / 14 + 500))
        cue.start = previousEnd + random.inRange(100...1_200)
        cue.end = cue.start + duration
        previousEnd = cue.end
        clock = cue.end
    }

    /// The script of a cue's text, as the shape draws it.
    mutating func drawShapeScript() -> GeneratorVocabulary.Script {
        switch options.shape {
        case .plain:
            return random.chance(80) ? GeneratorVocabulary.english : GeneratorVocabulary.accented
        case .styleGuide:
            return GeneratorVocabulary.english
        case .nonLatin:
            return random.pick([
                GeneratorVocabulary.cjk, GeneratorVocabulary.korean, GeneratorVocabulary.arabic, GeneratorVocabulary.hebrew,
                GeneratorVocabulary.devanagari,
            ])
        default:
            return drawScript()
        }
    }
}
