/// Remembers cue identifiers to find duplicates ("a WebVTT cue identifier must be unique amongst
/// all the WebVTT cue identifiers of all WebVTT cues of a WebVTT file", W3C WebVTT, section 4.1)
/// in memory that does not grow with the usual files.
///
/// Identifiers written as integers without leading zeros are kept as runs of consecutive values
/// (`1` to `1000000` is one run); any other identifier is kept as a 64-bit hash
/// (``IdentifierHashSet``), so a false duplicate needs a hash collision (about one chance in 10^9
/// for a file of 100,000 distinct identifiers). Past `limit` hashes or runs the check stops rather
/// than grow further.
struct CueIdentifierRegistry {
    private var runs: [ClosedRange<Int>] = []
    private var hashes = IdentifierHashSet()
    let limit: Int
    private(set) var stopped = false

    init(limit: Int) {
        self.limit = limit
    }

    enum Outcome {
        case new, duplicate, stoppedNow, notChecked
    }

    /// Records an identifier and says whether it was seen before.
    mutating func record(_ id: UnsafeRawBufferPointer) -> Outcome {
        guard !stopped else { return .notChecked }
        if let value = Self.canonicalInteger(id) {
            return recordInteger(value)
        }
        guard hashes.insert(id) else { return .duplicate }
        return checkLimit()
    }

    private mutating func recordInteger(_ value: Int) -> Outcome {
        // Almost always the value extends the last run.
        if let last = runs.last {
            if value == last.upperBound + 1 {
                runs[runs.count - 1] = last.lowerBound...value
                return .new
            }
            if value > last.upperBound {
                runs.append(value...value)
                return checkLimit()
            }
        } else {
            runs.append(value...value)
            return .new
        }
        // Out of order: find the run at or before the value.
        var low = 0, high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].lowerBound <= value { low = middle + 1 } else { high = middle }
        }
        let index = low - 1
        if index >= 0, runs[index].contains(value) { return .duplicate }
        if index >= 0, runs[index].upperBound + 1 == value {
            runs[index] = runs[index].lowerBound...value
            if index + 1 < runs.count, runs[index + 1].lowerBound == value + 1 {
                runs[index] = runs[index].lowerBound...runs[index + 1].upperBound
                runs.remove(at: index + 1)
            }
            return .new
        }
        if index + 1 < runs.count, runs[index + 1].lowerBound == value + 1 {
            runs[index + 1] = value...runs[index + 1].upperBound
            return .new
        }
        runs.insert(value...value, at: index + 1)
        return checkLimit()
    }

    private mutating func checkLimit() -> Outcome {
        if runs.count + hashes.count > limit {
            stopped = true
            runs = []
            hashes = IdentifierHashSet()
            return .stoppedNow
        }
        return .new
    }

    /// The value of an identifier written as an integer without leading zeros, below 10^18.
    private static func canonicalInteger(_ id: UnsafeRawBufferPointer) -> Int? {
        guard !id.isEmpty, id.count <= 18 else { return nil }
        if id.count > 1, id[0] == UInt8(ascii: "0") { return nil }
        var value = 0
        for byte in id {
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            value = value * 10 + Int(byte &- UInt8(ascii: "0"))
        }
        return value
    }
}

/// The hashes of the identifiers seen, for ``CueIdentifierRegistry``: each identifier's bytes hashed
/// to 64 bits once, by a multiply-mix hash seeded at random for each set (so that no file can be
/// written to make many identifiers fall on the same slots), and kept in an open-addressing table
/// at most half full. A `Set<Int>` would hash each hash a second time with SipHash, and an
/// identifier cost several hundred instructions where this costs a few dozen.
struct IdentifierHashSet {
    /// The table; 0 marks an empty slot (a hash of 0 is kept as 1).
    private var slots: [UInt64] = []
    /// A hash's slot is its top bits: `hash >> shift`.
    private var shift: UInt64 = 64
    private let seed = UInt64.random(in: .min ... .max)
    /// How many hashes the set holds.
    private(set) var count = 0

    /// Adds the hash of `bytes`; false when it was there already.
    mutating func insert(_ bytes: UnsafeRawBufferPointer) -> Bool {
        insert(hash: Self.hash(bytes, seed: seed))
    }

    /// Adds a hash; false when it was there already.
    mutating func insert(hash: UInt64) -> Bool {
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

    private mutating func grow() {
        let old = slots
        let capacity = max(16, old.count * 2)
        slots = [UInt64](repeating: 0, count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        count = 0
        for key in old where key != 0 { _ = insert(hash: key) }
    }

    /// A 64-bit hash of `bytes`: eight bytes a step, each mixed in by a full-width multiplication
    /// whose two halves are folded together (the "mum" step of wyhash).
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
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
