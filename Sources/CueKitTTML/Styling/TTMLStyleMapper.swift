import CueKit

/// Maps specified TTML styles (TTML2 section 10.2) onto WebVTT: CSS allowed in `::cue` (W3C
/// WebVTT section 7.4), and the `<i>`, `<b>` and `<u>` tags.
///
/// What each property becomes:
/// - `color`, `backgroundColor` (on `p` and `span`), `fontFamily`, `fontSize`, `lineHeight`,
///   `opacity` (on `p` and `span`), `visibility`, `textCombine`, `rubyPosition`, `wrapOption`:
///   the CSS property of the same meaning; lengths in cells, pixels and root units become `vh` or
///   `vw` of the video, as the root container is the video;
/// - `fontStyle: italic`, `fontWeight: bold`, `textDecoration: underline`: `<i>`, `<b>`, `<u>`;
///   `oblique`, `normal`, `lineThrough` and `overline`: CSS;
/// - `textOutline` and `textShadow`: `text-shadow` (an outline is eight shadows around the glyphs);
/// - `textAlign`, `displayAlign`, `direction`, `unicodeBidi`, `writingMode`, `origin`,
///   `extent`, `position`, `display`, `ruby`: not CSS, but cue settings, structure or Unicode
///   controls, handled by the reader.
/// Everything else WebVTT cannot express is reported (``Issue``), never dropped silently.
struct TTMLStyleMapper: Sendable {
    /// Where the element sits: what of its styles apply to the text.
    enum Level: Sendable, Hashable {
        /// A `region`: inherited properties reach the text; its background and opacity, which paint
        /// the region's box in TTML, are applied to its text (WebVTT has no box for them).
        case region
        /// `body` or `div`: as a region, for the block areas they paint.
        case block
        /// A `p`: everything; its background is drawn behind its text.
        case paragraph
        /// A `span`: everything.
        case inline
    }

    /// Something that did not map.
    struct Issue: Sendable, Hashable {
        var property: TTMLStyleProperty
        var value: String
        var kind: Kind

        enum Kind: Sendable, Hashable {
            /// The value is not valid for the property: a reason, without the value.
            case invalid(String)
            /// WebVTT has no way to say it: why.
            case notExpressible(String)
        }
    }

    let layout: TTMLLayoutParameters

