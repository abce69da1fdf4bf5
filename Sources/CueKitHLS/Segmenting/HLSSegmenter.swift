import CueKit
import CueKitConversion
import CueKitWebVTT

/// Cuts a track into HLS WebVTT segments (RFC 8216, section 3.5) as its events stream in, and
/// writes the media playlist that lists them.
///
/// Cues must come in start-time order, as `TrackConversion/stream(convertedInto:report:)` hands
/// them on. Each cue is written, with its whole unclipped times, into every segment whose interval
/// it overlaps (``HLSSegmentTimeline``); a segment no cue overlaps is written all the same, a
/// `WEBVTT` header and its map, so that the subtitle timeline has no gap. Every segment's header
/// carries `X-TIMESTAMP-MAP` (`WebVTTTimestampMap`). A segment with cues carries every `STYLE`
/// block of the track and the `REGION` blocks its cues name.
///
/// Each cue is formatted once, when it comes, and its bytes are copied into every segment it
/// overlaps; a cue the writer would report something about is written by each segment's own
/// writer instead, as the report names the cue by its place in the segment. Read from WebVTT, a
/// cue block that is already what the writer writes is copied as it was read, with no cue built
/// (`TrackConversion/stream(convertedInto:report:)` offers the blocks). The segments are the same
/// bytes either way.
///
/// Memory holds the cues that overlap the segment being filled, never the track: a segment is
/// written as soon as a cue starts after its end.
///
/// ```swift
/// var segmenter = HLSSegmenter(options: .init(segmentDuration: 6000), to: HLSMemoryDestination())
/// try conversion.stream(convertedInto: &segmenter)
/// try segmenter.finish()
/// print(segmenter.destination.playlist)
/// ```
public struct HLSSegmenter<Destination: HLSSegmentDestination>: TrackEventConsumer {
    /// How segments are cut and named.
    public typealias Options = HLSSegmentOptions

    /// What was written.
    public typealias Counts = HLSSegmentCounts

    /// The segmenter's options.
    public let options: Options
    /// The grid segments are cut on.
    public let timeline: HLSSegmentTimeline
    /// Where segments and the playlist go, with what was written so far.
    public private(set) var destination: Destination
    /// What was written so far.
    public private(set) var counts = Counts()
    /// What the WebVTT writer changed in cues it wrote (none for cues CueKit read), once per cue.
    public var diagnostics: [Diagnostic] { assembly.diagnostics }
    /// Cues taken as the bytes of the blocks they were read from, with no cue built.
    package var blocksCopied: Int { assembly.blocksCopied }

    /// The open cues and the segments' bytes.
    private var assembly: HLSSegmentAssembly
    private var openSegment = 0
    /// The bytes written so far into the one file, with ``HLSSegmentOptions/segmentsInOneFile``,
    /// its name and the URI the playlist gives it.
    private var oneFileLength = 0
    private let oneFileName: String
    private let oneFileURI: [UInt8]
    /// The playlist lines of a byte range of the one file lasting a whole segment.
    private let byteRangeLines: HLSMediaPlaylistText.ByteRangeLines
    /// Segments not yet handed to the destination: with ``HLSSegmentOptions/segmentsInOneFile``,
    /// those appended since the last hand-over (handed on together once they reach
    /// ``handOverSize``); otherwise the one being written.
    private var pendingSegments: [UInt8] = []
    /// Playlist lines not yet handed to the destination, handed on together in the same way.
    private var pendingPlaylist: [UInt8] = []
    private var lastStart = Int.min
    private var isFinished = false

    /// A segmenter writing to `destination`.
    public init(options: Options = Options(), to destination: Destination) {
        self.options = options
        self.timeline = HLSSegmentTimeline(segmentDuration: options.segmentDuration)
        assembly = HLSSegmentAssembly(options: options)
        oneFileName = options.oneFileName
        oneFileURI = Array(options.segmentURI(options.oneFileName).utf8)
        byteRangeLines = HLSMediaPlaylistText.ByteRangeLines(duration: options.segmentDuration, uri: oneFileURI)
        self.destination = destination
    }

    /// Takes the next event: regions and style sheets are kept for the segments; cues are placed;
    /// the header, notes and diagnostics are not written into segments.
    public mutating func take(_ event: TrackEvent) throws {
        switch event {
        case .cue(let cue):
            try place(cue)
        case .region(let region):
            assembly.add(region)
        case .stylesheet(let sheet):
            assembly.add(sheet)
        case .header, .note, .diagnostic:
            break
        }
    }

