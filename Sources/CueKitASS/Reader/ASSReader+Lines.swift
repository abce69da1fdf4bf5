import CueKit

// `Style:` and `Dialogue:` lines: fields split by their section's `Format:` line, then a style kept
// or a cue emitted.

extension ASSReader {
    static let defaultStyleFormat = [
        "name", "fontname", "fontsize", "primarycolour", "secondarycolour", "outlinecolour", "backcolour", "bold", "italic", "underline",
        "strikeout", "scalex", "scaley", "spacing", "angle", "borderstyle", "outline", "shadow", "alignment", "marginl", "marginr", "marginv",
        "encoding",
    ]
    static let defaultSSAStyleFormat = [
        "name", "fontname", "fontsize", "primarycolour", "secondarycolour", "tertiarycolour", "backcolour", "bold", "italic", "borderstyle",
        "outline", "shadow", "alignment", "marginl", "marginr", "marginv", "alphalevel", "encoding",
    ]
    static let defaultEventFormat: [EventField] = [.other, .start, .end, .style, .name, .marginLeft, .marginRight, .marginVertical, .effect, .text]

    /// An `[Events]` field the reader uses.
    enum EventField {
        case start, end, style, name, marginLeft, marginRight, marginVertical, effect, text, other

        init(name: String) {
            switch name {
            case "start": self = .start
            case "end": self = .end
            case "style": self = .style
            case "name", "actor": self = .name
            case "marginl": self = .marginLeft
            case "marginr": self = .marginRight
            case "marginv": self = .marginVertical
            case "effect": self = .effect
            case "text": self = .text
            default: self = .other
            }
        }
    }

    /// The fields of a line: `count` of them at most, the last taking the rest of the line.
    func fields(_ value: UnsafeBufferPointer<UInt8>, count: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(count)
        var start = 0
        var index = 0
        while index < value.count, ranges.count < count - 1 {
            if value[index] == UInt8(ascii: ",") {
                ranges.append(start..<index)
                start = index + 1
            }
            index += 1
        }
        ranges.append(start..<value.count)
        return ranges
    }

    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    // MARK: Styles

