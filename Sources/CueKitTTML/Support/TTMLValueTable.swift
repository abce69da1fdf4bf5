/// The attribute values a TTML read keys its style tables by, each numbered once: `tts:` values,
/// `style` references, `ttm:agent` and `xml:lang`, the style sets made of `tts:` values, and the
/// chains of wrappers made of them. The style tables (``TTMLStyleCatalog``) and the renderer's
/// markup are then keyed by small structs of these numbers, which compare and hash as integers,
/// where keys of strings compared and hashed every byte.
///
/// The XML parser numbers names the same way (``XMLNameTable``); values are numbered here, by the
/// reader, as it reads each element's attributes (``TTMLElementAttributes``).
///
/// Bounded: at most ``capacity`` values, ``capacity`` style sets and ``capacity`` chains are
/// numbered. Past that the table stops numbering: a new one is ``Number/unnumbered``, and an
/// element that carries one is styled afresh each time instead of through the catalog (the same
/// answer, made again).
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
    /// How many values the table numbers, and how many style sets and chains.
    let capacity: Int
    /// How many of each the tables make room for at first.
    private static let initialRoom = 64

    private var valueNumbers: [String: Number] = [:]
    private var setNumbers: [[NumberedEntry]: Number] = [:]
    /// The numbered sets, by number (0, ``Number/absent``, is the empty set).
    private var sets = [TTMLStyleSet()]
    /// What ``set(of:)`` looks a set up by (emptied for each look-up, keeping its capacity).
    private var lookup: [NumberedEntry] = []
    private var chainNumbers: [[TTMLParagraph.Wrapper]: Number] = [:]
    /// The values numbered last, compared before one is hashed: elements repeat a few values.
    private var recentValues = RecentAnswers<String, Number>(capacity: 16)

    init(capacity: Int = TTMLValueTable.defaultCapacity) {
        precondition(capacity > 0 && capacity < Int(UInt32.max - 1), "a value table numbers at least one value")
        self.capacity = capacity
        // Room for the values and sets of most documents at once, so that the tables do not
        // grow (allocating each time) while the first paragraphs are read.
        valueNumbers.reserveCapacity(min(capacity, Self.initialRoom))
        setNumbers.reserveCapacity(min(capacity, Self.initialRoom))
        chainNumbers.reserveCapacity(min(capacity, Self.initialRoom))
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

    /// The style set of properties an element writes, in document order (each written over the
    /// ones before it, as ``TTMLStyleSet``'s subscript writes them), and its number: the set
    /// numbered before for the same properties and values when there is one (equal sets, in
    /// whatever order they were written, have one number). ``Number/absent`` for no properties;
    /// ``Number/unnumbered`` when a value is, or the set is new and the table full.
    mutating func set(of entries: [TTMLStyleSet.Entry]) -> (TTMLStyleSet, Number) {
        guard !entries.isEmpty else { return (TTMLStyleSet(), .absent) }
        // The set's properties with their values' numbers, in the set's order, made in a buffer
        // kept from call to call: a set numbered before is found without allocating.
        lookup.removeAll(keepingCapacity: true)
        var numbered = true
        for index in entries.indices {
            let value = number(of: entries[index].value)
            guard value != .unnumbered else {
                numbered = false
                break
            }
            let entry = NumberedEntry(property: entries[index].property, value: value)
            if let same = lookup.firstIndex(where: { $0.property == entry.property }) {
                lookup[same] = entry
            } else {
                lookup.insert(entry, at: lookup.firstIndex { $0.property > entry.property } ?? lookup.endIndex)
            }
        }
        if numbered, let known = setNumbers[lookup] { return (sets[Int(known.rawValue)], known) }
        var set = TTMLStyleSet()
        for index in entries.indices { set[entries[index].property] = entries[index].value }
        guard numbered, setNumbers.count < capacity else { return (set, .unnumbered) }
        let number = Number(rawValue: UInt32(sets.count))
        setNumbers[lookup] = number
        sets.append(set)
        return (set, number)
    }

    /// The number of a style set (``set(of:)``).
    mutating func number(of set: TTMLStyleSet) -> Number { self.set(of: set.entries).1 }

    /// The number of a chain of wrappers (the markup the styles of a paragraph and the elements
    /// around it make), by the wrappers: ``Number/absent`` for none; ``Number/unnumbered`` when
    /// the chain is new and ``capacity`` chains are numbered. The renderer keys the markup it
    /// makes of a chain by this number.
    mutating func number(of chain: [TTMLParagraph.Wrapper]) -> Number {
        guard !chain.isEmpty else { return .absent }
        if let known = chainNumbers[chain] { return known }
        guard chainNumbers.count < capacity else { return .unnumbered }
        let number = Number(rawValue: UInt32(chainNumbers.count + 1))
        chainNumbers[chain] = number
        return number
    }

    /// A style property and its value's number.
    struct NumberedEntry: Hashable {
        var property: TTMLStyleProperty
        var value: Number
    }
}
