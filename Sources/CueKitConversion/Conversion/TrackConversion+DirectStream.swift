import CueKit
import CueKitWebVTT

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``WebVTTBytesConsumer`` that also takes the cue blocks a WebVTT conversion copies, as they
/// are, with their times: an HLS segmenter fed by the conversion's first pass.
package protocol WebVTTFormattedBlockConsumer: WebVTTBytesConsumer {
    /// Offered a cue block as a WebVTT conversion copies it (``WebVTTCueBlockCopier``: after the
    /// LF of the empty line before it), with its cue's times and the identifier of the region it
    /// names, if any (a region the written track defines: the copier copies no other); valid only
    /// during the call. Returns true when it took the block; else the block is read, and its cue
    /// comes as ``take(_:settings:)`` or as an event.
    mutating func take(formattedBlock block: UnsafeRawBufferPointer, start: Int, end: Int, region: UnsafeRawBufferPointer?) throws -> Bool
}

extension TrackConversion {
    /// How ``stream(directlyInto:report:)`` ended.
    package enum DirectStream {
        /// The consumer has the whole converted track.
        case streamed(Outcome)
        /// Cues came too late for the ordering window: they would have been merged in by a second
        /// pass, so the consumer has an incomplete track and is to be dropped, and the track streamed
        /// again with ``stream(convertedInto:report:)``. The first `inputDiagnosticsReported`
        /// diagnostics about the input it reports were reported already.
        case needsSecondPass(inputDiagnosticsReported: Int)
    }

    /// True when ``stream(directlyInto:report:)`` can run: the source can be read again, should a
    /// second pass be needed.
    package var streamsDirectly: Bool { source.canBeReadAgain }

    /// Hands the converted track to `consumer` as ``stream(convertedInto:report:)`` does (the same
    /// events, blocks and diagnostics), from the conversion's first pass, with no file written and
    /// read back: what the WebVTT writer writes is read as it is written, and the cue blocks the
    /// pass copies are offered as they are (``WebVTTFormattedBlockConsumer``).
    package func stream<Consumer: WebVTTFormattedBlockConsumer>(
        directlyInto consumer: inout Consumer, report: (ConversionDiagnostic) -> Void = { _ in }
    ) throws -> DirectStream {
        precondition(streamsDirectly, "a direct stream needs a source that can be read again")
        var template = Array((TemporaryFiles.folder + "/cuekit-direct-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw IOFailure.writing(TemporaryFiles.folder, errno: errno)
        }
        let spillFolder = String(cString: made)
        defer { rmdir(spillFolder) }
        var webVTT = self
        webVTT.options.format = .webVTT
        let plan = PassPlan(firstPassPath: "", spillFolder: spillFolder, firstPassIsOutput: false, options: webVTT.options, source: source)
        let copiesText = source.isOneWebVTTFile
        let copiesBlocks =
            (copiesText || source.format == .subRip) && options.copiesCueBlocks
            && WebVTTWriter<ReadingSink>.copiesCueBlocks(with: options.webVTT)
        let writerOptions = options.webVTT
        var inputDiagnostics = 0
        return try withUnsafeMutablePointer(to: &consumer) { consumer in
            // Closures made here, where the consumer's type is known; the pass and its writer are
            // not generic over it, so that they run specialized code.
            let reading = WrittenTrackReading(
                takesCues: consumer.pointee.takesCues, seesCuesAsRead: consumer.pointee.seesCuesAsRead,
                cueTextParseCache: consumer.pointee.cueTextParseCache,
                take: { try consumer.pointee.take($0) }, see: { try consumer.pointee.see($0) },
                takeBlock: { block, settings in try consumer.pointee.take(block, settings: settings) },
                takeFormattedBlock: { block, start, end, region in
                    try consumer.pointee.take(formattedBlock: block, start: start, end: end, region: region)
                })
            let output = PassOutput<WebVTTWriter<ReadingSink>>(
                makeWriter: {
                    var writer = WebVTTWriter(to: ReadingSink(reading: reading), options: writerOptions)
                    writer.copiesReadCueText = copiesText
                    return writer
                },
                writeBlockRun: copiesBlocks
                    ? { writer, blocks, count, times in
                        try writer.writeCueBlocks(blocks, count: count) { sink, blocks in try sink.reading.offer(blocks, count: count, times: times) }
                    } : nil,
                takesBlockTimes: true,
                namesRegion: copiesBlocks ? { writer, id in writer.namesRegion(id) } : nil)
            let pass = try plan.runFirstPass(output: output, takesCues: copiesBlocks, cueTextParseCache: nil) { diagnostic in
                if diagnostic.origin == .input { inputDiagnostics += 1 }
                report(diagnostic)
            }
            guard pass.late == nil else { return .needsSecondPass(inputDiagnosticsReported: inputDiagnostics) }
            try reading.finish()
            pass.reportAfterwards(report)
            var outcome = pass.outcome
            outcome.isInputUnchanged = pass.leavesInputUnchanged
            return .streamed(outcome)
        }
    }
}

/// Where the WebVTT writer of a direct stream writes: every byte goes to a
/// ``WrittenTrackReading``, shared by the copies of the writer a pass makes.
struct ReadingSink: ByteSink {
    let reading: WrittenTrackReading

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws { try reading.read(bytes) }

