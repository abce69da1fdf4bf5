import CueKit
import CueKitWebVTT

/// The events of a rendition's segments joined into one track: one header (without the map), each
/// region, style sheet and note once, each cue moved onto the first segment's timeline and handed
/// on unless the segment before held it.
///
/// It also checks what only the segments together show (RFC 8216, section 3.5 and 4.3.2.1):
/// - `hls-cue-missing-from-segment`: a cue of one segment that overlaps the next segment's time
///   but is not in it (a player that starts there never shows it);
/// - `hls-cue-outside-segment`: a cue that does not overlap its own segment's `EXTINF` time (a
///   wrong map, or a segmenter that put it in the wrong file);
/// - `hls-maps-disagree`: a cue repeated in the next segment at other times, so that the two
///   segments' `X-TIMESTAMP-MAP`s place the same cue differently.
///
/// Playlist time 0 is the first segment's `LOCAL` on the joined timeline.
struct HLSSegmentJoiner {
    /// Diagnostics about the playlist itself, handed on after the header.
    var playlistDiagnostics: [Diagnostic] = []
    /// False when the caller looks at diagnostics alone: cues are joined and checked, not handed on.
    var passesCues = true
    private var firstMap: WebVTTTimestampMap?
    private var offset = 0
    private var segmentIndex = -1
    private var segment = Interval(uri: "", line: 0, start: 0, end: 0)
    private var previousSegment: Interval?
    /// The cues of the segment before that run past its end, by their start: those a segmenter
    /// repeats in this segment. A repeat found here is taken out.
    private var previousStraddlers: [Int: [Cue]] = [:]
    /// This segment's cues that run past its end, by their start.
    private var currentStraddlers: [Int: [Cue]] = [:]
    /// This segment's cues, for the rare look for a shifted twin of a missing repeat.
    private var currentCues: [Cue] = []
    private var seenBlocks: Set<TrackEvent.Block> = []
    private var reportedMemoryBound = false
    private var headerSent = false

    /// The most regions, style sheets and notes remembered to pass each on once.
    static let maximumRememberedBlocks = 10_000

    /// A segment: its URI and playlist line, and its time in the playlist (milliseconds).
    struct Interval {
        var uri: String
        var line: Int
        var start: Int
        var end: Int

        func overlaps(_ cue: Cue, origin: Int) -> Bool {
            let (cueStart, cueEnd) = (cue.start - origin, cue.end - origin)
            return cueStart < end && (cueEnd > start || (cueEnd == cueStart && cueStart == start))
        }
    }

    mutating func startSegment(uri: String, line: Int, start: Int, duration: Int, to handler: (TrackEvent) throws -> Void) throws {
        if segmentIndex >= 0 { try endSegment(to: handler) }
        segmentIndex += 1
        previousSegment = segmentIndex > 0 ? segment : nil
        segment = Interval(uri: uri, line: line, start: start, end: start + duration)
        previousStraddlers = currentStraddlers
        currentStraddlers = [:]
        currentCues = []
        offset = 0
    }

    mutating func take(_ event: TrackEvent, to handler: (TrackEvent) throws -> Void) throws {
        switch event {
        case .header(let text):
            // Split as bytes: every segment has a header.
            let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let map =
                lines.lazy.compactMap { line in try? WebVTTTimestampMap.parse(line) }.first
                ?? WebVTTTimestampMap(mpegTimestamp: 0, local: 0)
            if segmentIndex == 0 {
                firstMap = map
                let kept = lines.filter { !WebVTTTimestampMap.names($0) }.map { String(Substring($0)) }
                try sendHeader(kept.joined(separator: "\n"), to: handler)
            } else if let firstMap {
                offset = Self.offset(of: map, from: firstMap)
            }
        case .cue(var cue):
            cue.start += offset
            cue.end += offset
            try check(cue, to: handler)
            if currentCues.count < HLSPlaylistReader.maximumRememberedCues {
                currentCues.append(cue)
                if cue.end - (firstMap?.local ?? 0) > segment.end { currentStraddlers[cue.start, default: []].append(cue) }
            } else if !reportedMemoryBound {
                reportedMemoryBound = true
                try handler(
                    .diagnostic(
                        note(
                            .hlsSegmentUnreadable,
                            "\(segment.uri) holds more than \(HLSPlaylistReader.maximumRememberedCues) cues: repeats of the rest in the next segment are not joined"
                        )))
            }
            if let index = previousStraddlers[cue.start]?.firstIndex(of: cue) {
                previousStraddlers[cue.start]!.remove(at: index)
                return
            }
            if passesCues { try handler(.cue(cue)) }
        case .diagnostic(var diagnostic):
            let inner = diagnostic.location.map { "\(segment.uri):\($0): " } ?? "\(segment.uri): "
            diagnostic.message = inner + diagnostic.message
            diagnostic.location = SourceLocation(line: segment.line, column: 1)
            try handler(.diagnostic(diagnostic))
        case .region, .stylesheet, .note:
            guard let block = TrackEvent.Block(event) else { return }
            if seenBlocks.contains(block) { return }
            if seenBlocks.count < Self.maximumRememberedBlocks { seenBlocks.insert(block) }
            try handler(event)
        }
    }

    mutating func finish(to handler: (TrackEvent) throws -> Void) throws {
        if segmentIndex >= 0 { try endSegment(to: handler) }
        if !headerSent { try sendHeader("", to: handler) }
    }

