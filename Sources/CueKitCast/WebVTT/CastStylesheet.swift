import CueKit

/// A text track style written as WebVTT CSS, and what could not be written.
public struct CastStylesheet: Sendable, Hashable {
    /// The style sheet: a marker comment and one `::cue` rule; `nil` when the style sets nothing
    /// WebVTT can carry.
    public var stylesheet: CueStylesheet?
    /// What the style holds that the file cannot carry, or that the receiver would draw
    /// differently, in field order.
    public var diagnostics: [Diagnostic]

    /// The comment that opens every style sheet CueKit writes for a Cast style. Applying a style
    /// to a track replaces sheets that start with it, so that styling a styled file restyles it
    /// instead of stacking rules.
    public static let marker = "/* \(markerComment) */"

    /// The text of ``marker``.
    static let markerComment = "Cast TextTrackStyle"

    /// The CSS properties WebVTT allows in `::cue` rules (W3C WebVTT, section 7.2.1: `color`,
    /// `opacity`, `visibility`, `text-decoration`, `text-shadow`, `background`, `outline`, `font`
    /// and their longhands, `line-height`, `white-space`, `text-combine-upright`, `ruby-position`):
    /// the only ones CueKit writes.
    public static let allowedProperties: Set<String> = [
        "color", "opacity", "visibility", "text-decoration", "text-decoration-line", "text-decoration-color",
        "text-decoration-style", "text-decoration-thickness", "text-shadow", "background", "background-color",
        "background-image", "background-repeat", "background-attachment", "background-position", "background-size",
        "background-origin", "background-clip", "outline", "outline-color", "outline-style", "outline-width", "font",
        "font-family", "font-size", "font-stretch", "font-style", "font-variant", "font-weight", "line-height",
        "white-space", "text-combine-upright", "ruby-position",
    ]

    /// The declarations of the `::cue` rule, in the order written.
    public var declarations: [Declaration]

    /// One `property: value` pair, its property one of ``CueStylesheet/allowedProperties``.
    public typealias Declaration = CueStyleRule.Declaration
}

