import CueKit

extension TrackGenerator {
    // MARK: EBU-STL

    /// The GSI block of a teletext file at 25 frames a second, character table 00 (ISO 6937). Its
    /// five-digit counts (TNB, TNS) say 99,999 for larger files, which readers read past.
    mutating func writeEBUSTLHeader() {
        var block = [UInt8](repeating: 0x20, count: 1024)
        func put(_ text: String, at offset: Int) {
            for (index, byte) in text.utf8.enumerated() { block[offset + index] = byte }
        }
        put("850STL25.011000009", at: 0)
        put("cuekit generate: seed \(options.seed)", at: 16)
        let count = String(min(options.cues, 99_999))
        put(String(repeating: "0", count: 5 - count.count) + count, at: 238)
        put(String(repeating: "0", count: 5 - count.count) + count, at: 243)
        put("001", at: 248)
        put("4023", at: 251)
        put("1", at: 255)
        put("0000000000000000", at: 256)
        put("11", at: 272)
        output.append(contentsOf: block)
    }

    /// One subtitle as teletext writes it: each line double height in a box (0x0D 0x0B 0x0B …
    /// 0x0A 0x0A), lines two rows apart (0x8A 0x8A), colours as teletext colour codes, in one block
    /// (text past its 112 bytes is left out, so that the GSI's block count is the cue count). Times
    /// are two frames apart (80 ms), so that a million subtitles fit in a day; the subtitle number
    /// wraps at 65,536.
    mutating func writeEBUSTLCue() {
        stlText.removeAll(keepingCapacity: true)
        stlText.append(contentsOf: [0x0D, 0x0B, 0x0B])
        for segment in cue.segments {
            switch segment {
            case .text(let range, let style):
                if case .color(let color) = style { stlText.append(UInt8(3 + color % 4)) }
                appendISO6937(cue.text[range])
                if case .color = style { stlText.append(0x07) }
            case .lineBreak:
                stlText.append(contentsOf: [0x0A, 0x0A, 0x8A, 0x8A, 0x0D, 0x0B, 0x0B])
            case .language(let index):
                stlText.append(0x20)
                appendISO6937(GeneratorVocabulary.languages[index].text[...])
            case .ruby, .timestamp:
                break
            }
        }
        stlText.append(contentsOf: [0x0A, 0x0A])
        if stlText.count > 112 {
            stlText.removeLast(stlText.count - 112)
            // A diacritic left without its letter.
            if let last = stlText.last, last >= 0xC1, last <= 0xCF { stlText.removeLast() }
        }
        let number = cue.index & 0xFFFF
        let start = cue.index * 2
        let pieces = max(1, (stlText.count + 111) / 112)
        for piece in 0..<pieces {
            output.append(0)
            output.append(UInt8(number & 0xFF))
            output.append(UInt8(number >> 8))
            output.append(piece == pieces - 1 ? 0xFF : UInt8(piece))
            output.append(0)
            appendTimecode(frames: start)
            appendTimecode(frames: start + 2)
            output.append(cue.placement == .top || cue.placement == .topLeft ? 2 : 20)
            output.append(2)
            output.append(0)
            let text = stlText[(piece * 112)..<min(stlText.count, piece * 112 + 112)]
            output.append(contentsOf: text)
            output.append(contentsOf: repeatElement(0x8F, count: 112 - text.count))
        }
    }

    /// Hours, minutes, seconds and frames (25 a second), binary.
    mutating func appendTimecode(frames: Int) {
        let seconds = frames / 25
        output.append(UInt8(seconds / 3600 % 24))
        output.append(UInt8(seconds / 60 % 60))
        output.append(UInt8(seconds % 60))
        output.append(UInt8(frames % 25))
    }

    /// UTF-8 text in ISO 6937: ASCII as it is, Latin letters with an acute, grave, circumflex or
    /// diaeresis as the diacritic and the letter, anything else as `?`.
    mutating func appendISO6937(_ bytes: ArraySlice<UInt8>) {
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                stlText.append(UInt8(scalar.value))
            } else if let (diacritic, letter) = Self.iso6937Letters[scalar] {
                stlText.append(diacritic)
                stlText.append(letter)
            } else {
                stlText.append(UInt8(ascii: "?"))
            }
        }
    }

    static let iso6937Letters: [Unicode.Scalar: (UInt8, UInt8)] = [
        "é": (0xC2, 0x65), "è": (0xC1, 0x65), "ê": (0xC3, 0x65), "ë": (0xC8, 0x65), "á": (0xC2, 0x61), "à": (0xC1, 0x61),
        "â": (0xC3, 0x61), "ä": (0xC8, 0x61), "í": (0xC2, 0x69), "ó": (0xC2, 0x6F), "ö": (0xC8, 0x6F), "ô": (0xC3, 0x6F),
        "ú": (0xC2, 0x75), "ü": (0xC8, 0x75), "ñ": (0xC4, 0x6E), "ç": (0xCB, 0x63), "É": (0xC2, 0x45), "Ü": (0xC8, 0x55),
    ]
}
