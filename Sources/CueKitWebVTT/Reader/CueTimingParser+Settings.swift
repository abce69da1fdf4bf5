import CueKit

/// The cue settings of a timing line: "parse the WebVTT cue settings" (W3C WebVTT, section 6.3),
/// and the checks on each setting against the syntax of section 4.3.
extension CueTimingParser {
    /// A setting's name, read as one integer.
    private enum SettingName: Int {
        case region, vertical, line, position, size, align

        init?(_ bytes: UnsafeRawBufferPointer) {
            // The name's bytes as one little-endian integer: one comparison per known name.
            guard bytes.count >= 4, bytes.count <= 8, let base = bytes.baseAddress else { return nil }
            var key: UInt64 = 0
            for index in 0..<bytes.count { key |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << (8 * index) }
            switch key {
            case 0x656E696C:  // "line"
                self = .line
            case 0x657A6973:  // "size"
                self = .size
            case 0x6E67696C61:  // "align"
                self = .align
            case 0x6E6F69676572:  // "region"
                self = .region
            case 0x6C61636974726576:  // "vertical"
                self = .vertical
            case 0x6E6F697469736F70:  // "position"
                self = .position
            default: return nil
            }
        }
    }

    /// "Parse the WebVTT cue settings": split on ASCII white space; each token `name:value`.
    /// ``parseSettings(from:regions:into:)`` (into settings at their defaults), or the settings
    /// an earlier line with the same settings text was read as, when that parse reported nothing.
    /// A file whose cues each have settings of their own (where the cache stops being asked:
    /// ``CueSettingsCache/isUseful``) has them read in one pass where it can.
    @inline(__always)
    mutating func parseSettingsOrRecall(from start: Int, regions: RegionTable, into settings: inout CueSettings) {
        guard cachesSettings, settingsCache.isUseful else { return parseSettings(from: start, regions: regions, into: &settings) }
        let text = UnsafeRawBufferPointer(rebasing: line[start...])
        if settingsCache.recall(text, regionDefinitions: regions.definitions, into: &settings) { return }
        if !readsCommonForm || !readCommonSettings(from: start, regions: regions, into: &settings) {
            let reported = diagnostics.count
            parseSettingsByAlgorithm(from: start, regions: regions, into: &settings)
            guard diagnostics.count == reported else { return }
        }
        settingsCache.keep(settings, readFrom: text)
    }

    /// "Parse the WebVTT cue settings" into settings at their defaults: the forms writers use in
    /// one pass (``readCommonSettings(from:regions:into:)``), the rest step by step.
    mutating func parseSettings(from start: Int, regions: RegionTable, into settings: inout CueSettings) {
        if readsCommonForm, readCommonSettings(from: start, regions: regions, into: &settings) { return }
        parseSettingsByAlgorithm(from: start, regions: regions, into: &settings)
    }