    /// Writes the segments still open, up to the end of the last cue, and ends the playlist.
    public mutating func finish() throws {
        guard !isFinished else { return }
        isFinished = true
        let count = timeline.segmentCount(coveringUpTo: counts.trackEnd)
        while openSegment < count {
            try closeOpenSegment(duration: timeline.duration(ofSegment: openSegment, of: count, trackEnd: counts.trackEnd))
        }
        pendingPlaylist += HLSMediaPlaylistText.end.utf8
        try handOver()
    }

    /// How many bytes of segments or playlist lines are gathered before they are handed to the
    /// destination: a segment is often a few hundred bytes, and each hand-over costs as much as
    /// writing one.
    static var handOverSize: Int { 1 << 16 }

    /// Hands the gathered segments and playlist lines to the destination, the segments first.
    private mutating func handOver() throws {
        if !pendingSegments.isEmpty {
            try destination.appendSegment(pendingSegments, toFileNamed: oneFileName)
            oneFileLength += pendingSegments.count
            pendingSegments.removeAll(keepingCapacity: true)
        }
        if !pendingPlaylist.isEmpty {
            try destination.appendToPlaylist(pendingPlaylist)
            pendingPlaylist.removeAll(keepingCapacity: true)
        }
    }

    private mutating func place(_ cue: Cue) throws {
        guard cue.start >= lastStart else {
            throw HLSSegmentingError.cueOutOfOrder(cue, after: lastStart)
        }
        try closeSegments(before: cue.start)
        counted(effectiveEnd: assembly.open(cue))
    }

    /// Every segment before the one `start` is in is complete: no later cue starts in it.
    private mutating func closeSegments(before start: Int) throws {
        lastStart = start
        let first = timeline.segment(containing: start)
        while openSegment < first { try closeOpenSegment(duration: timeline.segmentDuration) }
    }

    private mutating func counted(effectiveEnd: Int) {
        counts.cues += 1
        counts.trackEnd = max(counts.trackEnd, effectiveEnd)
    }

    /// Writes the open segment with the cues that overlap it, lets go of those that end within it,
    /// and opens the next.
    private mutating func closeOpenSegment(duration: Int) throws {
        if openSegment == 0 {
            pendingPlaylist += HLSMediaPlaylistText.header(
                segmentDuration: options.segmentDuration, usesByteRanges: options.segmentsInOneFile
            ).utf8
        }
        if options.segmentsInOneFile {
            let start = oneFileLength + pendingSegments.count
            try assembly.appendSegment(to: &pendingSegments)
            let range = start..<(oneFileLength + pendingSegments.count)
            if duration == byteRangeLines.duration {
                byteRangeLines.append(byteRange: range, to: &pendingPlaylist)
            } else {
                HLSMediaPlaylistText.appendSegment(duration: duration, byteRange: range, uri: oneFileURI, to: &pendingPlaylist)
            }
            if pendingSegments.count >= Self.handOverSize { try handOver() }
        } else {
            let name = options.segmentName(openSegment)
            pendingSegments.removeAll(keepingCapacity: true)
            try assembly.appendSegment(to: &pendingSegments)
            try destination.writeSegment(named: name, pendingSegments)
            pendingSegments.removeAll(keepingCapacity: true)
            HLSMediaPlaylistText.appendSegment(duration: duration, byteRange: nil, uri: Array(options.segmentURI(name).utf8), to: &pendingPlaylist)
        }
        if pendingPlaylist.count >= Self.handOverSize { try handOver() }
        let open = assembly.openCues.count
        counts.segments += 1
        if open == 0 { counts.emptySegments += 1 }
        counts.cuePlacements += open
        assembly.letGoOfCues(endingBy: timeline.start(ofSegment: openSegment + 1))
        openSegment += 1
    }
}

extension HLSSegmenter: WebVTTFormattedBlockConsumer {
    /// Takes a cue block as the conversion's first pass copies it, when cue blocks are taken as
    /// read (they are then the same bytes once read back) and the region it names, if any, is one
    /// the segments can carry.
    package mutating func take(formattedBlock block: UnsafeRawBufferPointer, start: Int, end: Int, region: UnsafeRawBufferPointer?) throws
        -> Bool
    {
        guard assembly.copiesBlocks, start >= lastStart, end > start else { return false }
        var regionID: String?
        if let region {
            regionID = String(decoding: region, as: UTF8.self)
            guard assembly.defines(region: regionID!) else { return false }
        }
        try closeSegments(before: start)
        assembly.open(formattedBlock: block, end: end, region: regionID)
        counted(effectiveEnd: end)
        return true
    }

