import Testing

@testable import CueKitTTML

/// The style catalog's tables: keys that differ in any number are told apart and hashed apart,
/// keys are made only of numbered values, and each table keeps at most its capacity.
struct TTMLStyleCatalogTests {
    /// The number of the style set `tts:color="#rrggbb"` for `colour`, in `table`.
    private static func colour(_ colour: Int, in table: inout TTMLValueTable) -> TTMLValueTable.Number {
        let digits = String(colour, radix: 16)
        var set = TTMLStyleSet()
        set[.color] = "#" + String(repeating: "0", count: 6 - digits.count) + digits
        return table.number(of: set)
    }

    /// A number standing for the `index`th set.
    private static func styles(_ index: Int) -> TTMLValueTable.Number { TTMLValueTable.Number(rawValue: UInt32(index + 1)) }

    private static func layer(_ name: String) -> TTMLStyleCatalog.Layer {
        TTMLStyleCatalog.Layer(className: name, presentation: TTMLPresentation())
    }

    /// A thousand colours of one length make a thousand keys, which hash to (nearly) a thousand
    /// values; the level tells keys of one set apart.
    @Test func keysOfDistinctValuesHashApart() {
        var table = TTMLValueTable()
        let numbers = (0..<1000).map { Self.colour($0, in: &table) }
        let inline = Set(numbers.map { TTMLStyleCatalog.InlineLayerKey(styles: $0, level: .inline).hashValue })
        #expect(inline.count > 990)
        let spans = Set(
            numbers.map {
                TTMLStyleCatalog.SpanWrapperKey(
                    agent: .absent, language: .absent, styleReferences: .absent, styles: $0, role: .span
                ).hashValue
            })
        #expect(spans.count > 990)
        let levels = Set(
            [TTMLStyleMapper.Level.region, .block, .paragraph, .inline].map {
                TTMLStyleCatalog.InlineLayerKey(styles: numbers[1], level: $0)
            })
        #expect(levels.count == 4)
    }

    /// An element's keys are its attributes' numbers; with a value the table did not number, it
    /// has none. Its language counts only where it changes the language.
    @Test func keysAreMadeOfNumberedValuesOnly() {
        var attributes = TTMLElementAttributes()
        attributes.numbers = .init(styleReferences: Self.styles(1), agent: .absent, language: Self.styles(2), styles: Self.styles(3))
        #expect(TTMLStyleCatalog.InlineLayerKey(attributes, level: .inline) == .init(styles: Self.styles(3), level: .inline))
        let kept = TTMLStyleCatalog.SpanWrapperKey(attributes, changesLanguage: false, role: .span)
        #expect(kept?.language == .absent)
        #expect(TTMLStyleCatalog.SpanWrapperKey(attributes, changesLanguage: true, role: .span)?.language == Self.styles(2))
        attributes.numbers.language = .unnumbered
        #expect(TTMLStyleCatalog.SpanWrapperKey(attributes, changesLanguage: false, role: .span) == kept)
        #expect(TTMLStyleCatalog.SpanWrapperKey(attributes, changesLanguage: true, role: .span) == nil)
        attributes.numbers.styles = .unnumbered
        #expect(TTMLStyleCatalog.InlineLayerKey(attributes, level: .inline) == nil)
        #expect(TTMLStyleCatalog.SpanWrapperKey(attributes, changesLanguage: false, role: .span) == nil)
    }

    /// Each inline layer is given back for its own set and level only.
    @Test func inlineLayersAreKeptApart() {
        var catalog = TTMLStyleCatalog()
        for index in 0..<100 {
            catalog.keepInlineLayer(Self.layer("c\(index)"), for: .init(styles: Self.styles(index), level: .inline))
        }
        for index in [0, 1, 50, 99] {
            #expect(catalog.inlineLayer(for: .init(styles: Self.styles(index), level: .inline))?.className == "c\(index)")
        }
        #expect(catalog.inlineLayer(for: .init(styles: Self.styles(0), level: .paragraph)) == nil)
        #expect(catalog.inlineLayer(for: .init(styles: Self.styles(100), level: .inline)) == nil)
    }

    /// Past its capacity the inline table starts over: the first sets are gone, the last kept.
    @Test func inlineLayersAreBounded() {
        var catalog = TTMLStyleCatalog()
        let count = TTMLStyleCatalog.inlineLayerCapacity + 1
        for index in 0..<count {
            catalog.keepInlineLayer(Self.layer("c\(index)"), for: .init(styles: Self.styles(index), level: .inline))
        }
        #expect(catalog.inlineLayer(for: .init(styles: Self.styles(0), level: .inline)) == nil)
        #expect(catalog.inlineLayer(for: .init(styles: Self.styles(count - 1), level: .inline))?.className == "c\(count - 1)")
    }

    /// Span wrappers are kept by everything that makes them, up to their capacity.
    @Test func spanWrappersAreKeptApartAndBounded() {
        var catalog = TTMLStyleCatalog()
        func key(_ index: Int, role: TTMLParagraph.Role = .span) -> TTMLStyleCatalog.SpanWrapperKey {
            .init(agent: .absent, language: .absent, styleReferences: .absent, styles: Self.styles(index), role: role)
        }
        let wrappers = { (name: String) in [TTMLParagraph.Wrapper(kind: .class, classes: [name])] }
        catalog.keepSpanWrappers(wrappers("a"), for: key(1))
        catalog.keepSpanWrappers(wrappers("b"), for: key(2))
        catalog.keepSpanWrappers(wrappers("r"), for: key(1, role: .rubyText))
        #expect(catalog.spanWrappers(for: key(1)) == wrappers("a"))
        #expect(catalog.spanWrappers(for: key(2)) == wrappers("b"))
        #expect(catalog.spanWrappers(for: key(1, role: .rubyText)) == wrappers("r"))
        #expect(catalog.spanWrappers(for: key(3)) == nil)
        var agent = key(1)
        agent.agent = Self.styles(7)
        #expect(catalog.spanWrappers(for: agent) == nil)
        for index in 3..<(3 + TTMLStyleCatalog.spanWrapperCapacity) { catalog.keepSpanWrappers(wrappers("n"), for: key(index)) }
        #expect(catalog.spanWrappers(for: key(1)) == nil)
    }
}
