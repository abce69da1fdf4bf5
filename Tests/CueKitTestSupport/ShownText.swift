import CueKit

/// The text a track shows at every instant: the comparison the conformance tests make between
/// CueKit's WebVTT and ttconv's, which does not depend on how text is cut into cues (ttconv writes
/// one cue per change of the whole screen, merging paragraphs and regions).
///
/// At each time where either track changes, the lines shown (every active cue's text without
/// markup, split at line breaks, white space runs collapsed and trimmed, empty lines and Unicode
/// bidi controls removed) are compared as a sorted list, so that the order of simultaneous
/// paragraphs and regions does not matter.
public enum ShownText {
    /// A stretch of time in which the two tracks show different text.
    public struct Difference: CustomStringConvertible, Sendable {
        public var start: Int
        public var end: Int
        public var expected: [String]
        public var actual: [String]

        public var description: String {
            "\(CueTimestamp.format(start)) --> \(CueTimestamp.format(end)): expected \(expected), got \(actual)"
        }
    }

    /// A cue reduced to its interval and normalised lines.
    public struct Shown: Sendable {
        public var start: Int
        public var end: Int
        public var lines: [String]

        public init(start: Int, end: Int, lines: [String]) {
            self.start = start
            self.end = end
            self.lines = lines
        }
    }

    public static func shown(_ cues: [Cue]) -> [Shown] {
        cues.map { Shown(start: $0.start, end: $0.end, lines: lines(of: $0)) }
    }

    /// The cues as TTML shows them once written: the text after an inner timestamp appears at that
    /// time (a timed span; text is never taken back, so an earlier timestamp after a later one changes
    /// nothing), so a cue with timestamps inside its interval is shown in pieces. Ruby is shown as
    /// `ruby` says.
    public static func shownProgressively(_ cues: [Cue], ruby: RubyShown = .runOn) -> [Shown] {
        cues.flatMap { cue -> [Shown] in
            let nodes = CueText.nodes(from: cue.text)
            var times: [Int] = []
            func collect(_ nodes: [CueNode]) {
                for node in nodes {
                    switch node {
                    case .timestamp(let time) where time > cue.start && time < cue.end: times.append(time)
                    case .span(let span): collect(span.children)
                    default: break
                    }
                }
            }
            collect(nodes)
            let bounds = [cue.start] + Set(times).sorted() + [cue.end]
            return (0..<bounds.count - 1).map { index in
                let shown = revealed(nodes, at: bounds[index], cue: cue, ruby: ruby)
                return Shown(start: bounds[index], end: bounds[index + 1], lines: lines(of: shown))
            }
        }
    }

    /// The cues as TTML written with inner timestamps left out shows them, and as WebVTT players
    /// show them: the whole text for the whole cue. Ruby is shown as `ruby` says.
    public static func shownWhole(_ cues: [Cue], ruby: RubyShown = .runOn) -> [Shown] {
        cues.map { cue in
            let nodes = CueText.nodes(from: cue.text)
            return Shown(start: cue.start, end: cue.end, lines: lines(of: revealed(nodes, at: .max, cue: cue, ruby: ruby)))
        }
    }

    /// How ruby is shown: its bases and texts run on (`漢かん`, the plain text of WebVTT's
    /// `<ruby>`), each text in parentheses after its base (`漢(かん)`, as a TTML profile without
    /// ruby writes it), or each base and its text left out (as ttconv's WebVTT writer drops the ruby
    /// containers its reader makes), text after the last `rt` kept.
    public enum RubyShown: Sendable {
        case runOn, inParentheses, leftOut
    }

    private static func isRubyText(_ node: CueNode) -> Bool {
        if case .span(let span) = node { span.kind == .rubyText } else { false }
    }

    /// The nodes shown at `time`: text after a timestamp later than `time` left out.
    private static func revealed(_ nodes: [CueNode], at time: Int, cue: Cue, ruby: RubyShown) -> [CueNode] {
        var shownFrom = cue.start
        func filter(_ nodes: [CueNode]) -> [CueNode] {
            nodes.compactMap { node in
                switch node {
                case .timestamp(let stamp):
                    if stamp > cue.start && stamp < cue.end { shownFrom = max(shownFrom, stamp) }
                    return nil
                case .text:
                    return shownFrom <= time ? node : nil
                case .span(var span):
                    span.children = filter(span.children)
                    if ruby == .inParentheses, span.kind == .rubyText { span.children = [.text("(")] + span.children + [.text(")")] }
                    if ruby == .leftOut, span.kind == .ruby, let last = span.children.lastIndex(where: isRubyText) {
                        span.children.removeSubrange(...last)
                    }
                    return .span(span)
                }
            }
        }
        return filter(nodes)
    }

    /// The normalised lines of a cue.
    public static func lines(of cue: Cue) -> [String] {
        lines(of: CueText.nodes(from: cue.text))
    }

    /// The normalised lines of a cue text tree.
    public static func lines(of nodes: [CueNode]) -> [String] {
        let text = nodes.plainText
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            var result = ""
            var pendingSpace = false
            for scalar in line.unicodeScalars {
                if (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) { continue }
                if scalar == " " || scalar == "\t" || scalar == "\r" {
                    pendingSpace = !result.isEmpty
                    continue
                }
                if pendingSpace { result += " " }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
            return result.isEmpty ? nil : result
        }
    }

    /// The differences between what `expected` and `actual` show, up to `horizon` milliseconds.
    public static func differences(expected: [Shown], actual: [Shown], horizon: Int) -> [Difference] {
        var times = Set<Int>()
        for cue in expected + actual {
            times.insert(cue.start)
            times.insert(cue.end)
        }
        let sorted = times.filter { $0 < horizon }.sorted() + [horizon]
        var result: [Difference] = []
        for (index, time) in sorted.dropLast().enumerated() {
            let next = sorted[index + 1]
            guard time < next else { continue }
            let left = linesShown(at: time, in: expected)
            let right = linesShown(at: time, in: actual)
            guard left != right else { continue }
            if var last = result.last, last.end == time, last.expected == left, last.actual == right {
                last.end = next
                result[result.count - 1] = last
            } else {
                result.append(Difference(start: time, end: next, expected: left, actual: right))
            }
        }
        return result
    }

    public static func linesShown(at time: Int, in cues: [Shown]) -> [String] {
        cues.filter { $0.start <= time && time < $0.end }.flatMap(\.lines).sorted()
    }
}
