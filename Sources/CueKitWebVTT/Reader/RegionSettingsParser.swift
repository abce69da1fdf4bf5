import CueKit

/// The regions defined before the first cue, after the rule that a region with an identifier
/// already used replaces the earlier one (so that `region:id` finds "the last WebVTT region in
/// regions whose identifier is id", W3C WebVTT, section 6.3).
///
/// Adding is constant time and the list is built once, sorted, when the regions are emitted, so a
/// file of a million `REGION` blocks sharing one identifier reads in linear time.
struct RegionTable {
    private struct Entry {
        var region: CueRegion
        /// The line the region's block started on, for the duplicate diagnostic.
        var line: Int
        /// The order of the region's definition: a replacement takes the place of the last one.
        var order: Int
    }

    private var entries: [String: Entry] = [:]
    /// The identifiers defined, in the order of their first definitions: a track defines a few,
    /// which are compared byte by byte (``lookUp(_:)``) rather than made a string per cue.
    private var identifiers: [String] = []
    private var count = 0
    /// The most identifiers compared one by one; past them the table is asked.
    private static let comparedIdentifiers = 8

    var isEmpty: Bool { entries.isEmpty }

    /// How many definitions were added, replacements included: it changes whenever the table does.
    var definitions: Int { count }

    /// The regions in the order of their (last) definitions.
    var regions: [CueRegion] { entries.values.sorted { $0.order < $1.order }.map(\.region) }

    /// Adds a region; returns the line of the region it replaces, if any.
    mutating func add(_ region: CueRegion, line: Int) -> Int? {
        let replaced = entries.updateValue(Entry(region: region, line: line, order: count), forKey: region.id)
        if replaced == nil { identifiers.append(region.id) }
        count += 1
        return replaced?.line
    }

    /// The identifier of the region named by `id`, if one is defined.
    func lookUp(_ id: UnsafeRawBufferPointer) -> String? {
        guard !entries.isEmpty else { return nil }
        if identifiers.count <= Self.comparedIdentifiers {
            for identifier in identifiers {
                let same = identifier.utf8.withContiguousStorageIfAvailable { $0.count == id.count && $0.elementsEqual(id) }
                if same ?? identifier.utf8.elementsEqual(id) { return identifier }
            }
            return nil
        }
        let key = String(decoding: id, as: UTF8.self)
        return entries[key] == nil ? nil : key
    }
}

/// "Collect WebVTT region settings" (W3C WebVTT, section 6.2) from the text of a `REGION` block,
/// checked against the syntax of section 4.5.
struct RegionSettingsParser {
    let text: UnsafeRawBufferPointer
    let lines: BlockLines
    let checks: Bool
    private(set) var diagnostics: [Diagnostic] = []

    init(text: UnsafeRawBufferPointer, lines: BlockLines, checks: Bool) {
        self.text = text
        self.lines = lines
        self.checks = checks
    }

    private enum SettingName: Int {
        case id, width, lines, regionAnchor, viewportAnchor, scroll
    }

    /// The largest `lines` a browser keeps (`VTTRegion.lines` is an `unsigned long`).
    static let maximumLines = Int(UInt32.max)

