import CueKit
import CueKitTestSupport
import Testing

@Suite struct UTF8RepairTests {
    private func repair(_ bytes: [UInt8]) -> (String, UTF8Repair.Report) {
        var output: [UInt8] = []
        let report = bytes.withUnsafeBytes { UTF8Repair.repair($0, into: &output) }
        return (String(decoding: output, as: UTF8.self), report)
    }

    @Test func invalidSequencesAndNULBecomeReplacementCharactersWithTheirColumns() {
        // "a", a lone continuation byte, "é", a truncated three-byte sequence, NUL, "z".
        let (text, report) = repair([0x61, 0x80, 0xC3, 0xA9, 0xE2, 0x82, 0x00, 0x7A])
        #expect(text == "a\u{FFFD}é\u{FFFD}\u{FFFD}z")
        #expect(report.invalidSequences == 2 && report.nullCharacters == 1)
        #expect(report.firstInvalidColumn == 2 && report.firstNullColumn == 5)
        #expect(report.invalidLeadBytes == [0x80, 0xE2])
        #expect(!report.looksLikeSingleByteEncoding)
        #expect([UInt8]([0x61, 0xC3, 0xA9]).withUnsafeBytes(UTF8Repair.isClean))
        #expect(![UInt8]([0x61, 0x00]).withUnsafeBytes(UTF8Repair.isClean))
    }

    @Test func lonelyHighBytesLookLikeASingleByteEncoding() {
        let (_, report) = repair(Array("caf".utf8) + [0xE9, 0x20, 0x93])
        #expect(report.looksLikeSingleByteEncoding)
        #expect(report.invalidLeadBytes == [0xE9, 0x93])
    }

    /// The pieces random lines are made of: ASCII (NUL included), every length of valid
    /// sequence at the edges of its ranges, and the ways a sequence goes wrong (overlong forms,
    /// surrogates, past U+10FFFF, stray continuations, bytes no sequence starts with, and
    /// sequences cut short).
    static let pieces: [[UInt8]] = [
        Array("plain text".utf8), [0x20], [0x00], [0x7F], Array("a\tb".utf8),
        [0xC2, 0x80], [0xDF, 0xBF], [0xC3, 0xA9],
        [0xE0, 0xA0, 0x80], [0xE1, 0x80, 0x80], [0xEC, 0xBF, 0xBF], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBD],
        [0xF0, 0x90, 0x80, 0x80], [0xF3, 0xBF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],
        Array("가요 네 괜찮아요".utf8), Array("שלום".utf8), Array("😀".utf8),
        [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
        [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE],
        [0x80], [0xBF], [0xC2], [0xE1, 0x80], [0xF1, 0x80, 0x80], [0xE1], [0xF0, 0x90],
    ]

    /// The word-at-a-time check answers as the decoder does, on 20,000 random lines of up to
    /// forty pieces (so that problems land at every place within and across words), and on
    /// each piece alone.
    @Test func theFastCheckAgreesWithTheDecoder() {
        for piece in Self.pieces {
            piece.withUnsafeBytes { bytes in
                #expect(UTF8Repair.isClean(bytes) == UTF8Repair.isCleanByDecoding(bytes), "\(piece)")
            }
        }
        var random = SeededRandom(seed: 0x5EED_0008)
        var cleanLines = 0
        for _ in 0..<20_000 {
            var line: [UInt8] = []
            // Mostly clean pieces, so that both answers are common.
            let cleanOnly = random.next() % 2 == 0
            for _ in 0..<Int(random.next() % 40) {
                let piece = Self.pieces[Int(random.next() % UInt64(cleanOnly ? 20 : Self.pieces.count))]
                line += piece == [0x00] && cleanOnly ? [0x41] : piece
            }
            line.withUnsafeBytes { bytes in
                let decoded = UTF8Repair.isCleanByDecoding(bytes)
                if decoded { cleanLines += 1 }
                #expect(UTF8Repair.isClean(bytes) == decoded, "\(line)")
            }
        }
        #expect(cleanLines > 5_000 && cleanLines < 15_000, "\(cleanLines) clean lines of 20,000")
    }

    /// Every scalar Swift encodes is clean, and no NUL is.
    @Test func everyScalarIsCleanAndNULIsNot() {
        for value in UInt32(1)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(Character(scalar)).utf8)
            let clean = bytes.withUnsafeBytes { UTF8Repair.isClean($0) }
            if !clean { Issue.record("U+\(String(value, radix: 16)) is not clean") }
        }
        #expect([UInt8]([0x61, 0x00, 0x62]).withUnsafeBytes { UTF8Repair.isClean($0) } == false)
    }
}
