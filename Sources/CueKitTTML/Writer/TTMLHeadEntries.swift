/// What a TTML head declares of one kind (styles, regions, agents): each distinct value once, with
/// the `xml:id` it was given (`prefix` and a number), in the order first met. The head is written
/// before the body and held in memory until then: a limit bounds it.
struct TTMLHeadEntries<Value: Hashable> {
    /// The identifier prefix: `_s`, `_r`, `_a` (an underscore, so that no cue identifier can
    /// take one, see ``TTMLDocumentBuilder``).
    let prefix: String
    /// The entries, in the order first met.
    private(set) var entries: [(id: String, value: Value)] = []
    private var ids: [Value: String] = [:]

    init(prefix: String) { self.prefix = prefix }

    /// How many entries there are.
    var count: Int { entries.count }

    /// The identifier of `value`, given now if it has none yet and fewer than `limit` entries are
    /// held; nil when the head is full and `value` is new.
    mutating func id(for value: Value, limit: Int) -> String? {
        if let id = ids[value] { return id }
        guard entries.count < limit else { return nil }
        let id = prefix + String(entries.count + 1)
        ids[value] = id
        entries.append((id, value))
        return id
    }

    /// The value given identifier `id`, if it is one of these entries.
    func value(of id: String) -> Value? {
        guard id.hasPrefix(prefix), let number = Int(id.dropFirst(prefix.count)), number >= 1, number <= entries.count else { return nil }
        return entries[number - 1].value
    }
}
