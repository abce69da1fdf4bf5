/// Well-formedness of BCP 47 language tags (RFC 5646, section 2.1), which WebVTT requires of the
/// annotation of `<lang>` (W3C WebVTT, section 4.2.2, "WebVTT cue language span").
///
/// Only the syntax is checked, as conformance checkers do: `en-GB`, `zh-Hant-TW`, `x-private` pass;
/// `english` and `en_GB` do not. Whether a subtag is registered is not checked.
package enum LanguageTag {
    /// The irregular grandfathered tags, which do not follow the general syntax.
    /// The grandfathered tags of BCP 47 (RFC 5646 section 2.2.8): the irregular ones, which the
    /// syntax below does not match, and the regular ones, which it does.
    package static let grandfathered: Set<String> = [
        "en-gb-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo",
        "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-be-fr", "sgn-be-nl", "sgn-ch-de",
        "art-lojban", "cel-gaulish", "no-bok", "no-nyn", "zh-guoyu", "zh-hakka", "zh-min", "zh-min-nan", "zh-xiang",
    ]

    /// True when `bytes` is a well-formed language tag.
    /// True when `tag` is a well-formed BCP 47 language tag.
    package static func isWellFormed(_ tag: String) -> Bool { isWellFormed(Array(tag.utf8)) }

    /// A well-formed tag close to `tag` (`en_US` for `en-US`), if there is one.
    package static func suggestion(for tag: String) -> String? {
        guard tag.contains("_") else { return nil }
        let fixed = String(tag.map { $0 == "_" ? "-" : $0 })
        return isWellFormed(fixed) ? fixed : nil
    }

    package static func isWellFormed(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isWellFormed($0) }
    }

    /// True when `bytes` is a well-formed language tag: the general syntax, read subtag by subtag
    /// in place, or one of the ``grandfathered`` tags (looked up only when the syntax fails, which
    /// the regular ones never do).
    package static func isWellFormed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if matchesSyntax(bytes) { return true }
        guard !bytes.isEmpty, bytes.count <= 11 else { return false }
        let lowercased = bytes.map { $0 | ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? 0x20 : 0) }
        return grandfathered.contains(String(decoding: lowercased, as: UTF8.self))
    }

    /// The `langtag` and `privateuse` productions of RFC 5646, section 2.1.
    private static func matchesSyntax(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // Subtags of 1-8 alphanumerics, separated by single hyphens.
        guard !bytes.isEmpty else { return false }
        var run = 0
        for byte in bytes {
            if byte == UInt8(ascii: "-") {
                guard run > 0 else { return false }
                run = 0
            } else {
                guard isAlphanumeric(byte), run < 8 else { return false }
                run += 1
            }
        }
        guard run > 0 else { return false }
        var subtags = Subtags(bytes: bytes)
        // A private use tag on its own: x-whatever.
        if subtags.current.isX { return subtags.hasMoreAfterCurrent }
        // language: 2-3 letters (with up to three extlang subtags of 3 letters), or 4-8 letters.
        let language = subtags.current
        guard language.count >= 2, language.allLetters else { return false }
        subtags.advance()
        if language.count <= 3 {
            var extlangs = 0
            while extlangs < 3, subtags.current.count == 3, subtags.current.allLetters {
                subtags.advance()
                extlangs += 1
            }
        }
        // script: 4 letters.
        if subtags.current.count == 4, subtags.current.allLetters { subtags.advance() }
        // region: 2 letters or 3 digits.
        let region = subtags.current
        if (region.count == 2 && region.allLetters) || (region.count == 3 && region.allDigits) { subtags.advance() }
        // variants: 5-8 alphanumerics, or a digit and 3 alphanumerics.
        while subtags.current.count >= 5 || (subtags.current.count == 4 && isDigit(subtags.current.first)) { subtags.advance() }
        // extensions: a singleton other than x, then subtags of 2-8 alphanumerics.
        while subtags.current.count == 1, !subtags.current.isX {
            subtags.advance()
            var parts = 0
            while subtags.current.count >= 2 {
                subtags.advance()
                parts += 1
            }
            guard parts > 0 else { return false }
        }
        if subtags.current.isX { return subtags.hasMoreAfterCurrent }
        return subtags.isAtEnd
    }

    /// The subtags of a tag already known to be hyphen-separated alphanumerics, one at a time.
    private struct Subtags {
        struct Subtag {
            var bytes: UnsafeRawBufferPointer
            var count: Int { bytes.count }
            var first: UInt8 { bytes.isEmpty ? 0 : bytes[0] }
            var isX: Bool { bytes.count == 1 && bytes[0] | 0x20 == UInt8(ascii: "x") }
            var allLetters: Bool { bytes.allSatisfy(LanguageTag.isLetter) }
            var allDigits: Bool { bytes.allSatisfy(LanguageTag.isDigit) }
        }

        let bytes: UnsafeRawBufferPointer
        /// The current subtag (empty at the end) and where it ends.
        private(set) var current: Subtag
        private var end: Int

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
            end = ByteScanning.firstIndex(of: UInt8(ascii: "-"), in: bytes, from: 0, to: bytes.count)
            current = Subtag(bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<end]))
        }

        var isAtEnd: Bool { current.count == 0 }
        var hasMoreAfterCurrent: Bool { end < bytes.count }

        mutating func advance() {
            guard end < bytes.count else {
                current = Subtag(bytes: UnsafeRawBufferPointer(start: nil, count: 0))
                return
            }
            let start = end + 1
            end = ByteScanning.firstIndex(of: UInt8(ascii: "-"), in: bytes, from: start, to: bytes.count)
            current = Subtag(bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        }
    }

    fileprivate static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    fileprivate static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
}
