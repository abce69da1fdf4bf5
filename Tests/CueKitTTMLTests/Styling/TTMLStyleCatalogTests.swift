import Testing

@testable import CueKitTTML

/// The style catalog's tables: keys that differ in any value are told apart and hashed apart, and
/// each table keeps at most its capacity.
struct TTMLStyleCatalogTests {
    /// The inline style set `tts:color="#rrggbb"` for `number`: every one of the same length.
    private static func colour(_ number: Int) -> TTMLStyleSet {
        let digits = String(number, radix: 16)
        var set = TTMLStyleSet()
        set[.color] = "#" + String(repeating: "0", count: 6 - digits.count) + digits
        return set
    }

    private static func layer(_ name: String) -> TTMLStyleCatalog.Layer {
        TTMLStyleCatalog.Layer(className: name, presentation: TTMLPresentation())
    }

    /// Colours of one length share a fingerprint, not a hash: a thousand keys hash to (nearly) a
    /// thousand values, where hashing by lengths gave them all one.
    @Test func keysHashEveryValue() {
        let inline = Set((0..<1000).map { TTMLStyleCatalog.InlineLayerKey(styles: Self.colour($0), level: .inline).hashValue })
        #expect(inline.count > 990)
        let spans = Set(
            (0..<1000).map {
                TTMLStyleCatalog.SpanWrapperKey(
                    agent: nil, language: nil, styleReferences: [], styles: Self.colour($0), role: .span
                ).hashValue
            })
        #expect(spans.count > 990)
        let levels = Set(
            [TTMLStyleMapper.Level.region, .block, .paragraph, .inline].map {
                TTMLStyleCatalog.InlineLayerKey(styles: Self.colour(1), level: $0)
            })
        #expect(levels.count == 4)
    }

    /// Each inline layer is given back for its own set and level only.
    @Test func inlineLayersAreKeptApart() {
        var catalog = TTMLStyleCatalog()
        for number in 0..<100 {
            catalog.keepInlineLayer(Self.layer("c\(number)"), for: .init(styles: Self.colour(number), level: .inline))
        }
        for number in [0, 1, 50, 99] {
            #expect(catalog.inlineLayer(for: .init(styles: Self.colour(number), level: .inline))?.className == "c\(number)")
        }
        #expect(catalog.inlineLayer(for: .init(styles: Self.colour(0), level: .paragraph)) == nil)
        #expect(catalog.inlineLayer(for: .init(styles: Self.colour(100), level: .inline)) == nil)
    }

    /// Past its capacity the inline table starts over: the first sets are gone, the last kept.
    @Test func inlineLayersAreBounded() {
        var catalog = TTMLStyleCatalog()
        let count = TTMLStyleCatalog.inlineLayerCapacity + 1
        for number in 0..<count {
            catalog.keepInlineLayer(Self.layer("c\(number)"), for: .init(styles: Self.colour(number), level: .inline))
        }
        #expect(catalog.inlineLayer(for: .init(styles: Self.colour(0), level: .inline)) == nil)
        #expect(catalog.inlineLayer(for: .init(styles: Self.colour(count - 1), level: .inline))?.className == "c\(count - 1)")
    }

    /// Span wrappers are kept by everything that makes them, up to their capacity.
    @Test func spanWrappersAreKeptApartAndBounded() {
        var catalog = TTMLStyleCatalog()
        func key(_ number: Int, role: TTMLParagraph.Role = .span) -> TTMLStyleCatalog.SpanWrapperKey {
            .init(agent: nil, language: nil, styleReferences: [], styles: Self.colour(number), role: role)
        }
        let wrappers = { (name: String) in [TTMLParagraph.Wrapper(kind: .class, classes: [name])] }
        catalog.keepSpanWrappers(wrappers("a"), for: key(1))
        catalog.keepSpanWrappers(wrappers("b"), for: key(2))
        catalog.keepSpanWrappers(wrappers("r"), for: key(1, role: .rubyText))
        #expect(catalog.spanWrappers(for: key(1)) == wrappers("a"))
        #expect(catalog.spanWrappers(for: key(2)) == wrappers("b"))
        #expect(catalog.spanWrappers(for: key(1, role: .rubyText)) == wrappers("r"))
        #expect(catalog.spanWrappers(for: key(3)) == nil)
        for number in 3..<(3 + TTMLStyleCatalog.spanWrapperCapacity) { catalog.keepSpanWrappers(wrappers("n"), for: key(number)) }
        #expect(catalog.spanWrappers(for: key(1)) == nil)
    }
}
