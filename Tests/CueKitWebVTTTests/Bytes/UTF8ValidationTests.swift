import CCueKitBytes
import CueKit
import CueKitTestSupport
import Testing

/// The vector UTF-8 checks the WebVTT fast path runs on blocks beyond ASCII
/// (`cuekit_utf8_is_valid`, AVX2 here; and SSSE3) against their sequence-by-sequence reference and against CueKit's own
/// decoder (`UTF8Repair`), on random text built to hit every kind of fault at every offset.
@Suite struct UTF8ValidationTests {
    /// Pieces of text: ASCII, valid sequences at the edges of each range, and each kind of fault.
    static let pieces: [[UInt8]] = [
        [0x61], [0x20], [0x7F], [0x0A],
        [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
        [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF3, 0xBF, 0xBF, 0xBF], Array("가요".utf8), Array("é😀".utf8),
        // Faults: a lone continuation, overlong forms, a surrogate, past U+10FFFF, bytes never valid,
        // a lead without its continuation.
        [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF8], [0xFF], [0xC2], [0xE1, 0x80], [0xF1, 0x80, 0x80],
    ]

    @Test func theVectorCheckAgreesWithTheReferenceAndTheDecoder() {
        var random = SeededRandom(seed: 0x07F8)
        var invalid = 0, valid = 0
        for round in 0..<20_000 {
            var bytes: [UInt8] = []
            // Mostly valid pieces, so that a fault is often alone, and far from the start.
            let faultRate = Int.random(in: 0...12, using: &random)
            // Up to four of the AVX2 check's steps of 32 bytes.
            while bytes.count < Int.random(in: 0...130, using: &random) {
                let piece = Self.pieces.randomElement(using: &random)!
                let isFault = Self.pieces.firstIndex(of: piece)! >= 15
                if isFault, Int.random(in: 0..<100, using: &random) >= faultRate { continue }
                bytes += piece
            }
            let vector = bytes.withUnsafeBufferPointer { cuekit_utf8_is_valid($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
            let ssse3 = bytes.withUnsafeBufferPointer { cuekit_utf8_is_valid_ssse3($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
            let reference = bytes.withUnsafeBufferPointer { cuekit_utf8_is_valid_portable($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
            let decoder = bytes.withUnsafeBytes { UTF8Repair.isCleanByDecoding($0) }
            #expect(vector == reference && ssse3 == reference && reference == decoder, "round \(round): \(bytes)")
            if reference { valid += 1 } else { invalid += 1 }
        }
        #expect(valid > 3_000 && invalid > 3_000)
    }

    @Test func aSequenceCutShortAtTheEndIsInvalidAtEveryLength() {
        // A lead byte as the very last byte, with the text before it filling 0 to 79 bytes: the
        // last step (of 16 or 32 bytes) is then whole or padded, at every offset.
        for check in [cuekit_utf8_is_valid, cuekit_utf8_is_valid_ssse3] {
            for length in 0..<80 {
                for (tail, completion): ([UInt8], UInt8) in [([0xC3], 0xA9), ([0xE2, 0x82], 0xAC), ([0xF0, 0x9F, 0x98], 0x80)] {
                    let cut = [UInt8](repeating: 0x61, count: length) + tail
                    let cutIsValid = cut.withUnsafeBufferPointer { check($0.baseAddress!, $0.count) }
                    #expect(!cutIsValid, "\(length) bytes, then \(tail)")
                    // With its last byte the sequence is whole (é, €, 😀).
                    let whole = cut + [completion]
                    let wholeIsValid = whole.withUnsafeBufferPointer { check($0.baseAddress!, $0.count) }
                    #expect(wholeIsValid, "\(whole)")
                }
            }
        }
    }
}
