import CueKit
import CueKitWebVTT

/// Puts a converted track's cues in start-time order, as WebVTT requires (W3C WebVTT, section 4.1:
/// "cues ... in order of start time"), with memory bounded whatever the input.
///
/// Inputs are unsorted in two ways. Most are nearly sorted (a TTML `seq` of timed `div`s, a SubRip
/// file with two cues swapped): a window of the latest ``windowSize`` cues sorts them as they
/// stream through. The window is a queue of the cues that came in order (for them, arrival order
/// is start-time order, so a sorted input costs a queue's append and remove) and a heap of those
/// that did not; the earlier of the two heads leaves first. A cue that starts before one the
/// window has already let go is *late*: it is set aside in sorted runs of ``runLength`` cues,
/// spilled to temporary files, and merged with the streamed output at the end (``LateCueRuns``).
/// Ties keep the input's order.
///
/// A cue the reader offers as the bytes it is written as
/// (``take(block:start:end:namesRegion:emit:emitBlock:)``, in a WebVTT to WebVTT conversion) waits
/// as those bytes, in a queue of its own, when it comes in order and no note comes with it;
/// otherwise it is refused, and comes again as a cue. The two queues together hold what one queue
/// of cues would, each in start-time order: the earliest of the three heads leaves first. Blocks
/// that leave one after another are handed on together, as one run of bytes (``CueBlockQueue``),
/// before anything else is.
///
/// A `NOTE` stays before the cue that followed it in the input; other events (header, regions,
/// style sheets, diagnostics) pass straight through, ahead of the cues still in the window.
struct CueOrdering {
    /// How many cues the window holds.
    let windowSize: Int
    /// How many late cues are sorted in memory before they are spilled as one run.
    let runLength: Int
    /// Where late runs are spilled.
    let spillFolder: String

    /// The window: cues that came in start-time order (as cues, or as their blocks' bytes), and
    /// the others. (The queues are references, shared by copies: an ordering is used in place.)
    private let inOrder = WindowQueue<CueHeap.Entry>()
    private let inOrderBlocks: CueBlockQueue
    private var outOfOrder = CueHeap()
    /// The start of the in-order cue or block taken last, while either queue holds one: what
    /// the next must not start before to join them.
    private var lastInOrderStart = Int.min
    private var pendingNotes: [CueNote] = []
    private var sequence = 0
    private var lastEmittedStart = Int.min
    private var latestInputStart = Int.min
    /// Cues that came after a cue with a later start.
    private(set) var reorderedCount = 0
    /// Cues taken as their blocks' bytes.
    private(set) var blocksTaken = 0
    private(set) var late: LateCueRuns?

    static let defaultWindowSize = 4096
    static let defaultRunLength = 32768

    /// An ordering; with `recordsBlockTimes`, each run of blocks handed on comes with every
    /// block's length and times (``CueBlockTimes``), for a consumer that takes them apart.
    init(windowSize: Int = defaultWindowSize, runLength: Int = defaultRunLength, spillFolder: String, recordsBlockTimes: Bool = false) {
        self.windowSize = max(1, windowSize)
        self.runLength = max(1, runLength)
        self.spillFolder = spillFolder
        inOrderBlocks = CueBlockQueue(recordsTimes: recordsBlockTimes)
    }

    /// How many cues the window holds.
    private var windowCount: Int { inOrder.count + inOrderBlocks.count + outOfOrder.count }

    /// True when a cue starting at `start` joins the in-order queues.
    private func isInOrder(_ start: Int) -> Bool {
        inOrder.count + inOrderBlocks.count == 0 || start >= lastInOrderStart
    }

    /// What blocks are handed on as: the bytes of `count` blocks, each after the LF of the empty
    /// line before it (what the WebVTT writer writes between blocks), and, when the ordering
    /// records them, each block's length and times (else none).
    typealias BlockRun = (_ bytes: UnsafeRawBufferPointer, _ count: Int, _ times: UnsafeBufferPointer<CueBlockTimes>) throws -> Void

