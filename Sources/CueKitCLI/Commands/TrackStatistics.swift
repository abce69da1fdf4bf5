import CueKit
import CueKitCommandSupport
import CueKitConversion
import CueKitWebVTT

/// The statistics view of `cuekit inspect --stats`: what a QA reviewer checks before a track ships
/// (reading speed, overlaps, long lines, empty cues), gathered cue by cue as the track streams.
///
/// Memory stays flat whatever the track's size: reading speeds go into a histogram of 0.1
/// character-per-second buckets (the median is read from it), and only the first
/// ``listedLimit`` cues of each kind of finding are kept to be listed; the counts are exact.
struct TrackStatistics {
    /// Reading speed above which a cue is listed, in characters per second.
    let maximumCharactersPerSecond: Double
    /// Line length above which a line is listed, in characters.
    let maximumLineLength: Int
    /// How many findings of each kind are listed (all are counted).
    static let listedLimit = 100

    /// A cue, as findings name it.
    struct CueReference {
        /// 1-based position in the track.
        var index: Int
        var id: String
        var start: Int
        var end: Int

        var label: String {
            "cue \(index)\(id.isEmpty ? "" : " \"\(id)\"") \(CueTimestamp.format(start)) --> \(CueTimestamp.format(end))"
        }
    }

    private(set) var cueCount = 0
    /// The earliest start and the latest end (nil before the first cue).
    var firstStart: Int? { cueCount > 0 ? earliestStart : nil }
    var lastEnd: Int? { cueCount > 0 ? latestEnd : nil }
    private var earliestStart = Int.max
    private var latestEnd = Int.min
    /// The sum of the cues' durations (cues that end after they start).
    private(set) var shownMilliseconds = 0
    private(set) var emptyCues: [CueReference] = []
    private(set) var emptyCount = 0
    private(set) var fastCues: [(cue: CueReference, speed: Double)] = []
    private(set) var fastCount = 0
    private(set) var maximumSpeed: (cue: CueReference, speed: Double)?
    /// ``maximumSpeed``'s speed (-1 before it is set), compared with each cue's.
    private var fastestSpeed = -1.0
    private(set) var overlaps: [(earlier: CueReference, later: CueReference)] = []
    private(set) var overlapCount = 0
    private(set) var longLines: [(cue: CueReference, line: Int, length: Int)] = []
    private(set) var longLineCount = 0
    private var speedHistogram = [Int](repeating: 0, count: 1001)
    private var speedCount = 0
    /// The cue that ends last of those seen so far: the one a new cue overlaps, if any. Its
    /// identifier is kept as bytes (``latestEndingIdentifier``), made a string only if it is listed.
    private var latestEnding = (index: 0, start: 0, end: Int.min)
    private var latestEndingIdentifier: [UInt8] = []

    init(maximumCharactersPerSecond: Double, maximumLineLength: Int) {
        self.maximumCharactersPerSecond = maximumCharactersPerSecond
        self.maximumLineLength = maximumLineLength
        counted = CueTextLineCounter(maximumLineLength: maximumLineLength)
    }

    /// Whether markup in the common shapes is counted by its runs of text (`CueTextQuickCheck`)
    /// rather than from a parse; tests turn it off to compare the two.
    var countsCommonMarkupByScan = true

    /// The lines of the cue being added (``countText(_:hasMarkup:)``), reused from cue to cue.
    private var counted: CueTextLineCounter
    /// Cue text parsed without a tree, reused from cue to cue.
    private var textEvents = CueTextEvents()
    private var parsedText = CueTextEvents.Parsed()

    /// Adds a cue.
    mutating func add(_ cue: Cue) {
        var text = cue.text
        text.withUTF8 { countText(UnsafeRawBufferPointer($0)) }
        var id = cue.id
        id.withUTF8 { addCounted(start: cue.start, end: cue.end, identifier: UnsafeRawBufferPointer($0)) }
    }

    /// Counts the characters of a cue's text (valid UTF-8), line by line, for
    /// ``addCounted(start:end:identifier:)``, which adds the cue they belong to.
    ///
    /// Reading speed counts every character shown, spaces included, line breaks not (as the
    /// streaming services' style guides count it): Unicode scalars, line by line, with the markup
    /// removed (the text of the cue text's parse, ruby text after its base).
    mutating func countText(_ bytes: UnsafeRawBufferPointer, hasMarkup: Bool = true) {
        counted.reset()
        // Text known to hold neither `<` nor `&` is one run of text, counted as it is. Text in
        // the common shapes (`CueTextQuickCheck`: plain text is one run) is counted by its runs of
        // text as the check hands them out, in the check's one scan; the rest is parsed.
        if !hasMarkup, countsCommonMarkupByScan, bytes.count < CueText.maximumNodes {
            counted.count(bytes)
        } else if !countsCommonMarkupByScan || !counted.countCommonMarkup(bytes) {
            // The buffers are taken out while in use, so that they are read with no copy.
            var parsed = CueTextEvents.Parsed()
            swap(&parsed, &parsedText)
            defer { swap(&parsed, &parsedText) }
            textEvents.parse(String(decoding: bytes, as: UTF8.self), into: &parsed)
            parsed.bytes.withUnsafeBytes { bytes in
                for case .text(let range) in parsed.events { counted.count(UnsafeRawBufferPointer(rebasing: bytes[range])) }
            }
        }
        counted.endLine()
    }

    /// Adds a cue whose text was just counted (``countText(_:hasMarkup:)``), by its times and identifier.
    mutating func addCounted(start: Int, end: Int, identifier: UnsafeRawBufferPointer) {
        cueCount += 1
        // The cue's reference (its identifier as a string) is made only for a finding that lists it.
        let index = cueCount
        func reference() -> CueReference {
            CueReference(index: index, id: identifier.isEmpty ? "" : String(decoding: identifier, as: UTF8.self), start: start, end: end)
        }
        earliestStart = min(earliestStart, start)
        latestEnd = max(latestEnd, end)
        let duration = end - start
        if duration > 0 { shownMilliseconds += duration }

        for (line, length) in counted.longLines {
            longLineCount += 1
            if longLines.count < Self.listedLimit { longLines.append((reference(), line, length)) }
        }
        let characters = counted.characters
        let visible = counted.visible
        if !visible {
            emptyCount += 1
            if emptyCues.count < Self.listedLimit { emptyCues.append(reference()) }
        } else if duration > 0 {
            let speed = Double(characters) * 1000 / Double(duration)
            speedHistogram[min(1000, Int(speed * 10))] += 1
            speedCount += 1
            if speed > fastestSpeed {
                fastestSpeed = speed
                maximumSpeed = (reference(), speed)
            }
            if speed > maximumCharactersPerSecond {
                fastCount += 1
                if fastCues.count < Self.listedLimit { fastCues.append((reference(), speed)) }
            }
        }

        let latest = latestEnding
        if start < latest.end, duration > 0 {
            overlapCount += 1
            if overlaps.count < Self.listedLimit {
                let earlier = CueReference(
                    index: latest.index, id: String(decoding: latestEndingIdentifier, as: UTF8.self), start: latest.start, end: latest.end)
                overlaps.append((earlier, reference()))
            }
        }
        if duration > 0, end > latest.end {
            latestEnding = (index, start, end)
            // Its identifier is read only to list an overlap: once the list is full, it is not kept.
            if overlaps.count < Self.listedLimit {
                if !latestEndingIdentifier.isEmpty { latestEndingIdentifier.removeAll(keepingCapacity: true) }
                if !identifier.isEmpty { latestEndingIdentifier.append(contentsOf: identifier) }
            }
        }
    }

    /// The median reading speed, to 0.1 character per second (nil without a timed, non-empty cue).
    var medianSpeed: Double? {
        guard speedCount > 0 else { return nil }
        var seen = 0
        for (bucket, count) in speedHistogram.enumerated() {
            seen += count
            if seen * 2 >= speedCount { return Double(bucket) / 10 }
        }
        return 100
    }

    // MARK: Output

    /// The text report.
    func text(name: String, format: String) -> String {
        var lines: [String] = []
        lines.append("\(name): \(format), \(Self.count(cueCount, "cue"))")
        if let firstStart, let lastEnd {
            lines.append("time span: \(CueTimestamp.format(firstStart)) --> \(CueTimestamp.format(lastEnd)); cues shown for \(CueTimestamp.format(shownMilliseconds)) in all")
        }
        if let median = medianSpeed, let maximumSpeed {
            lines.append(
                "reading speed: median \(Self.decimal(median)) characters/s, fastest \(Self.decimal(maximumSpeed.speed)) (\(maximumSpeed.cue.label))")
        }
        lines.append("faster than \(Self.decimal(maximumCharactersPerSecond)) characters/s: \(Self.count(fastCount, "cue"))")
        for (cue, speed) in fastCues { lines.append("  \(cue.label): \(Self.decimal(speed)) characters/s") }
        lines.append("overlapping cues: \(overlapCount)")
        for (earlier, later) in overlaps {
            lines.append("  cue \(later.index) starts at \(CueTimestamp.format(later.start)) before cue \(earlier.index) ends at \(CueTimestamp.format(earlier.end))")
        }
        lines.append("lines over \(maximumLineLength) characters: \(longLineCount)")
        for (cue, line, length) in longLines { lines.append("  \(cue.label), line \(line): \(length) characters") }
        lines.append("empty cues: \(emptyCount)")
        for cue in emptyCues { lines.append("  \(cue.label)") }
        for (count, listed) in [(fastCount, fastCues.count), (overlapCount, overlaps.count), (longLineCount, longLines.count), (emptyCount, emptyCues.count)]
        where count > listed {
            lines.append("(the first \(Self.listedLimit) of each finding are listed)")
            break
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON report, one object.
    func writeJSON<Sink>(name: String, format: String, to writer: inout JSONWriter<Sink>) {
        func reference(_ cue: CueReference) {
            writer.key("index")
            writer.integer(cue.index)
            writer.raw(",")
            writer.key("id")
            writer.string(cue.id)
            writer.raw(",")
            writer.key("startTime")
            writer.number(Double(cue.start) / 1000)
            writer.raw(",")
            writer.key("endTime")
            writer.number(Double(cue.end) / 1000)
        }
        writer.raw("{")
        writer.key("file")
        writer.string(name)
        writer.raw(",")
        writer.key("format")
        writer.string(format)
        writer.raw(",")
        writer.key("cues")
        writer.integer(cueCount)
        writer.raw(",")
        writer.key("startTime")
        if let firstStart { writer.number(Double(firstStart) / 1000) } else { writer.raw("null") }
        writer.raw(",")
        writer.key("endTime")
        if let lastEnd { writer.number(Double(lastEnd) / 1000) } else { writer.raw("null") }
        writer.raw(",")
        writer.key("shownSeconds")
        writer.number(Double(shownMilliseconds) / 1000)
        writer.raw(",")
        writer.key("medianCharactersPerSecond")
        if let medianSpeed { writer.number(medianSpeed) } else { writer.raw("null") }
        writer.raw(",")
        writer.key("maximumCharactersPerSecond")
        writer.number(maximumCharactersPerSecond)
        writer.raw(",")
        writer.key("fastCueCount")
        writer.integer(fastCount)
        writer.raw(",")
        writer.key("fastCues")
        writer.raw("[")
        for (index, item) in fastCues.enumerated() {
            writer.raw(index == 0 ? "{" : ",{")
            reference(item.cue)
            writer.raw(",")
            writer.key("charactersPerSecond")
            writer.number((item.speed * 10).rounded() / 10)
            writer.raw("}")
        }
        writer.raw("],")
        writer.key("overlapCount")
        writer.integer(overlapCount)
        writer.raw(",")
        writer.key("overlaps")
        writer.raw("[")
        for (index, item) in overlaps.enumerated() {
            writer.raw(index == 0 ? "{" : ",{")
            writer.key("cue")
            writer.integer(item.later.index)
            writer.raw(",")
            writer.key("overlapsCue")
            writer.integer(item.earlier.index)
            writer.raw("}")
        }
        writer.raw("],")
        writer.key("maximumLineLength")
        writer.integer(maximumLineLength)
        writer.raw(",")
        writer.key("longLineCount")
        writer.integer(longLineCount)
        writer.raw(",")
        writer.key("longLines")
        writer.raw("[")
        for (index, item) in longLines.enumerated() {
            writer.raw(index == 0 ? "{" : ",{")
            reference(item.cue)
            writer.raw(",")
            writer.key("line")
            writer.integer(item.line)
            writer.raw(",")
            writer.key("length")
            writer.integer(item.length)
            writer.raw("}")
        }
        writer.raw("],")
        writer.key("emptyCueCount")
        writer.integer(emptyCount)
        writer.raw(",")
        writer.key("emptyCues")
        writer.raw("[")
        for (index, cue) in emptyCues.enumerated() {
            writer.raw(index == 0 ? "{" : ",{")
            reference(cue)
            writer.raw("}")
        }
        writer.raw("]}\n")
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// One decimal: `12.5`, `20`.
    static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}

/// Gathers ``TrackStatistics`` from a ``TrackSource``'s events.
///
/// From WebVTT it takes each cue's times, identifier and text as bytes, straight from the
/// reader (``WebVTTBytesConsumer/see(_:)``), which then
/// builds no cue (`.diagnosticsOnly`) and looks for no diagnostic, since the statistics use none.
/// Other formats hand over whole cues.
struct StatisticsCollector: WebVTTBytesConsumer {
    private(set) var statistics: TrackStatistics

    init(_ statistics: TrackStatistics) {
        self.statistics = statistics
    }

    var seesCuesAsRead: Bool { true }

    mutating func see(_ cue: WebVTTCueAsRead) {
        statistics.countText(cue.text, hasMarkup: cue.textHasMarkup)
        statistics.addCounted(start: cue.start, end: cue.end, identifier: cue.identifier)
    }

    mutating func take(_ event: TrackEvent) {
        guard case .cue(let cue) = event else { return }
        statistics.add(cue)
    }
}

extension TrackSource {
    /// Streams into `statistics`, WebVTT read as ``StatisticsCollector`` says; reading errors
    /// explained as ``streamForCommand(to:)`` explains them.
    func streamForCommand(statistics: inout StatisticsCollector) throws {
        var source = self
        if isOneWebVTTFile {
            source.options.webVTTDiagnostics = .none
            source.options.webVTTCueContent = .diagnosticsOnly
        }
        do {
            try source.stream(into: &statistics)
        } catch let error as ReadError {
            throw source.explainedForCommand(error)
        }
    }
}