    /// The spec's algorithm, step by step, with every check.
    mutating func parseSettingsByAlgorithm(from start: Int, regions: RegionTable, into settings: inout CueSettings) {
        let count = line.count
        var position = start
        var seen = 0
        var regionSettingOffset: Int?
        var sizeSettingOffset = start
        var droppedOutOfRegion = false
        while true {
            skipWhitespace(&position)
            guard position < count else { break }
            let tokenStart = position
            while position < count, !isASCIIWhitespace(line[position]) { position += 1 }
            let tokenEnd = position
            let colon = ByteScanning.firstIndex(of: UInt8(ascii: ":"), in: line, from: tokenStart, to: tokenEnd)
            guard colon < tokenEnd, colon != tokenStart, colon != tokenEnd - 1 else {
                if checks {
                    error(.vttBadSetting, at: tokenStart, "'\(text(tokenStart, tokenEnd))' is not a cue setting (name:value); ignored")
                }
                continue
            }
            let valueStart = colon + 1
            settingStart = tokenStart
            guard let name = SettingName(UnsafeRawBufferPointer(rebasing: line[tokenStart..<colon])) else {
                if checks {
                    error(
                        .vttUnknownSetting, at: tokenStart,
                        "unknown cue setting '\(text(tokenStart, colon))' is ignored; WebVTT knows vertical, line, position, size, align and region"
                    )
                }
                continue
            }
            if checks {
                let bit = 1 << name.rawValue
                if seen & bit != 0 {
                    error(.vttDuplicateSetting, at: tokenStart, "'\(text(tokenStart, colon))' is set twice; the last one wins")
                }
                seen |= bit
            }
            switch name {
            case .region:
                // The last region with that identifier, if any; null otherwise.
                let id = UnsafeRawBufferPointer(rebasing: line[valueStart..<tokenEnd])
                if let region = regions.lookUp(id) {
                    settings.region = region
                    regionSettingOffset = tokenStart
                } else {
                    settings.region = nil
                    if checks {
                        error(
                            .vttUnknownRegion, at: valueStart,
                            "no REGION before the first cue has the identifier '\(text(valueStart, tokenEnd))'; the cue has no region")
                    }
                }
            case .vertical:
                let value = UnsafeRawBufferPointer(rebasing: line[valueStart..<tokenEnd])
                if ByteScanning.equals(value, "rl") {
                    settings.vertical = .growingLeft
                } else if ByteScanning.equals(value, "lr") {
                    settings.vertical = .growingRight
                } else if checks {
                    badValue(name: "vertical", valueStart, tokenEnd, expected: "rl or lr")
                }
                if settings.vertical != .horizontal, settings.region != nil {
                    settings.region = nil
                    droppedOutOfRegion = true
                }
            case .line:
                parseLine(valueStart, tokenEnd, into: &settings, droppedOutOfRegion: &droppedOutOfRegion)
            case .position:
                parsePosition(valueStart, tokenEnd, into: &settings)
            case .size:
                guard let number = DecimalNumber.percentage(line, from: valueStart, to: tokenEnd) else {
                    if checks { badValue(name: "size", valueStart, tokenEnd, expected: "a percentage from 0% to 100%") }
                    continue
                }
                settings.size = number
                sizeSettingOffset = tokenStart
                if number != 100, settings.region != nil {
                    settings.region = nil
                    droppedOutOfRegion = true
                }
            case .align:
                let value = UnsafeRawBufferPointer(rebasing: line[valueStart..<tokenEnd])
                if let alignment = Self.textAlignment(value) {
                    settings.alignment = alignment
                } else if checks {
                    badValue(name: "align", valueStart, tokenEnd, expected: "start, center, end, left or right")
                }
            }
        }
        guard checks else { return }
        if droppedOutOfRegion, let regionSettingOffset {
            warn(.vttRegionIgnored, at: regionSettingOffset, "the cue sets vertical, line or size, which take it out of its region")
        }
        if settings.size != 100, settings.position == .auto, settings.alignment == .start || settings.alignment == .end {
            warn(
                .vttAutoPositionWithSize, at: sizeSettingOffset,
                "a cue with a size other than 100% and align:\(settings.alignment.rawValue) needs a position")
        }
    }

