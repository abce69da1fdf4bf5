import CueKit

/// A region (TTML2 section 11.1.2) as the reader uses it: its box on the root container, how text
/// sits in it, when it is active, and the class that carries its styles.
struct TTMLRegion: Sendable {
    /// The region's `xml:id`, or a generated name for an inline region.
    var identifier: String
    /// Its specified styles: referential, then nested `style` children, then its own attributes.
    var styles: TTMLStyleSet
    /// When it is active, on the media timeline.
    var interval: TTMLInterval
    /// The class for its styles that reach the text, when it has any.
    var className: String?
    /// The `<i>`, `<b>`, `<u>` its styles call for, around its text.
    var tagWrappers: [TTMLParagraph.Wrapper] = []
    /// Its box, in percent of the root container.
    var geometry: Geometry

    /// A region's box and the flow of text in it.
    struct Geometry: Sendable, Hashable {
        var x: Double = 0
        var y: Double = 0
        var width: Double = 100
        var height: Double = 100
        var displayAlign: DisplayAlign = .before
        var writingMode: WritingMode = .leftToRightTopToBottom

        /// The whole root container with TTML's initial values: the default region (TTML2 section
        /// 11.3.1.1).
        static let rootContainer = Geometry()
    }

    /// `tts:displayAlign` (TTML2 section 10.2.15).
    enum DisplayAlign: String, Sendable, Hashable {
        case before, center, after
    }

    /// `tts:writingMode` (TTML2 section 10.2.51), reduced to what WebVTT distinguishes.
    enum WritingMode: Sendable, Hashable {
        case leftToRightTopToBottom, rightToLeftTopToBottom, topToBottomRightToLeft, topToBottomLeftToRight

        var isVertical: Bool { self == .topToBottomRightToLeft || self == .topToBottomLeftToRight }
    }

    /// The problems found reading a region's geometry.
    typealias GeometryIssue = (property: TTMLStyleProperty, value: String, reason: String)

    /// The geometry `styles` specify, measured with `layout`.
    static func geometry(of styles: TTMLStyleSet, layout: TTMLLayoutParameters) -> (Geometry, [GeometryIssue]) {
        var geometry = Geometry()
        var issues: [GeometryIssue] = []
        if let value = styles[.extent] {
            let text = TTMLStyleValues.trimmed(Substring(value))
            if text != "auto" && text != "contain" && text != "cover" {
                let parts = TTMLStyleValues.components(text)
                if parts.count == 2, let width = TTMLStyleValues.length(parts[0]), let height = TTMLStyleValues.length(parts[1]),
                    width.value >= 0, height.value >= 0,
                    let w = percentage(width, .horizontal, layout), let h = percentage(height, .vertical, layout)
                {
                    geometry.width = w
                    geometry.height = h
                } else {
                    issues.append((.extent, value, "is not auto or two non-negative lengths with units that can be related to the root container"))
                }
            }
        }
        if let value = styles[.origin] {
            let text = TTMLStyleValues.trimmed(Substring(value))
            if text != "auto" {
                let parts = TTMLStyleValues.components(text)
                if parts.count == 2, let x = TTMLStyleValues.length(parts[0]), let y = TTMLStyleValues.length(parts[1]),
                    let left = percentage(x, .horizontal, layout), let top = percentage(y, .vertical, layout)
                {
                    geometry.x = left
                    geometry.y = top
                } else {
                    issues.append((.origin, value, "is not auto or two lengths with units that can be related to the root container"))
                }
            }
        } else if let value = styles[.position] {
            if let (x, y) = position(TTMLStyleValues.trimmed(Substring(value)), width: geometry.width, height: geometry.height, layout) {
                geometry.x = x
                geometry.y = y
            } else {
                issues.append((.position, value, "is not a position CueKit can read"))
            }
        }
        if let value = styles[.displayAlign] {
            if let align = DisplayAlign(rawValue: TTMLStyleValues.trimmed(value)) {
                geometry.displayAlign = align
            } else if value == "justify" {
                geometry.displayAlign = .before
            } else {
                issues.append((.displayAlign, value, "is not before, center or after"))
            }
        }
        if let value = styles[.writingMode] {
            switch TTMLStyleValues.trimmed(Substring(value)) {
            case "lrtb", "lr": geometry.writingMode = .leftToRightTopToBottom
            case "rltb", "rl": geometry.writingMode = .rightToLeftTopToBottom
            case "tbrl", "tb": geometry.writingMode = .topToBottomRightToLeft
            case "tblr": geometry.writingMode = .topToBottomLeftToRight
            default: issues.append((.writingMode, value, "is not lrtb, rltb, tbrl, tblr, lr, rl or tb"))
            }
        }
        return (geometry, issues)
    }

