import CueKit
import CueKitWebVTT

/// What an ``HLSSegmenter`` writes into segments, apart from where they go: the regions and style
/// sheets, the cues that overlap the segment being filled with their blocks, and each segment's
/// bytes. Not generic, so that the work done for every cue and segment never looks up the
/// destination's metadata.
///
/// Each cue is formatted once, when it comes (``WebVTTCueBlockFormatter``), or copied as it was
/// read (``WebVTTCueBlockCopier``); its block is then copied into every segment it overlaps. A cue
/// the writer would report something about is kept as a cue and written by each segment's own
/// writer, as the report names the cue by its place in the segment.
struct HLSSegmentAssembly {
    /// How segments' WebVTT is written: the options' layout, comments left out.
    let writerOptions: WebVTTWriterOptions
    /// True when cue blocks as read are what the writer writes for their cues, once copied.
    let copiesBlocks: Bool
    /// The header every segment has: its `X-TIMESTAMP-MAP` line.
    private let segmentHeader: String
    /// What the writers changed in what they wrote, each change once (up to about 100).
    private(set) var diagnostics: [Diagnostic] = []
    /// Cues taken as the bytes of the blocks they were read from.
    private(set) var blocksCopied = 0

    private var regions: [CueRegion] = []
    private var stylesheets: [CueStylesheet] = []
    /// The cues that overlap the segment being filled, in start-time order.
    private(set) var openCues: [HLSOpenCue] = []
    /// The blocks of the open cues that have one, one after the other in the order of `openCues`.
    private var openBlocks: [UInt8] = []
    /// The regions and cues of the open cues that name a region or have no block, in the order
    /// of `openCues` (``HLSOpenCue/detail``).
    private var openDetails: [HLSOpenCueDetail] = []
    /// How many open cues have no block, and are written by each segment's writer.
    private var openCuesWithoutBlock = 0
    /// Formats each cue's block once; made again when a region comes.
    private var cueFormatter: WebVTTCueBlockFormatter?
    private var copier = WebVTTCueBlockCopier()
    /// What segments with cues start with, for the few sets of regions their cues name.
    private var preambles = HLSSegmentPreambles()
    /// The bytes of a segment without cues: its header alone.
    private var emptySegment: [UInt8]?

    init(options: HLSSegmentOptions) {
        var writerOptions = options.webVTT
        writerOptions.notes = .drop
        self.writerOptions = writerOptions
        copiesBlocks = WebVTTWriter<MemorySink>.copiesCueBlocks(with: writerOptions)
        segmentHeader = "\n" + options.timestampMap.headerLine
    }

    mutating func add(_ region: CueRegion) {
        regions.removeAll { $0.id == region.id }
        regions.append(region)
        preambles.removeAll()
        // Cues formatted before keep their blocks: a region is only ever added, and a cue whose
        // region was not defined has none.
        cueFormatter = nil
    }

    mutating func add(_ stylesheet: CueStylesheet) {
        stylesheets.append(stylesheet)
        preambles.removeAll()
    }

    /// Opens `cue`, formatted once if it can be; returns the end of its time on the grid.
    mutating func open(_ cue: Cue) -> Int {
        if cueFormatter == nil { cueFormatter = WebVTTCueBlockFormatter(options: writerOptions, regions: regions) }
        let blockStart = openBlocks.count
        let formatted = cueFormatter!.appendBlock(of: cue, to: &openBlocks)
        let effectiveEnd = HLSSegmentTimeline.effectiveEnd(of: cue)
        var detail = -1
        if !formatted || cue.settings.region != nil {
            detail = openDetails.count
            openDetails.append(HLSOpenCueDetail(region: cue.settings.region, cue: formatted ? nil : cue))
            if !formatted { openCuesWithoutBlock += 1 }
        }
        openCues.append(HLSOpenCue(effectiveEnd: effectiveEnd, blockStart: blockStart, blockEnd: openBlocks.count, detail: detail))
        return effectiveEnd
    }

    /// Opens the cue of `block` as its bytes when they are what the writer writes for it once
    /// copied; returns false, and opens nothing, when they are not.
    mutating func open(_ block: WebVTTCueBlockAsRead, settings: borrowing CueSettings) -> Bool {
        guard copiesBlocks else { return false }
        let blockStart = openBlocks.count
        // The blocks lent to the copier's closure, which may not reach `self`.
        var blocks: [UInt8] = []
        swap(&blocks, &openBlocks)
        let copied = copier.withCopy(of: block, settings: settings) { copy in
            blocks.reserveCapacity(blocks.count + 1 + copy.count)
            blocks.append(UInt8(ascii: "\n"))
            Self.append(copy.head, to: &blocks)
            Self.append(copy.middle, to: &blocks)
            Self.append(copy.tail, to: &blocks)
            return true
        }
        swap(&blocks, &openBlocks)
        guard copied else { return false }
        blocksCopied += 1
        // The copier copies only blocks that end after they start, in no region.
        openCues.append(HLSOpenCue(effectiveEnd: block.end, blockStart: blockStart, blockEnd: openBlocks.count, detail: -1))
        return true
    }

