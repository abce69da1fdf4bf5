import CueKit

/// Checks cues against a profile's rules as they stream past, in start order, one at a time:
/// memory holds the previous cue's end and the tallies, never the track.
///
/// Each finding is a ``Diagnostic`` with its rule's code (``QCRule``), the cue's location (its timing
/// line; the text line for a rule about one line or character), and the measured value and the
/// limit in its message. Frame-based rules count frames at ``frameRate`` and say so.
///
/// ```swift
/// var checker = try QCChecker(rules: profile.rules(language: "en", audience: .adult))
/// try checker.check(cue, at: location) { diagnostic in print(diagnostic) }
/// print(checker.summary.rules[.readingSpeed]?.count ?? 0)
/// ```
public struct QCChecker: Sendable {
    /// The rate the frame-based rules count at.
    public let frameRate: FrameRate
    /// What was found so far, rule by rule.
    public private(set) var summary = QCSummary()

    private let limits: QCLimits
    /// The same limits as plain numbers, for the first look at each cue (``isClean(start:end:)``).
    private let thresholds: QCThresholds
    /// What the text is measured for, read from ``limits`` once.
    private let allowedCharacters: QCCharacterSet?
    private let allowedTagNames: [[UInt8]]?
    private let countsWords: Bool
    /// The cue being checked, measured in place (a value as large as this one, returned for each
    /// cue, was copied twice).
    private var measurement = CueTextMeasurement()
    /// What the messages print of the profile, made once: the tags allowed, and the frame rate.
    private let allowedTagsText: String
    private let frameRateText: String
    /// Shot changes in milliseconds, sorted.
    private let shotChanges: [Int]
    /// The latest end of the cues checked so far, and where that cue is.
    private var latestEnd: Int?
    private var latestEndLocation: SourceLocation?
    private var latestEndNumber = 0
    private var previousStart = Int.min

    /// True when a cue's text lines follow its location line by line (WebVTT and SubRip, whose
    /// cues are located at their timing lines), so that a finding about one line or character is
    /// located on it; false when the text is elsewhere (a TTML `p`), and such findings are located
    /// at the cue.
    public var textLinesFollowLocation = true

    /// True when every cue's reading speed is counted in ``QCSummary/readingSpeeds`` (for a report's
    /// histogram), whether or not the profile limits it.
    public let recordsReadingSpeeds: Bool

    /// A checker for `rules`; throws when a rule that is on lacks its limit.
    public init(
        rules: QCRules, frameRate: FrameRate = .film, shotChanges: [Int] = [], recordsReadingSpeeds: Bool = false
    ) throws(QCProfileError) {
        self.init(
            limits: try QCLimits(rules, frameRate: frameRate), frameRate: frameRate, shotChanges: shotChanges,
            recordsReadingSpeeds: recordsReadingSpeeds)
    }

    /// A checker with no rule on: what a ``QCTrackCheck`` holds until its first cue, when the
    /// track's language is known.
    init() {
        self.init(limits: QCLimits(), frameRate: .film, shotChanges: [], recordsReadingSpeeds: false)
    }

    private init(limits: QCLimits, frameRate: FrameRate, shotChanges: [Int], recordsReadingSpeeds: Bool) {
        self.limits = limits
        self.frameRate = frameRate
        self.shotChanges = shotChanges.sorted()
        self.recordsReadingSpeeds = recordsReadingSpeeds
        thresholds = QCThresholds(
            limits, frameRate: frameRate, checksShotChanges: !shotChanges.isEmpty, recordsReadingSpeeds: recordsReadingSpeeds)
        allowedCharacters = limits.characters?.value
        allowedTagNames = limits.allowedTags?.value
        countsWords = limits.wordsPerMinute != nil
        summary.readingSpeeds.limit = limits.charactersPerSecond?.value
        let tags = limits.allowedTags?.value ?? []
        allowedTagsText = tags.isEmpty ? "no tags" : tags.map { "<\(String(decoding: $0, as: UTF8.self))>" }.joined(separator: ", ")
        frameRateText = "\(frameRate)"
    }

    /// Checks one cue (its text as WebVTT cue text), handing each finding to `report`.
    public mutating func check(_ cue: Cue, at location: SourceLocation?, report: (Diagnostic) throws -> Void) rethrows {
        try check(cue, at: location, reportingFindings: { try report($0.diagnostic) })
    }

    /// Checks one cue (its text as WebVTT cue text), handing each finding, with its measured value,
    /// to `report`.
    public mutating func check(_ cue: Cue, at location: SourceLocation?, reportingFindings report: (QCFinding) throws -> Void) rethrows {
        var text = cue.text
        try text.withUTF8 { bytes in
            try check(
                text: UnsafeRawBufferPointer(bytes), textHasMarkup: true, start: cue.start, end: cue.end, at: location,
                reportingFindings: report)
        }
    }

