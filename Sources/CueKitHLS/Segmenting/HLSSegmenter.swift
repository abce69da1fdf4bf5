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
    public private(set) var diagnostics: [Diagnostic] = []
    /// Cues taken as the bytes of the blocks they were read from, with no cue built.
    package private(set) var blocksCopied = 0

    /// The header every segment has: its `X-TIMESTAMP-MAP` line, made once.
    private let segmentHeader: String
    /// How segments' WebVTT is written: the options' layout, comments left out.
    private let writerOptions: WebVTTWriterOptions
    /// True when cue blocks as read are what the writer writes for their cues, once copied.
    private let copiesBlocks: Bool
    private var regions: [CueRegion] = []
    private var stylesheets: [CueStylesheet] = []
    /// The cues that overlap the segment being filled, in start-time order.
    private var openCues: [HLSOpenCue] = []
    /// The blocks of the open cues that have one, one after the other in the order of `openCues`.
    private var openBlocks: [UInt8] = []
    /// How many open cues have no block, and are written by each segment's writer.
    private var openCuesWithoutBlock = 0
    /// Formats each cue's block once; made again when a region comes.
    private var cueFormatter: WebVTTCueBlockFormatter?
    /// Copies cue blocks as read.
    private var copier = WebVTTCueBlockCopier()
    private var openSegment = 0
    /// The bytes written so far into the one file, with ``HLSSegmentOptions/segmentsInOneFile``,
    /// its name and the URI the playlist gives it.
    private var oneFileLength = 0
    private let oneFileName: String
    private let oneFileURI: String
    /// The playlist lines of one segment, a buffer reused for each.
    private var playlistLines: [UInt8] = []
    /// The bytes of one segment, a buffer reused for each.
    private var segment: [UInt8] = []
    /// A writer that has written what a segment with cues starts with (the header, the regions
    /// `regionIDs` names, every style sheet), copied for each segment whose cues name the same
    /// regions; dropped when a region or style sheet comes. One is held: consecutive segments
    /// mostly name the same regions.
    private var preamble: (regionIDs: [String], writer: WebVTTWriter<MemorySink>)?
    /// The bytes of a segment without cues: its header alone.
    private var emptySegment: [UInt8]?
    private var lastStart = Int.min
    private var isFinished = false

    /// A segmenter writing to `destination`.
    public init(options: Options = Options(), to destination: Destination) {
        self.options = options
        self.timeline = HLSSegmentTimeline(segmentDuration: options.segmentDuration)
        segmentHeader = "\n" + options.timestampMap.headerLine
        var writerOptions = options.webVTT
        writerOptions.notes = .drop
        self.writerOptions = writerOptions
        copiesBlocks = WebVTTWriter<MemorySink>.copiesCueBlocks(with: writerOptions)
        oneFileName = options.oneFileName
        oneFileURI = options.segmentURI(options.oneFileName)
        self.destination = destination
    }

    /// Takes the next event: regions and style sheets are kept for the segments; cues are placed;
    /// the header, notes and diagnostics are not written into segments.
    public mutating func take(_ event: TrackEvent) throws {
        switch event {
        case .cue(let cue):
            try place(cue)
        case .region(let region):
            regions.removeAll { $0.id == region.id }
            regions.append(region)
            preamble = nil
            // Cues formatted before keep their blocks: a region is only ever added, and a cue
            // whose region was not defined has none.
            cueFormatter = nil
        case .stylesheet(let sheet):
            stylesheets.append(sheet)
            preamble = nil
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
        try destination.appendToPlaylist(HLSMediaPlaylistText.end)
    }

    private mutating func place(_ cue: Cue) throws {
        guard cue.start >= lastStart else {
            throw HLSSegmentingError.cueOutOfOrder(cue, after: lastStart)
        }
        try closeSegments(before: cue.start)
        if cueFormatter == nil { cueFormatter = WebVTTCueBlockFormatter(options: writerOptions, regions: regions) }
        let blockStart = openBlocks.count
        let formatted = cueFormatter!.appendBlock(of: cue, to: &openBlocks)
        if !formatted { openCuesWithoutBlock += 1 }
        open(
            HLSOpenCue(
                start: cue.start, effectiveEnd: HLSSegmentTimeline.effectiveEnd(of: cue), region: cue.settings.region,
                block: blockStart..<openBlocks.count, cue: formatted ? nil : cue))
    }

    /// Every segment before the one `start` is in is complete: no later cue starts in it.
    private mutating func closeSegments(before start: Int) throws {
        lastStart = start
        let first = timeline.segment(containing: start)
        while openSegment < first { try closeOpenSegment(duration: timeline.segmentDuration) }
    }

    private mutating func open(_ cue: HLSOpenCue) {
        openCues.append(cue)
        counts.cues += 1
        counts.trackEnd = max(counts.trackEnd, cue.effectiveEnd)
    }

    /// Writes the open segment with the cues that overlap it, lets go of those that end within it,
    /// and opens the next.
    private mutating func closeOpenSegment(duration: Int) throws {
        if openSegment == 0 {
            try destination.appendToPlaylist(
                HLSMediaPlaylistText.header(segmentDuration: options.segmentDuration, usesByteRanges: options.segmentsInOneFile))
        }
        let bytes = try segmentBytes()
        if options.segmentsInOneFile {
            try destination.appendSegment(bytes, toFileNamed: oneFileName)
            let range = oneFileLength..<(oneFileLength + bytes.count)
            oneFileLength = range.upperBound
            playlistLines.removeAll(keepingCapacity: true)
            HLSMediaPlaylistText.appendSegment(duration: duration, byteRange: range, uri: oneFileURI, to: &playlistLines)
            try destination.appendToPlaylist(playlistLines)
        } else {
            let name = options.segmentName(openSegment)
            try destination.writeSegment(named: name, bytes)
            playlistLines.removeAll(keepingCapacity: true)
            HLSMediaPlaylistText.appendSegment(duration: duration, byteRange: nil, uri: options.segmentURI(name), to: &playlistLines)
            try destination.appendToPlaylist(playlistLines)
        }
        counts.segments += 1
        if openCues.isEmpty { counts.emptySegments += 1 }
        counts.cuePlacements += openCues.count
        letGoOfCues(endingBy: timeline.start(ofSegment: openSegment + 1))
        openSegment += 1
    }

    /// Lets go of the open cues that end by `end`, and of their blocks.
    private mutating func letGoOfCues(endingBy end: Int) {
        guard openCues.contains(where: { $0.effectiveEnd <= end }) else { return }
        var kept = 0
        var blocksEnd = 0
        openBlocks.withUnsafeMutableBytes { blocks in
            for index in openCues.indices {
                var cue = openCues[index]
                if cue.effectiveEnd <= end {
                    if cue.cue != nil { openCuesWithoutBlock -= 1 }
                    continue
                }
                let length = cue.block.count
                if length > 0, cue.block.lowerBound != blocksEnd {
                    (blocks.baseAddress! + blocksEnd).copyMemory(from: blocks.baseAddress! + cue.block.lowerBound, byteCount: length)
                }
                cue.block = blocksEnd..<(blocksEnd + length)
                blocksEnd += length
                openCues[kept] = cue
                kept += 1
            }
        }
        openCues.removeLast(openCues.count - kept)
        openBlocks.removeLast(openBlocks.count - blocksEnd)
    }

    /// The open segment as a WebVTT file: header and map, then (with cues) the regions its cues
    /// name, the style sheets, and its cues. What comes before the cues is the same in most
    /// segments: it is formatted once (`preamble`) and copied; so are the cues' blocks.
    private mutating func segmentBytes() throws -> [UInt8] {
        guard !openCues.isEmpty else {
            if emptySegment == nil {
                var writer = WebVTTWriter(to: MemorySink(), options: writerOptions)
                try writer.write(.header(segmentHeader))
                try writer.finish()
                keep(writer.diagnostics)
                emptySegment = writer.sink.bytes
            }
            return emptySegment!
        }
        let regionIDs = namedRegionIDs()
        if preamble?.regionIDs != regionIDs {
            var writer = WebVTTWriter(to: MemorySink(), options: writerOptions)
            try writer.write(.header(segmentHeader))
            let named = Set(regionIDs)
            for region in regions where named.contains(region.id) { try writer.write(.region(region)) }
            for sheet in stylesheets { try writer.write(.stylesheet(sheet)) }
            // Formats the regions and style sheets held for the first cue; cues may follow.
            try writer.finish()
            preamble = (regionIDs, writer)
        }
        guard openCuesWithoutBlock > 0 else {
            // Every cue's block, one after the other, after what the segment starts with.
            keep(preamble!.writer.diagnostics)
            segment.removeAll(keepingCapacity: true)
            segment.append(contentsOf: preamble!.writer.sink.bytes)
            segment.append(contentsOf: openBlocks)
            return segment
        }
        var writer = preamble!.writer
        try openBlocks.withUnsafeBytes { blocks in
            // Runs of cues with blocks are copied; the others are written.
            var run = 0..<0
            var runCount = 0
            for cue in openCues {
                guard let model = cue.cue else {
                    if runCount == 0 { run = cue.block } else { run = run.lowerBound..<cue.block.upperBound }
                    runCount += 1
                    continue
                }
                if runCount > 0 { try writer.writeFormattedCueBlocks(UnsafeRawBufferPointer(rebasing: blocks[run]), count: runCount) }
                runCount = 0
                try writer.write(.cue(model))
            }
            if runCount > 0 { try writer.writeFormattedCueBlocks(UnsafeRawBufferPointer(rebasing: blocks[run]), count: runCount) }
        }
        try writer.finish()
        keep(writer.diagnostics)
        return writer.sink.bytes
    }

    /// The identifiers of the regions the open cues name, in the order the regions came.
    private func namedRegionIDs() -> [String] {
        guard openCues.contains(where: { $0.region != nil }) else { return [] }
        let named = Set(openCues.compactMap(\.region))
        return regions.lazy.map(\.id).filter(named.contains)
    }

    /// Keeps what a segment's writer changed, once: a cue in several segments is changed the
    /// same way in each.
    private mutating func keep(_ changes: [Diagnostic]) {
        guard !changes.isEmpty, diagnostics.count < 100 else { return }
        for diagnostic in changes where !diagnostics.contains(diagnostic) { diagnostics.append(diagnostic) }
    }
}