    /// True when a region with the identifier `id` came: a cue naming it is in it.
    func defines(region id: String) -> Bool {
        regions.contains { $0.id == id }
    }

    /// Opens the cue of a block as a WebVTT conversion copies it, its LF before it included
    /// (``WebVTTFormattedBlockConsumer``), in the region `region` names (one that came): the
    /// bytes a copied block read back is opened as.
    mutating func open(formattedBlock block: UnsafeRawBufferPointer, end: Int, region: String?) {
        let blockStart = openBlocks.count
        Self.append(block, to: &openBlocks)
        blocksCopied += 1
        var detail = -1
        if let region {
            detail = openDetails.count
            openDetails.append(HLSOpenCueDetail(region: region, cue: nil))
        }
        openCues.append(HLSOpenCue(effectiveEnd: end, blockStart: blockStart, blockEnd: openBlocks.count, detail: detail))
    }

    private static func append(_ bytes: UnsafeRawBufferPointer, to array: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        array.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Lets go of the open cues that end by `end`, and of their blocks and details.
    mutating func letGoOfCues(endingBy end: Int) {
        if let last = openCues.last, last.effectiveEnd <= end, openCues.allSatisfy({ $0.effectiveEnd <= end }) {
            // Often every open cue ends in the segment: nothing is kept, nothing moves. (A few
            // cues are removed one by one: emptying an array keeping its storage replaces a range.)
            while !openCues.isEmpty { openCues.removeLast() }
            openBlocks.removeAll(keepingCapacity: true)
            if !openDetails.isEmpty { openDetails.removeAll(keepingCapacity: true) }
            openCuesWithoutBlock = 0
            return
        }
        var kept = 0
        var blocksEnd = 0
        var detailsKept = 0
        var index = 0
        let count = openCues.count
        while index < count {
            var cue = openCues[index]
            index += 1
            if cue.effectiveEnd <= end {
                if cue.detail >= 0, openDetails[cue.detail].cue != nil { openCuesWithoutBlock -= 1 }
                continue
            }
            let length = cue.blockEnd - cue.blockStart
            if length > 0, cue.blockStart != blocksEnd {
                openBlocks.withUnsafeMutableBytes { blocks in
                    (blocks.baseAddress! + blocksEnd).copyMemory(from: blocks.baseAddress! + cue.blockStart, byteCount: length)
                }
            }
            cue.blockStart = blocksEnd
            cue.blockEnd = blocksEnd + length
            blocksEnd += length
            if cue.detail >= 0 {
                if cue.detail != detailsKept { openDetails.swapAt(cue.detail, detailsKept) }
                cue.detail = detailsKept
                detailsKept += 1
            }
            openCues[kept] = cue
            kept += 1
        }
        // One by one: few cues end in a segment, and removing a range costs more than a few
        // removals of the last element.
        while openCues.count > kept { openCues.removeLast() }
        while openDetails.count > detailsKept { openDetails.removeLast() }
        if blocksEnd < openBlocks.count { openBlocks.removeLast(openBlocks.count - blocksEnd) }
    }

    /// Appends the segment of the open cues, as a WebVTT file, to `segment`: header and map,
    /// then (with cues) the regions its cues name, the style sheets, and its cues. What comes
    /// before the cues is the same in most segments: it is formatted once for each set of named
    /// regions (``HLSSegmentPreambles``) and copied; so are the cues' blocks.
    mutating func appendSegment(to segment: inout [UInt8]) throws {
        guard !openCues.isEmpty else {
            if emptySegment == nil {
                var writer = WebVTTWriter(to: MemorySink(), options: writerOptions)
                try writer.write(.header(segmentHeader))
                try writer.finish()
                keep(writer.diagnostics)
                emptySegment = writer.sink.bytes
            }
            segment.append(contentsOf: emptySegment!)
            return
        }
        let regionIDs = namedRegionIDs()
        let preamble: Int
        if let found = preambles.index(naming: regionIDs) {
            preamble = found
        } else {
            var writer = WebVTTWriter(to: MemorySink(), options: writerOptions)
            try writer.write(.header(segmentHeader))
            let named = Set(regionIDs)
            for region in regions where named.contains(region.id) { try writer.write(.region(region)) }
            for sheet in stylesheets { try writer.write(.stylesheet(sheet)) }
            // Formats the regions and style sheets held for the first cue; cues may follow.
            try writer.finish()
            preamble = preambles.keep(HLSSegmentPreambles.Preamble(regionIDs: regionIDs, writer: writer))
        }
        let kept = preambles.kept[preamble]
        guard openCuesWithoutBlock > 0 else {
            // Every cue's block, one after the other, after what the segment starts with.
            keep(kept.diagnostics)
            segment.append(contentsOf: kept.bytes)
            segment.append(contentsOf: openBlocks)
            return
        }
        var writer = kept.writer
        try openBlocks.withUnsafeBytes { blocks in
            // Runs of cues with blocks are copied; the others are written.
            var runStart = 0
            var runEnd = 0
            var runCount = 0
            for cue in openCues {
                guard cue.detail >= 0, let model = openDetails[cue.detail].cue else {
                    if runCount == 0 { runStart = cue.blockStart }
                    runEnd = cue.blockEnd
                    runCount += 1
                    continue
                }
                if runCount > 0 {
                    try writer.writeFormattedCueBlocks(UnsafeRawBufferPointer(rebasing: blocks[runStart..<runEnd]), count: runCount)
                }
                runCount = 0
                try writer.write(.cue(model))
            }
            if runCount > 0 {
                try writer.writeFormattedCueBlocks(UnsafeRawBufferPointer(rebasing: blocks[runStart..<runEnd]), count: runCount)
            }
        }
        try writer.finish()
        keep(writer.diagnostics)
        segment.append(contentsOf: writer.sink.bytes)
    }

    /// The identifiers of the regions the open cues name, in the order the regions came. A few
    /// regions and the few open cues that name one are compared pair by pair; more, through a set.
    private func namedRegionIDs() -> [String] {
        guard !openDetails.isEmpty, openDetails.contains(where: { $0.region != nil }) else { return [] }
        guard regions.count * openDetails.count > 64 else {
            return regions.lazy.map(\.id).filter { id in openDetails.contains { $0.region == id } }
        }
        let named = Set(openDetails.compactMap(\.region))
        return regions.lazy.map(\.id).filter(named.contains)
    }

    /// Keeps what a segment's writer changed, once: a cue in several segments is changed the
    /// same way in each.
    private mutating func keep(_ changes: [Diagnostic]) {
        guard !changes.isEmpty, diagnostics.count < 100 else { return }
        for diagnostic in changes where !diagnostics.contains(diagnostic) { diagnostics.append(diagnostic) }
    }
}

/// A cue that overlaps the segment being filled: the end of its time on the grid, and where its block is
/// among the open cues' blocks (empty when it has none).
struct HLSOpenCue {
    /// ``HLSSegmentTimeline/effectiveEnd(of:)``.
    var effectiveEnd: Int
    var blockStart: Int
    var blockEnd: Int
    /// Where its region and cue are among the open cues' details, or -1 when it names no region
    /// and has a block (most cues: the open cues are then plain values).
    var detail: Int
}

/// What few open cues have besides their times and block: the region one names, and the cue
/// itself when it has no block.
struct HLSOpenCueDetail {
    var region: String?
    var cue: Cue?
}

/// What segments with cues start with (the header, the regions their cues name, every style
/// sheet), formatted once for each set of named regions and kept for the segments that name the
/// same: a track whose cues name a region now and then alternates between two or three sets. At
/// most ``capacity`` are kept, the one used least recently making room; all are dropped when a
/// region or style sheet comes.
struct HLSSegmentPreambles {
    /// A writer that has written a preamble (copied to write a segment whose cues have no
    /// block), with its bytes and what it reported. A class: a segment reads its bytes without
    /// copying the writer.
    final class Preamble {
        let regionIDs: [String]
        let writer: WebVTTWriter<MemorySink>
        let bytes: [UInt8]
        let diagnostics: [Diagnostic]

        init(regionIDs: [String], writer: WebVTTWriter<MemorySink>) {
            self.regionIDs = regionIDs
            self.writer = writer
            bytes = writer.sink.bytes
            diagnostics = writer.diagnostics
        }
    }

    static let capacity = 4
    /// Most recently used last.
    private(set) var kept: [Preamble] = []

    /// Where the preamble for cues naming `regionIDs` (in the order the regions came) is in
    /// ``kept``, when it is.
    mutating func index(naming regionIDs: [String]) -> Int? {
        let last = kept.count - 1
        guard last >= 0 else { return nil }
        if kept[last].regionIDs == regionIDs { return last }
        guard let index = kept.firstIndex(where: { $0.regionIDs == regionIDs }) else { return nil }
        kept.append(kept.remove(at: index))
        return last
    }

    /// Keeps `preamble`; returns where it is in ``kept``.
    mutating func keep(_ preamble: Preamble) -> Int {
        if kept.count == Self.capacity { kept.removeFirst() }
        kept.append(preamble)
        return kept.count - 1
    }

    mutating func removeAll() { kept.removeAll() }
}