    /// Takes the next event of the track; hands on what can be written now (cue blocks, taken
    /// before, to `emitBlock`).
    mutating func take(_ event: TrackEvent, emit: (TrackEvent) throws -> Void, emitBlock: BlockRun) throws {
        switch event {
        case .cue(let cue):
            if cue.start < latestInputStart { reorderedCount += 1 }
            latestInputStart = max(latestInputStart, cue.start)
            // The notes go with the cue. Most cues have none: the empty array then costs nothing,
            // where emptying one whose buffer the cue now shares would allocate a new one.
            let notes = pendingNotes
            if !pendingNotes.isEmpty { pendingNotes = [] }
            if cue.start < lastEmittedStart {
                // Too late for the window: its notes stay where they were, the cue is set aside.
                if !notes.isEmpty { try inOrderBlocks.handOnReleased(emitBlock) }
                for note in notes { try emit(.note(note)) }
                let runs = late ?? LateCueRuns(runLength: runLength, folder: spillFolder)
                late = runs
                try runs.add(cue, sequence: sequence)
            } else {
                let entry = CueHeap.Entry(cue: cue, sequence: sequence, notes: notes)
                if isInOrder(cue.start) {
                    lastInOrderStart = cue.start
                    inOrder.append(entry)
                } else {
                    outOfOrder.push(entry)
                }
                if windowCount > windowSize { try releaseEarliest(emit, emitBlock) }
            }
            sequence += 1
        case .note(let note):
            pendingNotes.append(note)
        default:
            try inOrderBlocks.handOnReleased(emitBlock)
            try emit(event)
        }
    }

    /// Takes the next cue as the bytes it is written as, when it can wait as them: it comes in
    /// start-time order (it joins the in-order queues) and no note comes before it. Returns false
    /// otherwise, having done nothing: the cue is then to come as an event.
    mutating func take(
        block: WebVTTCueBlockBytes, start: Int, end: Int, namesRegion: Bool, emit: (TrackEvent) throws -> Void, emitBlock: BlockRun
    ) throws -> Bool {
        guard pendingNotes.isEmpty, start >= lastEmittedStart, isInOrder(start) else { return false }
        if start < latestInputStart { reorderedCount += 1 }
        latestInputStart = max(latestInputStart, start)
        lastInOrderStart = start
        let length = 1 + block.head.count + block.middle.count + block.tail.count
        inOrderBlocks.append(block, times: CueBlockTimes(length: length, start: start, end: end, namesRegion: namesRegion), sequence: sequence)
        blocksTaken += 1
        sequence += 1
        guard windowCount > windowSize else { return true }
        if inOrder.count == 0, outOfOrder.isEmpty {
            // Blocks alone in the window (a sorted file): the first leaves.
            lastEmittedStart = inOrderBlocks.firstKey!.start
            try inOrderBlocks.release(emitBlock)
        } else {
            try releaseEarliest(emit, emitBlock)
        }
        return true
    }

    /// Hands on the cues still in the window, and the notes after the last cue.
    mutating func finish(emit: (TrackEvent) throws -> Void, emitBlock: BlockRun) throws {
        while windowCount > 0 { try releaseEarliest(emit, emitBlock) }
        try inOrderBlocks.handOnReleased(emitBlock)
        for note in pendingNotes { try emit(.note(note)) }
        pendingNotes.removeAll()
        try late?.finishWriting()
    }