extension TextTrackStyle {
    /// The style as WebVTT CSS: one `::cue` rule with a declaration per set field.
    ///
    /// | field | CSS |
    /// | --- | --- |
    /// | foregroundColor | `color: rgba(…)` |
    /// | backgroundColor | `background-color: rgba(…)` |
    /// | fontScale | `font-size: N%` (1.5 is `150%` of the receiver's caption size) |
    /// | fontFamily, fontGenericFamily | `font-family: "Family", <stack for the generic family>` |
    /// | fontGenericFamily SMALL_CAPITALS | also `font-variant: small-caps` |
    /// | fontStyle | `font-weight` and `font-style` |
    /// | edgeType, edgeColor | `text-shadow` (see ``EdgeType/textShadow(color:)``) |
    ///
    /// `::cue` with no argument styles the cue's root, so the file's own `::cue(.class)` and
    /// `::cue(v[voice=…])` rules still style the spans they select; the style's rule must come after
    /// the file's own `::cue` rules to win over them (equal specificity, so the later rule wins):
    /// ``apply(to:at:locations:)`` puts it last. The window fields have no `::cue` equivalent and are
    /// reported, never silently dropped; `customData` and unknown members are reported as notes.
    /// `path` and `locations` place those diagnostics in the style's JSON.
    public func cueStylesheet(at path: CastJSONPath = .root, locations: CastJSONLocations = CastJSONLocations()) -> CastStylesheet {
        var diagnostics: [Diagnostic] = []
        func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ field: String?, _ message: String) {
            let fieldPath = field.map { path.appending($0) } ?? path
            diagnostics.append(Diagnostic(severity, code, at: locations.nearest(fieldPath), "\(fieldPath): \(message)"))
        }
        var declarations: [CastStylesheet.Declaration] = []
        func declare(_ property: String, _ value: String) {
            precondition(CastStylesheet.allowedProperties.contains(property), "\(property) is not allowed in ::cue")
            declarations.append(CastStylesheet.Declaration(property: property, value: value))
        }
        if let color = foregroundColor { declare("color", color.css) }
        if let color = backgroundColor { declare("background-color", color.css) }
        if let scale = fontScale {
            if TextTrackStyle.isDrawable(fontScale: scale) {
                declare("font-size", Self.formatPercentage(scale) + "%")
            } else {
                report(
                    .error, .castBadFontScale, "fontScale",
                    "fontScale must be a positive number at most \(CastJSONValue.format(TextTrackStyle.fontScaleRange.upperBound)), found \(CastJSONValue.format(scale)): not written"
                )
            }
        }
        switch (fontFamily, fontGenericFamily) {
        case (let family?, let generic?): declare("font-family", Self.cssFamilyName(family) + ", " + generic.fontStack)
        case (let family?, nil): declare("font-family", Self.cssFamilyName(family))
        case (nil, let generic?): declare("font-family", generic.fontStack)
        case (nil, nil): break
        }
        if fontGenericFamily == .smallCapitals { declare("font-variant", "small-caps") }
        if let fontStyle {
            let (weight, style) = fontStyle.cssWeightAndStyle
            declare("font-weight", weight)
            declare("font-style", style)
        }
        if let edgeType {
            let color: CastColor
            if let edgeColor {
                color = edgeColor
            } else {
                color = .black
                if edgeType != .none {
                    report(
                        .note, .castEdgeColorDefaulted, "edgeType",
                        "edgeType \(edgeType.rawValue) has no edgeColor; the edge is drawn in opaque black (#000000FF), as receivers do"
                    )
                }
            }
            declare("text-shadow", edgeType.textShadow(color: color))
        } else if edgeColor != nil {
            report(.note, .castIgnoredField, "edgeColor", "edgeColor without edgeType draws no edge; set edgeType to use it")
        }
        let windowFields = [
            windowType.map { _ in "windowType" }, windowColor.map { _ in "windowColor" },
            windowRoundedCornerRadius.map { _ in "windowRoundedCornerRadius" },
        ].compactMap { $0 }
        if !windowFields.isEmpty {
            report(
                .warning, .castWindowNotInWebVTT, windowFields[0],
                "\(windowFields.joined(separator: ", ")) \(windowFields.count == 1 ? "describes" : "describe") the caption window of CEA-608/708, which has no ::cue "
                    + "equivalent in WebVTT: not written into the file (send them in the Cast message's textTrackStyle)"
            )
        }
        if customData != nil {
            report(.note, .castNotWritten, "customData", "customData is application data, not a style: not written into the file")
        }
        for (key, _) in otherFields {
            report(
                .note, .castNotWritten, key, "'\(key)' is not a TextTrackStyle field CueKit knows how to draw: not written into the file")
        }
        guard !declarations.isEmpty else { return CastStylesheet(stylesheet: nil, diagnostics: diagnostics, declarations: []) }
        let sheet = CueStylesheet(rules: [CueStyleRule(.everyCue, declarations)], comment: CastStylesheet.markerComment, layout: .expanded)
        return CastStylesheet(stylesheet: sheet, diagnostics: diagnostics, declarations: declarations)
    }

    /// Bakes the style into a track: removes style sheets an earlier application wrote (they start
    /// with ``CueStylesheet/marker``), appends the new one after the file's own, and returns what
    /// could not be written.
    @discardableResult
    public func apply(to track: inout Track, at path: CastJSONPath = .root, locations: CastJSONLocations = CastJSONLocations()) -> [Diagnostic] {
        var applier = CastStyleApplier(style: self, at: path, locations: locations)
        track.stylesheets.removeAll { CastStyleApplier.isApplied($0) }
        for sheet in track.stylesheets { applier.inspect(sheet) }
        for cue in track.cues {
            guard applier.watchesCues(afterInserting: true) else { break }
            applier.reportRules(usedBy: cue.text)
        }
        if let sheet = applier.stylesheet { track.stylesheets.append(sheet) }
        return applier.diagnostics
    }

    /// A percentage for `font-size`: `150`, `87.5`, `133.3333` (at most four decimals).
    static func formatPercentage(_ scale: Double) -> String {
        let tenThousandths = (scale * 1_000_000).rounded()
        guard tenThousandths.isFinite, abs(tenThousandths) < 1e15 else { return CastJSONValue.format(scale * 100) }
        let whole = Int64(tenThousandths) / 10_000
        var fraction = String(Int64(tenThousandths) % 10_000)
        if fraction == "0" { return String(whole) }
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }

    /// A `fontFamily` as CSS: a generic family (`serif`, `monospace`...) is a keyword, written bare,
    /// since `"serif"` in quotes names a font called serif and a browser draws its fallback;
    /// any other name is a quoted string.
    static func cssFamilyName(_ family: String) -> String {
        let trimmed = family.trimmingSpaces()
        let lowered = trimmed.lowercased()
        return cssGenericFamilies.contains(lowered) ? lowered : CueStyleRule.cssString(family)
    }

    /// The generic family keywords of CSS Fonts Level 4.
    static let cssGenericFamilies: Set<String> = [
        "serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-serif", "ui-sans-serif", "ui-monospace",
        "ui-rounded", "math", "emoji", "fangsong",
    ]

}

