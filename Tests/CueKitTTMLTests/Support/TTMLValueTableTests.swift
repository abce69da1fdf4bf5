import Testing

@testable import CueKitTTML

/// The value table numbers equal values alike and distinct values apart, and numbers no more than
/// its capacity.
struct TTMLValueTableTests {
    /// `#rrggbb` for `number`: every colour of the same length.
    private static func colour(_ number: Int) -> String {
        let digits = String(number, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// A thousand colours of one length get a thousand numbers, each given again for its colour
    /// (past the values compared first, which are the last few).
    @Test func distinctValuesGetDistinctNumbers() {
        var table = TTMLValueTable()
        let numbers = (0..<1000).map { table.number(of: Self.colour($0)) }
        #expect(Set(numbers).count == 1000)
        #expect(!numbers.contains(.absent) && !numbers.contains(.unnumbered))
        for number in [0, 1, 500, 999] { #expect(table.number(of: Self.colour(number)) == numbers[number]) }
        #expect(table.valueCount == 1000)
    }

    /// Sets are numbered by their properties and values: written in either order, the same
    /// number; a value moved to another property, another number; the empty set, none.
    @Test func setsAreNumberedByTheirValues() {
        var table = TTMLValueTable()
        var yellowBold = TTMLStyleSet()
        yellowBold[.color] = "yellow"
        yellowBold[.fontWeight] = "bold"
        var boldYellow = TTMLStyleSet()
        boldYellow[.fontWeight] = "bold"
        boldYellow[.color] = "yellow"
        var swapped = TTMLStyleSet()
        swapped[.color] = "bold"
        swapped[.fontWeight] = "yellow"
        let first = table.number(of: yellowBold)
        #expect(first != .absent && first != .unnumbered)
        #expect(table.number(of: boldYellow) == first)
        #expect(table.number(of: swapped) != first)
        #expect(table.number(of: TTMLStyleSet()) == .absent)
        #expect(table.setCount == 2)
    }

    /// The set of properties as an element writes them is the set their subscript writes makes
    /// (a later value of a property over an earlier one), numbered as that set is.
    @Test func setsOfWrittenPropertiesAreTheSetsTheyMake() {
        var table = TTMLValueTable()
        let written: [TTMLStyleSet.Entry] = [
            .init(property: .fontWeight, value: "bold"), .init(property: .color, value: "yellow"), .init(property: .color, value: "cyan"),
        ]
        var expected = TTMLStyleSet()
        expected[.color] = "cyan"
        expected[.fontWeight] = "bold"
        let (set, number) = table.set(of: written)
        #expect(set == expected)
        #expect(table.number(of: expected) == number)
        let (again, numberAgain) = table.set(of: [.init(property: .color, value: "cyan"), .init(property: .fontWeight, value: "bold")])
        #expect(again == expected && numberAgain == number)
        #expect(table.set(of: [.init(property: .color, value: "yellow"), .init(property: .fontWeight, value: "bold")]).1 != number)
        #expect(table.set(of: []).1 == .absent)
    }

    /// Full, the table numbers no new value or set and keeps every number it gave: a million
    /// distinct colours leave it at its capacity.
    @Test func aFullTableStopsNumbering() {
        var table = TTMLValueTable(capacity: 8)
        let kept = (0..<8).map { table.number(of: Self.colour($0)) }
        for number in 8..<1_000_000 { #expect(table.number(of: Self.colour(number)) == .unnumbered) }
        #expect(table.valueCount == 8)
        #expect((0..<8).map { table.number(of: Self.colour($0)) } == kept)

        var set = TTMLStyleSet()
        set[.color] = Self.colour(100)
        #expect(table.number(of: set) == .unnumbered, "a set with an unnumbered value")
        for number in 0..<8 {
            set[.color] = Self.colour(number)
            #expect(table.number(of: set) != .unnumbered)
        }
        set[.color] = Self.colour(0)
        set[.fontStyle] = Self.colour(1)
        #expect(table.number(of: set) == .unnumbered, "a ninth set")
        #expect(table.setCount == 8)
    }
}
