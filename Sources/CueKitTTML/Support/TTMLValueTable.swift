/// The attribute values a TTML read keys its style tables by, each numbered once: `tts:` values,
/// `style` references, `ttm:agent` and `xml:lang`, and the style sets made of `tts:` values. The
/// style tables (``TTMLStyleCatalog``) are then keyed by small structs of these numbers, which
/// compare and hash as integers, where keys of strings compared and hashed every byte.
///
/// The XML parser numbers names the same way (``XMLNameTable``); values are numbered here, by the
/// reader, as it reads each element's attributes (``TTMLElementAttributes``).
///
/// Bounded: at most ``capacity`` values and ``capacity`` style sets are numbered. Past that the
/// table stops numbering: a new value or set is ``Number/unnumbered``, and an element that carries
/// one is styled afresh each time instead of through the catalog (the same answer, made again).
/// Numbers once given are never given again, so every key made during the read keeps its meaning:
/// those kept in the catalog, and those of the open elements' attributes that a `set` restyles.
/// Starting over would renumber values under those keys, and a document of a million distinct
/// colours gains nothing from a table that starts over: its values do not repeat.
struct TTMLValueTable {
    /// The number of a value (or a style set) within one read.
    struct Number: Hashable, Sendable {
        var rawValue: UInt32

        /// No value: the attribute is not written (or the set is empty).
        static let absent = Number(rawValue: 0)
        /// A value met once the table was full: it has no number, and no key is made of it.
        static let unnumbered = Number(rawValue: .max)
    }

    /// How many values (and how many style sets) a read numbers by default: far more than the
    /// distinct style values of a caption document.
    static let defaultCapacity = 4096
    /// How many values the table numbers, and how many style sets.
    let capacity: Int

    private var valueNumbers: [String: Number] = [:]
    private var setNumbers: [[SetEntry]: Number] = [:]
    /// The values numbered last, compared before one is hashed: elements repeat a few values.
    private var recentValues = RecentAnswers<String, Number>(capacity: 16)

    init(capacity: Int = TTMLValueTable.defaultCapacity) {
        precondition(capacity > 0 && capacity < Int(UInt32.max - 1), "a value table numbers at least one value")
        self.capacity = capacity
    }

    /// How many values are numbered.
    var valueCount: Int { valueNumbers.count }
    /// How many style sets are numbered.
    var setCount: Int { setNumbers.count }

    /// The number of `value`; ``Number/unnumbered`` when it is new and the table is full.
    mutating func number(of value: String) -> Number {
        if let known = recentValues.answer(for: value) { return known }
        let number = numberMissingRecent(value)
        recentValues.remember(value, number)
        return number
    }

    /// ``number(of:)`` for a value not among the recent ones (out of line: the hit stays small).
    @inline(never)
    private mutating func numberMissingRecent(_ value: String) -> Number {
        if let known = valueNumbers[value] { return known }
        guard valueNumbers.count < capacity else { return .unnumbered }
        let number = Number(rawValue: UInt32(valueNumbers.count + 1))
        valueNumbers[value] = number
        return number
    }

    /// The number of a style set, from its values' numbers: equal sets (the same properties with
    /// the same values, in whatever order they were written) have equal numbers. ``Number/absent``
    /// for the empty set; ``Number/unnumbered`` when one of its values is, or the set is new and
    /// the table full.
    mutating func number(of set: TTMLStyleSet) -> Number {
        guard !set.isEmpty else { return .absent }
        var key: [SetEntry] = []
        key.reserveCapacity(set.entries.count)
        for index in set.entries.indices {
            let value = number(of: set.entries[index].value)
            guard value != .unnumbered else { return .unnumbered }
            key.append(SetEntry(property: set.entries[index].property, value: value))
        }
        if let known = setNumbers[key] { return known }
        guard setNumbers.count < capacity else { return .unnumbered }
        let number = Number(rawValue: UInt32(setNumbers.count + 1))
        setNumbers[key] = number
        return number
    }

    /// One property of a numbered style set, and its value's number.
    private struct SetEntry: Hashable {
        var property: TTMLStyleProperty
        var value: Number
    }
}