    /// Checks one cue given as the bytes of its WebVTT cue text, handing each finding's diagnostic
    /// to `report` (see ``check(text:textHasMarkup:start:end:at:reportingFindings:)``).
    public mutating func check(
        text: UnsafeRawBufferPointer, textHasMarkup: Bool, start: Int, end: Int, at location: SourceLocation?,
        report: (Diagnostic) throws -> Void
    ) rethrows {
        try check(
            text: text, textHasMarkup: textHasMarkup, start: start, end: end, at: location, reportingFindings: { try report($0.diagnostic) }
        )
    }

    /// Checks one cue given as the bytes of its WebVTT cue text (lines joined by LF), as the
    /// WebVTT reader hands them out, so that no string is made. `textHasMarkup` false promises the
    /// text holds neither `<` nor `&`; `location` is the cue's timing line (its text starts on the
    /// next line), or nil when the format gives none (the message then names the cue).
    public mutating func check(
        text: UnsafeRawBufferPointer, textHasMarkup: Bool, start: Int, end: Int, at location: SourceLocation?,
        reportingFindings report: (QCFinding) throws -> Void
    ) rethrows {
        summary.cues += 1
        let number = summary.cues
        // Tags are named only in text with markup (and text without passes no list to release).
        if textHasMarkup {
            measurement.measure(text, hasMarkup: true, allowed: allowedCharacters, allowedTags: allowedTagNames, countsWords: countsWords)
        } else {
            measurement.measure(text, hasMarkup: false, allowed: allowedCharacters, allowedTags: nil, countsWords: countsWords)
        }
        if decidesCleanCuesQuickly, isClean(start: start, end: end) {
            advanceTiming(start: start, end: end, at: location, number: number)
            return
        }
        try checkInDetail(of: text, number: number, start: start, end: end, at: location, reportingFindings: report)
    }

    /// True when the first look (``isClean(start:end:)``) may pass a cue with no finding without
    /// the rules' detailed check: off only to test that the two agree.
    var decidesCleanCuesQuickly = true

    /// True when the cue just measured, from `start` to `end`, breaks no rule: every comparison of
    /// ``checkInDetail(of:number:start:end:at:reportingFindings:)``, made on plain
    /// numbers, none met. False for every cue when a rule looks at more than the cue and the one
    /// before (shot changes), or the reading speeds are recorded.
    @inline(__always)
    private func isClean(start: Int, end: Int) -> Bool {
        if thresholds.checksEveryCueInDetail { return false }
        if measurement.longestLine > thresholds.lineLength || measurement.lineCount > thresholds.lineCount { return false }
        if measurement.disallowedScalar != nil || measurement.forbiddenTagName != nil { return false }
        let duration = end - start
        if duration > 0 {
            if Double(measurement.characters) * 1000 / Double(duration) > thresholds.charactersPerSecond { return false }
            if thresholds.countsWords, Double(measurement.words) * 60_000 / Double(duration) > thresholds.wordsPerMinute { return false }
        }
        if duration < thresholds.minimumDuration && duration >= 0 || duration > thresholds.maximumDuration { return false }
        if measurement.lineCount == 2, measurement.secondLine > 0,
            Double(measurement.firstLine) > Double(measurement.secondLine) * thresholds.lineBalance
        {
            return false
        }
        if let latestEnd, start >= previousStart {
            let gap = start - latestEnd
            if gap < 0 {
                if thresholds.checksOverlap { return false }
            } else if gap < thresholds.minimumGap {
                return false
            }
        }
        return true
    }

    /// Keeps the latest end and start of the cues checked so far, for the next cue's gap and overlap.
    @inline(__always)
    private mutating func advanceTiming(start: Int, end: Int, at location: SourceLocation?, number: Int) {
        if start >= previousStart { previousStart = start }
        if latestEnd == nil || end >= latestEnd! {
            latestEnd = end
            latestEndLocation = location
            latestEndNumber = number
        }
    }