/// Applies a text track style to a stream of ``TrackEvent``s, for files too large to hold whole:
/// the style sheet goes in just before the first cue, after every STYLE block of the file (WebVTT
/// allows STYLE blocks only before the first cue), and sheets from an earlier application are
/// dropped.
///
/// ```swift
/// var applier = CastStyleApplier(style: style)
/// try reader.feed(chunk) { event in try applier.process(event) { try writer.write($0) } }
/// try reader.finish { event in try applier.process(event) { try writer.write($0) } }
/// try applier.finish { try writer.write($0) }
/// ```
public struct CastStyleApplier: Sendable {
    /// The sheet the style becomes, if any.
    public let stylesheet: CueStylesheet?
    /// The conversion's diagnostics, then those about the file's own sheets.
    public private(set) var diagnostics: [Diagnostic]
    /// True once the style sheet went in (before the first cue): from then on events pass unchanged.
    public private(set) var inserted = false
    private var warnedAboutImportant = false
    /// The file's rules reported for overriding the applied style.
    private var overridingRules = 0
    /// The file's class rules that would override the applied style, each reported when a cue
    /// first uses its classes (a rule that selects no text overrides nothing); at most
    /// ``maximumPendingRules``.
    private var pendingRules: [OverridingRule] = []

    /// A rule of the file and the applied properties it sets.
    private struct OverridingRule: Sendable {
        var rule: CueStyleRule
        var classes: [Substring]
        var properties: [String]
    }

    /// Prepares to apply `style`; `path` and `locations` place its diagnostics in its JSON.
    public init(style: TextTrackStyle, at path: CastJSONPath = .root, locations: CastJSONLocations = CastJSONLocations()) {
        let result = style.cueStylesheet(at: path, locations: locations)
        stylesheet = result.stylesheet
        diagnostics = result.diagnostics
    }

    /// True for a sheet written by an earlier application of a Cast style.
    public static func isApplied(_ sheet: CueStylesheet) -> Bool {
        sheet.text.hasPrefix(CastStylesheet.marker)
    }

    /// Passes one event on, adding the style sheet before the first cue.
    public mutating func process(_ event: TrackEvent, to handler: (TrackEvent) throws -> Void) rethrows {
        switch event {
        case .stylesheet(let sheet):
            if Self.isApplied(sheet) { return }
            inspect(sheet)
        case .cue(let cue):
            try insert(to: handler)
            if !pendingRules.isEmpty { reportRules(usedBy: cue.text) }
        case .header, .region, .note, .diagnostic:
            break
        }
        try handler(event)
    }

    /// Adds the style sheet if no cue came (a file with no cues).
    public mutating func finish(to handler: (TrackEvent) throws -> Void) rethrows {
        try insert(to: handler)
        pendingRules = []
        if overridingRules > Self.maximumReportedRules {
            diagnostics.append(
                Diagnostic(
                    .warning, .castOverriddenByFile, at: nil,
                    "\(overridingRules - Self.maximumReportedRules) more of the file's rules override the applied style on the text they select"))
        }
        overridingRules = 0
    }

    private mutating func insert(to handler: (TrackEvent) throws -> Void) rethrows {
        guard !inserted else { return }
        inserted = true
        if let stylesheet { try handler(.stylesheet(stylesheet)) }
    }

    /// True while cues still matter to the applier: before its sheet went in, and while a rule of
    /// the file waits for a cue that uses it. A caller that writes cues past the applier may do so
    /// only when this is false.
    public var watchesCues: Bool { watchesCues(afterInserting: inserted) }

    func watchesCues(afterInserting inserted: Bool) -> Bool { !inserted || !pendingRules.isEmpty }

