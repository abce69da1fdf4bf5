import CueKit
import PropertyBased

/// Random tracks for the writer's property tests.
///
/// Two kinds: ``Kind/expressible`` tracks hold only what WebVTT can carry (but every kind of block,
/// setting across its whole range, hostile characters wherever they are allowed), so that writing
/// and reading one back must give the very same track with no diagnostic. ``Kind/hostile`` tracks
/// hold anything at all: NaN, negative times, line breaks and `-->` in every text, undefined and
/// unwritable regions.
struct RandomTrack: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case expressible
        case hostile
    }

    /// The track.
    var track: Track
    /// For each cue, the tree its text was made from (``Kind/expressible`` tracks, where the tree is
    /// in the form the cue text parser gives back), or `nil` for raw text.
    var trees: [[CueNode]?]

    var description: String { "\(track)" }

    /// A generator for property checks.
    static func generator(_ kind: Kind) -> Generator<RandomTrack, Shrink.None<RandomTrack>> {
        Generator { rng in
            var builder = Builder(kind: kind)
            return builder.track(using: &rng)
        }
    }

    /// Builds one random track.
    struct Builder {
        let kind: Kind

        /// Pieces of text that have broken WebVTT writers and readers: markup, escapes, block
        /// keywords, arrows, line breaks of every kind, non-ASCII, a BOM.
        static let pieces: [String] = [
            "a", "Z", "0", " ", "  ", "\t", "é", "字", "😀", "&", "&amp;", "&lt;", "&gt;", "&nbsp;", "&#60;", "<", ">", "-", "--",
            "-->", "->", "-- >", "--&gt;", "\n", "\r", "\r\n", "\0", "NOTE", "STYLE", "REGION", "WEBVTT", "00:00:01.000",
            "00:01.000 --> 00:02.000", ":", ",", ".", "%", "\u{FEFF}", "\u{FFFD}", "<b>", "</b>", "<v Bob>", "</v>", "<c.x>",
            "<00:00:01.000>", "\\", "\"", "'", "/*", "*/", "{", "}", "<!--", "\u{0C}", "\u{0B}", "\u{85}", "\u{2028}", "region:x",
            "line:0", "id:a",
        ]

        /// True when `text` holds `-->` (on bytes: quick in unoptimised builds).
        static func hasArrow(_ text: String) -> Bool {
            var previous: UInt8 = 0
            var beforePrevious: UInt8 = 0
            for byte in text.utf8 {
                if byte == UInt8(ascii: ">"), previous == UInt8(ascii: "-"), beforePrevious == UInt8(ascii: "-") { return true }
                beforePrevious = previous
                previous = byte
            }
            return false
        }

        /// Pieces without WebVTT white space or NUL (for region identifiers and annotation words).
        static let wordPieces: [String] = pieces.filter { piece in
            !piece.utf8.contains { $0 == 0 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D || $0 == 0x20 }
        }

        /// Word pieces without `-->`.
        static let identifierPieces: [String] = wordPieces.filter { !hasArrow($0) }

        mutating func track(using rng: inout some RandomNumberGenerator) -> RandomTrack {
            var track = Track()
            track.header = header(using: &rng)
            let regionCount = Int.random(in: 0...3, using: &rng)
            var regionIDs: [String] = []
            for _ in 0..<regionCount {
                let region = region(avoiding: regionIDs, using: &rng)
                if !region.id.isEmpty { regionIDs.append(region.id) }
                track.regions.append(region)
            }
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                track.stylesheets.append(CueStylesheet(multiline(using: &rng, emptyFirstLine: false, arrows: false)))
            }
            var trees: [[CueNode]?] = []
            for _ in 0..<Int.random(in: 0...8, using: &rng) {
                let (cue, tree) = cue(regions: regionIDs, using: &rng)
                track.cues.append(cue)
                trees.append(tree)
            }
            var notes: [CueNote] = []
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let cueIndex =
                    kind == .expressible
                    ? Int.random(in: 0...track.cues.count, using: &rng) : Int.random(in: -2...(track.cues.count + 2), using: &rng)
                notes.append(CueNote(multiline(using: &rng, emptyFirstLine: true, arrows: false), cueIndex: cueIndex))
            }
            if kind == .expressible {
                // A reader gives notes back in file order, which is cue order.
                notes = notes.enumerated().sorted { ($0.element.cueIndex, $0.offset) < ($1.element.cueIndex, $1.offset) }.map(\.element)
            }
            track.notes = notes
            return RandomTrack(track: track, trees: trees)
        }

        // MARK: Text

        /// Random pieces joined, up to `count` of them.
        func pieces(_ count: ClosedRange<Int>, using rng: inout some RandomNumberGenerator, from pool: [String] = pieces) -> String {
            var text = ""
            for _ in 0..<Int.random(in: count, using: &rng) { text += pool.randomElement(using: &rng)! }
            return text
        }

        /// One line: in expressible tracks, no line break, NUL or `-->`.
        func line(using rng: inout some RandomNumberGenerator, arrows: Bool) -> String {
            while true {
                let text = pieces(1...6, using: &rng)
                if kind == .hostile { return text }
                if text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) { continue }
                if !arrows, Self.hasArrow(text) { continue }
                return text
            }
        }

        /// Several lines: in expressible tracks, no empty line (but for an empty first line when
        /// allowed), no `-->` unless allowed, no CR or NUL.
        func multiline(using rng: inout some RandomNumberGenerator, emptyFirstLine: Bool, arrows: Bool) -> String {
            if kind == .hostile { return pieces(0...10, using: &rng) }
            var lines: [String] = []
            for index in 0..<Int.random(in: 1...3, using: &rng) {
                if index == 0, emptyFirstLine, Bool.random(using: &rng) {
                    lines.append("")
                } else {
                    lines.append(line(using: &rng, arrows: arrows))
                }
            }
            if lines == [""] { return "" }
            return lines.joined(separator: "\n")
        }

        func header(using rng: inout some RandomNumberGenerator) -> String {
            if kind == .hostile { return pieces(0...8, using: &rng) }
            switch Int.random(in: 0...3, using: &rng) {
            case 0: return ""
            case 1: return line(using: &rng, arrows: true)
            default:
                // The first line may hold `-->`; further lines may not.
                let first = Bool.random(using: &rng) ? "" : line(using: &rng, arrows: true)
                return first + "\n" + multiline(using: &rng, emptyFirstLine: false, arrows: false)
            }
        }

        // MARK: Numbers

        /// A percentage: in expressible tracks within 0–100 (edges, tiny and bit-pattern values).
        func percentage(using rng: inout some RandomNumberGenerator) -> Double {
            if kind == .hostile, Int.random(in: 0...3, using: &rng) == 0 {
                return [Double.nan, .infinity, -.infinity, -1, 100.5, -0.0, 1e300].randomElement(using: &rng)!
            }
            switch Int.random(in: 0...4, using: &rng) {
            case 0: return [0, 100, 50, 0.1, .leastNonzeroMagnitude, 99.99999999999999, 33.333333333333336].randomElement(using: &rng)!
            case 1: return Double.random(in: 0...100, using: &rng)
            case 2: return Double(Int.random(in: 0...100, using: &rng))
            default:
                while true {
                    let value = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &rng) & ~(1 << 63))
                    if value.isFinite, value <= 100 { return value }
                }
            }
        }

        /// A line number: any finite `Double` (hostile tracks: also NaN and infinities).
        func lineNumber(using rng: inout some RandomNumberGenerator) -> Double {
            if kind == .hostile, Int.random(in: 0...4, using: &rng) == 0 {
                return [Double.nan, .infinity, -.infinity].randomElement(using: &rng)!
            }
            switch Int.random(in: 0...3, using: &rng) {
            case 0:
                return [0, -1, 1, 1e34, -1e34, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude].randomElement(
                    using: &rng)!
            case 1: return Double(Int.random(in: -20...20, using: &rng))
            case 2: return Double.random(in: -1000...1000, using: &rng)
            default:
                while true {
                    let value = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &rng))
                    if value.isFinite { return value }
                }
            }
        }

        func time(using rng: inout some RandomNumberGenerator) -> Int {
            if kind == .hostile, Int.random(in: 0...5, using: &rng) == 0 { return Int.random(in: -100_000...(-1), using: &rng) }
            switch Int.random(in: 0...3, using: &rng) {
            case 0: return Int.random(in: 0...3_600_000, using: &rng)
            case 1: return Int.random(in: 0...360_000_000_000, using: &rng)
            default: return Int.random(in: 0...100_000, using: &rng)
            }
        }

        // MARK: Blocks

        func regionIdentifier(using rng: inout some RandomNumberGenerator) -> String {
            if kind == .hostile { return pieces(0...3, using: &rng) }
            while true {
                let id = pieces(1...3, using: &rng, from: Self.identifierPieces)
                if !Self.hasArrow(id) { return id }
            }
        }

        func region(avoiding used: [String], using rng: inout some RandomNumberGenerator) -> CueRegion {
            var id = regionIdentifier(using: &rng)
            while kind == .expressible, used.contains(id) || id.isEmpty { id = regionIdentifier(using: &rng) }
            let lines =
                kind == .hostile && Bool.random(using: &rng)
                ? Int.random(in: -5...5, using: &rng) : [3, 0, 1, Int.random(in: 0...1_000_000, using: &rng)].randomElement(using: &rng)!
            return CueRegion(
                id: id,
                width: Bool.random(using: &rng) ? 100 : percentage(using: &rng),
                lines: lines,
                regionAnchor: Bool.random(using: &rng)
                    ? .init(x: 0, y: 100) : .init(x: percentage(using: &rng), y: percentage(using: &rng)),
                viewportAnchor: Bool.random(using: &rng)
                    ? .init(x: 0, y: 100) : .init(x: percentage(using: &rng), y: percentage(using: &rng)),
                scroll: CueRegion.Scroll.allCases.randomElement(using: &rng)!
            )
        }

        func settings(regions: [String], using rng: inout some RandomNumberGenerator) -> CueSettings {
            var settings = CueSettings()
            guard Int.random(in: 0...3, using: &rng) != 0 else { return settings }
            settings.vertical = CueSettings.Vertical.allCases.randomElement(using: &rng)!
            switch Int.random(in: 0...2, using: &rng) {
            case 0: settings.line = .auto
            case 1: settings.line = .number(lineNumber(using: &rng))
            default: settings.line = .percentage(percentage(using: &rng))
            }
            settings.lineAlignment = CueSettings.LineAlignment.allCases.randomElement(using: &rng)!
            settings.position = Bool.random(using: &rng) ? .auto : .percentage(percentage(using: &rng))
            settings.positionAlignment = CueSettings.PositionAlignment.allCases.randomElement(using: &rng)!
            settings.size = Bool.random(using: &rng) ? 100 : percentage(using: &rng)
            settings.alignment = CueSettings.TextAlignment.allCases.randomElement(using: &rng)!
            if kind == .expressible {
                // What WebVTT cannot say: an alignment without the value it aligns.
                if settings.line == .auto { settings.lineAlignment = .start }
                if settings.position == .auto { settings.positionAlignment = .auto }
                settings.region = Bool.random(using: &rng) ? regions.randomElement(using: &rng) : nil
            } else if Bool.random(using: &rng) {
                settings.region = Bool.random(using: &rng) ? regions.randomElement(using: &rng) : regionIdentifier(using: &rng)
            }
            return settings
        }

        func cue(regions: [String], using rng: inout some RandomNumberGenerator) -> (Cue, [CueNode]?) {
            let id = Bool.random(using: &rng) ? "" : line(using: &rng, arrows: false)
            var start = time(using: &rng)
            var end = time(using: &rng)
            // A cue that does not end after it starts is written as it is, and reported.
            if kind == .expressible, end <= start {
                swap(&start, &end)
                if end == start { end += 1 }
            }
            let settings = settings(regions: regions, using: &rng)
            if Int.random(in: 0...2, using: &rng) == 0 {
                let text = kind == .hostile ? pieces(0...12, using: &rng) : multiline(using: &rng, emptyFirstLine: false, arrows: false)
                return (Cue(id: id, start: start, end: end, settings: settings, text: text), nil)
            }
            let tree = nodes(depth: 0, insideRuby: false, using: &rng)
            return (Cue(id: id, start: start, end: end, settings: settings, nodes: tree), kind == .expressible ? tree : nil)
        }

        // MARK: Cue text trees

        /// A tree in the form the cue text parser gives back: no empty or adjacent text nodes, no
        /// line break at a text's edges or two in a row, annotations with single inner spaces,
        /// `<rt>` only directly in `<ruby>`. Hostile tracks drop every one of these rules.
        func nodes(depth: Int, insideRuby: Bool, using rng: inout some RandomNumberGenerator) -> [CueNode] {
            var result: [CueNode] = []
            let count = depth > 3 ? 0 : Int.random(in: 0...4, using: &rng)
            for _ in 0..<count {
                switch Int.random(in: 0...5, using: &rng) {
                case 0, 1:
                    if case .text = result.last, kind == .expressible { continue }
                    let text = textNode(using: &rng)
                    if !text.isEmpty || kind == .hostile { result.append(.text(text)) }
                case 2:
                    result.append(.timestamp(max(0, time(using: &rng))))
                default:
                    result.append(.span(span(depth: depth, insideRuby: insideRuby, using: &rng)))
                }
            }
            return result
        }

        func textNode(using rng: inout some RandomNumberGenerator) -> String {
            if kind == .hostile { return pieces(0...5, using: &rng) }
            let lines = (0..<Int.random(in: 1...2, using: &rng)).map { _ in line(using: &rng, arrows: true) }
            return lines.joined(separator: "\n")
        }

        func span(depth: Int, insideRuby: Bool, using rng: inout some RandomNumberGenerator) -> CueSpan {
            var kinds: [CueSpan.Kind] = [
                .class, .italic, .bold, .underline, .ruby, .voice(annotation(using: &rng)), .language(annotation(using: &rng)),
            ]
            if insideRuby || kind == .hostile { kinds.append(.rubyText) }
            let spanKind = kinds.randomElement(using: &rng)!
            let classCount = Int.random(in: 0...2, using: &rng)
            let classes = (0..<classCount).map { _ in className(using: &rng) }
            let children = nodes(depth: depth + 1, insideRuby: spanKind == .ruby, using: &rng)
            return CueSpan(spanKind, classes: classes, children: children)
        }

        func annotation(using rng: inout some RandomNumberGenerator) -> String {
            if kind == .hostile { return pieces(0...3, using: &rng) }
            // Words of non-white-space pieces, one space between them.
            let words = (0..<Int.random(in: 0...3, using: &rng)).map { _ in pieces(1...2, using: &rng, from: Self.wordPieces) }
            return words.joined(separator: " ")
        }

        func className(using rng: inout some RandomNumberGenerator) -> String {
            if kind == .hostile { return pieces(0...2, using: &rng) }
            return pieces(1...2, using: &rng, from: ["a", "Z", "0", "-", "--", "é", "字", "_", "bg_yellow", ":", ","])
        }
    }
}
