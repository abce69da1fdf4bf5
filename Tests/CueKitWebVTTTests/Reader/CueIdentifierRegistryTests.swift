import CueKitTestSupport
import Testing

@testable import CueKitWebVTT

/// The duplicate-identifier check against a plain set of the identifiers' bytes, on random
/// identifiers of every length the hash handles differently (under eight bytes, whole words,
/// words and a tail), integers in and out of order, and repeats.
@Suite struct CueIdentifierRegistryTests {
    static func randomIdentifier(_ random: inout SeededRandom) -> [UInt8] {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            // An integer, sometimes with a leading zero (then not canonical: hashed).
            let value = Int.random(in: 0..<3_000, using: &random)
            return Array((Bool.random(using: &random) ? "" : "0").utf8) + Array(String(value).utf8)
        case 1:
            return Array("c\(Int.random(in: 0..<3_000, using: &random))".utf8)
        default:
            // Bytes of any value, NUL included, 1 to 40 of them, from a small alphabet so that
            // repeats happen.
            let length = Int.random(in: 1...40, using: &random)
            return (0..<length).map { _ in [0x00, 0x2D, 0x61, 0x62, 0xFF].randomElement(using: &random)! }
        }
    }

    @Test func findsExactlyTheIdentifiersSeenBefore() {
        var random = SeededRandom(seed: 0x1D5)
        for round in 0..<20 {
            var registry = CueIdentifierRegistry(limit: 1_000_000)
            var seen: Set<[UInt8]> = []
            var duplicates = 0
            for _ in 0..<Int.random(in: 1...5_000, using: &random) {
                let id = Self.randomIdentifier(&random)
                let outcome = id.withUnsafeBytes { registry.record($0) }
                let isNew = seen.insert(id).inserted
                if !isNew { duplicates += 1 }
                #expect(outcome == (isNew ? .new : .duplicate), "round \(round): \(id)")
            }
            if round > 5 { #expect(duplicates > 0) }
        }
    }
}
