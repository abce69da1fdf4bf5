import CueKit

extension TrackGenerator {
    // MARK: SubRip

    mutating func writeSubRipCue() {
        appendDecimal(cue.index + 1)
        append("\n")
        CueTimestamp.append(cue.start, hours: .always, separator: UInt8(ascii: ","), to: &output)
        append(" --> ")
        CueTimestamp.append(cue.end, hours: .always, separator: UInt8(ascii: ","), to: &output)
        append("\n")
        if options.shape == .settingsHeavy {
            append("{\\an\(1 + cue.placement.rawValue % 9)}")
        } else {
            switch cue.placement {
            case .top, .regionTop: append("{\\an8}")
            case .topLeft: append("{\\an7}")
            default: break
            }
        }
        // The diagnostics shape: a tag SubRip does not have, a colour that cannot be read, or a
        // stray closing tag (each reported, the text kept).
        switch cue.problem {
        case 0: append("<blink>")
        case 1: append("<font color=\"#zzzzzz\">")
        case 2: append("</i>")
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
        switch cue.problem {
        case 0: append("</blink>")
        case 1: append("</font>")
        default: break
        }
        append("\n\n")
    }
}
