import Testing

@testable import CueKitTTML

/// Names are numbers into their parse's table: equal strings, equal numbers, and the strings read
/// back as they were.
struct XMLNameTests {
    @Test func equalStringsGetEqualNumbers() {
        let table = XMLNameTable()
        #expect(table.index(of: "") == 0)
        let first = table.index(of: "http://www.w3.org/ns/ttml")
        let second = table.index(of: "p")
        #expect(first != second)
        #expect(table.index(of: "p") == second)
        #expect(table.index(of: String("http://www.w3.org/ns/" + "ttml")) == first)
        #expect(table[first] == "http://www.w3.org/ns/ttml")
        #expect(table[second] == "p")
    }

    @Test func namesReadTheirStringsAndCompareByNumber() {
        let table = XMLNameTable()
        let paragraph = XMLName(namespace: TTML.namespace, local: "p", in: table)
        let span = XMLName(namespace: TTML.namespace, local: "span", in: table)
        let bare = XMLName(namespace: "", local: "p", in: table)
        #expect(paragraph.namespace == TTML.namespace && paragraph.local == "p")
        #expect(bare.namespace.isEmpty && bare.namespaceIndex == 0)
        #expect(paragraph != span && paragraph != bare)
        #expect(paragraph == XMLName(namespace: TTML.namespace, local: "p", in: table))
        #expect(Set([paragraph, span, bare, paragraph]).count == 3)
        // Made from the numbers the parser hands out, a name reads the same strings.
        let again = XMLName(namespaceIndex: paragraph.namespaceIndex, localIndex: paragraph.localIndex, in: table)
        #expect(again.local == "p" && again == paragraph)
    }
}
