/// Values by key within a budget of bytes and of entries, the least recently used out first: the
/// one cache tool of the server (compressed bodies, converted tracks).
///
/// Each value has a cost in bytes, given when it is stored (what it holds and its key). Storing
/// never evicts by itself: ``trim(keeping:)`` does, so that an owner can keep entries in use (a
/// converted track being sent) past the budget until they are released. Lookups, insertions and
/// removals take constant time; the order of use is a linked list through an array.
struct BoundedCache<Key: Hashable, Value> {
    /// The budget.
    struct Limits: Sendable, Hashable {
        /// The most bytes held, counting each entry's cost.
        var bytes: Int
        /// The most entries held.
        var entries: Int
    }

    /// The budget trimming keeps to.
    let limits: Limits
    /// The cost of the entries held.
    private(set) var bytes = 0

    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        /// The next more recently used node, or -1.
        var newer: Int
        /// The next less recently used node, or -1.
        var older: Int
    }

    private var slots: [Key: Int] = [:]
    /// Nodes by slot; a nil slot is free.
    private var nodes: [Node?] = []
    private var freeSlots: [Int] = []
    private var newest = -1
    private var oldest = -1

    init(limits: Limits) {
        self.limits = limits
    }

    /// How many entries are held.
    var count: Int { slots.count }

    /// True when the entries held exceed the budget.
    var isOverBudget: Bool { bytes > limits.bytes || slots.count > limits.entries }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        unlink(slot)
        linkAsNewest(slot)
        return nodes[slot]?.value
    }

    /// Stores `value` for `key` as the most recently used, replacing any value it had.
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        _ = removeValue(forKey: key)
        let node = Node(key: key, value: value, cost: cost, newer: -1, older: -1)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        slots[key] = slot
        bytes += cost
        linkAsNewest(slot)
    }

    /// Removes the value for `key` and returns it.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = slots.removeValue(forKey: key), let node = nodes[slot] else { return nil }
        unlink(slot)
        nodes[slot] = nil
        freeSlots.append(slot)
        bytes -= node.cost
        return node.value
    }

    /// Removes every entry `predicate` selects, and returns them.
    mutating func removeAll(where predicate: (Key, Value) -> Bool) -> [(key: Key, value: Value)] {
        let chosen = slots.keys.filter { key in nodes[slots[key]!].map { predicate(key, $0.value) } ?? false }
        return chosen.compactMap { key in removeValue(forKey: key).map { (key, $0) } }
    }

    /// Removes the least recently used entries that `keeping` does not hold on to, until the
    /// budget is kept or only such entries are left; returns those removed, oldest first.
    mutating func trim(keeping: (Key) -> Bool = { _ in false }) -> [(key: Key, value: Value)] {
        var removed: [(key: Key, value: Value)] = []
        var slot = oldest
        while isOverBudget, slot >= 0, let node = nodes[slot] {
            let next = node.newer
            if !keeping(node.key) {
                removeValue(forKey: node.key)
                removed.append((node.key, node.value))
            }
            slot = next
        }
        return removed
    }

    private mutating func unlink(_ slot: Int) {
        guard let node = nodes[slot] else { return }
        if node.newer >= 0 { nodes[node.newer]?.older = node.older } else { newest = node.older }
        if node.older >= 0 { nodes[node.older]?.newer = node.newer } else { oldest = node.newer }
        nodes[slot]?.newer = -1
        nodes[slot]?.older = -1
    }

    private mutating func linkAsNewest(_ slot: Int) {
        nodes[slot]?.older = newest
        nodes[slot]?.newer = -1
        if newest >= 0 { nodes[newest]?.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}
