import Testing

@testable import CueKitServer

/// The server's one cache tool: least recently used out first, within bytes and entries.
@Suite struct BoundedCacheTests {
    @Test func theLeastRecentlyUsedGoFirstWhenEntriesAreOver() {
        var cache = BoundedCache<String, Int>(limits: .init(bytes: 1000, entries: 2))
        cache.insert(1, for: "a", cost: 1)
        cache.insert(2, for: "b", cost: 1)
        #expect(cache.value(for: "a") == 1)
        cache.insert(3, for: "c", cost: 1)
        #expect(cache.trim().map(\.key) == ["b"])
        #expect(cache.value(for: "b") == nil)
        #expect(cache.count == 2 && cache.bytes == 2)
    }

    @Test func bytesAreKeptAndHeldEntriesStayPastTheBudget() {
        var cache = BoundedCache<String, Int>(limits: .init(bytes: 10, entries: 100))
        for (index, key) in ["a", "b", "c", "d"].enumerated() { cache.insert(index, for: key, cost: 4) }
        // "a" is held: "b" and "c" go, the oldest not held.
        #expect(cache.trim(keeping: { $0 == "a" }).map(\.key) == ["b", "c"])
        #expect(cache.bytes == 8)
        // One entry larger than the budget is kept while held, then goes.
        cache.insert(9, for: "big", cost: 50)
        #expect(cache.trim(keeping: { $0 == "big" }).map(\.key).sorted() == ["a", "d"])
        #expect(cache.trim().map(\.key) == ["big"])
        #expect(cache.count == 0 && cache.bytes == 0)
    }

    @Test func replacingAndRemovingKeepTheOrderAndTheBytes() {
        var cache = BoundedCache<Int, String>(limits: .init(bytes: 100, entries: 3))
        for key in 0..<3 { cache.insert("\(key)", for: key, cost: 10) }
        cache.insert("zero again", for: 0, cost: 30)
        #expect(cache.bytes == 50)
        #expect(cache.removeAll(where: { key, _ in key == 1 }).map(\.key) == [1])
        cache.insert("3", for: 3, cost: 10)
        cache.insert("4", for: 4, cost: 10)
        // Order of use: 2, 0, 3, 4.
        #expect(cache.trim().map(\.key) == [2])
        #expect(cache.value(for: 0) == "zero again")
        #expect(cache.bytes == 50)
    }
}