    private mutating func sendHeader(_ text: String, to handler: (TrackEvent) throws -> Void) throws {
        headerSent = true
        try handler(.header(text))
        for diagnostic in playlistDiagnostics { try handler(.diagnostic(diagnostic)) }
        playlistDiagnostics = []
    }

    /// A cue of the current segment: within its segment.
    private func check(_ cue: Cue, to handler: (TrackEvent) throws -> Void) throws {
        let origin = firstMap?.local ?? 0
        if !segment.overlaps(cue, origin: origin) {
            try handler(
                .diagnostic(
                    warning(
                        .hlsCueOutsideSegment,
                        "\(segment.uri): the cue \(Self.describe(cue)) lies outside the segment's time, \(Self.span(segment.start, segment.end)): its map or its segment is wrong"
                    )))
        }
    }

    /// At the end of a segment: cues of the segment before that overlap it and that it lacks. One
    /// it holds at other times shows that the two segments' maps disagree.
    private mutating func endSegment(to handler: (TrackEvent) throws -> Void) throws {
        guard let previousSegment else { return }
        let origin = firstMap?.local ?? 0
        var missing: [Cue] = []
        var shifted: (earlier: Cue, later: Cue)?
        // The repeats not found here; one held at other times is a shifted twin.
        for cue in previousStraddlers.values.joined() where segment.overlaps(cue, origin: origin) {
            if let twin = currentCues.first(where: { $0.text == cue.text && $0.id == cue.id && $0.settings == cue.settings && $0 != cue }) {
                if shifted == nil || cue.start < shifted!.earlier.start { shifted = (cue, twin) }
            } else {
                missing.append(cue)
            }
        }
        if let shifted {
            try handler(
                .diagnostic(
                    warning(
                        .hlsMapsDisagree,
                        "\(segment.uri): the cue \(Self.describe(shifted.later)) is at \(Self.span(shifted.earlier.start, shifted.earlier.end)) in \(previousSegment.uri): the two segments' X-TIMESTAMP-MAPs disagree by \(shifted.later.start - shifted.earlier.start) ms"
                    )))
        }
        if let first = missing.min(by: { $0.start < $1.start }) {
            let others = missing.count > 1 ? " (and \(missing.count - 1) more)" : ""
            try handler(
                .diagnostic(
                    warning(
                        .hlsCueMissingFromSegment,
                        "\(segment.uri): the cue \(Self.describe(first))\(others) of \(previousSegment.uri) overlaps this segment, \(Self.span(segment.start, segment.end)), but is not in it: a player that starts here does not show it"
                    )))
        }
    }

    private func warning(_ code: DiagnosticCode, _ message: String) -> Diagnostic {
        Diagnostic(.warning, code, at: SourceLocation(line: segment.line, column: 1), message)
    }

    private func note(_ code: DiagnosticCode, _ message: String) -> Diagnostic {
        Diagnostic(.note, code, at: SourceLocation(line: segment.line, column: 1), message)
    }

    private static func describe(_ cue: Cue) -> String {
        let text = cue.text.count > 30 ? String(cue.text.prefix(29)) + "…" : cue.text
        return "\(span(cue.start, cue.end)) \"\(text.replacingNewlines)\""
    }

    private static func span(_ start: Int, _ end: Int) -> String {
        "\(CueTimestamp.format(start)) --> \(CueTimestamp.format(end))"
    }

    /// Milliseconds to add to a cue time of a segment mapped by `map` to place it on the timeline
    /// of `first`: the MPEGTS difference taken the short way round the 33-bit clock.
    static func offset(of map: WebVTTTimestampMap, from first: WebVTTTimestampMap) -> Int {
        let modulus = Int64(WebVTTTimestampMap.mpegTimestampModulus)
        var ticks = (Int64(map.mpegTimestamp) - Int64(first.mpegTimestamp)) % modulus
        if ticks > modulus / 2 { ticks -= modulus }
        if ticks < -modulus / 2 { ticks += modulus }
        let milliseconds = (ticks * 1000 + (ticks >= 0 ? 45_000 : -45_000)) / 90_000
        return Int(milliseconds) + first.local - map.local
    }
}

extension String {
    fileprivate var replacingNewlines: String { split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " / ") }
}

extension TrackEvent {
    /// A region, style sheet or note, compared whole.
    enum Block: Hashable {
        case region(CueRegion)
        case stylesheet(CueStylesheet)
        case note(CueNote)

        init?(_ event: TrackEvent) {
            switch event {
            case .region(let region): self = .region(region)
            case .stylesheet(let sheet): self = .stylesheet(sheet)
            case .note(let note): self = .note(note)
            default: return nil
            }
        }
    }
}

extension DiagnosticCode {
    /// A cue that overlaps a segment's time but is not in that segment (RFC 8216, section 3.5).
    public static let hlsCueMissingFromSegment: DiagnosticCode = "hls-cue-missing-from-segment"
    /// A cue that does not overlap its own segment's `EXTINF` time.
    public static let hlsCueOutsideSegment: DiagnosticCode = "hls-cue-outside-segment"
    /// Two segments whose `X-TIMESTAMP-MAP`s place the same cue at different times.
    public static let hlsMapsDisagree: DiagnosticCode = "hls-maps-disagree"
}
