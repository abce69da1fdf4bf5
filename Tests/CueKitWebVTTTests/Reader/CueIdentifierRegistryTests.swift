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

    @Test func theHashSetGrowsWithoutLosingAHash() {
        var set = IdentifierHashSet()
        var random = SeededRandom(seed: 0x6A5)
        var hashes: [UInt64] = [0, 1, .max]
        for _ in 0..<50_000 { hashes.append(UInt64.random(in: .min ... .max, using: &random)) }
        for hash in hashes {
            let inserted = set.insert(hash: hash)
            // 0 is kept as 1, so the second of the two is the one already there.
            #expect(inserted == (hash != 1), "\(hash)")
        }
        #expect(set.count == hashes.count - 1)
        for hash in hashes {
            let inserted = set.insert(hash: hash)
            #expect(!inserted, "\(hash)")
        }
    }

    @Test func theHashTellsLengthsAndBytesApart() {
        // Identifiers that differ only in trailing NULs, in one byte, or in length around a word.
        var ids: [[UInt8]] = [[], [0], [0, 0], Array("a".utf8), Array("a\0".utf8)]
        for length in 1...24 {
            let base = [UInt8](repeating: 0x61, count: length)
            ids.append(base)
            for position in 0..<length {
                var changed = base
                changed[position] = 0x62
                ids.append(changed)
            }
        }
        let seed: UInt64 = 0x5EED
        let hashes = ids.map { id in id.withUnsafeBytes { IdentifierHashSet.hash($0, seed: seed) } }
        #expect(Set(hashes).count == Set(ids).count)
        // Another seed gives other hashes.
        let reseeded = ids.map { id in id.withUnsafeBytes { IdentifierHashSet.hash($0, seed: seed + 1) } }
        #expect(zip(hashes, reseeded).allSatisfy { $0 != $1 })
    }
}