    /// True when cue blocks read from WebVTT are taken as they were read (the segments' layout is
    /// the one such blocks are copied in).
    package var takesCues: Bool { assembly.copiesBlocks }

    /// Takes a cue block read whole in place of its cue when it is what the writer writes for the
    /// cue once copied (``WebVTTCueBlockCopier``); else its cue comes as an event.
    package mutating func take(_ block: WebVTTCueBlockAsRead, settings: borrowing CueSettings) throws -> Bool {
        // A cue out of order is refused, and reported from its event.
        guard assembly.copiesBlocks, block.start >= lastStart else { return false }
        try closeSegments(before: block.start)
        guard assembly.open(block, settings: settings) else { return false }
        counted(effectiveEnd: block.end)
        return true
    }
}

/// How segments are cut and named.
public struct HLSSegmentOptions: Sendable, Hashable {
    /// Each segment's length in milliseconds (the last may be shorter). Default: 6 s.
    public var segmentDuration: Int
    /// The map written in every segment's header. Default: `MPEGTS:0,LOCAL:00:00:00.000`.
    public var timestampMap: WebVTTTimestampMap
    /// Segment `n` is named `<segmentNamePrefix><n>.vtt`. Default: `subs`.
    public var segmentNamePrefix: String
    /// Every segment written into one file, `<segmentNamePrefix>.vtt`, each a byte range of it
    /// (`EXT-X-BYTERANGE`, RFC 8216 section 4.3.2.2; the playlist then declares version 4), for
    /// a rendition of many segments: one file to create, copy and serve instead of one a segment.
    /// Default: false, a file a segment.
    public var segmentsInOneFile = false
    /// How each segment's WebVTT is laid out (NOTE comments are never written into segments).
    public var webVTT: WebVTTWriterOptions
    /// A query the playlist writes after each segment's name (`subs0.vtt?style=…`), for a server
    /// whose segments are made from the playlist's own request; not part of the files' names.
    /// Default: none.
    public var segmentURIQuery: String?

    /// Options with the documented defaults.
    public init(
        segmentDuration: Int = 6000, timestampMap: WebVTTTimestampMap = WebVTTTimestampMap(mpegTimestamp: 0),
        segmentNamePrefix: String = "subs", webVTT: WebVTTWriterOptions = WebVTTWriterOptions()
    ) {
        self.segmentDuration = segmentDuration
        self.timestampMap = timestampMap
        self.segmentNamePrefix = segmentNamePrefix
        self.webVTT = webVTT
    }

    /// The name of segment `index`.
    public func segmentName(_ index: Int) -> String { "\(segmentNamePrefix)\(index).vtt" }

    /// The name of the file that holds every segment, with ``segmentsInOneFile``.
    public var oneFileName: String { segmentNamePrefix + ".vtt" }

    /// The URI the playlist gives the segment named `name`: the name, then ``segmentURIQuery``.
    public func segmentURI(_ name: String) -> String {
        guard let segmentURIQuery, !segmentURIQuery.isEmpty else { return name }
        return name + "?" + segmentURIQuery
    }
}

/// What an ``HLSSegmenter`` wrote.
public struct HLSSegmentCounts: Sendable, Hashable {
    /// Cues taken.
    public var cues = 0
    /// Segments written.
    public var segments = 0
    /// Of those, segments no cue overlaps.
    public var emptySegments = 0
    /// Cues written, counting a cue once per segment it is in.
    public var cuePlacements = 0
    /// The end of the last segment: the latest cue end, in milliseconds.
    public var trackEnd = 0

    /// Nothing written yet.
    public init() {}
}

/// Why segmenting stopped.
public struct HLSSegmentingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable code.
    public var code: DiagnosticCode
    /// What went wrong, for a person.
    public var message: String

    public var description: String { "\(message) [\(code.rawValue)]" }

    /// A cue that starts before the cue before it: segments are written in order, so cues must come
    /// in start-time order (`TrackConversion` puts them so).
    public static func cueOutOfOrder(_ cue: Cue, after previous: Int) -> HLSSegmentingError {
        HLSSegmentingError(
            code: "hls-cue-order",
            message:
                "the cue at \(CueTimestamp.format(cue.start)) comes after one that starts at \(CueTimestamp.format(previous)); segments take cues in start-time order"
        )
    }
}
