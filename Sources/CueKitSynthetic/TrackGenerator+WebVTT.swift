import CueKit

extension TrackGenerator {
    // MARK: WebVTT

    mutating func writeHeader() {
        switch options.format {
        case .webVTT: writeWebVTTHeader()
        case .subRip: break
        case .ttml: writeTTMLHeader()
        case .ass: writeASSHeader()
        case .ebuSTL: writeEBUSTLHeader()
        case .scc: writeSCCHeader()
        }
    }

    mutating func writeWebVTTHeader() {
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

    mutating func writeWebVTTCue() {
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
        let hours: CueTimestamp.HoursStyle = cue.withoutHours ? .whenNeeded : .always
        CueTimestamp.append(cue.start, hours: hours, to: &output)
        append(" --> ")
        CueTimestamp.append(cue.end, hours: hours, to: &output)
        append(cue.settings ?? cue.placement.webVTTSettings)
        // The diagnostics shape: a setting the reader does not know, a value it cannot read, or
        // a tag it does not know (each reported, the cue kept).
        switch cue.problem {
        case 0: append(" speed:fast")
        case 1: append(" line:high")
        default: break
        }
        append("\n")
        if cue.problem == 2 { append("<blink>") }
        if let speaker = cue.speaker {
            append(cue.voiceClass.map { "<v.\($0) " } ?? "<v ")
            append(GeneratorVocabulary.speakers[speaker].name)
            append(">")
        }
        if let cueClass = cue.cueClass { append("<c.\(cueClass)>") }
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
        if cue.cueClass != nil { append("</c>") }
        if cue.speaker != nil { append("</v>") }
        if cue.problem == 2 { append("</blink>") }
        append("\n\n")
    }
}
