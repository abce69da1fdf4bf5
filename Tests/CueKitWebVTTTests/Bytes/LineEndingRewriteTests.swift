import CCueKitBytes
import CueKitTestSupport
import Testing

@testable import CueKitWebVTT

/// The vector passes that rewrite CR LF and lone CR as LF (`cuekit_rewrite_line_endings`, AVX2
/// here; and SSE2) against the byte-by-byte reference, and the reference against the line
/// endings' definition, on random bytes of every length around the vectors' widths, with line
/// endings dense or sparse; and the normalizer the reader uses, on input cut anywhere.
@Suite struct LineEndingRewriteTests {
    /// `bytes` with each CR LF and each lone CR as LF, a byte at a time as WebVTT defines them.
    static func definition(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D {
                result.append(0x0A)
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            } else {
                result.append(bytes[index])
            }
            index += 1
        }
        return result
    }

    static func randomBytes(_ random: inout SeededRandom) -> [UInt8] {
        let count = Int.random(in: 0...200, using: &random)
        // Line endings dense or sparse, so that steps without a CR and steps of only CRs both come.
        let density = Int.random(in: 1...48, using: &random)
        let endings: [UInt8] = [0x0D, 0x0D, 0x0A, 0x00, 0xC3]
        return (0..<count).map { _ in
            Int.random(in: 0..<density, using: &random) == 0 ? endings.randomElement(using: &random)! : UInt8(ascii: "x")
        }
    }

    @Test func theVectorPassesAgreeWithTheReference() {
        var random = SeededRandom(seed: 0x0D0A)
        for round in 0..<20_000 {
            let bytes = Self.randomBytes(&random)
            // The room is the input's length, then bytes that no pass may write.
            func rewritten(_ pass: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> Int) -> [UInt8] {
                var room = [UInt8](repeating: 0xEE, count: bytes.count + 64)
                let written = bytes.withUnsafeBufferPointer { source in
                    room.withUnsafeMutableBufferPointer { target in pass(source.baseAddress, bytes.count, target.baseAddress) }
                }
                #expect(room[bytes.count...].allSatisfy { $0 == 0xEE }, "round \(round): written past the room")
                return Array(room.prefix(written))
            }
            let expected = Self.definition(bytes)
            #expect(rewritten { cuekit_rewrite_line_endings_portable($0, $1, $2) } == expected, "round \(round): \(bytes)")
            #expect(rewritten { cuekit_rewrite_line_endings($0, $1, $2) } == expected, "round \(round): \(bytes)")
            #expect(rewritten { cuekit_rewrite_line_endings_sse2($0, $1, $2) } == expected, "round \(round): \(bytes)")
        }
    }

    /// Input cut at random places, a CR LF pair split between two pieces among them, rewrites as
    /// the whole does.
    @Test func theNormalizerRewritesInputCutAnywhereAsTheWhole() {
        var random = SeededRandom(seed: 0xC12F)
        for round in 0..<2_000 {
            let bytes = Self.randomBytes(&random) + Self.randomBytes(&random)
            var normalizer = WebVTTLineEndingNormalizer()
            var result: [UInt8] = []
            var offset = 0
            bytes.withUnsafeBytes { all in
                while offset < bytes.count {
                    let end = min(bytes.count, offset + Int.random(in: 1...70, using: &random))
                    let piece = normalizer.skipLineFeed(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                    normalizer.rewrite(piece) { result += $0 }
                    offset = end
                }
            }
            #expect(result == Self.definition(bytes), "round \(round): \(bytes)")
        }
    }
}