    /// Checks the cue just measured (cue `number`, its text `text`) against every rule, handing
    /// each finding to `report`: kept out of line, as most cues never come here.
    @inline(never)
    private mutating func checkInDetail(
        of text: UnsafeRawBufferPointer, number: Int, start: Int, end: Int, at location: SourceLocation?,
        reportingFindings report: (QCFinding) throws -> Void
    ) rethrows {
        let duration = end - start
        let measurement = self.measurement
        // Findings are gathered, then handed on: a rethrowing method may throw only from `report`.
        defer { if !found.isEmpty { found.removeAll(keepingCapacity: true) } }

        // Reading speed and duration.
        if duration > 0 {
            if recordsReadingSpeeds {
                summary.readingSpeeds.add(Double(measurement.characters) * 1000 / Double(duration))
            }
            if let limit = limits.charactersPerSecond {
                let speed = Double(measurement.characters) * 1000 / Double(duration)
                if speed > limit.value {
                    emit(
                        number, start, .readingSpeed, limit.severity, speed, limit: limit.value, at: location,
                        "reading speed \(QCTime.decimal(speed)) characters per second (\(measurement.characters) characters in \(QCTime.seconds(duration)) s) is over the limit of \(QCTime.decimal(limit.value))"
                    )
                }
            }
            if let limit = limits.wordsPerMinute {
                let speed = Double(measurement.words) * 60_000 / Double(duration)
                if speed > limit.value {
                    emit(
                        number, start, .wordsPerMinute, limit.severity, speed, limit: limit.value, at: location,
                        "reading speed \(QCTime.decimal(speed)) words per minute (\(measurement.words) words in \(QCTime.seconds(duration)) s) is over the limit of \(QCTime.decimal(limit.value))"
                    )
                }
            }
        }
        if let limit = limits.minimumDuration, duration < limit.value, duration >= 0 {
            emit(
                number, start, .durationTooShort, limit.severity, Double(duration), limit: Double(limit.value), at: location,
                "duration \(QCTime.seconds(duration)) s is under the minimum of \(QCTime.seconds(limit.value)) s")
        }
        if let limit = limits.maximumDuration, duration > limit.value {
            emit(
                number, start, .durationTooLong, limit.severity, Double(duration), limit: Double(limit.value), at: location,
                "duration \(QCTime.seconds(duration)) s is over the maximum of \(QCTime.seconds(limit.value)) s")
        }

        // Lines and characters.
        if let limit = limits.lineLength, measurement.longestLine > limit.value {
            emit(
                number, start, .lineLength, limit.severity, Double(measurement.longestLine), limit: Double(limit.value),
                at: textLocation(location, line: measurement.longestLineIndex, column: 1), textLine: measurement.longestLineIndex,
                "line \(measurement.longestLineIndex + 1) has \(measurement.longestLine) characters, over the limit of \(limit.value)")
        }
        if let limit = limits.lineCount, measurement.lineCount > limit.value {
            emit(
                number, start, .lineCount, limit.severity, Double(measurement.lineCount), limit: Double(limit.value), at: location,
                "the cue has \(measurement.lineCount) lines, over the limit of \(limit.value)")
        }
        if let limit = limits.characters, let scalar = measurement.disallowedScalar {
            let shown = Unicode.Scalar(scalar).map { "'\(Character($0))' " } ?? ""
            let more = measurement.disallowedCount > 1 ? " (and \(measurement.disallowedCount - 1) more in this cue)" : ""
            emit(
                number, start, .character, limit.severity, Double(measurement.disallowedCount), limit: 0,
                at: textLocation(location, line: measurement.disallowedLine, column: measurement.disallowedColumn),
                textLine: measurement.disallowedLine, textColumn: measurement.disallowedColumn,
                "\(shown)(U+\(QCTime.hex(scalar))) is not in the \(limit.value.rawValue) character set\(more)")
        }
        if let limit = limits.allowedTags, let name = measurement.forbiddenTagName {
            let tag = String(decoding: UnsafeRawBufferPointer(rebasing: text[name]), as: UTF8.self)
            emit(
                number, start, .markup, limit.severity, 1, limit: 0,
                at: textLocation(location, line: measurement.forbiddenTagLine, column: measurement.forbiddenTagColumn),
                textLine: measurement.forbiddenTagLine, textColumn: measurement.forbiddenTagColumn,
                "the tag <\(tag)> is not allowed (allowed: \(allowedTagsText))")
        }
        if let limit = limits.lineBalance, measurement.lineCount == 2, measurement.secondLine > 0,
            Double(measurement.firstLine) > Double(measurement.secondLine) * limit.value
        {
            let ratio = Double(measurement.firstLine) / Double(measurement.secondLine)
            emit(
                number, start, .lineBalance, limit.severity, ratio, limit: limit.value, at: location,
                "the top line has \(measurement.firstLine) characters and the bottom line \(measurement.secondLine) (\(QCTime.decimal(ratio)) times as many, over \(QCTime.decimal(limit.value))): bottom-heavy lines read better"
            )
        }

        // Timing against the cues before.
        if let latestEnd, start >= previousStart {
            let gap = start - latestEnd
            if gap < 0, let severity = limits.overlap {
                emit(
                    number, start, .overlap, severity, Double(-gap), limit: 0, at: location,
                    "the cue starts \(QCTime.seconds(-gap)) s before cue \(latestEndNumber) ends (\(QCTime.format(latestEnd))); overlapping cues are not allowed"
                )
            } else if gap >= 0, let limit = limits.gapFrames, frameRate.isShorter(gap, thanFrames: limit.value) {
                emit(
                    number, start, .gap, limit.severity, frameRate.frames(in: gap), limit: Double(limit.value), at: latestEndLocation,
                    "the gap to the next cue (at \(QCTime.format(start))) is \(gap) ms, \(QCTime.decimal(frameRate.frames(in: gap))) frames at \(frameRateText) fps, under the minimum of \(limit.value) frames (\(frameRate.milliseconds(forFrames: limit.value)) ms)"
                )
            }
        }
        advanceTiming(start: start, end: end, at: location, number: number)

        // Shot changes.
        if let limit = limits.shotChangeFrames, !shotChanges.isEmpty {
            for (edge, time) in [("starts", start), ("ends", end)] {
                let shot = nearestShotChange(to: time)
                let distance = abs(frameRate.frame(at: time) - frameRate.frame(at: shot))
                if distance > 0, distance < limit.value {
                    let side = time < shot ? "before" : "after"
                    emit(
                        number, start, .shotChange, limit.severity, Double(distance), limit: Double(limit.value), at: location,
                        "the cue \(edge) \(distance) frame\(distance == 1 ? "" : "s") \(side) the shot change at \(QCTime.format(shot)) (at \(frameRateText) fps): put it on the shot change or at least \(limit.value) frames away"
                    )
                }
            }
        }
        for finding in found { try report(finding) }
    }

