import CueKit
import Testing

@testable import CueKitCLI

/// The ordering window on its own: whatever the input's disorder and the window's size, the cues
/// it lets go are in start-time order with ties in input order, every cue comes out once (from the
/// window or from the late runs), and each note stays before the cue it preceded.
struct CueOrderingTests {
    /// A small deterministic generator, so that a failure names its seed and replays.
    struct SplitMix {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// Starts that are sorted, nearly sorted, in sorted stretches, reversed or random; many ties.
    static func starts(_ random: inout SplitMix, count: Int) -> [Int] {
        let sorted = (0..<count).map { $0 * 10 + random.next(3) * 5 }.sorted()
        switch random.next(5) {
        case 0:
            return sorted
        case 1:
            var nearly = sorted
            for _ in 0..<max(1, count / 20) {
                let index = random.next(count - 1)
                nearly.swapAt(index, index + 1 + random.next(min(8, count - 1 - index)))
            }
            return nearly
        case 2:
            let cut = random.next(count)
            return Array(sorted[cut...] + sorted[..<cut])
        case 3:
            return sorted.reversed()
        default:
            return sorted.map { _ in random.next(count * 5) }
        }
    }

    @Test(arguments: 1...60)
    func cuesLeaveInStartOrderAndNoneIsLost(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed))
        let count = 1 + random.next(300)
        let starts = Self.starts(&random, count: count)
        let windowSize = 1 + random.next(40)
        let folder = TemporaryFiles.folder
        var ordering = CueOrdering(windowSize: windowSize, runLength: 1 + random.next(50), spillFolder: folder)
        var emitted: [TrackEvent] = []
        for (index, start) in starts.enumerated() {
            if random.next(4) == 0 { try ordering.take(.note(CueNote("before \(index)", cueIndex: index)), emit: { emitted.append($0) }) }
            try ordering.take(.cue(Cue(id: "\(index)", start: start, end: start + 1, text: "")), emit: { emitted.append($0) })
        }
        try ordering.finish(emit: { emitted.append($0) })

        let windowCues = emitted.compactMap { event -> Cue? in
            if case .cue(let cue) = event { return cue }
            return nil
        }
        let keys = windowCues.map { ($0.start, Int($0.id)!) }
        for (earlier, later) in zip(keys, keys.dropFirst()) {
            #expect(earlier.0 < later.0 || (earlier.0 == later.0 && earlier.1 < later.1), "seed \(seed): \(earlier) before \(later)")
        }
        var lateIDs: [Int] = []
        if let late = ordering.late {
            let merged = try late.merged()
            while let entry = try merged.next() { lateIDs.append(Int(entry.cue.id)!) }
        }
        #expect((keys.map(\.1) + lateIDs).sorted() == Array(0..<count), "seed \(seed): every cue once")
        // A note anchored to a cue that stayed in the window comes right before it.
        for (position, event) in emitted.enumerated() {
            guard case .note(let note) = event else { continue }
            let index = Int(note.text.dropFirst("before ".count))!
            if lateIDs.contains(index) { continue }
            guard position + 1 < emitted.count, case .cue(let next) = emitted[position + 1] else {
                Issue.record("seed \(seed): the note before cue \(index) is not followed by a cue")
                continue
            }
            #expect(next.id == "\(index)", "seed \(seed): the note before cue \(index) comes before cue \(next.id)")
        }
    }
}