    /// Hands on the window's earliest cue (by start, then input order), when it holds one. The
    /// entry is taken out as a plain value: an `Optional` of it, destroyed once handed on, went
    /// through the runtime's generic value witnesses (about 30 instructions a cue).
    private mutating func releaseEarliest(_ emit: (TrackEvent) throws -> Void, _ emitBlock: BlockRun) throws {
        enum Head { case none, queue, blocks, heap }
        var head = Head.none
        var earliest = (start: Int.max, sequence: Int.max)
        @inline(__always) func consider(_ key: (start: Int, sequence: Int)?, _ which: Head) {
            guard let key, head == .none || key.start < earliest.start || (key.start == earliest.start && key.sequence < earliest.sequence) else { return }
            earliest = key
            head = which
        }
        consider(inOrder.firstKey, .queue)
        consider(inOrderBlocks.firstKey, .blocks)
        consider(outOfOrder.topKey, .heap)
        switch head {
        case .none:
            return
        case .queue:
            try inOrderBlocks.handOnReleased(emitBlock)
            try release(inOrder.removeFirst(), emit)
        case .blocks:
            lastEmittedStart = earliest.start
            try inOrderBlocks.release(emitBlock)
        case .heap:
            try inOrderBlocks.handOnReleased(emitBlock)
            try release(outOfOrder.pop(), emit)
        }
    }

    private mutating func release(_ entry: CueHeap.Entry, _ emit: (TrackEvent) throws -> Void) throws {
        lastEmittedStart = entry.cue.start
        for note in entry.notes { try emit(.note(note)) }
        try emit(.cue(entry.cue))
    }
}

/// A binary min-heap of cues by start time, then input order.
///
/// The heap orders small keys (start, sequence, slot); the entries themselves (a cue with its
/// strings, its notes) stay in their slots and are never copied while the heap is reordered.
struct CueHeap {
    struct Entry: WindowQueueEntry {
        var cue: Cue
        var sequence: Int
        /// The notes that came just before the cue.
        var notes: [CueNote] = []

        var start: Int { cue.start }

        static func precedes(_ a: Entry, _ b: Entry) -> Bool {
            a.cue.start != b.cue.start ? a.cue.start < b.cue.start : a.sequence < b.sequence
        }
    }

    private struct Key {
        var start: Int
        var sequence: Int
        var slot: Int

        static func precedes(_ a: Key, _ b: Key) -> Bool {
            a.start != b.start ? a.start < b.start : a.sequence < b.sequence
        }
    }

    private var keys: [Key] = []
    private var slots: [Entry?] = []
    private var freeSlots: [Int] = []

    var count: Int { keys.count }
    var isEmpty: Bool { keys.isEmpty }
    /// The start and input position of the entry ``pop()`` would return.
    var topKey: (start: Int, sequence: Int)? { keys.first.map { ($0.start, $0.sequence) } }

    mutating func push(_ entry: Entry) {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = entry
        } else {
            slot = slots.count
            slots.append(entry)
        }
        keys.append(Key(start: entry.cue.start, sequence: entry.sequence, slot: slot))
        var child = keys.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Key.precedes(keys[child], keys[parent]) else { break }
            keys.swapAt(child, parent)
            child = parent
        }
    }

    /// Takes out the entry ``topKey`` names; the heap must not be empty.
    mutating func pop() -> Entry {
        precondition(!keys.isEmpty, "pop() on an empty heap")
        keys.swapAt(0, keys.count - 1)
        let top = keys.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < keys.count, Key.precedes(keys[left], keys[smallest]) { smallest = left }
            if right < keys.count, Key.precedes(keys[right], keys[smallest]) { smallest = right }
            if smallest == parent { break }
            keys.swapAt(parent, smallest)
            parent = smallest
        }
        let entry = slots[top.slot].take()!
        freeSlots.append(top.slot)
        return entry
    }
}

/// What a ``WindowQueue`` holds: something with a start time and an input position.
protocol WindowQueueEntry {
    var start: Int { get }
    var sequence: Int { get }
}

/// A first-in, first-out queue of the ordering window's entries: a ring of slots that grows by
/// doubling. Entries are moved in and out of their slots, never copied, and looking at the first
/// touches no string.
final class WindowQueue<Entry: WindowQueueEntry> {
    private var slots: UnsafeMutablePointer<Entry>
    private var capacity: Int
    private var head = 0
    private(set) var count = 0

    init() {
        capacity = 64
        slots = .allocate(capacity: capacity)
    }