    /// The findings of the cue being checked.
    private var found: [QCFinding] = []

    /// Keeps a finding of cue `number` (which starts at `start`), and counts it. Methods rather than
    /// local functions of ``check(text:textHasMarkup:start:end:at:reportingFindings:)``: those
    /// captured the checker, and each cue then copied its limits.
    private mutating func emit(
        _ number: Int, _ start: Int, _ rule: QCRule, _ severity: Diagnostic.Severity, _ value: Double, limit: Double, at place: SourceLocation?,
        textLine: Int? = nil, textColumn: Int? = nil, _ message: String
    ) {
        summary.tally(rule, value: value)
        let cueNamed = place == nil ? " (cue \(number) at \(QCTime.format(start)))" : ""
        found.append(
            QCFinding(
                diagnostic: Diagnostic(severity, rule.code, at: place, message + cueNamed), rule: rule, value: value, limit: limit,
                textLine: textLine, textColumn: textColumn))
    }

    /// Where a finding about one place in the text is: its line, when the text follows the cue's
    /// `location` line by line; else the cue.
    private func textLocation(_ location: SourceLocation?, line: Int, column: Int) -> SourceLocation? {
        guard textLinesFollowLocation else { return location }
        return location.map { SourceLocation(line: $0.line + 1 + line, column: column) }
    }

    /// The shot change nearest `time`.
    private func nearestShotChange(to time: Int) -> Int {
        var low = 0
        var high = shotChanges.count
        while low < high {
            let middle = (low + high) / 2
            if shotChanges[middle] < time { low = middle + 1 } else { high = middle }
        }
        if low == shotChanges.count { return shotChanges[low - 1] }
        if low == 0 { return shotChanges[0] }
        return time - shotChanges[low - 1] <= shotChanges[low] - time ? shotChanges[low - 1] : shotChanges[low]
    }
}

/// Times and numbers as QC messages print them.
enum QCTime {
    /// `01:02:03.456`.
    static func format(_ milliseconds: Int) -> String {
        let sign = milliseconds < 0 ? "-" : ""
        let value = abs(milliseconds)
        func pad(_ number: Int, _ width: Int) -> String {
            let text = String(number)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return sign + pad(value / 3_600_000, 2) + ":" + pad(value / 60_000 % 60, 2) + ":" + pad(value / 1000 % 60, 2) + "."
            + pad(value % 1000, 3)
    }

    /// Seconds with three decimals: `1.5` → `1.500`.
    static func seconds(_ milliseconds: Int) -> String {
        let value = abs(milliseconds)
        let fraction = String(value % 1000)
        return (milliseconds < 0 ? "-" : "") + "\(value / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Up to two decimals, none when whole: `17`, `23.4`, `20.05`.
    static func decimal(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let whole = "\(hundredths / 100)"
        let fraction = abs(hundredths % 100)
        if fraction == 0 { return whole }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Four or more upper-case hexadecimal digits.
    static func hex(_ scalar: UInt32) -> String {
        let digits = String(scalar, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