    /// Nothing is buffered; the end of the track is ``WrittenTrackReading/finish()``.
    mutating func flush() throws {}
}

/// Reads a WebVTT track as it is written, for a consumer: what a file written by the conversion
/// and read back by a ``TrackSource`` would hand it (its diagnostics left out), with no file.
///
/// Bytes written go through a ``WebVTTReader`` with the consumer's hooks. Runs of copied cue blocks
/// are cut into their blocks at the lengths the ordering window kept (``CueBlockTimes``), each
/// offered to the consumer as it is, with its times,
/// (``WebVTTFormattedBlockConsumer``) and read only when it is refused; before a block is offered,
/// an empty line is read, so that the reader hands on the block it holds first (an empty line
/// more between blocks changes nothing a reader reads). A class, shared by the copies of the
/// writer's sink; the consumer is reached through a pointer valid for one direct stream.
final class WrittenTrackReading {
    typealias TakeFormattedBlock = (UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ region: UnsafeRawBufferPointer?) throws -> Bool
    private var reader: WebVTTReader
    private let hooks: WebVTTReaderHooks
    private let take: (TrackEvent) throws -> Void
    private let takeFormattedBlock: TakeFormattedBlock
    /// True when bytes were read since the last empty line read.
    private var readerMayHoldBlock = false
    /// The first piece of a run that wrapped around the ordering window's ring: the blocks'
    /// count comes with the second.
    private var pieceWithoutCount: [UInt8] = []

    init(
        takesCues: Bool, seesCuesAsRead: Bool, cueTextParseCache: CueTextParseCache?, take: @escaping (TrackEvent) throws -> Void,
        see: @escaping WebVTTCuePassage.See, takeBlock: @escaping WebVTTCuePassage.Take, takeFormattedBlock: @escaping TakeFormattedBlock
    ) {
        let sourceOptions = TrackSource.Options()
        var options = WebVTTReader.Options(diagnostics: .none, limits: sourceOptions.webVTTLimits)
        options.cueContent = sourceOptions.webVTTCueContent
        reader = WebVTTReader(options: options)
        let seesCues = seesCuesAsRead && !takesCues
        let passage = WebVTTCuePassage(takesCues: takesCues, see: see, take: takeBlock)
        hooks = WebVTTReaderHooks(cueSink: takesCues || seesCues ? passage : nil, cueTextParseCache: cueTextParseCache)
        self.take = take
        self.takeFormattedBlock = takeFormattedBlock
    }

    /// Reads written bytes.
    func read(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        let take = self.take
        try reader.feed(bytes, hooks: hooks) { event in
            if case .diagnostic = event { return }
            try take(event)
        }
        readerMayHoldBlock = true
    }

    /// Takes a run of `count` copied cue blocks with each one's length and times
    /// (``CueOrdering/BlockRun``).
    func offer(_ run: UnsafeRawBufferPointer, count: Int, times: UnsafeBufferPointer<CueBlockTimes>) throws {
        guard count > 0 else {
            pieceWithoutCount.append(contentsOf: run.assumingMemoryBound(to: UInt8.self))
            return
        }
        precondition(times.count == count, "a direct stream's ordering records every block's times")
        guard pieceWithoutCount.isEmpty else {
            pieceWithoutCount.append(contentsOf: run.assumingMemoryBound(to: UInt8.self))
            defer { pieceWithoutCount.removeAll(keepingCapacity: true) }
            try pieceWithoutCount.withUnsafeBytes { try offerBlocks(of: $0, times: times) }
            return
        }
        try offerBlocks(of: run, times: times)
    }

    /// The end of the written track.
    func finish() throws {
        let take = self.take
        try reader.finish(hooks: hooks) { event in
            if case .diagnostic = event { return }
            try take(event)
        }
    }

