import CueKit

extension TrackGenerator {
    // MARK: SCC

    mutating func writeSCCHeader() {
        append("Scenarist_SCC V1.0\n")
    }

    /// One pop-on caption ten frames after the last (29.97 frames a second, non-drop timecodes,
    /// hours past 24 for a million captions): ENM (the memory holds the caption the last EOC
    /// took off the screen), RCL, a PAC at row 15 or 14 (1 or 2 for cues at the top),
    /// the first line's first 12 characters (outside ASCII as `?`, a colour as a mid-row code),
    /// EOC. Each caption replaces the one before it; the last is erased (EDM) ten frames on. The
    /// pairs fit in ten frames, so no line's pairs run into the next line's frame.
    mutating func writeSCCCue() {
        append("\n")
        appendSCCTimecode(frame: cue.index * 10)
        appendSCCWord(0x14, 0x2E)
        appendSCCWord(0x14, 0x20)
        // Rows 15 and 14 in turn (1 and 2 at the top), so that no caption shows what the one before it did.
        let top = cue.placement == .top || cue.placement == .topLeft
        appendSCCWord(top ? 0x11 : 0x14, cue.index % 2 == (top ? 1 : 0) ? 0x60 : 0x40)
        var characters: [UInt8] = []
        var color: UInt8?
        collect: for segment in cue.segments {
            switch segment {
            case .text(let range, let style):
                if color == nil, characters.isEmpty, case .color(let index) = style { color = UInt8(1 + index % 6) }
                for scalar in String(decoding: cue.text[range], as: UTF8.self).unicodeScalars {
                    guard characters.count < 12 else { break collect }
                    characters.append(scalar.value >= 0x20 && scalar.value < 0x7F ? UInt8(scalar.value) : UInt8(ascii: "?"))
                }
            case .lineBreak:
                break collect
            case .language, .ruby, .timestamp:
                continue
            }
        }
        if characters.isEmpty { characters.append(UInt8(ascii: "-")) }
        if let color { appendSCCWord(0x11, 0x20 | color << 1) }
        if characters.count % 2 == 1 { characters.append(0) }
        var index = 0
        while index < characters.count {
            appendSCCWord(characters[index], characters[index + 1])
            index += 2
        }
        appendSCCWord(0x14, 0x2F)
        append("\n")
        if cue.index == options.cues - 1 {
            append("\n")
            appendSCCTimecode(frame: cue.index * 10 + 10)
            appendSCCWord(0x14, 0x2C)
            append("\n")
        }
    }

    /// `hh:mm:ss:ff` of a frame counted 30 to the second, and a tab.
    mutating func appendSCCTimecode(frame: Int) {
        let seconds = frame / 30
        for (index, value) in [seconds / 3600 % 100, seconds / 60 % 60, seconds % 60, frame % 30].enumerated() {
            if index > 0 { output.append(UInt8(ascii: ":")) }
            output.append(UInt8(ascii: "0") + UInt8(value / 10))
            output.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        output.append(0x09)
    }

    /// A byte pair as four hexadecimal digits, each byte with its odd parity bit, after a space
    /// unless it starts the line's words.
    mutating func appendSCCWord(_ first: UInt8, _ second: UInt8) {
        if output.last != 0x09 { output.append(0x20) }
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        for byte in [first, second] {
            let value = byte & 0x7F
            let withParity = value.nonzeroBitCount % 2 == 0 ? value | 0x80 : value
            output.append(digits[Int(withParity >> 4)])
            output.append(digits[Int(withParity & 15)])
        }
    }
}