    /// The presentation of `styles` specified at `level`, and what could not be mapped.
    func presentation(of styles: TTMLStyleSet, at level: Level) -> (TTMLPresentation, [Issue]) {
        var result = TTMLPresentation()
        var issues: [Issue] = []
        var shadows: [String] = []
        var shadowSpecified = false
        for entry in styles.entries {
            let value = TTMLStyleValues.trimmed(Substring(entry.value))
            let property = entry.property
            func invalid(_ reason: String) { issues.append(Issue(property: property, value: entry.value, kind: .invalid(reason))) }
            func notExpressible(_ reason: String) {
                issues.append(Issue(property: property, value: entry.value, kind: .notExpressible(reason)))
            }
            if level == .region || level == .block, property == .padding {
                if !Self.isNeutral(value) { notExpressible("padding has no counterpart in WebVTT") }
                continue
            }
            switch property {
            case .color:
                guard let color = TTMLStyleValues.color(value) else {
                    invalid("is not a colour")
                    continue
                }
                result.declare("color", color.css)
            case .backgroundColor:
                guard let color = TTMLStyleValues.color(value) else {
                    invalid("is not a colour")
                    continue
                }
                result.declare("background-color", color.css)
            case .fontFamily:
                guard let families = TTMLStyleValues.fontFamilies(value) else {
                    invalid("is not a list of font families")
                    continue
                }
                let css = families.compactMap(Self.cssFontFamily)
                if !css.isEmpty { result.declare("font-family", css.joined(separator: ", ")) }
            case .fontSize:
                let parts = TTMLStyleValues.components(value)
                guard (1...2).contains(parts.count), let lengths = Optional(parts.compactMap { TTMLStyleValues.length($0) }),
                    lengths.count == parts.count, lengths.allSatisfy({ $0.value >= 0 })
                else {
                    invalid("is not one or two non-negative lengths with units")
                    continue
                }
                let vertical = lengths[lengths.count - 1]
                guard let css = layout.css(vertical, axis: .vertical, percent: { TTMLStyleValues.cssNumber($0) + "%" }) else {
                    notExpressible("pixel lengths need tts:extent on the tt element to be related to the video")
                    continue
                }
                if lengths.count == 2, lengths[0] != lengths[1] {
                    notExpressible("WebVTT cannot stretch glyphs: the vertical size was used")
                }
                result.declare("font-size", css)
            case .fontStyle:
                switch value {
                case "italic": result.tags.insert(.italic)
                case "oblique": result.declare("font-style", "oblique")
                case "normal": result.declare("font-style", "normal")
                default: invalid("is not normal, italic or oblique")
                }
            case .fontWeight:
                switch value {
                case "bold": result.tags.insert(.bold)
                case "normal": result.declare("font-weight", "normal")
                default: invalid("is not normal or bold")
                }
            case .textDecoration:
                guard let decoration = TTMLTextDecoration(value) else {
                    invalid("is not a text decoration")
                    continue
                }
                if decoration.adds.contains(.underline) { result.tags.insert(.underline) }
                var lines: [String] = []
                if decoration.adds.contains(.lineThrough) { lines.append("line-through") }
                if decoration.adds.contains(.overline) { lines.append("overline") }
                if !lines.isEmpty { result.declare("text-decoration", lines.joined(separator: " ")) }
            case .textOutline:
                switch outlineShadows(value) {
                case .shadows(let outline):
                    shadowSpecified = true
                    shadows = outline + shadows
                case .invalid: invalid("is not none or a colour, a thickness and a blur radius")
                case .unsized: notExpressible("pixel lengths need tts:extent on the tt element to be related to the video")
                }
            case .textShadow:
                switch textShadows(value) {
                case .shadows(let list):
                    shadowSpecified = true
                    shadows += list
                case .invalid: invalid("is not none or a list of shadows")
                case .unsized: notExpressible("pixel lengths need tts:extent on the tt element to be related to the video")
                }
            case .opacity:
                guard let number = Double(value), number >= 0, number <= 1, !value.contains("e"), !value.contains("E") else {
                    invalid("is not a number from 0 to 1")
                    continue
                }
                result.declare("opacity", TTMLStyleValues.cssNumber(number))
            case .visibility:
                switch value {
                case "visible", "hidden": result.declare("visibility", String(value))
                default: invalid("is not visible or hidden")
                }
            case .lineHeight:
                if value == "normal" {
                    result.declare("line-height", "normal")
                } else if let length = TTMLStyleValues.length(value), length.value >= 0,
                    let css = layout.css(length, axis: .vertical, percent: { TTMLStyleValues.cssNumber($0) + "%" })
                {
                    result.declare("line-height", css)
                } else {
                    invalid("is not normal or a non-negative length")
                }
            case .wrapOption:
                switch value {
                case "noWrap": result.declare("white-space", "pre")
                case "wrap": result.declare("white-space", "pre-line")
                default: invalid("is not wrap or noWrap")
                }
            case .textCombine:
                switch value {
                case "none", "all": result.declare("text-combine-upright", String(value))
                default: notExpressible("only none and all have a WebVTT counterpart")
                }
            case .rubyPosition:
                switch value {
                case "before", "outside": result.declare("ruby-position", "over")
                case "after": result.declare("ruby-position", "under")
                default: invalid("is not before, after or outside")
                }
            case .textAlign:
                // Read where the cue settings are made; checked here, where values are reported.
                if !["left", "center", "right", "start", "end", "justify"].contains(value) {
                    invalid("is not left, center, right, start, end or justify")
                }
            case .displayAlign:
                if !["before", "center", "after", "justify"].contains(value) { invalid("is not before, center, after or justify") }
            case .direction:
                if value != "ltr", value != "rtl" { invalid("is not ltr or rtl") }
            case .unicodeBidi, .writingMode, .origin, .extent, .position, .display,
                .ruby, .zIndex, .overflow, .showBackground:
                // Cue settings, structure or Unicode controls (the reader handles them), or
                // properties with no visible effect on one cue.
                break
            case .multiRowAlign:
                // `auto` follows textAlign; any other value aligns the lines apart from it.
                if value != "auto" { notExpressible("ebutts:multiRowAlign has no counterpart in WebVTT's ::cue") }
            case .forcedDisplay:
                if value == "true" { notExpressible("WebVTT cannot mark text to be shown when captions are off") }
            case .padding, .letterSpacing, .fontVariant, .fontKerning, .fontShear, .lineShear, .shear, .textEmphasis,
                .textOrientation, .rubyAlign, .rubyReserve, .disparity, .luminanceGain, .border, .bpd, .ipd, .backgroundClip,
                .backgroundExtent, .backgroundImage, .backgroundOrigin, .backgroundPosition, .backgroundRepeat,
                .fontSelectionStrategy, .linePadding, .fillLineGap:
                if !Self.isNeutral(value) { notExpressible("\(property.qualifiedName) has no counterpart in WebVTT's ::cue") }
            }
        }
        if shadowSpecified { result.declare("text-shadow", shadows.isEmpty ? "none" : shadows.joined(separator: ", ")) }
        return (result, issues)
    }

    /// Values that leave the text as it would be without the property.
    private static func isNeutral(_ value: Substring) -> Bool {
        ["normal", "none", "auto", "0", "0%", "0px", "0c", "0em", "0rh", "0rw", "false", "start", "center", "1", "1.0"].contains(value)
    }

