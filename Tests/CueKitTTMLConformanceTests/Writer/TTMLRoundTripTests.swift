import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

@testable import CueKitTTML

/// WebVTT → TTML → WebVTT gives the same cues, settings and cue text wherever both formats
/// express them, over every WebVTT file of the conformance suites and the project's fixtures.
///
/// What may differ, and why:
/// - class names: a `<c.loud>` span becomes a span styled by the rules `.loud` selects, which
///   CueKit's TTML reader names after the style (`_s3`); the style itself comes back (the
///   class-style tests show it), the name does not, so class spans are compared by their content;
/// - cues that are never shown (end at or before start), which TTML does not present, cues with no
///   text, which become empty paragraphs TTML does not present, and cues with inner timestamps,
///   which come back as one cue per timed piece (the ttconv test compares what they show): these
///   are left out of the track written here;
/// - placement is compared as the box it becomes and the edge the text sits at
///   (``TTMLRegionGeometry``), since WebVTT has several ways to say one place (`line:0` and
///   `line:0%`, `line:auto` and `line:-1`), and a region's box can only come back as cue settings
///   that put the text at the same edge (or, for text ending or centred above the bottom, at the
///   top its lines then have); `REGION`s come back as the settings of their cues; it is compared
///   in TTML1, where no cue is stacked into another's region;
/// - `align:start` and `end` follow each cue's text direction in WebVTT and the paragraph's
///   `tts:direction` in TTML (written `rtl` for right-to-left text): they come back as the `left`
///   or `right` they are drawn at;
/// - one WebVTT `<ruby>` with several bases becomes one TTML ruby container per base; voice and
///   language spans with empty annotations carry nothing and come back as their text;
/// - white space: runs are collapsed and lines trimmed, as `xml:space="default"` says and as
///   WebVTT's renderers (`white-space: pre-line`) show it.
@Suite struct TTMLRoundTripTests {
    static var files: [String] {
        TestPaths.files(in: TestPaths.conformance + "/webvtt", suffixes: [".vtt"])
            + TestPaths.files(in: TestPaths.fixtures + "/webvtt", suffixes: [".vtt"])
    }

    /// A cue's text as both formats can say it: its lines (``ShownText``), then its tags with
    /// the text between them reduced to `|`, class spans left out (with the `<b>`, `<i>` and `<u>`
    /// their rules in `rules` give), spans without text and empty annotations left out, a ruby
    /// without annotation as its base, and adjacent rubies merged.
    static func projection(_ nodes: [CueNode], rules: [CueStyleRule] = []) -> String {
        func tags(forClasses classes: [String]) -> [String] {
            guard !classes.isEmpty else { return [] }
            var result: [String] = []
            for rule in rules {
                guard case .classes(let needed) = rule.selector, needed.allSatisfy(classes.contains) else { continue }
                for declaration in rule.declarations {
                    let value = declaration.value.lowercased()
                    switch declaration.property.lowercased() {
                    case "font-weight" where value == "bold" || (Int(value) ?? 0) >= 600: result.append("b")
                    case "font-style" where value == "italic" || value == "oblique": result.append("i")
                    case "text-decoration" where value.contains("underline"): result.append("u")
                    default: break
                    }
                }
            }
            return Array(Set(result)).sorted()
        }
        func walk(_ nodes: [CueNode]) -> String {
            var result = ""
            for node in nodes {
                switch node {
                case .text(let text):
                    let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                    if !words.isEmpty, !result.hasSuffix("|") { result += "|" }
                case .timestamp: break
                case .span(let span):
                    var inner = walk(span.children)
                    for tag in tags(forClasses: span.classes).reversed() { inner = "<\(tag)>\(inner)</\(tag)>" }
                    let annotation = span.kind.annotation ?? ""
                    let hasAnnotation = span.children.contains { if case .span(let child) = $0 { child.kind == .rubyText } else { false } }
                    if !inner.contains("|") {
                        continue
                    } else if case .class = span.kind {
                        result += inner
                    } else if annotation.isEmpty, span.kind.annotation != nil {
                        result += inner
                    } else if span.kind == .ruby, !hasAnnotation {
                        result += inner
                    } else {
                        result += "<\(span.kind.tagName)\(annotation.isEmpty ? "" : " " + annotation)>\(inner)</\(span.kind.tagName)>"
                    }
                    while result.contains("||") { result = result.replacingFirst("||", with: "|") }
                }
            }
            return result
        }
        var tags = walk(nodes)
        while tags.contains("</ruby><ruby>") { tags = tags.replacingFirst("</ruby><ruby>", with: "") }
        return ShownText.lines(of: nodes).joined(separator: "\n") + "\n" + tags
    }