    mutating func style(_ value: UnsafeBufferPointer<UInt8>, isSSA: Bool, column: Int, _ handler: (TrackEvent) throws -> Void) throws {
        let format = styleFormat ?? (isSSA ? Self.defaultSSAStyleFormat : Self.defaultStyleFormat)
        let ranges = fields(value, count: format.count)
        guard ranges.count == format.count else {
            try report(
                .error, .assMissingFields, line: lineNumber, column: column,
                "Style line has \(ranges.count) fields where its Format line names \(format.count); it is skipped", handler)
            return
        }
        var name = ""
        if let nameIndex = format.firstIndex(of: "name") {
            name = String(decoding: UnsafeBufferPointer(rebasing: value[Self.trimmed(value, ranges[nameIndex])]), as: UTF8.self)
            while name.hasPrefix("*") { name.removeFirst() }
        }
        // Past the limit a new style is only counted: nothing more of it is read.
        if converter.stylesByName[name] == nil, converter.styles.count >= options.limits.maximumStyles {
            if !stylesLimitReported {
                stylesLimitReported = true
                try report(
                    .error, .assLimit, line: lineNumber, column: column,
                    "more than \(options.limits.maximumStyles) styles (Options.Limits.maximumStyles): the others are skipped, and their events shown in Default",
                    handler)
            }
            return
        }
        var style = ASSStyle(name: name)
        for (field, range) in zip(format, ranges) {
            let bytes = UnsafeBufferPointer(rebasing: value[Self.trimmed(value, range)])
            let text = { String(decoding: bytes, as: UTF8.self) }
            switch field {
            case "fontname": style.fontName = text()
            case "fontsize": style.fontSize = Double(text()).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? style.fontSize
            case "primarycolour": style.primaryColor = try color(bytes, field, column + range.lowerBound, handler) ?? style.primaryColor
            case "outlinecolour", "tertiarycolour":
                style.outlineColor = try color(bytes, field, column + range.lowerBound, handler) ?? style.outlineColor
            case "backcolour": style.backColor = try color(bytes, field, column + range.lowerBound, handler) ?? style.backColor
            case "bold": style.bold = Self.integer(bytes) ?? 0
            case "italic": style.italic = (Self.integer(bytes) ?? 0) != 0
            case "underline": style.underline = (Self.integer(bytes) ?? 0) != 0
            case "strikeout": style.strikeOut = (Self.integer(bytes) ?? 0) != 0
            case "borderstyle": style.borderStyle = Self.integer(bytes) ?? 1
            case "outline": style.outline = Double(text()).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? style.outline
            case "shadow": style.shadow = Double(text()).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? style.shadow
            case "alignment":
                let alignment = Self.integer(bytes) ?? 2
                style.alignment = isSSA ? ASSStyle.keypadAlignment(fromSSA: alignment) : ((1...9).contains(alignment) ? alignment : 2)
            case "marginl": style.marginLeft = Self.integer(bytes) ?? style.marginLeft
            case "marginr": style.marginRight = Self.integer(bytes) ?? style.marginRight
            case "marginv": style.marginVertical = Self.integer(bytes) ?? style.marginVertical
            case "alphalevel":
                // SSA's one alpha, for every colour but the text's.
                let alpha = UInt8(truncatingIfNeeded: Self.integer(bytes) ?? 0)
                style.outlineColor = style.outlineColor.with(transparency: alpha)
                style.backColor = style.backColor.with(transparency: alpha)
            default: break
            }
        }
        if style.strikeOut {
            try reportOnce(
                "StrikeOut", .assUnsupported, line: lineNumber, column: column,
                "style '\(name)' is struck out: its rule says 'text-decoration: line-through', which WebVTT renderers apply, but cue text has no strike-out tag and SubRip and TTML writers leave it out",
                handler)
        }
        if let existing = converter.stylesByName[name] {
            // A later style of the same name wins, as libass looks styles up from the last.
            converter.styles[existing] = style
        } else {
            converter.stylesByName[name] = converter.styles.count
            converter.styles.append(style)
        }
        lastStyleIndex = nil
        if stylesEmitted {
            try reportOnce(
                "late-style", .assLateStyle, line: lineNumber, column: column,
                "a Style line after the first event: its rule comes after the first cue, where WebVTT writers cannot put it", handler)
            try emitRules([style.rule(playResY: script.resolution.height)], handler)
        }
    }

    mutating func color(_ bytes: UnsafeBufferPointer<UInt8>, _ field: String, _ column: Int, _ handler: (TrackEvent) throws -> Void) throws
        -> ASSColor?
    {
        if let color = ASSColor(bytes) { return color }
        try report(
            .warning, .assBadStyleField, line: lineNumber, column: column,
            "\(field) '\(String(decoding: bytes.prefix(40), as: UTF8.self))' is not a colour (&HAABBGGRR); the default is used", handler)
        return nil
    }

    // MARK: Events