    deinit {
        for offset in 0..<count { (slots + slot(offset)).deinitialize(count: 1) }
        slots.deallocate()
    }

    /// The slot of the entry `offset` places after the first (`capacity` is a power of two).
    @inline(__always)
    private func slot(_ offset: Int) -> Int { (head + offset) & (capacity - 1) }

    /// The start and input position of the entry ``removeFirst()`` would return.
    var firstKey: (start: Int, sequence: Int)? { count > 0 ? (slots[head].start, slots[head].sequence) : nil }

    func append(_ entry: consuming Entry) {
        if count == capacity { grow() }
        (slots + slot(count)).initialize(to: entry)
        count += 1
    }

    /// Takes out the entry ``firstKey`` names; the queue must not be empty.
    func removeFirst() -> Entry {
        precondition(count > 0, "removeFirst() on an empty queue")
        let entry = (slots + head).move()
        head = slot(1)
        count -= 1
        return entry
    }

    private func grow() {
        let larger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
        for offset in 0..<count { (larger + offset).moveInitialize(from: slots + slot(offset), count: 1) }
        slots.deallocate()
        slots = larger
        capacity *= 2
        head = 0
    }
}

/// Cue blocks waiting in the ordering window as the bytes they are written as: their keys in a
/// ``WindowQueue``, their bytes one after another in a ring of bytes, each after the LF of the
/// empty line that goes before it.
///
/// Blocks leave in the order they came. One that leaves is not handed on at once: the bytes of
/// blocks that left one after another lie together, and are handed on as one run (a hand-over
/// costs as much as copying a block) when they reach ``runSize`` (the sink's own buffer size, so a
/// run goes past that buffer straight to the file), or when the caller is about to hand on
/// something else (``handOnReleased(_:)``). The ring holds what the window holds and one run; it
/// doubles when a block does not fit, so its memory follows the window's bytes, never the file's.
final class CueBlockQueue {
    struct Key: WindowQueueEntry {
        var start: Int
        var sequence: Int
        var length: Int
    }

    /// A waiting block's times, when they are recorded.
    struct TimesKey: WindowQueueEntry {
        var times: CueBlockTimes
        var sequence: Int
        var start: Int { times.start }
    }

    /// How many bytes of released blocks are gathered before they are handed on.
    static let runSize = FileDescriptorSink.bufferSize

    private let keys = WindowQueue<Key>()
    /// The times of the blocks waiting and of those let go and not yet handed on, when they are
    /// recorded (apart from the keys, which stay small for the orderings that record none).
    private let recordsTimes: Bool
    private let waitingTimes = WindowQueue<TimesKey>()
    /// Storage of its own, not an array: an array kept by a class is checked for exclusive access
    /// each time it changes (some 90 instructions a block). It holds the blocks of one run.
    private var releasedTimes: UnsafeMutablePointer<CueBlockTimes>?
    private var releasedTimesCapacity = 0
    private var releasedTimesCount = 0
    /// The ring (allocated with the first block: most conversions never take one).
    private var storage: UnsafeMutableRawPointer?
    private var capacity = 0
    /// Positions counted from the ring's start, modulo its capacity in the ring:
    /// `released..<head`, blocks that left, not handed on yet (`releasedCount` of them);
    /// `head..<tail`, the blocks waiting.
    private var released = 0
    private var releasedCount = 0
    private var head = 0
    private var tail = 0

    init(recordsTimes: Bool = false) {
        self.recordsTimes = recordsTimes
    }

    deinit {
        storage?.deallocate()
        releasedTimes?.deallocate()
    }

    /// How many blocks wait (those released are no longer counted).
    var count: Int { keys.count }
    /// The start and input position of the block ``release(_:)`` lets go.
    var firstKey: (start: Int, sequence: Int)? { keys.firstKey }

