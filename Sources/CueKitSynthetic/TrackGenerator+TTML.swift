import CueKit

extension TrackGenerator {
    // MARK: TTML

    mutating func writeTTMLHeader() {
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
        // Timed divs open their own.
        if options.shape == .timedDivs { output.removeLast("<div>\n".utf8.count) }
    }

    mutating func writeTTMLCue() {
        if let note = cue.note {
            append("<!-- ")
            output.append(contentsOf: GeneratorVocabulary.notes[note])
            append(" -->\n")
        }
        // Timed divs: eight paragraphs a div, timed from the div's begin.
        var origin = 0
        if options.shape == .timedDivs {
            if cue.index % 8 == 0 {
                if cue.index > 0 { append("</div>\n") }
                divisionStart = cue.start
                append("<div begin=\"")
                CueTimestamp.append(cue.start, hours: .always, to: &output)
                append("\">\n")
            }
            origin = divisionStart
        }
        append("<p xml:id=\"c")
        appendDecimal(cue.index + 1)
        append("\" begin=\"")
        CueTimestamp.append(cue.start - origin, hours: .always, to: &output)
        append("\" end=\"")
        CueTimestamp.append(cue.end - origin, hours: .always, to: &output)
        append("\" region=\"")
        if options.shape == .styled {
            append(["bottom", "top", "middle", "speaker", "vertical"][cue.index % 5])
        } else {
            switch cue.placement {
            case .standard, .bottomLeft, .bottomRight, .narrow: append("bottom")
            case .top, .topLeft, .regionTop: append("top")
            case .middle: append("middle")
            case .regionSpeaker: append("speaker")
            case .vertical: append("vertical")
            }
        }
        append("\"")
        var references: String?
        switch cue.placement {
        case .topLeft, .bottomLeft, .regionSpeaker: references = "left"
        case .bottomRight: references = "right"
        default: break
        }
        if options.shape == .styled {
            // Referenced and inline styles on every paragraph.
            let colour = ["yellow", "cyan", "lime", "whisper"][cue.index % 4]
            references = references.map { "\($0) \(colour)" } ?? colour
            if cue.index % 3 == 0 { append(" tts:color=\"\(Self.paletteColour(cue.index))\"") }
            append(" tts:fontSize=\"\(90 + cue.index % 3 * 10)%\"")
        }
        if let references { append(" style=\"\(references)\"") }
        // The diagnostics shape: a colour, a size and a weight that cannot be read.
        switch cue.problem {
        case 0: append(" tts:color=\"notacolor\"")
        case 1: append(" tts:fontSize=\"huge\"")
        case 2: append(" tts:fontWeight=\"heavy\"")
        default: break
        }
        if let speaker = cue.speaker {
            append(" ttm:agent=\"\(GeneratorVocabulary.speakers[speaker].id)\"")
        }
        append(">")
        for segment in cue.segments {
            switch segment {
            case .text(let range, let style):
                // Styled: each styled run in a span of a palette colour around its own.
                let nested = options.shape == .styled && style != .plain
                if nested { append("<span tts:color=\"\(Self.paletteColour(range.lowerBound &+ cue.index))\">") }
                switch style {
                case .plain: break
                case .italic: append("<span tts:fontStyle=\"italic\">")
                case .bold: append("<span tts:fontWeight=\"bold\">")
                case .underline: append("<span tts:textDecoration=\"underline\">")
                case .color(let color): append("<span style=\"\(GeneratorVocabulary.colors[color].ttmlStyle)\">")
                }
                appendEscaped(range, xml: true)
                if style != .plain { append(nested ? "</span></span>" : "</span>") }
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

    /// One of 64 colours, `#rrggbb`.
    static func paletteColour(_ number: Int) -> String {
        let index = (number % 64 + 64) % 64
        let channels = [(index >> 4) & 3, (index >> 2) & 3, index & 3].map { 0x40 + $0 * 0x3F }
        return "#" + channels.map { String($0, radix: 16) }.joined()
    }
}