    mutating func event(
        _ value: UnsafeBufferPointer<UInt8>, column: Int, line: UnsafeBufferPointer<UInt8>, _ handler: (TrackEvent) throws -> Void
    ) throws {
        try emitStyles(handler)
        let format = eventFormat ?? Self.defaultEventFormat
        let ranges = fields(value, count: format.count)
        // A prescan looks only for override colours: an event without a block has none.
        if prescanning, ranges.count == format.count, let textIndex = format.firstIndex(of: .text),
            !value[ranges[textIndex]].contains(UInt8(ascii: "{"))
        {
            return
        }
        guard ranges.count == format.count else {
            try report(
                .error, .assMissingFields, line: lineNumber, column: column,
                "Dialogue line has \(ranges.count) fields where the Format line names \(format.count); it is skipped", handler)
            return
        }
        var start: Int?
        var end: Int?
        var styleRange = 0..<0
        var actor = ""
        var margins = (left: 0, right: 0, vertical: 0)
        var textRange = value.count..<value.count
        for (field, range) in zip(format, ranges) {
            let trimmedRange = Self.trimmed(value, range)
            let bytes = UnsafeBufferPointer(rebasing: value[trimmedRange])
            switch field {
            case .start, .end:
                guard let time = try time(bytes, column: column + trimmedRange.lowerBound, handler) else { return }
                if field == .start { start = time } else { end = time }
            case .style:
                var lower = trimmedRange.lowerBound
                while lower < trimmedRange.upperBound, value[lower] == UInt8(ascii: "*") { lower += 1 }
                styleRange = lower..<trimmedRange.upperBound
            case .name: if !bytes.isEmpty { actor = String(decoding: bytes, as: UTF8.self) }
            case .marginLeft: margins.left = Self.integer(bytes) ?? 0
            case .marginRight: margins.right = Self.integer(bytes) ?? 0
            case .marginVertical: margins.vertical = Self.integer(bytes) ?? 0
            case .effect:
                if !bytes.isEmpty {
                    let effect = String(decoding: bytes.prefix(while: { $0 != UInt8(ascii: ";") }), as: UTF8.self)
                    try reportOnce(
                        "Effect:" + effect, .assUnsupported, line: lineNumber, column: column + trimmedRange.lowerBound,
                        "the Effect '\(effect)' has no WebVTT equivalent; the text is shown in place", handler)
                }
            case .text: textRange = range
            case .other: break
            }
        }
        guard let start, let end else {
            try report(.error, .assMissingFields, line: lineNumber, column: column, "Dialogue line has no Start or End; it is skipped", handler)
            return
        }
        let text = UnsafeBufferPointer(rebasing: value[textRange])
        if prescanning, !text.contains(UInt8(ascii: "{")) { return }
        let styleBytes = UnsafeBufferPointer(rebasing: value[styleRange])
        let styleIndex: Int?
        if let cached = lastStyleIndex, lastStyleName.elementsEqual(styleBytes) {
            styleIndex = cached
        } else {
            styleIndex = converter.stylesByName[String(decoding: styleBytes, as: UTF8.self)]
            lastStyleName.removeAll(keepingCapacity: true)
            lastStyleName.append(contentsOf: styleBytes)
            lastStyleIndex = .some(styleIndex)
        }
        let style: ASSStyle
        if let index = styleIndex {
            style = converter.styles[index]
        } else {
            let styleName = String(decoding: styleBytes, as: UTF8.self)
            let fallback = converter.stylesByName["Default"].map { converter.styles[$0] } ?? converter.styles.first ?? ASSStyle(name: "Default")
            if !(styleName == "Default" && converter.styles.isEmpty) {
                try report(
                    .warning, .assUnknownStyle, line: lineNumber, column: column,
                    "style '\(styleName)' is not defined; the event is shown in '\(fallback.name)', as libass shows it", handler)
            }
            style = fallback
        }
        markup.removeAll(keepingCapacity: true)
        let result = converter.convert(text, eventStyle: style, into: &markup)
        let textColumn = column + textRange.lowerBound
        for (tag, offset) in result.unsupported {
            let offsetColumn = textColumn + UTF8Bytes.scalarCount(UnsafeBufferPointer(rebasing: text[0..<offset]))
            try reportOnce(
                tag, .assUnsupported, line: lineNumber, column: offsetColumn,
                "override \(tag) has no WebVTT equivalent and is left out (reported once per kind)", handler)
        }
        try emitColorRules(result.rules, handler)
        if prescanning { return }
        if result.isEmpty {
            try report(.note, .assEmptyEvent, line: lineNumber, column: textColumn, "the event shows no text; no cue is made of it", handler)
            return
        }
        if end <= start {
            try report(
                .error, .assEndBeforeStart, line: lineNumber, column: column,
                end == start
                    ? "event ends when it starts (\(CueTimestamp.format(start))), so it is never shown"
                    : "event ends (\(CueTimestamp.format(end))) before it starts (\(CueTimestamp.format(start))), so it is never shown",
                handler)
        }
        let resolution = script.resolution
        let settings = ASSPlacement.settings(
            alignment: result.alignment ?? style.alignment,
            marginLeft: margins.left != 0 ? margins.left : style.marginLeft,
            marginRight: margins.right != 0 ? margins.right : style.marginRight,
            marginVertical: margins.vertical != 0 ? margins.vertical : style.marginVertical,
            point: result.point, width: resolution.width, height: resolution.height)
        var cueText = String(decoding: markup, as: UTF8.self)
        if !actor.isEmpty {
            let escaped = actor.replacingAll("&", "&amp;").replacingAll("<", "&lt;").replacingAll(">", "&gt;")
            cueText = "<v " + escaped + ">" + cueText + "</v>"
        }
        cueCount += 1
        try handler(.cue(Cue(start: start, end: end, settings: settings, text: cueText)))
    }

