/// Writes WebVTT cue text (WebVTT section 4.2.2) to bytes as it goes: start and end tags, escaped
/// text, timestamps and line breaks, with nothing built in between.
///
/// The one writer of cue text markup: ``CueText/markup(for:)`` walks a tree through it, and the TTML
/// reader writes each cue through it straight from the document, without a tree. What it writes is
/// safe in a cue block: `&`, `<` and `>` are escaped in text and annotations (which also keeps
/// `-->` out), class names lose the characters a class cannot hold, annotations are collapsed as the
/// tokenizer collapses them, and no tag ends in `-->`.
package struct CueTextMarkupBuilder: Sendable {
    /// The markup so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty builder, with room for a short cue.
    package init(capacity: Int = 128) {
        bytes.reserveCapacity(capacity)
    }

    /// An empty builder writing into `storage`'s memory (emptied, its capacity kept): a builder
    /// made for each of many cues allocates nothing once ``takeStorage()`` hands the memory back.
    package init(reusing storage: consuming [UInt8]) {
        bytes = consume storage
        bytes.removeAll(keepingCapacity: true)
    }

    /// Takes the bytes out, leaving the builder empty: for ``init(reusing:)`` to write the next cue
    /// in the same memory.
    package mutating func takeStorage() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }

    /// The markup as a string.
    package var string: String { String(decoding: bytes, as: UTF8.self) }

    /// `<name.class1.class2 annotation>`: each class without the bytes a class cannot hold (empty
    /// ones left out), the annotation collapsed (``normalizedAnnotation(_:)``) and escaped.
    package mutating func openTag(_ name: String, classes: [String], annotation: String?) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(contentsOf: name.utf8)
        for name in classes {
            let start = bytes.count
            bytes.append(UInt8(ascii: "."))
            for byte in name.utf8 where Self.isClassByte(byte) { bytes.append(byte) }
            if bytes.count == start + 1 { bytes.removeLast() }
        }
        if let annotation, !annotation.isEmpty {
            if annotation.utf8.contains(where: Self.isWhiteSpace) {
                let normalized = Self.normalizedAnnotation(annotation)
                if !normalized.isEmpty {
                    bytes.append(UInt8(ascii: " "))
                    appendEscaped(normalized.utf8)
                }
            } else {
                // The common case, a language tag or a name without white space: no copy.
                bytes.append(UInt8(ascii: " "))
                appendEscaped(annotation.utf8)
            }
        }
        // `<c.a-->` would hold `-->`, which ends a cue block: a space before `>` keeps the tag the same.
        if bytes.last == UInt8(ascii: "-") { bytes.append(UInt8(ascii: " ")) }
        bytes.append(UInt8(ascii: ">"))
    }

    /// `</name>`.
    package mutating func closeTag(_ name: String) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(UInt8(ascii: "/"))
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: ">"))
    }

    /// Text, with `&`, `<` and `>` escaped.
    package mutating func text(_ text: UnsafeBufferPointer<UInt8>) {
        guard text.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
            bytes.append(contentsOf: text)
            return
        }
        appendEscaped(text)
    }

    /// Text held in a string.
    package mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { self.text($0) }
    }

    /// A timestamp tag, `<hh:mm:ss.ttt>`; a negative time is written as zero.
    package mutating func timestamp(_ milliseconds: Int) {
        bytes.append(UInt8(ascii: "<"))
        CueTimestamp.append(milliseconds, hours: .always, to: &bytes)
        bytes.append(UInt8(ascii: ">"))
    }

    /// Markup written before, as it is.
    package mutating func raw(_ markup: [UInt8]) {
        bytes.append(contentsOf: markup)
    }

    /// A line break.
    package mutating func lineBreak() {
        bytes.append(0x0A)
    }

    /// Puts a byte at an earlier place: a collapsed space or a line break that turned out to be
    /// followed by text.
    package mutating func insert(_ byte: UInt8, at offset: Int) {
        if offset == bytes.count {
            bytes.append(byte)
        } else {
            bytes.insert(byte, at: offset)
        }
    }

    /// Takes the bytes, leaving the builder empty.
    package mutating func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    private mutating func appendEscaped(_ source: some Sequence<UInt8>) {
        for byte in source {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            default: bytes.append(byte)
            }
        }
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x20
    }

    /// True for a byte a class name can hold: not white space, `.`, `&`, `<` or `>`.
    package static func isClassByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20, UInt8(ascii: "."), UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"):
            false
        default:
            true
        }
    }

    /// What the WebVTT tokenizer makes of an annotation: ASCII white space trimmed, runs of it
    /// collapsed to one space.
    package static func normalizedAnnotation(_ annotation: String) -> String {
        var result: [UInt8] = []
        var pendingSpace = false
        for byte in annotation.utf8 {
            switch byte {
            case 0x09, 0x0A, 0x0C, 0x0D, 0x20:
                pendingSpace = !result.isEmpty
            default:
                if pendingSpace { result.append(0x20) }
                pendingSpace = false
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
