import CueKit

/// The fixes a profile's findings allow that need no judgement: gaps under the minimum widened
/// (the earlier cue ends sooner, on a frame), cues under the minimum duration extended where the
/// next cue leaves room, and lines over the limit split at their best break (after punctuation,
/// else the space nearest the middle). Words are never changed: a split turns one space into a
/// line break.
///
/// Each change is reported with the rule it fixes; a change is made only when it fixes its
/// finding whole, so that checking the fixed track with the same rules reports none of them.
public struct QCFixer: Sendable {
    /// One change to one cue.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        /// The cue's index in the fixed track (start order).
        public var cueIndex: Int
        /// The rule whose finding the change fixes.
        public var rule: QCRule
        /// What was done, in words.
        public var message: String

        public var description: String { "cue \(cueIndex + 1): \(message) [\(rule.rawValue)]" }
    }

    private let limits: QCLimits
    /// The rate gaps are counted and ends placed at.
    public let frameRate: FrameRate

    /// A fixer for `rules` (those of a profile, language and audience).
    public init(rules: QCRules, frameRate: FrameRate = .film) throws(QCProfileError) {
        self.limits = try QCLimits(rules, frameRate: frameRate)
        self.frameRate = frameRate
    }

    /// Fixes `cues` (put in start order first, as WebVTT requires) and says what changed.
    public func fix(_ cues: [Cue]) -> (cues: [Cue], changes: [Change]) {
        var cues = cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        var changes: [Change] = []
        let gapMilliseconds = limits.gapFrames.map { frameRate.milliseconds(forFrames: $0.value) } ?? 0

        // Gaps first: they only move ends earlier.
        if let limit = limits.gapFrames {
            // The latest end before `index`: the checker measures a gap from it.
            var earlierEnd = Int.min
            for index in cues.indices.dropLast() {
                defer { earlierEnd = max(earlierEnd, cues[index].end) }
                let next = cues[index + 1].start
                let gap = next - cues[index].end
                guard gap >= 0, frameRate.isShorter(gap, thanFrames: limit.value) else { continue }
                let end = frameRate.start(of: frameRate.frame(at: next - gapMilliseconds))
                // An earlier cue that would still end later sets the gap: it is not this cue's to fix.
                guard end > cues[index].start, earlierEnd <= end else { continue }
                changes.append(
                    Change(
                        cueIndex: index, rule: .gap,
                        message:
                            "end moved from \(QCTime.format(cues[index].end)) to \(QCTime.format(end)): \(limit.value) frames before the next cue"
                    ))
                cues[index].end = end
            }
        }
        // Then short cues, into the room the next cue leaves.
        if let limit = limits.minimumDuration {
            for index in cues.indices where cues[index].duration >= 0 && cues[index].duration < limit.value {
                let wanted = cues[index].start + limit.value
                let room = index + 1 < cues.count ? cues[index + 1].start - gapMilliseconds : Int.max
                guard wanted <= room, limits.maximumDuration.map({ limit.value <= $0.value }) ?? true else { continue }
                changes.append(
                    Change(
                        cueIndex: index, rule: .durationTooShort,
                        message:
                            "end moved from \(QCTime.format(cues[index].end)) to \(QCTime.format(wanted)): \(QCTime.seconds(limit.value)) s long"
                    ))
                cues[index].end = wanted
            }
        }
        // Then long lines.
        if let limit = limits.lineLength {
            for index in cues.indices {
                guard let text = Self.split(cues[index].text, maximum: limit.value, maximumLines: limits.lineCount?.value) else { continue }
                changes.append(Change(cueIndex: index, rule: .lineLength, message: "line split at its best break"))
                cues[index].text = text
            }
        }
        return (cues, changes.sorted { ($0.cueIndex, $0.rule) < ($1.cueIndex, $1.rule) })
    }

    /// `text` with each line over `maximum` visible characters split once at its best break, or
    /// nil when a line is over and no split brings every line within the limits.
    static func split(_ text: String, maximum: Int, maximumLines: Int?) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.contains(where: { visibleLength($0) > maximum }) else { return nil }
        var result: [String] = []
        for line in lines {
            guard visibleLength(line) > maximum else {
                result.append(line)
                continue
            }
            guard let (first, second) = bestBreak(line, maximum: maximum) else { return nil }
            result += [first, second]
        }
        if let maximumLines, result.count > maximumLines { return nil }
        return result.joined(separator: "\n")
    }

    /// The two halves of `line` at its best space outside markup whose halves both fit: one after
    /// punctuation nearest the middle, else any nearest the middle.
    static func bestBreak(_ line: String, maximum: Int) -> (String, String)? {
        let scalars = Array(line.unicodeScalars)
        var candidates: [(index: Int, afterPunctuation: Bool, balance: Int)] = []
        var inTag = false
        let total = visibleLength(line)
        for (index, scalar) in scalars.enumerated() {
            if scalar == "<" { inTag = true }
            if scalar == ">" { inTag = false }
            guard !inTag, scalar == " ", index > 0 else { continue }
            let first = String(String.UnicodeScalarView(scalars[..<index]))
            let second = String(String.UnicodeScalarView(scalars[(index + 1)...]))
            let firstLength = visibleLength(first)
            let secondLength = visibleLength(second)
            guard firstLength > 0, secondLength > 0, firstLength <= maximum, secondLength <= maximum else { continue }
            let previous = Character(scalars[index - 1])
            let afterPunctuation = ",.;:!?…—)»\"".contains(previous)
            candidates.append((index, afterPunctuation, abs(firstLength - (total - 1) / 2)))
        }
        guard
            let best = candidates.min(by: { ($0.afterPunctuation ? 0 : 1, $0.balance) < ($1.afterPunctuation ? 0 : 1, $1.balance) })
        else { return nil }
        return (
            String(String.UnicodeScalarView(scalars[..<best.index])), String(String.UnicodeScalarView(scalars[(best.index + 1)...]))
        )
    }

    /// Visible characters of one line, counted as the checker counts them.
    static func visibleLength(_ line: String) -> Int {
        var copy = line
        return copy.withUTF8 { CueTextMeasurement(UnsafeRawBufferPointer($0)).characters }
    }
}
