import CueKit

/// What one element's specified styles become in WebVTT: CSS declarations for a `::cue(.class)`
/// rule, and the cue text tags that say the same without CSS (`<i>`, `<b>`, `<u>`), which every
/// player honours, STYLE blocks or not.
///
/// Classes carry the styles an element *specifies*, not its computed ones: WebVTT nests `<c>`
/// spans as TTML nests elements, and CSS inheritance inside `::cue` passes inherited properties
/// down as TTML2 section 10.4.2 does (the properties CueKit maps are inherited in both, except
/// backgrounds and opacity, which apply to their own element in both).
struct TTMLPresentation: Sendable, Hashable {
    /// `property: value` pairs, sorted by property.
    var declarations: [Declaration] = []
    /// The tags that carry this element's font style, weight and underline.
    var tags: Tags = []

    /// One CSS declaration.
    typealias Declaration = CueStyleRule.Declaration

    /// Cue text tags standing for styles.
    struct Tags: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        static let italic = Tags(rawValue: 1)
        static let bold = Tags(rawValue: 2)
        static let underline = Tags(rawValue: 4)
    }

    var isEmpty: Bool { declarations.isEmpty && tags.isEmpty }
    var hasDeclarations: Bool { !declarations.isEmpty }

    mutating func declare(_ property: String, _ value: String) {
        if let index = declarations.firstIndex(where: { $0.property == property }) {
            declarations[index].value = value
        } else {
            let index = declarations.firstIndex { $0.property > property } ?? declarations.endIndex
            declarations.insert(Declaration(property: property, value: value), at: index)
        }
    }

    /// True when the two set some CSS property in common (then they cannot share one element:
    /// which wins would depend on the order of their rules).
    func conflicts(with other: TTMLPresentation) -> Bool {
        for declaration in declarations where other.declarations.contains(where: { $0.property == declaration.property }) {
            return true
        }
        return false
    }

    /// The rule body: `color: #ff0000; font-size: 5vh;`.
    var cssBody: String {
        declarations.map { "\($0.property): \($0.value);" }.joined(separator: " ")
    }

    /// The `::cue` rule that gives `selector` these declarations.
    func rule(_ selector: CueStyleRule.Selector) -> CueStyleRule {
        CueStyleRule(selector, declarations)
    }
}