extension HLSSegmenter: WebVTTBytesConsumer {
    /// True when cue blocks read from WebVTT are taken as they were read (the segments' layout is
    /// the one such blocks are copied in).
    package var takesCues: Bool { copiesBlocks }

    /// Takes a cue block read whole in place of its cue when it is what the writer writes for the
    /// cue once copied (``WebVTTCueBlockCopier``); else its cue comes as an event.
    package mutating func take(_ block: WebVTTCueBlockAsRead, settings: borrowing CueSettings) throws -> Bool {
        // A cue out of order is refused, and reported from its event.
        guard copiesBlocks, block.start >= lastStart else { return false }
        try closeSegments(before: block.start)
        var blocks: [UInt8] = []
        swap(&blocks, &openBlocks)
        let blockStart = blocks.count
        let copied = copier.withCopy(of: block, settings: settings) { copy in
            blocks.append(UInt8(ascii: "\n"))
            blocks.append(contentsOf: copy.head)
            blocks.append(contentsOf: copy.middle)
            blocks.append(contentsOf: copy.tail)
            return true
        }
        swap(&blocks, &openBlocks)
        guard copied else { return false }
        blocksCopied += 1
        // The copier copies only blocks that end after they start, in no region.
        open(HLSOpenCue(start: block.start, effectiveEnd: block.end, region: nil, block: blockStart..<openBlocks.count, cue: nil))
        return true
    }
}

/// A cue that overlaps the segment being filled: its times on the grid, the region it names, and
/// its block, formatted once, or the cue itself when it has no block of its own.
struct HLSOpenCue {
    var start: Int
    /// ``HLSSegmentTimeline/effectiveEnd(of:)``.
    var effectiveEnd: Int
    var region: String?
    /// Where its block is among the open cues' blocks (empty when it has none).
    var block: Range<Int>
    /// The cue, when it has no block.
    var cue: Cue?
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
