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
        guard !bytes.isEmpty, bytes.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") }) else { return false }
        let lowercased = bytes.map { $0 | ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? 0x20 : 0) }
        if grandfathered.contains(String(decoding: lowercased, as: UTF8.self)) { return true }
        let subtags = lowercased.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false).map(Array.init)
        guard subtags.allSatisfy({ !$0.isEmpty && $0.count <= 8 }) else { return false }
        var index = 0
        // A private use tag on its own: x-whatever.
        if subtags[0] == [UInt8(ascii: "x")] { return isPrivateUse(subtags, from: 0) }
        // language: 2-3 letters (with up to three extlang subtags of 3 letters), or 4-8 letters.
        let language = subtags[0]
        guard language.allSatisfy(isLetter), (2...8).contains(language.count) else { return false }
        index = 1
        if language.count <= 3 {
            var extlangs = 0
            while index < subtags.count, extlangs < 3, subtags[index].count == 3, subtags[index].allSatisfy(isLetter) {
                index += 1
                extlangs += 1
            }
        }
        // script: 4 letters.
        if index < subtags.count, subtags[index].count == 4, subtags[index].allSatisfy(isLetter) { index += 1 }
        // region: 2 letters or 3 digits.
        if index < subtags.count {
            let subtag = subtags[index]
            if (subtag.count == 2 && subtag.allSatisfy(isLetter)) || (subtag.count == 3 && subtag.allSatisfy(isDigit)) { index += 1 }
        }
        // variants: 5-8 alphanumerics, or a digit and 3 alphanumerics.
        while index < subtags.count {
            let subtag = subtags[index]
            guard subtag.count >= 5 || (subtag.count == 4 && isDigit(subtag[0])) else { break }
            index += 1
        }
        // extensions: a singleton other than x, then subtags of 2-8 alphanumerics.
        while index < subtags.count, subtags[index].count == 1, subtags[index][0] != UInt8(ascii: "x") {
            index += 1
            var parts = 0
            while index < subtags.count, subtags[index].count >= 2 {
                index += 1
                parts += 1
            }
            guard parts > 0 else { return false }
        }
        if index < subtags.count, subtags[index] == [UInt8(ascii: "x")] { return isPrivateUse(subtags, from: index) }
        return index == subtags.count
    }

    private static func isPrivateUse(_ subtags: [[UInt8]], from index: Int) -> Bool {
        subtags.count > index + 1
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
}
