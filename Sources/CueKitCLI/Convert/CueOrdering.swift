import CueKit

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
/// A `NOTE` stays before the cue that followed it in the input; other events (header, regions,
/// style sheets, diagnostics) pass straight through, ahead of the cues still in the window.
struct CueOrdering {
    /// How many cues the window holds.
    let windowSize: Int
    /// How many late cues are sorted in memory before they are spilled as one run.
    let runLength: Int
    /// Where late runs are spilled.
    let spillFolder: String

    /// The window: cues that came in start-time order, and the others. (The queue is a
    /// reference, shared by copies: an ordering is used in place, through `inout`.)
    private let inOrder = CueQueue()
    private var outOfOrder = CueHeap()
    private var pendingNotes: [CueNote] = []
    private var sequence = 0
    private var lastEmittedStart = Int.min
    private var latestInputStart = Int.min
    /// Cues that came after a cue with a later start.
    private(set) var reorderedCount = 0
    private(set) var late: LateCueRuns?

    static let defaultWindowSize = 4096
    static let defaultRunLength = 32768

    init(windowSize: Int = defaultWindowSize, runLength: Int = defaultRunLength, spillFolder: String) {
        self.windowSize = max(1, windowSize)
        self.runLength = max(1, runLength)
        self.spillFolder = spillFolder
    }

    /// Takes the next event of the track; hands on what can be written now.
    mutating func take(_ event: TrackEvent, emit: (TrackEvent) throws -> Void) throws {
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
                for note in notes { try emit(.note(note)) }
                if late == nil { late = LateCueRuns(runLength: runLength, folder: spillFolder) }
                try late!.add(cue, sequence: sequence)
            } else {
                let entry = CueHeap.Entry(cue: cue, sequence: sequence, notes: notes)
                if inOrder.lastStart.map({ cue.start >= $0 }) ?? true {
                    inOrder.append(entry)
                } else {
                    outOfOrder.push(entry)
                }
                if inOrder.count + outOfOrder.count > windowSize { try releaseEarliest(emit) }
            }
            sequence += 1
        case .note(let note):
            pendingNotes.append(note)
        default:
            try emit(event)
        }
    }

    /// Hands on the cues still in the window, and the notes after the last cue.
    mutating func finish(emit: (TrackEvent) throws -> Void) throws {
        while inOrder.count + outOfOrder.count > 0 { try releaseEarliest(emit) }
        for note in pendingNotes { try emit(.note(note)) }
        pendingNotes.removeAll()
        try late?.finishWriting()
    }

    /// Hands on the window's earliest cue (by start, then input order), when it holds one. The
    /// entry is taken out as a plain value: an `Optional` of it, destroyed once handed on, went
    /// through the runtime's generic value witnesses (about 30 instructions a cue).
    private mutating func releaseEarliest(_ emit: (TrackEvent) throws -> Void) throws {
        let fromQueue: Bool
        if let queued = inOrder.firstKey {
            if let heaped = outOfOrder.topKey {
                fromQueue = queued.start != heaped.start ? queued.start < heaped.start : queued.sequence < heaped.sequence
            } else {
                fromQueue = true
            }
        } else {
            guard !outOfOrder.isEmpty else { return }
            fromQueue = false
        }
        try release(fromQueue ? inOrder.removeFirst() : outOfOrder.pop(), emit)
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
    struct Entry {
        var cue: Cue
        var sequence: Int
        /// The notes that came just before the cue.
        var notes: [CueNote] = []

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

/// A first-in, first-out queue of cues: a ring of slots that grows by doubling. Entries are moved
/// in and out of their slots, never copied, and looking at the first or last touches no string.
final class CueQueue {
    private var slots: UnsafeMutablePointer<CueHeap.Entry>
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

    /// The start time of the entry appended last.
    var lastStart: Int? { count > 0 ? slots[slot(count - 1)].cue.start : nil }
    /// The start and input position of the entry ``removeFirst()`` would return.
    var firstKey: (start: Int, sequence: Int)? { count > 0 ? (slots[head].cue.start, slots[head].sequence) : nil }

    func append(_ entry: consuming CueHeap.Entry) {
        if count == capacity { grow() }
        (slots + slot(count)).initialize(to: entry)
        count += 1
    }

    /// Takes out the entry ``firstKey`` names; the queue must not be empty.
    func removeFirst() -> CueHeap.Entry {
        precondition(count > 0, "removeFirst() on an empty queue")
        let entry = (slots + head).move()
        head = slot(1)
        count -= 1
        return entry
    }

    private func grow() {
        let larger = UnsafeMutablePointer<CueHeap.Entry>.allocate(capacity: capacity * 2)
        for offset in 0..<count { (larger + offset).moveInitialize(from: slots + slot(offset), count: 1) }
        slots.deallocate()
        slots = larger
        capacity *= 2
        head = 0
    }
}

extension DiagnosticCode {
    /// Cues of the input out of start-time order, written in order.
    static let convertReordered: DiagnosticCode = "cue-order"
    /// A timing edit (`--shift`, `--scale`, `--frame-rate`) that takes a cue past the latest time.
    static let timingEditOutOfRange: DiagnosticCode = "timing-edit-out-of-range"
}
