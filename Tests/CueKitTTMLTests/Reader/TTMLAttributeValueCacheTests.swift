import Testing

@testable import CueKitTTML

/// Repeated attribute values share storage, and give what reading them afresh gives.
struct TTMLAttributeValueCacheTests {
    /// The style set of the properties one element writes: what TTMLStyleSet's subscript makes of
    /// them in order (a later value of a property written over an earlier one).
    private func expected(_ properties: [(TTMLStyleProperty, String)]) -> TTMLStyleSet {
        var set = TTMLStyleSet()
        for (property, value) in properties { set[property] = value }
        return set
    }

    private func collected(_ properties: [(TTMLStyleProperty, String)], in cache: inout TTMLAttributeValueCache) -> TTMLStyleSet {
        cache.beginStyles()
        for (property, value) in properties { cache.appendStyle(property, value) }
        return cache.collectedStyles().0
    }

    /// Elements alternating between more sets than the cache keeps, each set read many times,
    /// with the same lengths (the fingerprint) in different properties and values: every read
    /// gives the set written, whether it was kept or made again.
    @Test func setsAreTheOnesWrittenWhetherKeptOrNot() {
        let elements: [[(TTMLStyleProperty, String)]] = [
            [(.fontStyle, "italic")],
            [(.fontWeight, "italic")],
            [(.fontStyle, "normal")],
            [(.color, "yellow"), (.fontWeight, "bold")],
            [(.fontWeight, "bold"), (.color, "yellow")],
            [(.color, "yellow"), (.color, "cyan")],
            [(.textDecoration, "underline")],
            [],
        ] + (0..<20).map { [(.color, "#\(String(repeating: "0", count: 5))\($0 % 10)")] }
        var cache = TTMLAttributeValueCache()
        for round in 0..<5 {
            for element in round.isMultiple(of: 2) ? elements : elements.reversed() {
                #expect(collected(element, in: &cache) == expected(element), "\(element)")
            }
        }
    }

    /// A repeated set is the kept one: its entries share storage with the first read.
    @Test func aRepeatedSetSharesItsStorage() {
        var cache = TTMLAttributeValueCache()
        let first = collected([(.fontStyle, "italic")], in: &cache)
        _ = collected([(.fontWeight, "bold")], in: &cache)
        let again = collected([(.fontStyle, "italic")], in: &cache)
        #expect(again == first)
        first.entries.withUnsafeBufferPointer { firstEntries in
            again.entries.withUnsafeBufferPointer { againEntries in
                #expect(firstEntries.baseAddress == againEntries.baseAddress)
            }
        }
    }

    @Test func singleReferencesAreTheValue() {
        var cache = TTMLAttributeValueCache()
        for name in ["left", "right", "left", "s1", "right"] {
            #expect(cache.singleReference(name).0 == [name])
        }
    }

    /// A set and a reference have one number whether the cache kept them or made them again: the
    /// value table's.
    @Test func keptAndRemadeAnswersHaveOneNumber() {
        var cache = TTMLAttributeValueCache()
        func number(_ properties: [(TTMLStyleProperty, String)]) -> TTMLValueTable.Number {
            cache.beginStyles()
            for (property, value) in properties { cache.appendStyle(property, value) }
            return cache.collectedStyles().1
        }
        let italic = number([(.fontStyle, "italic")])
        let left = cache.singleReference("left").1
        // More sets and references than the cache keeps, so that both are made again.
        for index in 0..<40 {
            _ = number([(.color, "#00000\(index % 10)"), (.fontSize, "\(index)px")])
            _ = cache.singleReference("s\(index)")
        }
        #expect(number([(.fontStyle, "italic")]) == italic)
        #expect(cache.singleReference("left").1 == left)
        #expect(number([(.fontStyle, "normal")]) != italic)
        #expect(cache.table.number(of: "left") == left)
        #expect(number([]) == .absent)
    }

    /// An element's style reference and agent are read as its components, whatever the cache
    /// holds from elements before it.
    @Test func referencesAndAgentsAreReadAsComponents() {
        #expect(TTMLStyleValues.firstComponent(of: "alice") == "alice")
        #expect(TTMLStyleValues.firstComponent(of: "  bob chen ") == "bob")
        #expect(TTMLStyleValues.firstComponent(of: " \t ") == nil)
        #expect(TTMLStyleValues.isSingleComponent("left"))
        #expect(!TTMLStyleValues.isSingleComponent("left right"))
        #expect(!TTMLStyleValues.isSingleComponent(""))
    }
}