    private static func percentage(
        _ length: TTMLStyleValues.Length, _ axis: TTMLLayoutParameters.Axis, _ layout: TTMLLayoutParameters
    ) -> Double? {
        if length.unit == .percent { return length.value }
        return layout.percentageOfRoot(length, axis: axis)
    }

    /// `tts:position` (TTML2 section 10.2.34): where the region's box sits, as CSS's
    /// `background-position` places an image: keywords, percentages (of the free space) and lengths,
    /// with optional edge offsets.
    private static func position(_ text: Substring, width: Double, height: Double, _ layout: TTMLLayoutParameters) -> (Double, Double)? {
        let parts = TTMLStyleValues.components(text)
        guard (1...4).contains(parts.count) else { return nil }
        var horizontal: (edge: Substring, offset: TTMLStyleValues.Length?)?
        var vertical: (edge: Substring, offset: TTMLStyleValues.Length?)?
        var pending: [Substring] = []
        var index = 0
        // Pair each keyword with a following length when the form has three or four parts.
        while index < parts.count {
            let part = parts[index]
            let next = index + 1 < parts.count ? TTMLStyleValues.length(parts[index + 1]) : nil
            if ["left", "right"].contains(part) {
                horizontal = (part, parts.count > 2 ? next : nil)
                if parts.count > 2, next != nil { index += 1 }
            } else if ["top", "bottom"].contains(part) {
                vertical = (part, parts.count > 2 ? next : nil)
                if parts.count > 2, next != nil { index += 1 }
            } else {
                pending.append(part)
            }
            index += 1
        }
        func resolve(_ part: Substring, free: Double, axis: TTMLLayoutParameters.Axis) -> Double? {
            if part == "center" { return free / 2 }
            guard let length = TTMLStyleValues.length(part) else { return nil }
            if length.unit == .percent { return free * length.value / 100 }
            return layout.percentageOfRoot(length, axis: axis)
        }
        let freeX = 100 - width, freeY = 100 - height
        var x: Double?
        var y: Double?
        if let horizontal {
            let offset = horizontal.offset.flatMap { length in
                length.unit == .percent ? freeX * length.value / 100 : layout.percentageOfRoot(length, axis: .horizontal)
            } ?? 0
            x = horizontal.edge == "left" ? offset : freeX - offset
        }
        if let vertical {
            let offset = vertical.offset.flatMap { length in
                length.unit == .percent ? freeY * length.value / 100 : layout.percentageOfRoot(length, axis: .vertical)
            } ?? 0
            y = vertical.edge == "top" ? offset : freeY - offset
        }
        for part in pending {
            if x == nil {
                guard let value = resolve(part, free: freeX, axis: .horizontal) else { return nil }
                x = value
            } else if y == nil {
                guard let value = resolve(part, free: freeY, axis: .vertical) else { return nil }
                y = value
            } else {
                return nil
            }
        }
        return (x ?? freeX / 2, y ?? freeY / 2)
    }