    /// Where the text of a placement sits: the box across the lines, and the edge it sits at.
    /// Horizontal text of `lines` lines ending or centred above the bottom is read back placed by
    /// its top (``TTMLRegion/placedByTop(_:text:)``): such a placement is given as that top.
    static func anchor(_ geometry: TTMLRegionGeometry, lines: Int) -> String {
        let vertical = geometry.writingMode != nil
        let (start, length) = vertical ? (geometry.originX, geometry.width) : (geometry.originY, geometry.height)
        var edge: Double
        var align = geometry.displayAlign
        switch (geometry.displayAlign, geometry.writingMode) {
        case ("center", _): edge = start + length / 2
        case ("before", "tbrl"?), ("after", nil), ("after", "tblr"?): edge = start + length
        default: edge = start
        }
        let extent = Double(lines) * TTMLRegionGeometry.webVTTLineStep
        if !vertical, align == "center" || (align == "after" && edge < 99.995) {
            // Kept inside the video as a box placed by its top is (TTMLRegionGeometry).
            let top = min(align == "after" ? edge - extent : edge - extent / 2, 100 - Double(lines) * TTMLRegionGeometry.lineHeight)
            edge = (max(0, top) * 100).rounded() / 100
            align = "before"
        }
        let inline = vertical ? (geometry.originY, geometry.height) : (geometry.originX, geometry.width)
        return "\(geometry.writingMode ?? "lrtb") inline \(inline.0.ttmlNumber)+\(inline.1.ttmlNumber) \(align) at \(edge.ttmlNumber)"
    }

    /// The alignment a cue is drawn with: `start` and `end` resolved by the text's direction.
    static func drawnAlignment(_ cue: Cue) -> CueSettings.TextAlignment {
        guard cue.settings.vertical == .horizontal else { return cue.settings.alignment }
        let rightToLeft = TTMLWriter<MemorySink>.startsRightToLeft(cue.text)
        switch cue.settings.alignment {
        case .start: return rightToLeft ? .right : .left
        case .end: return rightToLeft ? .left : .right
        default: return cue.settings.alignment
        }
    }

    static func hasInnerTimestamps(_ cue: Cue) -> Bool {
        func walk(_ nodes: [CueNode]) -> Bool {
            nodes.contains {
                switch $0 {
                case .timestamp(let time): time > cue.start && time < cue.end
                case .span(let span): walk(span.children)
                case .text: false
                }
            }
        }
        return walk(cue.nodes())
    }

    @Test func cuesSettingsAndTextComeBack() throws {
        var compared = 0
        var failures: [String] = []
        for path in Self.files {
            guard var source = try? WebVTTReader.read(fileAtPath: path).track else { continue }
            source.cues = source.cues.filter {
                $0.end > $0.start && !ShownText.lines(of: $0).isEmpty && !Self.hasInnerTimestamps($0)
            }
            var writer = TTMLWriter(to: MemorySink())
            try writer.write(source)
            let back = try TTMLReader.read(bytes: writer.sink.bytes).track
            // Placement is compared in TTML1, which shows any number of regions at once: IMSC 1.1
            // stacks cues past four regions shown into shown regions (TTMLShownRegionsTests).
            var unlimited = TTMLWriter(to: MemorySink(), options: TTMLWriterOptions(profile: .ttml1))
            try unlimited.write(source)
            let placed = try TTMLReader.read(bytes: unlimited.sink.bytes).track
            guard source.cues.count == back.cues.count, source.cues.count == placed.cues.count else {
                failures.append("\(path): \(source.cues.count) cues written, \(back.cues.count) and \(placed.cues.count) read back")
                continue
            }
            for ((original, read), readPlaced) in zip(zip(source.cues, back.cues), placed.cues) {
                compared += 1
                var differences: [String] = []
                if (original.start, original.end) != (read.start, read.end) { differences.append("times \(read.start)-\(read.end)") }
                let idKept = TTMLWriter<MemorySink>.isXMLName(original.id) && !original.id.hasPrefix("_")
                    && source.cues.filter({ $0.id == original.id }).count == 1
                if read.id != (idKept ? original.id : "") { differences.append("id '\(read.id)'") }
                let placement = original.settings.region.flatMap { id in source.regions.last { $0.id == id } }
                    .map(TTMLRegionGeometry.init(region:)) ?? TTMLRegionGeometry(cue: original.settings)
                let lines = ShownText.lines(of: original).count
                let (expectedAnchor, readAnchor) = (
                    Self.anchor(placement, lines: lines), Self.anchor(TTMLRegionGeometry(cue: readPlaced.settings), lines: lines)
                )
                if expectedAnchor != readAnchor { differences.append("placement \(readAnchor), expected \(expectedAnchor)") }
                if Self.drawnAlignment(original) != read.settings.alignment { differences.append("align \(read.settings.alignment)") }
                let (left, right) = (Self.projection(original.nodes(), rules: source.stylesheets.flatMap(\.cueRules)), Self.projection(read.nodes()))
                if left != right { differences.append("text \(right.debugDescription), expected \(left.debugDescription)") }
                if !differences.isEmpty { failures.append("\(path) cue at \(CueTimestamp.format(original.start)): " + differences.joined(separator: "; ")) }
            }
        }
        #expect(compared > 400)
        #expect(failures.isEmpty, "\(failures.count) differences:\n\(failures.prefix(15).joined(separator: "\n"))")
    }
}

extension String {
    fileprivate func replacingFirst(_ text: String, with replacement: String) -> String {
        guard let range = firstRange(of: text) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }
}
