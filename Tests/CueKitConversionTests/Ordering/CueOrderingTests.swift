import CueKit
import CueKitWebVTT
import Testing

@testable import CueKitConversion

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

    /// What an ordering let go, in order: cues by identifier (blocks by the identifier their
    /// bytes hold), notes by text; and the identifiers of the late cues.
    struct Run: Equatable {
        var emitted: [String] = []
        var late: [Int] = []
        var blocksTaken = 0
    }

    /// Runs `starts` through an ordering; with `offersBlocks`, every other cue is first offered as
    /// a block (bytes holding its identifier), and comes as a cue only when refused.
    static func run(
        _ starts: [Int], notes: Set<Int>, windowSize: Int, runLength: Int, offersBlocks: Bool, events: inout [TrackEvent]
    ) throws -> (Run, CueOrdering) {
        var ordering = CueOrdering(windowSize: windowSize, runLength: runLength, spillFolder: TemporaryFiles.folder)
        var run = Run()
        func emit(_ event: TrackEvent) {
            events.append(event)
            switch event {
            case .cue(let cue): run.emitted.append(cue.id)
            case .note(let note): run.emitted.append(note.text)
            default: break
            }
        }
        // A run of blocks, each after an LF.
        func emitBlock(_ run: UnsafeRawBufferPointer, count: Int, times: UnsafeBufferPointer<CueBlockTimes>) {
            #expect(run.first == 0x0A)
            let ids = run.split(separator: 0x0A, omittingEmptySubsequences: false).dropFirst().map { String(decoding: $0, as: UTF8.self) }
            #expect(ids.count == count)
            for id in ids {
                let start = starts[Int(id)!]
                emit(.cue(Cue(id: id, start: start, end: start + 1, text: "")))
            }
        }
        for (index, start) in starts.enumerated() {
            if notes.contains(index) { try ordering.take(.note(CueNote("before \(index)", cueIndex: index)), emit: emit, emitBlock: emitBlock) }
            if offersBlocks, index % 2 == 0 {
                let taken = try Array("\(index)".utf8).withUnsafeBytes { block in
                    try ordering.take(
                        block: WebVTTCueBlockBytes(head: block), start: start, end: start + 1, namesRegion: false, emit: emit, emitBlock: emitBlock)
                }
                if taken {
                    run.blocksTaken += 1
                    continue
                }
            }
            try ordering.take(.cue(Cue(id: "\(index)", start: start, end: start + 1, text: "")), emit: emit, emitBlock: emitBlock)
        }
        try ordering.finish(emit: emit, emitBlock: emitBlock)
        if let late = ordering.late {
            let merged = try late.merged()
            while let entry = try merged.next() { run.late.append(Int(entry.cue.id)!) }
        }
        return (run, ordering)
    }

    /// A random input for the window: starts, notes before one cue in `noteOneIn`, a window and
    /// run length.
    struct Scenario {
        var starts: [Int]
        var notes: Set<Int>
        var windowSize: Int
        var runLength: Int

        init(_ random: inout SplitMix, noteOneIn: Int) {
            let count = 1 + random.next(300)
            starts = CueOrderingTests.starts(&random, count: count)
            windowSize = 1 + random.next(40)
            runLength = 1 + random.next(50)
            notes = Set((0..<count).filter { _ in random.next(noteOneIn) == 0 })
        }

        func run(offersBlocks: Bool, events: inout [TrackEvent]) throws -> (Run, CueOrdering) {
            try CueOrderingTests.run(starts, notes: notes, windowSize: windowSize, runLength: runLength, offersBlocks: offersBlocks, events: &events)
        }
    }

    @Test(arguments: 1...60)
    func cuesLeaveInStartOrderAndNoneIsLost(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed))
        let scenario = Scenario(&random, noteOneIn: 4)
        let count = scenario.starts.count
        var emitted: [TrackEvent] = []
        let (run, ordering) = try scenario.run(offersBlocks: false, events: &emitted)

        let windowCues = emitted.compactMap { event -> Cue? in
            if case .cue(let cue) = event { return cue }
            return nil
        }
        let keys = windowCues.map { ($0.start, Int($0.id)!) }
        for (earlier, later) in zip(keys, keys.dropFirst()) {
            #expect(earlier.0 < later.0 || (earlier.0 == later.0 && earlier.1 < later.1), "seed \(seed): \(earlier) before \(later)")
        }
        let lateIDs = run.late
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
        _ = ordering
    }

    /// Cues offered as blocks leave exactly where they would have left as cues: the same output,
    /// the same late cues, the same count of cues out of order, whatever the disorder.
    @Test(arguments: 1...60)
    func blocksLeaveWhereTheirCuesWould(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed) &* 7919)
        let scenario = Scenario(&random, noteOneIn: 6)
        let (starts, notes, count) = (scenario.starts, scenario.notes, scenario.starts.count)
        var ignored: [TrackEvent] = []
        let (cues, cueOrdering) = try scenario.run(offersBlocks: false, events: &ignored)
        let (blocks, blockOrdering) = try scenario.run(offersBlocks: true, events: &ignored)
        #expect(blocks.emitted == cues.emitted, "seed \(seed)")
        #expect(blocks.late == cues.late, "seed \(seed)")
        #expect(blockOrdering.reorderedCount == cueOrdering.reorderedCount, "seed \(seed)")
        #expect(cues.blocksTaken == 0)
        // Sorted inputs are among the seeds: there most offers are taken.
        if starts == starts.sorted(), notes.isEmpty, count > 1 { #expect(blocks.blocksTaken == (count + 1) / 2, "seed \(seed)") }
    }

    /// The block queue's ring wraps and grows as blocks of every size, in up to three pieces, come
    /// and go; the blocks let go are handed on in order, each after an LF, in runs of at most
    /// about ``CueBlockQueue/runSize`` bytes, each run with the length and times of each of its
    /// blocks.
    @Test func theBlockQueueHandsOnEveryBlockWholeAndInOrder() throws {
        let queue = CueBlockQueue(recordsTimes: true)
        var random = SplitMix(state: 42)
        var waiting: [[UInt8]] = []
        var released: [UInt8] = []
        var releasedCount = 0
        var handedOn: [UInt8] = []
        var handedOnCount = 0
        var handedOnTimes: [CueBlockTimes] = []
        var bytesSinceCounted = 0
        func handOn(_ run: UnsafeRawBufferPointer, count: Int, times: UnsafeBufferPointer<CueBlockTimes>) {
            handedOn += run
            handedOnCount += count
            // The first piece of a run that wraps comes without its count; the second, with the
            // count and times of the whole run.
            bytesSinceCounted += run.count
            #expect(times.count == count)
            guard count > 0 else { return }
            #expect(times.reduce(0) { $0 + $1.length } == bytesSinceCounted)
            bytesSinceCounted = 0
            handedOnTimes += times
        }
        var sequence = 0
        for _ in 0..<6_000 {
            switch random.next(8) {
            case 0..<4:
                let length = random.next(10) == 0 ? random.next(70_000) : random.next(300)
                let block = (0..<length).map { UInt8(truncatingIfNeeded: $0 &+ sequence) }
                let cuts = [random.next(length + 1), random.next(length + 1)].sorted()
                block.withUnsafeBytes { bytes in
                    let parts = WebVTTCueBlockBytes(
                        head: UnsafeRawBufferPointer(rebasing: bytes[..<cuts[0]]), middle: UnsafeRawBufferPointer(rebasing: bytes[cuts[0]..<cuts[1]]),
                        tail: UnsafeRawBufferPointer(rebasing: bytes[cuts[1]...]))
                    let times = CueBlockTimes(length: 1 + length, start: sequence, end: sequence + length, namesRegion: length % 3 == 0)
                    queue.append(parts, times: times, sequence: sequence)
                }
                waiting.append(block)
                sequence += 1
            case 4..<7:
                guard !waiting.isEmpty else { continue }
                try queue.release(handOn)
                released += [0x0A] + waiting.removeFirst()
                releasedCount += 1
            default:
                try queue.handOnReleased(handOn)
                #expect(handedOn.count == released.count && handedOnCount == releasedCount)
            }
            #expect(queue.count == waiting.count)
            // What was let go and not handed on stays under a run (and the block that made it one).
            #expect(released.count - handedOn.count < CueBlockQueue.runSize + 70_001)
        }
        try queue.handOnReleased(handOn)
        #expect(handedOn == released)
        #expect(handedOnCount == releasedCount)
        // Each block's times, in order, as they came.
        #expect(handedOnTimes.map(\.start) == Array(0..<releasedCount))
        #expect(handedOnTimes.allSatisfy { $0.end == $0.start + $0.length - 1 && $0.namesRegion == (($0.length - 1) % 3 == 0) })
    }
}
