import CueKit

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
