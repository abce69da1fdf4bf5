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
        appendSegments(spelled: .subRip)
        switch cue.problem {
        case 0: append("</blink>")
        case 1: append("</font>")
        default: break
        }
        append("\n\n")
    }
}