    /// Looks at one of the file's own sheets: `!important` there beats the applied style, and so
    /// does a rule that selects spans (classes, voices, identifiers) and sets a property the
    /// applied style sets, on the text it selects. Each such rule is reported once: a class rule
    /// when a cue first uses its classes, any other at once (the first ``maximumReportedRules``,
    /// then how many more at the end).
    mutating func inspect(_ sheet: CueStylesheet) {
        guard let stylesheet else { return }
        if !warnedAboutImportant, sheet.text.contains("!important") {
            warnedAboutImportant = true
            diagnostics.append(
                Diagnostic(
                    .warning, .castFileImportant, at: nil,
                    "the file's own STYLE block uses !important, which overrides the applied style wherever both set a property"
                )
            )
        }
        let applied = Set(stylesheet.cueRules.flatMap { $0.declarations.map(\.property) })
        for rule in sheet.cueRules where rule.selector != .everyCue {
            let overridden = rule.declarations.map(\.property).filter { applied.contains($0) }
            guard !overridden.isEmpty else { continue }
            if case .classes(let names) = rule.selector, !names.isEmpty, pendingRules.count < Self.maximumPendingRules {
                pendingRules.append(OverridingRule(rule: rule, classes: names.map { Substring($0) }, properties: overridden))
            } else {
                report(rule, overridden)
            }
        }
    }

    /// Reports the pending rules whose classes a tag of `text` carries (`<c.a.b>`, `<v.a Name>`).
    mutating func reportRules(usedBy text: String) {
        let bytes = text.utf8
        guard bytes.contains(UInt8(ascii: ".")) else { return }
        var index = bytes.startIndex
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            // The tag's name and classes run to the first space, tab, line break or `>`.
            var end = bytes.index(after: open)
            while end < bytes.endIndex, !Self.endsTagClasses(bytes[end]) { end = bytes.index(after: end) }
            let tag = text[open..<end].dropFirst()
            if let firstDot = tag.firstIndex(of: ".") {
                // Compared in place: most tags match no waiting rule, and cost no allocation.
                let classes = tag[tag.index(after: firstDot)...]
                func uses(_ pending: OverridingRule) -> Bool { pending.classes.allSatisfy { Self.classList(classes, contains: $0) } }
                if pendingRules.contains(where: uses) {
                    var waiting: [OverridingRule] = []
                    for pending in pendingRules {
                        if uses(pending) {
                            report(pending.rule, pending.properties)
                        } else {
                            waiting.append(pending)
                        }
                    }
                    pendingRules = waiting
                    if pendingRules.isEmpty { return }
                }
            }
            index = end
        }
    }

    /// True when `list` (`a.b.c`, a tag's classes) holds `name`.
    private static func classList(_ list: Substring, contains name: Substring) -> Bool {
        var rest = list
        while true {
            let end = rest.firstIndex(of: ".") ?? rest.endIndex
            if rest[..<end] == name { return true }
            guard end < rest.endIndex else { return false }
            rest = rest[rest.index(after: end)...]
        }
    }

    private static func endsTagClasses(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ">") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\u{0C}")
    }

    private mutating func report(_ rule: CueStyleRule, _ overridden: [String]) {
        overridingRules += 1
        guard overridingRules <= Self.maximumReportedRules, let first = overridden.first else { return }
        let fields = Array(Set(overridden.map(Self.castField))).sorted().joined(separator: ", ")
        diagnostics.append(
            Diagnostic(
                .warning, .castOverriddenByFile, at: nil,
                "the file's rule \(rule.selector.css) sets \(overridden.count == 1 ? first : overridden.joined(separator: ", ")), which overrides the applied \(fields) on the text it selects"
            ))
    }

    /// How many of the file's class rules wait for a cue that uses them; past this, a rule is
    /// reported at once.
    public static let maximumPendingRules = 256

    /// How many of the file's overriding rules are named one by one.
    public static let maximumReportedRules = 10

    /// The Cast field a CSS property of the applied sheet comes from.
    static func castField(_ property: String) -> String {
        switch property {
        case "color": "foregroundColor"
        case "background-color": "backgroundColor"
        case "text-shadow", "-webkit-text-stroke", "paint-order": "edgeType"
        case "font-family": "fontFamily"
        case "font-size": "fontScale"
        case "font-style", "font-weight": "fontStyle"
        default: property
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