    /// The cue settings that put text where this geometry puts it (WebVTT section 4.3; TTML2
    /// section 11.3):
    /// - horizontal text: `size` is the region's width and `position` its left edge (aligned
    ///   `line-left`), so the cue box is the region's width; `line` is the region's top, middle or
    ///   bottom edge as `displayAlign` is before, center or after, aligned start, center or end;
    /// - vertical text (`tbrl`, `tblr`): `vertical:rl`/`lr`, with the same mapping turned a
    ///   quarter: `size` and `position` along the height, `line` across the width.
    /// A region that spans the whole width gets neither `position` nor `size`. Horizontal text at
    /// the bottom of the video (`after`, the region reaching the bottom edge) keeps `line:auto`,
    /// where WebVTT draws it by default: Chromium wraps such a cue's lines and lifts them off the
    /// edge, where a `line:100%` percentage would leave a long line unwrapped.
    static func settings(for geometry: Geometry, alignment: CueSettings.TextAlignment) -> CueSettings {
        var settings = CueSettings(alignment: alignment)
        func clamp(_ value: Double) -> Double { min(100, max(0, (value * 1000).rounded() / 1000)) }
        let (along, alongSize, across, acrossSize): (Double, Double, Double, Double)
        switch geometry.writingMode {
        case .leftToRightTopToBottom, .rightToLeftTopToBottom:
            (along, alongSize, across, acrossSize) = (geometry.x, geometry.width, geometry.y, geometry.height)
        case .topToBottomRightToLeft:
            settings.vertical = .growingLeft
            (along, alongSize, across, acrossSize) = (geometry.y, geometry.height, geometry.x, geometry.width)
        case .topToBottomLeftToRight:
            settings.vertical = .growingRight
            (along, alongSize, across, acrossSize) = (geometry.y, geometry.height, geometry.x, geometry.width)
        }
        if !(along <= 0 && alongSize >= 100) {
            settings.size = clamp(alongSize)
            settings.position = .percentage(clamp(along))
            settings.positionAlignment = .lineLeft
        }
        // Where the block of lines sits across the region. For tbrl, "before" is the right edge.
        let reversed = geometry.writingMode == .topToBottomRightToLeft
        switch (geometry.displayAlign, reversed) {
        case (.before, false), (.after, true):
            settings.line = .percentage(clamp(across))
            settings.lineAlignment = reversed ? .end : .start
        case (.after, false) where geometry.writingMode != .topToBottomLeftToRight && across + acrossSize >= 99.995:
            // Horizontal (tblr is the only other mode here) and at the bottom: line:auto.
            break
        case (.after, false), (.before, true):
            settings.line = .percentage(clamp(across + acrossSize))
            settings.lineAlignment = reversed ? .start : .end
        case (.center, _):
            settings.line = .percentage(clamp(across + acrossSize / 2))
            settings.lineAlignment = .center
        }
        return settings
    }

    /// `settings` with a horizontal cue's `line` percentage aligned `start`: the top its lines
    /// have when they end (`end`) or are centred (`center`) where the region puts them, at
    /// WebVTT's line height (``TTMLRegionGeometry/webVTTLineStep``, one a line of `text`).
    /// Chromium, which Cast receivers run, draws every percentage as the box's top whatever its
    /// line alignment; a box placed by its top is drawn in the same place by every player.
    static func placedByTop(_ settings: CueSettings, text: String) -> CueSettings {
        guard settings.lineAlignment != .start, settings.vertical == .horizontal, case .percentage(let line) = settings.line else {
            return settings
        }
        var settings = settings
        var text = text
        let lines = text.withUTF8 { Double(TextLineCount.lines(in: $0)) }
        let extent = lines * TTMLRegionGeometry.webVTTLineStep
        let top = settings.lineAlignment == .end ? line - extent : line - extent / 2
        settings.line = .percentage(min(100, max(0, (top * 1000).rounded() / 1000)))
        settings.lineAlignment = .start
        return settings
    }
}