    /// Offers each block of `run`, cut at the lengths `times` gives, with its times; the region a
    /// block names is read from its timing line.
    private func offerBlocks(of run: UnsafeRawBufferPointer, times: UnsafeBufferPointer<CueBlockTimes>) throws {
        var start = 0
        for entry in times {
            let block = UnsafeRawBufferPointer(rebasing: run[start..<(start + entry.length)])
            start += entry.length
            var region: UnsafeRawBufferPointer?
            if entry.namesRegion {
                guard let named = CopiedCueBlock.region(of: block) else {
                    try read(block)
                    continue
                }
                region = UnsafeRawBufferPointer(rebasing: block[named])
            }
            if readerMayHoldBlock {
                try withUnsafeBytes(of: UInt8(ascii: "\n")) { try read($0) }
                readerMayHoldBlock = false
            }
            if try takeFormattedBlock(block, entry.start, entry.end, region) { continue }
            try read(block)
        }
        precondition(start == run.count, "the blocks' lengths make the run")
    }
}

/// Reads a cue block as a ``WebVTTCueBlockCopier`` copies it: an LF, the identifier's line if
/// any, the timing line with both times in full (`hh:mm:ss.ttt`) and its settings, the text's
/// lines, each ending in LF, and no empty line.
enum CopiedCueBlock {
    /// Where the identifier of the region a copied block's timing line names is; nil when the
    /// block is not in that form or names none.
    static func region(of block: UnsafeRawBufferPointer) -> Range<Int>? {
        guard block.count > 1, block[0] == UInt8(ascii: "\n") else { return nil }
        let firstEnd = lineEnd(from: 1, in: block)
        if let settings = settings(block, 1, firstEnd) { return regionIdentifier(block, settings, firstEnd) }
        // The identifier's line; the timing line follows.
        guard firstEnd + 1 < block.count else { return nil }
        let secondEnd = lineEnd(from: firstEnd + 1, in: block)
        guard let settings = settings(block, firstEnd + 1, secondEnd) else { return nil }
        return regionIdentifier(block, settings, secondEnd)
    }

    /// Where the settings of the timing line `block[start..<end]` start (the space after the
    /// times), when it is one with settings.
    private static func settings(_ block: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int? {
        var at = start
        guard timestamp(block, &at, end) != nil, at + 5 <= end, block[at] == UInt8(ascii: " "), block[at + 1] == UInt8(ascii: "-"),
            block[at + 2] == UInt8(ascii: "-"), block[at + 3] == UInt8(ascii: ">"), block[at + 4] == UInt8(ascii: " ")
        else { return nil }
        at += 5
        guard timestamp(block, &at, end) != nil, at < end, block[at] == UInt8(ascii: " ") else { return nil }
        return at
    }

    /// Where the value of the last `region:` setting in the settings `block[start..<end]` is.
    private static func regionIdentifier(_ block: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Range<Int>? {
        guard contains("region:", block, start, end) else { return nil }
        var found: Range<Int>?
        var tokenStart = start
        while tokenStart < end {
            var tokenEnd = tokenStart
            while tokenEnd < end, block[tokenEnd] != UInt8(ascii: " ") { tokenEnd += 1 }
            if tokenEnd - tokenStart > 7, contains("region:", block, tokenStart, tokenStart + 7) { found = (tokenStart + 7)..<tokenEnd }
            tokenStart = tokenEnd + 1
        }
        return found
    }

    /// Where the line starting at `start` ends: its LF, or the buffer's end.
    private static func lineEnd(from start: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
        else { return bytes.count }
        return UnsafeRawPointer(found) - base
    }

    /// True when `text` occurs in `bytes[start..<end]`: compared where its first byte is.
    private static func contains(_ text: StaticString, _ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard end - start >= count, let base = bytes.baseAddress else { return false }
        let first = text.utf8Start.pointee
        for index in start...(end - count) where base.load(fromByteOffset: index, as: UInt8.self) == first {
            if memcmp(base + index, text.utf8Start, count) == 0 { return true }
        }
        return false
    }

    /// The WebVTT timestamp at `at`, before `end`, in milliseconds (``CueTimestamp``'s common
    /// forms, which every copied block's times take); moves `at` past it.
    @inline(__always)
    private static func timestamp(_ bytes: UnsafeRawBufferPointer, _ at: inout Int, _ end: Int) -> Int? {
        CueTimestamp.collectCommonForm(from: UnsafeRawBufferPointer(rebasing: bytes[..<end]), at: &at)?.milliseconds
    }
}
