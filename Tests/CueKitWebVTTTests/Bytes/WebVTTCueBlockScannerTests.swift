import CCueKitBytes
import CueKitTestSupport
import Testing

@testable import CueKitWebVTT

/// The vector pass that shapes a block for the reader's fast path (`cuekit_scan_block`) against
/// its byte-by-byte reference, and the shapes it gives where a step of 32 bytes splits what it
/// looks for.
@Suite struct WebVTTCueBlockScannerTests {
    /// The bytes the scan looks for, and a few it must not take for them.
    static let alphabet: [UInt8] = Array("\n\n\n---->>>><&ab 0.:".utf8) + [0x80, 0xC3, 0xA9, 0xFF, 0x00, 0x0D, 0x7F]

    /// The scans: the one the reader calls (AVX2 where the processor has it), SSE2 whatever it
    /// has, and the byte-by-byte reference.
    enum Scan: CaseIterable { case best, sse2, portable }

    static func shape(_ bytes: [UInt8], start: Int, limit: Int, portable: Bool) -> CueKitBlockShape? {
        shape(bytes, start: start, limit: limit, scan: portable ? .portable : .best)
    }

    static func shape(_ bytes: [UInt8], start: Int, limit: Int, scan: Scan) -> CueKitBlockShape? {
        bytes.withUnsafeBufferPointer { buffer in
            var shape = CueKitBlockShape()
            let found: Bool
            switch scan {
            case .best: found = cuekit_scan_block(buffer.baseAddress!, start, limit, &shape)
            case .sse2: found = cuekit_scan_block_sse2(buffer.baseAddress!, start, limit, &shape)
            case .portable: found = cuekit_scan_block_portable(buffer.baseAddress!, start, limit, &shape)
            }
            return found ? shape : nil
        }
    }

    @Test func theVectorScanAgreesWithTheByteByByteScan() {
        var random = SeededRandom(seed: 0x5CA7)
        var blocksFound = 0
        for round in 0..<20_000 {
            // Up to three wide steps of 64 bytes.
            let count = Int.random(in: 1...220, using: &random)
            var bytes = (0..<count).map { _ in Self.alphabet.randomElement(using: &random)! }
            // Some rounds hold runs of one byte, which put LFs and hyphens at every offset of a step.
            if round % 4 == 0 {
                let run = Int.random(in: 0..<count, using: &random)
                for index in run..<min(count, run + Int.random(in: 1...70, using: &random)) { bytes[index] = 0x61 }
            }
            let start = Int.random(in: 0..<count, using: &random)
            guard bytes[start] != 0x0A else { continue }
            let limit = Int.random(in: (start + 1)...count, using: &random)
            let reference = Self.shape(bytes, start: start, limit: limit, scan: .portable)
            for scan in [Scan.best, .sse2] {
                let vector = Self.shape(bytes, start: start, limit: limit, scan: scan)
                #expect(vector.map(Fields.init) == reference.map(Fields.init), "\(scan), round \(round): \(bytes) from \(start) to \(limit)")
            }
            if reference != nil { blocksFound += 1 }
        }
        #expect(blocksFound > 3_000)
    }

