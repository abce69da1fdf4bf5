/// The shape of BCP 47 language tags (RFC 5646, section 2.1): what Cast's `language` fields hold.
///
/// This checks well-formedness against the RFC's ABNF, not registry validity: `en-US`, `zh-Hant-TW`,
/// `sr-Latn`, `es-419` and `x-private` pass; `en_US`, `english`, `e` and `en--US` do not. Receivers
/// match tracks to the viewer's language by these tags, so a malformed one silently never matches.
enum LanguageTag {
    /// The tags RFC 5646 keeps for compatibility although they do not fit the grammar (section 2.2.8).
    static let grandfathered: Set<String> = [
        "en-gb-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo",
        "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-be-fr", "sgn-be-nl", "sgn-ch-de",
        "art-lojban", "cel-gaulish", "no-bok", "no-nyn", "zh-guoyu", "zh-hakka", "zh-min", "zh-min-nan", "zh-xiang",
    ]

    /// True when `tag` is a well-formed language tag (case does not matter).
    static func isWellFormed(_ tag: String) -> Bool {
        let lowered = tag.lowercased()
        if grandfathered.contains(lowered) { return true }
        let subtags = lowered.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard !subtags.isEmpty, subtags.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.allSatisfy(isAlphanumeric) }) else {
            return false
        }
        var index = 0
        func peek() -> String? { index < subtags.count ? subtags[index] : nil }

        if subtags[0] == "x" { return isPrivateUse(subtags) }

        // language: 2*3ALPHA ["-" extlang] / 4ALPHA / 5*8ALPHA
        let language = subtags[0]
        guard language.allSatisfy(isLetter), (2...8).contains(language.count) else { return false }
        index = 1
        if language.count <= 3 {
            var extlangs = 0
            while let next = peek(), next.count == 3, next.allSatisfy(isLetter), extlangs < 3 {
                extlangs += 1
                index += 1
            }
        }
        // script: 4ALPHA
        if let next = peek(), next.count == 4, next.allSatisfy(isLetter) { index += 1 }
        // region: 2ALPHA / 3DIGIT
        if let next = peek(), (next.count == 2 && next.allSatisfy(isLetter)) || (next.count == 3 && next.allSatisfy(isDigit)) {
            index += 1
        }
        // variants: 5*8alphanum / DIGIT 3alphanum
        while let next = peek(), next.count >= 5 || (next.count == 4 && isDigit(next.first!)) {
            index += 1
        }
        // extensions: singleton 1*("-" 2*8alphanum)
        while let next = peek(), next.count == 1, next != "x" {
            index += 1
            var parts = 0
            while let part = peek(), part.count >= 2 {
                parts += 1
                index += 1
            }
            if parts == 0 { return false }
        }
        // private use: "x" 1*("-" 1*8alphanum)
        if let next = peek(), next == "x" {
            return isPrivateUse(Array(subtags[index...]))
        }
        return index == subtags.count
    }

    /// A hint for a malformed tag: the corrected form when the mistake is a common one.
    static func suggestion(for tag: String) -> String? {
        if tag.contains("_") {
            let fixed = tag.replacingOccurrences(of: "_", with: "-")
            if isWellFormed(fixed) { return fixed }
        }
        return nil
    }

    private static func isPrivateUse(_ subtags: [String]) -> Bool {
        subtags.count >= 2 && subtags[0] == "x" && subtags.dropFirst().allSatisfy { (1...8).contains($0.count) }
    }

    private static func isLetter(_ character: Character) -> Bool {
        character.isASCII && character.isLetter
    }

    private static func isDigit(_ character: Character) -> Bool {
        character.isASCII && character.isNumber
    }

    private static func isAlphanumeric(_ character: Character) -> Bool {
        isLetter(character) || isDigit(character)
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation here).
    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
