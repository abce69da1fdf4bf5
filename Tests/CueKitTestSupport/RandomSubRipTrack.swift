/// Random SubRip files for the properties of the SubRip reader's paths: mostly ordinary blocks,
/// among them everything the reader recovers from (numbers missing, wrong or out of order; broken,
/// lenient or backwards timing lines; blank lines inside text; a number or a timing-like line in
/// text; stray text; ASS line breaks and overrides; markup, colours and entities; bytes that are
/// not UTF-8, NULs, byte order marks, lone CRs), with LF or CR LF line ends, and starts that
/// wander back so that cues come out of order.
public enum RandomSubRipTrack {
    static let texts = [
        "plain words", "two\nlines of text", "<i>italic</i> and <b>bold</b>", "<font color=\"#ff0000\">red</font> text",
        "<font color=lime>lime</font>", "Tom & Jerry &amp; more", "a < b > c", "{\\an8}on top", "{\\an5}<u>middle</u>",
        "{\\i1}override{\\i0}", "line\\Nbreak", "<blink>unknown</blink>", "</i>stray end", "<b><i>mis</b>nested</i>",
        "가요 네 괜찮아요", "本当に\nいい天気", "caf\u{E9} cr\u{E8}me", "a --> b", "42", "3 o'clock", " leading space",
        "<s>struck</s>", "<font color=\"#zzzzzz\">bad colour</font>", "ends with tab\t", "<i>unclosed",
        // Near misses for the block scan: lines across its 64-byte steps, a lowercase ASS break,
        // starts it must look at again, an arrow without spaces.
        String(repeating: "a long line of words, ", count: 5) + "<i>end</i>",
        "caf\u{E9} " + String(repeating: "x", count: 58) + "-->" + String(repeating: "y", count: 40), "lower\\nbreak",
        "\u{1A}starts with the DOS end of file", "\u{B}vertical tab", "1234567890", "007 agent", "x-->y",
        String(repeating: "\u{6771}", count: 30),
    ]

    /// A random file of up to `maximumCues` cues.
    public static func bytes(_ random: inout SeededRandom, maximumCues: Int = 60) -> [UInt8] {
        let crlf = Int.random(in: 0..<4, using: &random) == 0
        var out: [UInt8] = []
        func line(_ text: String) {
            out += Array(text.utf8)
            out += crlf ? [0x0D, 0x0A] : [0x0A]
        }
        if Int.random(in: 0..<8, using: &random) == 0 { out += [0xEF, 0xBB, 0xBF] }
        var number = 1
        var second = 1
        for _ in 0..<Int.random(in: 1...maximumCues, using: &random) {
            second = max(0, second + Int.random(in: -2...3, using: &random))
            let start = second * 1000 + Int.random(in: 0..<1000, using: &random)
            let end = start + Int.random(in: -200...3000, using: &random)
            let fault = Int.random(in: 0..<40, using: &random)
            switch fault {
            case 0: break  // no number
            case 1: line("\(number + 5)")
            case 2: line(" \(number) ")
            default: line("\(number)")
            }
            switch fault {
            case 3: line("\(time(start, ".")) --> \(time(end, "."))")
            case 4: line("\(time(start, ",")) --> \(time(end, ",")) X1:10 X2:20 Y1:30 Y2:40")
            case 5: line("\(time(start, ",")) -> broken")
            case 6: line("not a timing line")
            case 7: line("0:\(time(start, ","))  -->  \(time(end, ","))")
            case 8: line("00:61:00,000 --> \(time(end, ","))")
            case 9: line("\(time(start, ",")) --> \(time(end, ";"))")
            default: line("\(time(start, ",")) --> \(time(end, ","))")
            }
            for index in 0..<Int.random(in: 0...2, using: &random) {
                if index > 0, Int.random(in: 0..<25, using: &random) == 0 { line("") }
                var text = Array(texts.randomElement(using: &random)!.utf8)
                switch Int.random(in: 0..<40, using: &random) {
                case 0: text.insert(0xFF, at: text.count / 2)
                case 1: text.insert(0x00, at: 0)
                case 2: text.insert(0x0D, at: text.count / 2)
                case 3: text.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: 0)
                case 4: text = Array("\(number + 1)".utf8)
                default: break
                }
                if crlf { text = text.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] } }
                out += text
                out += crlf ? [0x0D, 0x0A] : [0x0A]
            }
            switch Int.random(in: 0..<30, using: &random) {
            case 0: break  // no blank line
            case 1: line(" \t")
            case 2:
                line("")
                line("")
            case 3:
                line("")
                line("stray text")
                line("")
            default: line("")
            }
            number += 1
        }
        if Bool.random(using: &random) { out.removeLast(crlf ? 2 : 1) }
        return out
    }

    /// `hh:mm:ss` and the milliseconds after `separator`.
    static func time(_ milliseconds: Int, _ separator: String) -> String {
        let seconds = milliseconds / 1000
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = milliseconds % 1000
        return
            "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))\(separator)\(fraction < 10 ? "00" : fraction < 100 ? "0" : "")\(fraction)"
    }
}