    private static func cssFontFamily(_ family: TTMLStyleValues.FontFamily) -> String? {
        switch family {
        case .generic(.default): nil
        case .generic(.monospace), .generic(.monospaceSansSerif), .generic(.monospaceSerif): "monospace"
        case .generic(.sansSerif), .generic(.proportionalSansSerif): "sans-serif"
        case .generic(.serif), .generic(.proportionalSerif): "serif"
        case .named(let name): CueStyleRule.cssString(name)
        }
    }


    /// `tts:textOutline` (TTML2 section 10.2.46): `none`, or `<color>? <thickness> <blur>?`.
    /// Drawn as eight `text-shadow`s at the thickness around the glyphs; without a colour the
    /// shadows take the text's colour, as TTML's outline does.
    /// What a shadow-valued property becomes.
    private enum ShadowResult {
        case shadows([String])
        case invalid
        /// Valid, but in pixels with no root extent to relate them to.
        case unsized
    }

    private func outlineShadows(_ value: Substring) -> ShadowResult {
        if value == "none" { return .shadows([]) }
        var parts = TTMLStyleValues.components(value)
        var color: String?
        if let first = parts.first, TTMLStyleValues.length(first) == nil {
            guard let parsed = TTMLStyleValues.color(first) else { return .invalid }
            color = parsed.css
            parts.removeFirst()
        }
        guard (1...2).contains(parts.count) else { return .invalid }
        let lengths = parts.compactMap { TTMLStyleValues.length($0) }
        guard lengths.count == parts.count, lengths.allSatisfy({ $0.value >= 0 }) else { return .invalid }
        guard let thickness = shadowLength(lengths[0], axis: .vertical) else { return .unsized }
        let blur = lengths.count == 2 ? shadowLength(lengths[1], axis: .vertical) : nil
        if lengths.count == 2, blur == nil { return .unsized }
        let negative = thickness.hasPrefix("0") && !thickness.hasPrefix("0.") ? thickness : "-" + thickness
        let offsets = [
            (thickness, "0"), (negative, "0"), ("0", thickness), ("0", negative),
            (thickness, thickness), (negative, negative), (thickness, negative), (negative, thickness),
        ]
        return .shadows(
            offsets.map { x, y in
                var shadow = "\(x) \(y)"
                if let blur { shadow += " " + blur }
                if let color { shadow += " " + color }
                return shadow
            })
    }

    /// `tts:textShadow` (TTML2 section 10.2.47): `none`, or shadows separated by commas, each
    /// `<length> <length> <length>? <color>?` (offsets, blur, colour), as CSS's `text-shadow`.
    private func textShadows(_ value: Substring) -> ShadowResult {
        if value == "none" { return .shadows([]) }
        var result: [String] = []
        for shadow in value.split(separator: ",", omittingEmptySubsequences: false) {
            var parts = TTMLStyleValues.components(shadow)
            var color: String?
            if let last = parts.last, TTMLStyleValues.length(last) == nil {
                guard let parsed = TTMLStyleValues.color(last) else { return .invalid }
                color = parsed.css
                parts.removeLast()
            }
            guard (2...3).contains(parts.count) else { return .invalid }
            var lengths: [String] = []
            for (index, part) in parts.enumerated() {
                guard let length = TTMLStyleValues.length(part) else { return .invalid }
                guard let css = shadowLength(length, axis: index == 0 ? .horizontal : .vertical) else { return .unsized }
                lengths.append(css)
            }
            if let color { lengths.append(color) }
            result.append(lengths.joined(separator: " "))
        }
        return .shadows(result)
    }

    /// A shadow length as CSS: percentages are of the font size (TTML2 section 10.3.22), so `em`.
    private func shadowLength(_ length: TTMLStyleValues.Length, axis: TTMLLayoutParameters.Axis) -> String? {
        layout.css(length, axis: axis, percent: { TTMLStyleValues.cssNumber($0 / 100) + "em" })
    }
}

/// A `<text-decoration>` value (TTML2 section 10.3.37): decorations added and removed.
struct TTMLTextDecoration: Sendable, Hashable {
    /// The decoration lines.
    struct Lines: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        static let underline = Lines(rawValue: 1)
        static let lineThrough = Lines(rawValue: 2)
        static let overline = Lines(rawValue: 4)
    }

    /// Lines the value turns on.
    var adds: Lines = []
    /// Lines the value turns off (`none` turns off all three).
    var removes: Lines = []

    init?(_ value: Substring) {
        if value == "none" {
            removes = [.underline, .lineThrough, .overline]
            return
        }
        for word in TTMLStyleValues.components(value) {
            switch word {
            case "underline": adds.insert(.underline)
            case "noUnderline": removes.insert(.underline)
            case "lineThrough": adds.insert(.lineThrough)
            case "noLineThrough": removes.insert(.lineThrough)
            case "overline": adds.insert(.overline)
            case "noOverline": removes.insert(.overline)
            default: return nil
            }
        }
        if adds.isEmpty && removes.isEmpty { return nil }
    }

    /// The decorations in effect under a parent with `inherited` in effect.
    func applied(to inherited: Lines) -> Lines {
        inherited.subtracting(removes).union(adds)
    }
}
