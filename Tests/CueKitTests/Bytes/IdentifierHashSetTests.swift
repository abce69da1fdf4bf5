import CueKit
import CueKitTestSupport
import Testing

/// The identifier hash set the WebVTT reader's duplicate check and the TTML writer's `xml:id`s use:
/// no hash lost as the table grows, and a hash that tells lengths and bytes apart.
@Suite struct IdentifierHashSetTests {
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
