import CueKit

/// Writes WebVTT cue text (WebVTT section 4.2.2) straight to bytes: what ``CueText/markup(for:)``
/// writes for the same tree, without building the tree.
///
/// The reader hands it text whose line breaks are already its own (no carriage return, no empty
/// line, none at the start or end), classes already sanitised, so that it only escapes `&`, `<`
/// and `>` (which also keeps `-->` out of the text) and writes tags.
struct TTMLMarkupWriter {
    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(128)
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// `<tag.class1.class2 annotation>`.
    mutating func open(_ wrapper: TTMLParagraph.Wrapper) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(contentsOf: wrapper.kind.tagName.utf8)
        for name in wrapper.classes {
            bytes.append(UInt8(ascii: "."))
            for byte in name.utf8 where Self.isClassByte(byte) { bytes.append(byte) }
        }
        if let annotation = wrapper.kind.annotation {
            // Language tags and voice names hold no white space that matters: left out, as the
            // WebVTT tokenizer would collapse it.
            let kept = annotation.utf8.filter { !($0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D || $0 == 0x20) }
            if !kept.isEmpty {
                bytes.append(UInt8(ascii: " "))
                for byte in kept {
                    switch byte {
                    case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
                    case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
                    case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
                    default: bytes.append(byte)
                    }
                }
            }
        }
        // `<c.a-->` would hold `-->`, which ends a cue block.
        if bytes.last == UInt8(ascii: "-") { bytes.append(UInt8(ascii: " ")) }
        bytes.append(UInt8(ascii: ">"))
    }

    /// `</tag>`.
    mutating func close(_ wrapper: TTMLParagraph.Wrapper) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(UInt8(ascii: "/"))
        bytes.append(contentsOf: wrapper.kind.tagName.utf8)
        bytes.append(UInt8(ascii: ">"))
    }

    /// Text, with `&`, `<` and `>` escaped.
    mutating func text(_ text: UnsafeBufferPointer<UInt8>) {
        guard text.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
            bytes.append(contentsOf: text)
            return
        }
        for byte in text {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            default: bytes.append(byte)
            }
        }
    }

    /// Text held in a string.
    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { self.text($0) }
    }

    /// Markup written before.
    mutating func raw(_ markup: [UInt8]) {
        bytes.append(contentsOf: markup)
    }

    mutating func lineBreak() {
        bytes.append(0x0A)
    }

    /// Puts a byte at an earlier place: a collapsed space or a line break that turned out to be
    /// followed by text.
    mutating func insert(_ byte: UInt8, at offset: Int) {
        if offset == bytes.count {
            bytes.append(byte)
        } else {
            bytes.insert(byte, at: offset)
        }
    }

    private static func isClassByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20, UInt8(ascii: "."), UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"): false
        default: true
        }
    }
}
