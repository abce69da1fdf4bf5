/// Values of attributes that repeat from element to element, kept so that each repeat shares the
/// first one's storage instead of allocating its own.
///
/// A caption document writes the same few `style` references (`style="left"`) and inline style
/// sets (`tts:fontStyle="italic"`) on thousands of elements. Each would be an array allocated for
/// the element and freed after it; the last few are compared here first (short strings compare by
/// their bits), and a repeat takes the kept array, with the number ``table`` gave it.
struct TTMLAttributeValueCache {
    /// The numbers of the values the style tables are keyed by, for the whole read.
    var table: TTMLValueTable
    /// The style properties of the element being read, in document order, before they make a
    /// set (emptied for each element, keeping its capacity).
    private(set) var pendingStyles: [TTMLStyleSet.Entry] = []
    private var styleSets = RecentAnswers<StyleSource, (set: TTMLStyleSet, number: TTMLValueTable.Number)>(capacity: 16)
    private var singleReferences = RecentAnswers<String, (references: [String], number: TTMLValueTable.Number)>(capacity: 16)

    init(valueCapacity: Int = TTMLValueTable.defaultCapacity) {
        table = TTMLValueTable(capacity: valueCapacity)
    }

    /// Starts collecting an element's style properties.
    mutating func beginStyles() {
        if !pendingStyles.isEmpty { pendingStyles.removeAll(keepingCapacity: true) }
    }

    /// Collects one style property of the element being read.
    mutating func appendStyle(_ property: TTMLStyleProperty, _ value: String) {
        pendingStyles.append(TTMLStyleSet.Entry(property: property, value: value))
    }

    /// The style set of the collected properties: each written over the ones before it, as
    /// ``TTMLStyleSet``'s subscript writes them; the set kept for the same properties when there
    /// is one; and the set's number.
    mutating func collectedStyles() -> (TTMLStyleSet, TTMLValueTable.Number) {
        guard !pendingStyles.isEmpty else { return (TTMLStyleSet(), .absent) }
        let source = StyleSource(entries: pendingStyles)
        if let kept = styleSets.answer(for: source) { return kept }
        let answer = table.set(of: pendingStyles)
        // The kept source shares the pending array's storage until the next element refills it
        // (which then copies: a miss, once per distinct set).
        styleSets.remember(StyleSource(entries: pendingStyles), answer)
        return answer
    }

    /// The style references of a `style` value that names one style (nearly every one does):
    /// `[value]`, the array kept for the same value when there is one; and the value's number.
    mutating func singleReference(_ value: String) -> ([String], TTMLValueTable.Number) {
        if let kept = singleReferences.answer(for: value) { return kept }
        let references = [value]
        let number = table.number(of: value)
        singleReferences.remember(value, (references, number))
        return (references, number)
    }

    /// Style properties in document order, as an element writes them.
    private struct StyleSource: RecentAnswerKey {
        var entries: [TTMLStyleSet.Entry]

        var fingerprint: Int { TTMLStyleSet.fingerprint(of: entries) }

        static func == (lhs: StyleSource, rhs: StyleSource) -> Bool {
            TTMLStyleSet.sameEntries(lhs.entries, rhs.entries)
        }
    }
}

extension String: RecentAnswerKey {
    /// The length in UTF-8 bytes.
    var fingerprint: Int { utf8.count }
}
