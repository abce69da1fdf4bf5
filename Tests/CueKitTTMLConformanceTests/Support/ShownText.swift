import CueKit

/// The text a track shows at every instant: the comparison the conformance tests make between
/// CueKit's WebVTT and ttconv's, which does not depend on how text is cut into cues (ttconv writes
/// one cue per change of the whole screen, merging paragraphs and regions).
///
/// At each time where either track changes, the lines shown (every active cue's text without
/// markup, split at line breaks, white space runs collapsed and trimmed, empty lines and Unicode
/// bidi controls removed) are compared as a sorted list, so that the order of simultaneous
/// paragraphs and regions does not matter.
enum ShownText {
    /// A stretch of time in which the two tracks show different text.
    struct Difference: CustomStringConvertible {
        var start: Int
        var end: Int
        var expected: [String]
        var actual: [String]

        var description: String {
            "\(CueTimestamp.format(start)) --> \(CueTimestamp.format(end)): expected \(expected), got \(actual)"
        }
    }

    /// A cue reduced to its interval and normalised lines.
    struct Shown {
        var start: Int
        var end: Int
        var lines: [String]
    }

    static func shown(_ cues: [Cue]) -> [Shown] {
        cues.map { Shown(start: $0.start, end: $0.end, lines: lines(of: $0)) }
    }

    /// The normalised lines of a cue.
    static func lines(of cue: Cue) -> [String] {
        let text = CueText.nodes(from: cue.text).plainText
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
    static func differences(expected: [Shown], actual: [Shown], horizon: Int) -> [Difference] {
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

    static func linesShown(at time: Int, in cues: [Shown]) -> [String] {
        cues.filter { $0.start <= time && time < $0.end }.flatMap(\.lines).sorted()
    }
}
