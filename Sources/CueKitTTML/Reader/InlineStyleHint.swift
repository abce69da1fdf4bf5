/// A byte-level look at a document that tells, much faster than parsing it, when its body cannot
/// hold style attributes: then the first pass of a two-pass read has nothing to find and is
/// skipped.
///
/// Attributes are never in a default namespace (Namespaces in XML 1.0, section 6.2), so a style
/// attribute is always written with a prefix, and that prefix is declared as
/// `xmlns:prefix="<a styling namespace>"` somewhere in the document. The hint collects those
/// prefixes and looks, after the start of the `body` element, for `prefix:` right after white
/// space (where an attribute name starts) and for any `xmlns:` (a declaration it cannot follow).
/// Finding either means "maybe": the first pass runs. The hint errs only that way (text that
/// happens to read ` tts:` makes it run for nothing); it answers "no" only for documents that are
/// plain ASCII-compatible bytes (UTF-8, or an 8-bit encoding), since UTF-16 hides the patterns.
struct InlineStyleHint {
    /// The styling namespaces whose prefixes count.
    static let stylingNamespaces: [[UInt8]] = [
        TTML.stylingNamespace, TTML.namespace + "#style", TTML.dfxp2006October + "#styling", TTML.dfxp2006October + "#style",
        TTML.dfxp2006April + "#styling", TTML.dfxp2006April + "#style", TTML.ebuStylingNamespace, TTML.imscStylingNamespace,
    ].map { Array($0.utf8) }

    private var prefixes: [[UInt8]] = []
    private var inBody = false
    private(set) var mayHaveInlineStyles = false
    private var first = true
    /// The end of the previous chunk, so that patterns split across chunks are seen.
    private var carry: [UInt8] = []
    private static let overlap = 256

    /// Looks at the next bytes.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        guard !mayHaveInlineStyles, !chunk.isEmpty else { return }
        if first {
            first = false
            // UTF-16 (with or without a byte order mark) and UTF-32 hide ASCII patterns.
            if chunk.count >= 2, chunk[0] == 0xFE || chunk[0] == 0xFF || chunk[0] == 0 || chunk[1] == 0 {
                mayHaveInlineStyles = true
                return
            }
        }
        var bytes = carry
        bytes.append(contentsOf: chunk)
        look(at: bytes)
        carry = Array(bytes.suffix(Self.overlap))
    }

    /// True when the first pass must run.
    func finish() -> Bool {
        mayHaveInlineStyles || first
    }

    private mutating func look(at bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count, !mayHaveInlineStyles {
                let byte = buffer[index]
                if byte == UInt8(ascii: "<") {
                    // `<body` or `<prefix:body`, followed by white space, `>` or `/`.
                    if !inBody, Self.isBodyStartTag(buffer, at: index) { inBody = true }
                } else if byte == UInt8(ascii: ":") {
                    if index >= 5, Self.matches(buffer, at: index - 5, "xmlns") {
                        // A declaration: learn styling prefixes before the body; after it, give up.
                        if inBody {
                            mayHaveInlineStyles = true
                            return
                        }
                        learnPrefix(buffer, colon: index)
                    } else if inBody, let prefixStart = Self.nameStart(buffer, before: index), prefixStart > 0,
                        [0x20, 0x09, 0x0A, 0x0D].contains(buffer[prefixStart - 1]),
                        prefixes.contains(where: { $0.elementsEqual(buffer[prefixStart..<index]) })
                    {
                        mayHaveInlineStyles = true
                        return
                    }
                }
                index += 1
            }
        }
    }

    private static func isBodyStartTag(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        var cursor = index + 1
        if let colon = (cursor..<min(buffer.count, cursor + 64)).first(where: { !isNameByte(buffer[$0]) }), colon < buffer.count,
            buffer[colon] == UInt8(ascii: ":")
        {
            cursor = colon + 1
        }
        guard matches(buffer, at: cursor, "body"), cursor + 4 < buffer.count else { return false }
        return [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(buffer[cursor + 4])
    }

    /// After `xmlns:` at `colon`: the prefix, `=`, and a quoted styling namespace.
    private mutating func learnPrefix(_ buffer: UnsafeBufferPointer<UInt8>, colon: Int) {
        var end = colon + 1
        while end < buffer.count, Self.isNameByte(buffer[end]) { end += 1 }
        let prefix = Array(buffer[(colon + 1)..<end])
        var cursor = end
        while cursor < buffer.count, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "=")].contains(buffer[cursor]) { cursor += 1 }
        guard cursor < buffer.count, buffer[cursor] == UInt8(ascii: "\"") || buffer[cursor] == UInt8(ascii: "'") else { return }
        let quote = buffer[cursor]
        var valueEnd = cursor + 1
        while valueEnd < buffer.count, buffer[valueEnd] != quote { valueEnd += 1 }
        let value = Array(buffer[(cursor + 1)..<valueEnd])
        // A character reference could spell a namespace in a way this does not see: then assume the worst.
        if value.contains(UInt8(ascii: "&")) || Self.stylingNamespaces.contains(value) {
            if !prefixes.contains(prefix) { prefixes.append(prefix) }
        }
    }

    private static func matches(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index >= 0, index + count <= buffer.count else { return false }
        let pattern = text.utf8Start
        for offset in 0..<count where buffer[index + offset] != pattern[offset] { return false }
        return true
    }

    /// The start of the XML name that ends just before `end`.
    private static func nameStart(_ buffer: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
        var start = end
        while start > 0, isNameByte(buffer[start - 1]) { start -= 1 }
        return start < end ? start : nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), 0x80...:
            true
        default:
            false
        }
    }
}