    @Test func anArrowAndAnEmptyLineSplitByAStepAreFound() throws {
        // The block starts at 3; its first step is bytes 3..<35 and its second 35..<67, so the
        // `-->` at 33...35 and the empty line's two LFs at 66 and 67 are each split between two.
        var bytes = Array("x\n\n".utf8)
        bytes += Array(repeating: UInt8(ascii: "1"), count: 30) + Array("-->".utf8) + Array(repeating: UInt8(ascii: "2"), count: 30)
        bytes += Array("\n\nnext".utf8)
        #expect(bytes[33] == UInt8(ascii: "-") && bytes[35] == UInt8(ascii: ">") && bytes[66] == 0x0A && bytes[67] == 0x0A)
        for portable in [false, true] {
            let shape = try #require(Self.shape(bytes, start: 3, limit: bytes.count, portable: portable))
            #expect(
                Fields(shape)
                    == Fields(firstLineEnd: 66, secondLineEnd: 0, lastLineEnd: 66, lineCount: 1, firstArrow: 35, lastArrow: 35, hasMarkup: 0, hasNonASCII: 0))
        }
        // The same across the wide scan's steps of 64 bytes (3..<67, 67..<131).
        var wide = Array("x\n\n".utf8)
        wide += Array(repeating: UInt8(ascii: "1"), count: 62) + Array("-->".utf8) + Array(repeating: UInt8(ascii: "2"), count: 62)
        wide += Array("\n\nnext".utf8)
        #expect(wide[65] == UInt8(ascii: "-") && wide[67] == UInt8(ascii: ">") && wide[130] == 0x0A && wide[131] == 0x0A)
        for scan in Scan.allCases {
            let shape = try #require(Self.shape(wide, start: 3, limit: wide.count, scan: scan))
            #expect(
                Fields(shape)
                    == Fields(firstLineEnd: 130, secondLineEnd: 0, lastLineEnd: 130, lineCount: 1, firstArrow: 67, lastArrow: 67, hasMarkup: 0, hasNonASCII: 0))
        }
        // Two lines, an arrow on each: the first and the last are told apart.
        let two = Array("id -->\n00:01.000 --> 00:02.000\ntext\n\n".utf8)
        let twoShape = try #require(Self.shape(two, start: 0, limit: two.count, portable: false))
        #expect(
            Fields(twoShape) == Fields(firstLineEnd: 6, secondLineEnd: 30, lastLineEnd: 35, lineCount: 3, firstArrow: 5, lastArrow: 19, hasMarkup: 0, hasNonASCII: 0))
        // Hyphens just before the start are not the block's: a `>` at its second byte ends no arrow.
        let before = Array("--\n->x\n\n".utf8)
        let shape = try #require(Self.shape(before, start: 3, limit: before.count, portable: false))
        #expect(shape.firstArrow == 0 && shape.lineCount == 1)
    }

    @Test func markupAndNonASCIIAreTheBlocksOwn() throws {
        // `<` and `é` after the empty line belong to the next block.
        let bytes = Array("a --> b\ntext\n\n<é>".utf8)
        let shape = try #require(Self.shape(bytes, start: 0, limit: bytes.count, portable: false))
        #expect(shape.hasMarkup == 0 && shape.hasNonASCII == 0 && shape.lastLineEnd == 12)
        let marked = Array("a --> b\n<i>é</i>\n\n".utf8)
        let markedShape = try #require(Self.shape(marked, start: 0, limit: marked.count, portable: false))
        #expect(markedShape.hasMarkup != 0 && markedShape.hasNonASCII != 0)
        // A block the limit cuts before its empty line is no block.
        #expect(Self.shape(bytes, start: 0, limit: 13, portable: false) == nil)
    }

    /// The fields of a shape, comparable.
    struct Fields: Equatable {
        var firstLineEnd, secondLineEnd, lastLineEnd, lineCount, firstArrow, lastArrow: Int
        var hasMarkup, hasNonASCII: UInt32

        init(firstLineEnd: Int, secondLineEnd: Int, lastLineEnd: Int, lineCount: Int, firstArrow: Int, lastArrow: Int, hasMarkup: UInt32, hasNonASCII: UInt32) {
            (self.firstLineEnd, self.secondLineEnd, self.lastLineEnd, self.lineCount) = (firstLineEnd, secondLineEnd, lastLineEnd, lineCount)
            (self.firstArrow, self.lastArrow, self.hasMarkup, self.hasNonASCII) = (firstArrow, lastArrow, hasMarkup, hasNonASCII)
        }

        init(_ shape: CueKitBlockShape) {
            self.init(
                firstLineEnd: shape.firstLineEnd, secondLineEnd: shape.secondLineEnd, lastLineEnd: shape.lastLineEnd, lineCount: shape.lineCount,
                firstArrow: shape.firstArrow, lastArrow: shape.lastArrow, hasMarkup: shape.hasMarkup, hasNonASCII: shape.hasNonASCII)
        }
    }
}
