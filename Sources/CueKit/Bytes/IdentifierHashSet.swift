/// A set of identifiers kept as 64-bit hashes of their bytes, for the checks that must remember
/// every identifier of a large file in bounded memory (the WebVTT reader's duplicate cue
/// identifiers, the TTML writer's `xml:id`s): a false "seen" needs a hash collision.
///
/// Each identifier is hashed once, by a multiply-mix hash seeded at random for each set (so that
/// no file can be written to make many identifiers fall on the same slots), into an
/// open-addressing table at most half full. A `Set<Int>` of `Hasher` results ran SipHash twice an
/// identifier, several hundred instructions where this takes a few dozen.
package struct IdentifierHashSet {
    /// The table; 0 marks an empty slot (a hash of 0 is kept as 1).
    private var slots: [UInt64] = []
    /// A hash's slot is its top bits: `hash >> shift`.
    private var shift: UInt64 = 64
    private let seed = UInt64.random(in: .min ... .max)
    /// How many hashes the set holds.
    package private(set) var count = 0

    package init() {}

    /// Adds the hash of `bytes`; false when it was there already.
    package mutating func insert(_ bytes: UnsafeRawBufferPointer) -> Bool {
        insert(hash: Self.hash(bytes, seed: seed))
    }

    /// Adds a hash; false when it was there already.
    package mutating func insert(hash: UInt64) -> Bool {
        if (count + 1) * 2 > slots.count { grow() }
        let key = max(hash, 1)
        let inserted = slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: key >> shift)
            while true {
                let held = slots[index]
                if held == 0 {
                    slots[index] = key
                    return true
                }
                if held == key { return false }
                index = (index + 1) & mask
            }
        }
        if inserted { count += 1 }
        return inserted
    }

    /// Makes the table four times larger: each hash is moved a third as often as when it
    /// doubled, and a table is still at most half full (so between an eighth and a half).
    private mutating func grow() {
        let old = slots
        let capacity = max(16, old.count * 4)
        slots = [UInt64](repeating: 0, count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        count = 0
        for key in old where key != 0 { _ = insert(hash: key) }
    }

    /// A 64-bit hash of `bytes`: eight bytes a step, each mixed in by a full-width multiplication
    /// whose two halves are folded together (the "mum" step of wyhash).
    package static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        @inline(__always) func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
            let (high, low) = a.multipliedFullWidth(by: b)
            return high ^ low
        }
        var hash = mix(seed ^ 0xA076_1D64_78BD_642F, UInt64(bytes.count) ^ 0xE703_7ED1_A0B4_28DB)
        guard let base = bytes.baseAddress else { return mix(hash, 0x8EBC_6AF0_9C88_C6E3) }
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            hash = mix(hash ^ base.loadUnaligned(fromByteOffset: index, as: UInt64.self), 0x5899_65CC_7537_4CC3)
            index += 8
        }
        let remaining = count - index
        if remaining > 0 {
            var tail: UInt64 = 0
            if count >= 8 {
                // The last eight bytes, shifted down to the ones not yet mixed in.
                tail = base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) &>> UInt64(8 * (8 - remaining))
            } else {
                var offset = 0
                while offset < remaining {
                    tail |= UInt64(base.load(fromByteOffset: index &+ offset, as: UInt8.self)) &<< UInt64(8 &* offset)
                    offset &+= 1
                }
            }
            hash = mix(hash ^ tail, 0x1D8E_4E27_C47D_124F)
        }
        return mix(hash ^ seed, 0x8EBC_6AF0_9C88_C6E3)
    }
}
