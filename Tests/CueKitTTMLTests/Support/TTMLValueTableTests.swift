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