    /// The `line` setting.
    private mutating func parseLine(_ start: Int, _ end: Int, into settings: inout CueSettings, droppedOutOfRegion: inout Bool) {
        // Split at the first comma into linepos and linealign.
        let comma = ByteScanning.firstIndex(of: UInt8(ascii: ","), in: line, from: start, to: end)
        let positionEnd = comma
        let expected = "a line number or a percentage, optionally followed by ,start ,center or ,end"
        var hasDigit = false
        for index in start..<positionEnd where DecimalNumber.isDigit(line[index]) {
            hasDigit = true
            break
        }
        guard hasDigit else {
            if checks { badValue(name: "line", start, end, expected: expected) }
            return
        }
        let isPercentage = line[positionEnd - 1] == UInt8(ascii: "%")
        let number: Double
        if isPercentage {
            guard let value = DecimalNumber.percentage(line, from: start, to: positionEnd) else {
                if checks { badValue(name: "line", start, end, expected: "a percentage from 0% to 100%") }
                return
            }
            number = value
        } else {
            guard isLineNumber(start, positionEnd), let value = DecimalNumber.parse(line, from: start, to: positionEnd) else {
                if checks { badValue(name: "line", start, end, expected: expected) }
                return
            }
            number = value
        }
        if comma < end {
            let alignment = UnsafeRawBufferPointer(rebasing: line[(comma + 1)..<end])
            if ByteScanning.equals(alignment, "start") {
                settings.lineAlignment = .start
            } else if ByteScanning.equals(alignment, "center") {
                settings.lineAlignment = .center
            } else if ByteScanning.equals(alignment, "end") {
                settings.lineAlignment = .end
            } else {
                if checks { badValue(name: "line", start, end, expected: expected) }
                return
            }
        }
        settings.line = isPercentage ? .percentage(number) : .number(number)
        if checks, !isPercentage, ByteScanning.firstIndex(of: UInt8(ascii: "."), in: line, from: start, to: positionEnd) < positionEnd {
            warn(.vttLineNotInteger, at: start, "a line number is an integer; '\(text(start, positionEnd))' is read as \(number)")
        }
        if settings.region != nil {
            settings.region = nil
            droppedOutOfRegion = true
        }
    }

    /// The parser's checks on a `line` value without `%`: `-` only first, at most one `.`, and
    /// that one between digits.
    private func isLineNumber(_ start: Int, _ end: Int) -> Bool {
        var dots = 0
        for index in start..<end {
            let byte = line[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            case UInt8(ascii: "-"):
                if index != start { return false }
            case UInt8(ascii: "."):
                dots += 1
                if dots > 1 || index == start || index == end - 1 { return false }
                if !DecimalNumber.isDigit(line[index - 1]) || !DecimalNumber.isDigit(line[index + 1]) { return false }
            default:
                return false
            }
        }
        return true
    }

    /// The `position` setting.
    private mutating func parsePosition(_ start: Int, _ end: Int, into settings: inout CueSettings) {
        let comma = ByteScanning.firstIndex(of: UInt8(ascii: ","), in: line, from: start, to: end)
        let expected = "a percentage from 0% to 100%, optionally followed by ,line-left ,center or ,line-right"
        guard let number = DecimalNumber.percentage(line, from: start, to: comma) else {
            if checks { badValue(name: "position", start, end, expected: expected) }
            return
        }
        if comma < end {
            let alignment = UnsafeRawBufferPointer(rebasing: line[(comma + 1)..<end])
            if ByteScanning.equals(alignment, "line-left") {
                settings.positionAlignment = .lineLeft
            } else if ByteScanning.equals(alignment, "center") {
                settings.positionAlignment = .center
            } else if ByteScanning.equals(alignment, "line-right") {
                settings.positionAlignment = .lineRight
            } else {
                if checks { badValue(name: "position", start, end, expected: expected) }
                return
            }
        }
        settings.position = .percentage(number)
    }

    /// The `align:` value, compared as bytes.
    private static func textAlignment(_ value: UnsafeRawBufferPointer) -> CueSettings.TextAlignment? {
        if ByteScanning.equals(value, "start") { return .start }
        if ByteScanning.equals(value, "center") { return .center }
        if ByteScanning.equals(value, "end") { return .end }
        if ByteScanning.equals(value, "left") { return .left }
        if ByteScanning.equals(value, "right") { return .right }
        return nil
    }

    private mutating func badValue(name: String, _ start: Int, _ end: Int, expected: String) {
        error(.vttBadSettingValue, at: settingStart, "\(name):\(text(start, end)) is ignored; \(name) takes \(expected)")
    }
}