    /// Hands out the rules of override colours, at most ``Options/Limits/maximumColors`` of them.
    mutating func emitColorRules(_ rules: [CueStyleRule], _ handler: (TrackEvent) throws -> Void) throws {
        var fresh: [CueStyleRule] = []
        for rule in rules where !definedSelectors.contains(rule.selector.css) {
            guard colorRules < options.limits.maximumColors else {
                try reportOnce(
                    "colors", .assLimit, line: lineNumber, column: nil,
                    "more than \(options.limits.maximumColors) override colours (Options.Limits.maximumColors): the others get no rule and show in the style's colour",
                    handler)
                break
            }
            colorRules += 1
            fresh.append(rule)
        }
        try emitRules(fresh, handler)
    }

    /// A time, `H:MM:SS.CC`, in milliseconds; nil (reported) when it cannot be read.
    mutating func time(_ bytes: UnsafeBufferPointer<UInt8>, column: Int, _ handler: (TrackEvent) throws -> Void) throws -> Int? {
        guard let parsed = ASSTime.parse(bytes) else {
            try report(
                .error, .assBadTime, line: lineNumber, column: column,
                "'\(String(decoding: bytes.prefix(40), as: UTF8.self))' is not a time (H:MM:SS.CC); the event is skipped", handler)
            return nil
        }
        if parsed.fractionDigits != 2 {
            try report(
                .warning, .assTimeFraction, line: lineNumber, column: column,
                "the time's fraction has \(parsed.fractionDigits) digit(s) instead of two (centiseconds): read as a decimal fraction of a second, as pysubs2 reads it (libass reads it as centiseconds)",
                handler)
        }
        return parsed.milliseconds
    }
}

/// ASS times: `H:MM:SS.CC`.
enum ASSTime {
    /// The time in milliseconds and the number of digits of its fraction; nil when it is not a time.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (milliseconds: Int, fractionDigits: Int)? {
        var parts: [Int] = []
        var index = 0
        var fraction = 0
        var fractionDigits = 0
        var value = 0
        var digits = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                guard digits < 9 else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            } else if byte == UInt8(ascii: ":"), parts.count < 2 {
                guard digits > 0 else { return nil }
                parts.append(value)
                value = 0
                digits = 0
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: ","), parts.count == 2 {
                guard digits > 0 else { return nil }
                parts.append(value)
                index += 1
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    if fractionDigits < 3 { fraction = fraction * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                    fractionDigits += 1
                    index += 1
                }
                guard index == bytes.count, fractionDigits > 0 else { return nil }
                break
            } else {
                return nil
            }
            index += 1
        }
        if parts.count == 2 {
            guard digits > 0 else { return nil }
            parts.append(value)
        }
        guard parts.count == 3, parts[1] < 60, parts[2] < 60 else { return nil }
        var milliseconds = fraction
        for _ in 0..<(3 - min(3, fractionDigits)) { milliseconds *= 10 }
        return (((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1000 + milliseconds, fractionDigits)
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, _ replacement: String) -> String {
        guard contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