    mutating func parse(headerLine: Int) -> CueRegion {
        var region = CueRegion(id: "")
        let count = text.count
        var position = 0
        var seen = 0
        var hasIdentifier = false
        while true {
            while position < count, isASCIIWhitespace(text[position]) { position += 1 }
            guard position < count else { break }
            let tokenStart = position
            while position < count, !isASCIIWhitespace(text[position]) { position += 1 }
            let tokenEnd = position
            let colon = ByteScanning.firstIndex(of: UInt8(ascii: ":"), in: text, from: tokenStart, to: tokenEnd)
            guard colon < tokenEnd, colon != tokenStart, colon != tokenEnd - 1 else {
                error(
                    .vttBadRegionSetting, at: tokenStart, "'\(string(tokenStart, tokenEnd))' is not a region setting (name:value); ignored")
                continue
            }
            let valueStart = colon + 1
            let nameBytes = UnsafeRawBufferPointer(rebasing: text[tokenStart..<colon])
            let name: SettingName
            switch String(decoding: nameBytes, as: UTF8.self) {
            case "id": name = .id
            case "width": name = .width
            case "lines": name = .lines
            case "regionanchor": name = .regionAnchor
            case "viewportanchor": name = .viewportAnchor
            case "scroll": name = .scroll
            default:
                error(
                    .vttUnknownRegionSetting, at: tokenStart,
                    "unknown region setting '\(string(tokenStart, colon))' is ignored; WebVTT knows id, width, lines, regionanchor, viewportanchor and scroll"
                )
                continue
            }
            let bit = 1 << name.rawValue
            if seen & bit != 0 {
                error(.vttDuplicateSetting, at: tokenStart, "'\(string(tokenStart, colon))' is set twice in this region; the last one wins")
            }
            seen |= bit
            switch name {
            case .id:
                region.id = string(valueStart, tokenEnd)
                hasIdentifier = true
            case .width:
                if let value = DecimalNumber.percentage(text, from: valueStart, to: tokenEnd) {
                    region.width = value
                } else {
                    badValue(tokenStart, tokenEnd, "width takes a percentage from 0% to 100%")
                }
            case .lines:
                var value = 0
                var clamped = false
                var index = valueStart
                while index < tokenEnd, DecimalNumber.isDigit(text[index]) {
                    value = value * 10 + Int(text[index] &- UInt8(ascii: "0"))
                    if value > Self.maximumLines {
                        value = Self.maximumLines
                        clamped = true
                    }
                    index += 1
                }
                guard index == tokenEnd else {
                    badValue(tokenStart, tokenEnd, "lines takes a whole number of lines")
                    continue
                }
                if clamped {
                    warn(
                        .vttNumberOutOfRange, at: valueStart,
                        "lines:\(string(valueStart, tokenEnd)) is more than a browser keeps; read as \(Self.maximumLines)")
                }
                region.lines = value
            case .regionAnchor, .viewportAnchor:
                let comma = ByteScanning.firstIndex(of: UInt8(ascii: ","), in: text, from: valueStart, to: tokenEnd)
                guard comma < tokenEnd,
                    let x = DecimalNumber.percentage(text, from: valueStart, to: comma),
                    let y = DecimalNumber.percentage(text, from: comma + 1, to: tokenEnd)
                else {
                    badValue(tokenStart, tokenEnd, "\(string(tokenStart, colon)) takes two percentages from 0% to 100%, as in 10%,90%")
                    continue
                }
                if name == .regionAnchor {
                    region.regionAnchor = CueRegion.Point(x: x, y: y)
                } else {
                    region.viewportAnchor = CueRegion.Point(x: x, y: y)
                }
            case .scroll:
                if UnsafeRawBufferPointer(rebasing: text[valueStart..<tokenEnd]).elementsEqual("up".utf8) {
                    region.scroll = .up
                } else {
                    badValue(tokenStart, tokenEnd, "scroll takes the value up")
                }
            }
        }
        if !hasIdentifier, checks {
            diagnostics.append(
                Diagnostic(
                    .warning, .vttRegionWithoutIdentifier, at: SourceLocation(line: headerLine, column: 1),
                    "this REGION has no id: setting, so no cue can refer to it")
            )
        }
        return region
    }

    private func string(_ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: text[from..<to]), as: UTF8.self)
    }

    private mutating func badValue(_ start: Int, _ end: Int, _ expected: String) {
        error(.vttBadRegionSetting, at: start, "'\(string(start, end))' is ignored; \(expected)")
    }

    private mutating func error(_ code: DiagnosticCode, at offset: Int, _ message: String) {
        guard checks else { return }
        diagnostics.append(Diagnostic(.error, code, at: lines.location(of: offset, in: text), message))
    }

    private mutating func warn(_ code: DiagnosticCode, at offset: Int, _ message: String) {
        guard checks else { return }
        diagnostics.append(Diagnostic(.warning, code, at: lines.location(of: offset, in: text), message))
    }
}

/// Where each line of a block's buffer starts, to turn buffer offsets into file locations: the
/// lines of a block are consecutive lines of the file.
struct BlockLines {
    /// Buffer offsets at which lines start.
    var starts: [Int] = []
    /// The file line of the first buffered line.
    var firstLine = 0

    mutating func reset(firstLine: Int) {
        starts.removeAll(keepingCapacity: true)
        self.firstLine = firstLine
    }

    func location(of offset: Int, in buffer: UnsafeRawBufferPointer) -> SourceLocation {
        // The last line starting at or before the offset.
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        let index = max(0, low - 1)
        let lineStart = starts.isEmpty ? 0 : starts[index]
        let column = ByteScanning.column(of: offset - lineStart, in: UnsafeRawBufferPointer(rebasing: buffer[lineStart...]))
        return SourceLocation(line: firstLine + index, column: column)
    }
}
