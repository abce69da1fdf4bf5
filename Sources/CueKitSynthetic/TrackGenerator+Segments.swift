extension TrackGenerator {
    /// How a line-based format spells a cue's inline styles and line breaks: SubRip's HTML-like
    /// tags, or ASS's override blocks.
    struct InlineSpelling: Sendable {
        var italic: (open: String, close: String)
        var bold: (open: String, close: String)
        var underline: (open: String, close: String)
        var color: @Sendable (_ subRipColor: String) -> String
        var colorClose: String
        var lineBreak: String

        static let subRip = InlineSpelling(
            italic: ("<i>", "</i>"), bold: ("<b>", "</b>"), underline: ("<u>", "</u>"),
            color: { "<font color=\"\($0)\">" }, colorClose: "</font>", lineBreak: "\n")

        static let ass = InlineSpelling(
            italic: ("{\\i1}", "{\\i0}"), bold: ("{\\b1}", "{\\b0}"), underline: ("{\\u1}", "{\\u0}"),
            color: { "{\\c&H\(TrackGenerator.assColor($0))&}" }, colorClose: "{\\c}", lineBreak: "\\N")
    }

    /// The cue's text segments in `spelling`: styled runs, line breaks, a language's words, ruby
    /// as its base and reading in parentheses; inner timestamps are not written.
    mutating func appendSegments(spelled spelling: InlineSpelling) {
        for segment in cue.segments {
            switch segment {
            case .text(let range, let style):
                switch style {
                case .plain: break
                case .italic: append(spelling.italic.open)
                case .bold: append(spelling.bold.open)
                case .underline: append(spelling.underline.open)
                case .color(let color): append(spelling.color(GeneratorVocabulary.colors[color].subRip))
                }
                output.append(contentsOf: cue.text[range])
                switch style {
                case .plain: break
                case .italic: append(spelling.italic.close)
                case .bold: append(spelling.bold.close)
                case .underline: append(spelling.underline.close)
                case .color: append(spelling.colorClose)
                }
            case .lineBreak:
                append(spelling.lineBreak)
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
    }
}
