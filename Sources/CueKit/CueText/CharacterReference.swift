/// HTML's "consume a character reference" as WebVTT's cue text tokenizer uses it (W3C WebVTT,
/// section 6.4; HTML, section 13.2.5.72 onwards), on UTF-8 bytes.
///
/// The context is never "as part of an attribute", so a named reference without its `;` is decoded
/// whatever follows it (`&notit;` is `¬it;`), and the longest name that matches wins.
enum CharacterReference {
    /// What a reference decoded to.
    struct Decoded {
        /// The first code point.
        var first: Unicode.Scalar
        /// The second code point, for the few named references that stand for two.
        var second: Unicode.Scalar?
        /// The offset just past the reference (its `;` included when it has one).
        var end: Int
        /// A parse error HTML defines for this reference, if any.
        var problem: Problem?
    }

    /// The parse errors of HTML's character reference states that a WebVTT author can make.
    enum Problem: Equatable {
        /// A reference without its `;` (decoded all the same).
        case missingSemicolon
        /// `&#;` or `&#x;`: no digits (the text is kept as written).
        case noDigits
        /// `&#0;`, a surrogate or a number beyond U+10FFFF (decoded as U+FFFD).
        case invalidCodePoint(UInt32)
        /// A control character or a noncharacter (decoded, or remapped through HTML's table).
        case controlCharacter(UInt32)
        /// `&name;` with a name HTML does not know (the text is kept as written).
        case unknownName
    }

    /// Tries to decode the reference whose `&` is at `ampersand`.
    ///
    /// Returns `nil` when there is no reference there (then the `&` is text, and `problem` says
    /// whether HTML calls that an error).
    static func consume(
        _ bytes: UnsafeRawBufferPointer,
        ampersand: Int,
        additionalAllowed: UInt8?,
        problem: inout Problem?
    ) -> Decoded? {
        let start = ampersand + 1
        guard start < bytes.count else { return nil }
        let next = bytes[start]
        switch next {
        case 0x09, 0x0A, 0x0C, 0x20, UInt8(ascii: "<"), UInt8(ascii: "&"):
            return nil
        case UInt8(ascii: "#"):
            return consumeNumeric(bytes, hash: start, problem: &problem)
        default:
            if let additionalAllowed, next == additionalAllowed { return nil }
            return consumeNamed(bytes, start: start, problem: &problem)
        }
    }