    /// Adds a block after those waiting (`times.length` is its length with the LF before it).
    func append(_ block: WebVTTCueBlockBytes, times: CueBlockTimes, sequence: Int) {
        let length = times.length
        if tail + length - released > capacity { grow(toHold: tail + length - released) }
        let ring = storage!
        let mask = capacity - 1
        ring.storeBytes(of: 0x0A, toByteOffset: tail & mask, as: UInt8.self)
        var end = tail + 1
        @inline(__always) func copy(_ piece: UnsafeRawBufferPointer) {
            guard let bytes = piece.baseAddress else { return }
            let at = end & mask
            let first = min(piece.count, capacity - at)
            (ring + at).copyMemory(from: bytes, byteCount: first)
            if first < piece.count { ring.copyMemory(from: bytes + first, byteCount: piece.count - first) }
            end += piece.count
        }
        copy(block.head)
        copy(block.middle)
        copy(block.tail)
        tail = end
        keys.append(Key(start: times.start, sequence: sequence, length: length))
        if recordsTimes { waitingTimes.append(TimesKey(times: times, sequence: sequence)) }
    }

    /// Lets the first block go (the queue must not be empty); the blocks let go are handed on
    /// once they make a run of ``runSize`` bytes.
    @inline(__always)
    func release(_ handOn: CueOrdering.BlockRun) throws {
        head += keys.removeFirst().length
        releasedCount += 1
        if recordsTimes { recordRelease() }
        if head - released >= Self.runSize { try handOnReleased(handOn) }
    }

    /// Keeps the times of the block let go, for its run (out of line: most orderings record none).
    @inline(never)
    private func recordRelease() {
        if releasedTimesCount == releasedTimesCapacity {
            let larger = UnsafeMutablePointer<CueBlockTimes>.allocate(capacity: max(64, releasedTimesCapacity * 2))
            if let old = releasedTimes {
                larger.moveInitialize(from: old, count: releasedTimesCount)
                old.deallocate()
            }
            releasedTimes = larger
            releasedTimesCapacity = max(64, releasedTimesCapacity * 2)
        }
        (releasedTimes! + releasedTimesCount).initialize(to: waitingTimes.removeFirst().times)
        releasedTimesCount += 1
    }

    /// Hands on the blocks let go and not yet handed on, as one run (two pieces where it wraps
    /// around the ring's end: the count goes with the second).
    func handOnReleased(_ handOn: CueOrdering.BlockRun) throws {
        guard releasedCount > 0, let ring = storage else { return }
        let at = released & (capacity - 1)
        let length = head - released
        let count = releasedCount
        (released, releasedCount) = (head, 0)
        let first = min(length, capacity - at)
        if first < length { try handOn(UnsafeRawBufferPointer(start: ring + at, count: first), 0, UnsafeBufferPointer(start: nil, count: 0)) }
        let times = UnsafeBufferPointer(start: releasedTimes, count: releasedTimesCount)
        releasedTimesCount = 0
        try handOn(UnsafeRawBufferPointer(start: first < length ? ring : ring + at, count: first < length ? length - first : length), count, times)
    }

    /// A ring of the next power of two of at least `bytes` (and 64 KiB), holding the bytes in use
    /// from its start.
    private func grow(toHold bytes: Int) {
        var larger = max(capacity * 2, 1 << 16)
        while larger < bytes { larger *= 2 }
        let ring = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 16)
        if let old = storage {
            let live = tail - released
            let at = released & (capacity - 1)
            let first = min(live, capacity - at)
            ring.copyMemory(from: old + at, byteCount: first)
            if first < live { (ring + first).copyMemory(from: old, byteCount: live - first) }
            old.deallocate()
            head -= released
            tail -= released
            released = 0
        }
        storage = ring
        capacity = larger
    }
}

/// A cue block in the ordering window: its length (the LF before it included), its cue's times,
/// and whether its timing line names a region. What a consumer of a run of blocks takes them
/// apart by, with no block read again.
struct CueBlockTimes {
    var length: Int
    var start: Int
    var end: Int
    var namesRegion: Bool
}
