import CCueKitBytes
import CueKitTestSupport
import Testing

/// The vector passes that mark cue text's `<`, `&` and `>` (`cuekit_markup_masks`, AVX2 here; and
/// SSE2) against the byte-by-byte reference, on random texts of every length around the 64-byte
/// words, marks at every offset, and the bytes after the text never looked at.
@Suite struct MarkupMasksTests {
    @Test func theVectorPassesAgreeWithTheReference() {
        var random = SeededRandom(seed: 0x3A5B)
        let alphabet: [UInt8] = Array("<&>a b\n".utf8) + [0x00, 0xC3, 0xA9, 0xFF, 0x3D, 0x3F]
        for round in 0..<20_000 {
            let count = Int.random(in: 0...260, using: &random)
            // Marks dense or sparse, so that whole words without one and words of only marks both come.
            let density = Int.random(in: 1...64, using: &random)
            var bytes = (0..<count).map { _ in
                Int.random(in: 0..<density, using: &random) == 0 ? alphabet.randomElement(using: &random)! : UInt8(ascii: "x")
            }
            // Marks right after the text, which the passes must not read.
            bytes += [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&")]
            let words = (count + 63) / 64
            func masks(_ pass: (UnsafePointer<UInt8>, Int, UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<UInt64>) -> Void) -> [UInt64] {
                // Both arrays filled with a pattern first: every word must be written.
                var specials = [UInt64](repeating: 0xDEAD_BEEF_DEAD_BEEF, count: max(words, 1))
                var closers = specials
                bytes.withUnsafeBufferPointer { buffer in
                    specials.withUnsafeMutableBufferPointer { s in
                        closers.withUnsafeMutableBufferPointer { c in pass(buffer.baseAddress!, count, s.baseAddress!, c.baseAddress!) }
                    }
                }
                return Array(specials.prefix(words) + closers.prefix(words))
            }
            let reference = masks { cuekit_markup_masks_portable($0, $1, $2, $3) }
            let vector = masks { cuekit_markup_masks($0, $1, $2, $3) }
            let sse2 = masks { cuekit_markup_masks_sse2($0, $1, $2, $3) }
            #expect(vector == reference && sse2 == reference, "round \(round): \(count) bytes")
            // The reference itself, bit by bit.
            for index in 0..<count {
                let special = reference[index / 64] >> UInt64(index % 64) & 1 == 1
                let closer = reference[words + index / 64] >> UInt64(index % 64) & 1 == 1
                #expect(special == (bytes[index] == UInt8(ascii: "<") || bytes[index] == UInt8(ascii: "&")))
                #expect(closer == (bytes[index] == UInt8(ascii: ">")))
            }
        }
    }
}