    private static func consumeNumeric(_ bytes: UnsafeRawBufferPointer, hash: Int, problem: inout Problem?) -> Decoded? {
        var index = hash + 1
        var hexadecimal = false
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "x") {
            hexadecimal = true
            index += 1
        }
        let digitsStart = index
        var value: UInt32 = 0
        while index < bytes.count {
            let byte = bytes[index]
            let digit: UInt32
            if byte &- UInt8(ascii: "0") < 10 {
                digit = UInt32(byte &- UInt8(ascii: "0"))
            } else if hexadecimal, (byte | 0x20) &- UInt8(ascii: "a") < 6 {
                digit = UInt32((byte | 0x20) &- UInt8(ascii: "a")) + 10
            } else {
                break
            }
            // Saturate past U+10FFFF: every such number decodes to U+FFFD.
            value = min(value * (hexadecimal ? 16 : 10) + digit, 0x11_0000)
            index += 1
        }
        guard index > digitsStart else {
            problem = .noDigits
            return nil
        }
        var found: Problem?
        if index < bytes.count, bytes[index] == UInt8(ascii: ";") {
            index += 1
        } else {
            found = .missingSemicolon
        }
        let scalar: Unicode.Scalar
        if value == 0 || value > 0x10_FFFF || (0xD800...0xDFFF).contains(value) {
            found = .invalidCodePoint(value)
            scalar = "\u{FFFD}"
        } else if let replacement = windows1252Replacement(value) {
            found = .controlCharacter(value)
            scalar = replacement
        } else {
            if isControlOrNoncharacter(value) { found = .controlCharacter(value) }
            scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        }
        return Decoded(first: scalar, second: nil, end: index, problem: found)
    }

    private static func consumeNamed(_ bytes: UnsafeRawBufferPointer, start: Int, problem: inout Problem?) -> Decoded? {
        // The candidate: the longest run of ASCII alphanumerics a name can have, and a `;` after it.
        var runEnd = start
        let limit = min(bytes.count, start + NamedCharacterReferences.maximumNameLength)
        while runEnd < limit, isAlphanumeric(bytes[runEnd]) { runEnd += 1 }
        guard runEnd > start else { return nil }
        let hasSemicolon = runEnd < bytes.count && bytes[runEnd] == UInt8(ascii: ";")
        if hasSemicolon, let index = lookUp(bytes, start, runEnd + 1) {
            return decoded(index, end: runEnd + 1, problem: nil)
        }
        // Legacy names without `;`: the longest that is a prefix of the run.
        var length = runEnd - start
        while length > 0 {
            if let index = lookUp(bytes, start, start + length) {
                return decoded(index, end: start + length, problem: .missingSemicolon)
            }
            length -= 1
        }
        if hasSemicolon { problem = .unknownName }
        return nil
    }

    private static func decoded(_ index: Int, end: Int, problem: Problem?) -> Decoded {
        let first = NamedCharacterReferences.codePoints[2 * index]
        let second = NamedCharacterReferences.codePoints[2 * index + 1]
        return Decoded(
            first: Unicode.Scalar(first) ?? "\u{FFFD}",
            second: second == 0 ? nil : Unicode.Scalar(second),
            end: end,
            problem: problem
        )
    }

    /// Binary search for the name `bytes[from..<to]`.
    private static func lookUp(_ bytes: UnsafeRawBufferPointer, _ from: Int, _ to: Int) -> Int? {
        let names = UnsafeRawBufferPointer(start: NamedCharacterReferences.names.utf8Start, count: NamedCharacterReferences.names.utf8CodeUnitCount)
        let offsets = NamedCharacterReferences.offsets
        var low = 0, high = NamedCharacterReferences.count
        while low < high {
            let middle = (low + high) / 2
            let nameStart = Int(offsets[middle]), nameEnd = Int(offsets[middle + 1])
            let order = compare(names, nameStart, nameEnd, bytes, from, to)
            if order == 0 { return middle }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Byte-wise comparison of two ranges: negative, zero or positive.
    private static func compare(
        _ a: UnsafeRawBufferPointer, _ aStart: Int, _ aEnd: Int,
        _ b: UnsafeRawBufferPointer, _ bStart: Int, _ bEnd: Int
    ) -> Int {
        let length = min(aEnd - aStart, bEnd - bStart)
        for offset in 0..<length {
            let x = a[aStart + offset], y = b[bStart + offset]
            if x != y { return Int(x) - Int(y) }
        }
        return (aEnd - aStart) - (bEnd - bStart)
    }

    @inline(__always)
    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 26
    }

    /// HTML's table for numeric references to C1 controls, read as windows-1252 (and `&#x0D;`).
    private static func windows1252Replacement(_ value: UInt32) -> Unicode.Scalar? {
        switch value {
        case 0x80: "\u{20AC}"
        case 0x82: "\u{201A}"
        case 0x83: "\u{0192}"
        case 0x84: "\u{201E}"
        case 0x85: "\u{2026}"
        case 0x86: "\u{2020}"
        case 0x87: "\u{2021}"
        case 0x88: "\u{02C6}"
        case 0x89: "\u{2030}"
        case 0x8A: "\u{0160}"
        case 0x8B: "\u{2039}"
        case 0x8C: "\u{0152}"
        case 0x8E: "\u{017D}"
        case 0x91: "\u{2018}"
        case 0x92: "\u{2019}"
        case 0x93: "\u{201C}"
        case 0x94: "\u{201D}"
        case 0x95: "\u{2022}"
        case 0x96: "\u{2013}"
        case 0x97: "\u{2014}"
        case 0x98: "\u{02DC}"
        case 0x99: "\u{2122}"
        case 0x9A: "\u{0161}"
        case 0x9B: "\u{203A}"
        case 0x9C: "\u{0153}"
        case 0x9E: "\u{017E}"
        case 0x9F: "\u{0178}"
        default: nil
        }
    }

    /// HTML's "control-character-reference" and "noncharacter-character-reference" errors.
    private static func isControlOrNoncharacter(_ value: UInt32) -> Bool {
        if value == 0x0D || (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0C) { return true }
        if (0x7F...0x9F).contains(value) { return true }
        if (0xFDD0...0xFDEF).contains(value) { return true }
        return value & 0xFFFE == 0xFFFE
    }
}
