import CueKit
import CueKitSynthetic
import CueKitTestSupport
import Testing

@testable import CueKitWebVTT

/// Cue blocks copied in place of cue events (a ``WebVTTCueSink`` that takes cues, with a
/// ``WebVTTCueBlockCopier``): every block copied is, byte for byte, what ``WebVTTWriter`` writes
/// for the cue the reader would otherwise have handed out, and a cue refused leaves the events
/// exactly as they are without a sink.
@Suite struct WebVTTCueBlockCopierTests {
    /// What a read with a taker gave: events, and blocks taken where their cues would have been.
    enum Entry: Equatable {
        case event(TrackEvent)
        case block([UInt8], start: Int, end: Int)
    }

    /// A sink that copies what it can and takes some of the copies.
    final class Taker: WebVTTCueSink {
        var entries: [Entry] = []
        /// How many cues were shown with their block, and how many of those could be copied.
        var offers = 0
        var copies = 0
        var copier = WebVTTCueBlockCopier()
        /// Which copies to take, by their number (from 1).
        let takes: (Int) -> Bool
        /// The regions the writer is said to name.
        let namesRegion: (String) -> Bool

        init(namesRegion: @escaping (String) -> Bool = { _ in false }, takes: @escaping (Int) -> Bool) {
            self.namesRegion = namesRegion
            self.takes = takes
        }

        var takesCues: Bool { true }

        func see(_ cue: WebVTTCueAsRead) { Issue.record("a cue shown to a sink that takes cues") }

        func take(_ read: WebVTTCueBlockAsRead, settings: borrowing CueSettings) -> Bool {
            offers += 1
            let regionIsNamed = settings.region.map(namesRegion) ?? false
            return copier.withCopy(of: read, settings: settings, regionIsNamed: regionIsNamed) { block in
                copies += 1
                guard takes(copies) else { return false }
                entries.append(.block(block.joined, start: read.start, end: read.end))
                return true
            }
        }
    }

    /// Timing lines in the written form and out of it, with settings the writer writes as they
    /// are, in another order or form, with a region, with values it cannot take, and broken ones.
    static let timingLines: [String] = [
        "00:00:01.000 --> 00:00:02.000", "00:00:03.000 --> 00:00:04.500", "00:00:05.000 --> 00:00:05.000",
        "00:00:06.000 --> 00:00:05.000", "00:07.000 --> 00:08.000", "100:00:00.000 --> 100:00:01.000", "00:01.000 --> 99999:00:00.000",
        "010:00:00.000 --> 010:00:01.000", "99:59:59.999 --> 100:00:00.000 align:end", "1000:00:00.000 --> 01000:00:01.000 line:1",
        "00:00:09.000 --> 00:00:10.000 line:50% position:20%,line-left size:80% align:start",
        "00:00:09.000 --> 00:00:10.000 align:start size:80% position:20%,line-left line:50%",
        "00:00:11.000 --> 00:00:12.000 line:-1,end vertical:lr", "00:00:11.000 --> 00:00:12.000 vertical:rl line:0",
        "00:00:13.000 --> 00:00:14.000 line:10.50% size:100%", "00:00:13.000 --> 00:00:14.000 size:60% line:-2",
        "00:00:15.000 --> 00:00:16.000 position:101%", "00:00:15.000 --> 00:00:16.000 align:middle",
        "00:00:17.000 --> 00:00:18.000 region:r1", "00:00:17.000 --> 00:00:18.000 region:none line:3",
        "00:00:19.000 --> 00:00:20.000  align:end", "00:00:19.000 --> 00:00:20.000\talign:end", "00:00:21.000 --> 00:00:22.000 ",
        "00:00:23.000 --> 00:00:24.000 line:,end", "00:00:23.000 --> 00:00:24.000 position:50%,center line:30%,center",
    ]

    /// A random file of cues and the other lines that make or break blocks.
    static func randomFile(_ random: inout SeededRandom) -> [UInt8] {
        var bytes: [UInt8] = Array("WEBVTT\n\n".utf8)
        if Bool.random(using: &random) {
            bytes += Array("REGION\nid:r1 width:40%\n\nSTYLE\n::cue { color: lime }\n\n".utf8)
        }
        let others = WebVTTWholeBlockTests.lines
        for _ in 0..<Int.random(in: 1...60, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                // A cue: an identifier or none, a timing line, text lines.
                if Bool.random(using: &random) { bytes += Array("id\(Int.random(in: 0..<5, using: &random))\n".utf8) }
                bytes += Array(timingLines.randomElement(using: &random)!.utf8) + [0x0A]
                for _ in 0..<Int.random(in: 0...2, using: &random) { bytes += others.randomElement(using: &random)! + [0x0A] }
                bytes += [0x0A]
            default:
                bytes += others.randomElement(using: &random)!
                bytes += Int.random(in: 0..<10, using: &random) < 7 ? [0x0A] : WebVTTWholeBlockTests.terminators.randomElement(using: &random)!
            }
        }
        return bytes
    }

    /// The file read in chunks of `chunkSize`, with `taker` (which records the events too) or without.
    static func read(_ bytes: [UInt8], chunkSize: Int, taker: Taker?) throws -> [Entry] {
        var reader = WebVTTReader()
        let hooks = WebVTTReaderHooks(cueSink: taker)
        var entries: [Entry] = []
        func handle(_ event: TrackEvent) {
            if let taker { taker.entries.append(.event(event)) } else { entries.append(.event(event)) }
        }
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunkSize)
            try bytes[offset..<end].withUnsafeBytes { try reader.feed($0, hooks: hooks, to: handle) }
            offset = end
        }
        try reader.finish(hooks: hooks, to: handle)
        return taker?.entries ?? entries
    }

    /// What the writer writes for `cue` after a header and `regions`: an empty line, then the
    /// cue's block.
    static func writtenBlock(_ cue: Cue, regions: [CueRegion] = []) throws -> [UInt8] {
        var header = WebVTTWriter(to: MemorySink())
        try header.write(.header(""))
        for region in regions { try header.write(.region(region)) }
        if !regions.isEmpty { try header.finish() }
        var writer = WebVTTWriter(to: MemorySink())
        try writer.write(.header(""))
        for region in regions { try writer.write(.region(region)) }
        try writer.write(.cue(cue))
        #expect(writer.diagnostics.isEmpty, "the writer changed \(cue)")
        return Array(writer.sink.bytes.dropFirst(header.sink.bytes.count))
    }

    @Test func aTakenBlockIsWhatTheWriterWritesForTheCueItReplaces() throws {
        var random = SeededRandom(seed: 0xB10C_7A4E)
        var taken = 0
        var rewritten = 0
        for file in 0..<400 {
            let bytes = Self.randomFile(&random)
            let expected = try Self.read(bytes, chunkSize: bytes.count, taker: nil)
            for chunkSize in [bytes.count, 1 << 16, 97, 7] {
                let taker = Taker { $0 % 3 != 0 }
                let actual = try Self.read(bytes, chunkSize: chunkSize, taker: taker)
                let context = "file \(file), chunks of \(chunkSize): \(String(decoding: bytes, as: UTF8.self).debugDescription)"
                guard actual.count == expected.count else {
                    Issue.record("\(actual.count) entries for \(expected.count) events; \(context)")
                    continue
                }
                for (entry, event) in zip(actual, expected) {
                    guard case .block(let block, let start, let end) = entry else {
                        #expect(entry == event, "\(context)")
                        continue
                    }
                    guard case .event(.cue(let cue)) = event else {
                        Issue.record("a block where the event is \(event); \(context)")
                        continue
                    }
                    #expect(start == cue.start && end == cue.end, "\(context)")
                    #expect(try Self.writtenBlock(cue) == [0x0A] + block, "\(cue); \(context)")
                    taken += 1
                    if !cue.settings.isDefault { rewritten += 1 }
                }
            }
        }
        // Plenty of blocks taken, many with settings (their timing lines written again).
        #expect(taken > 2_000)
        #expect(rewritten > 500)
    }

    /// A track whose cues each have settings of their own, far more than the copier's settings
    /// cache keeps (it gives up, and writes each cue's settings for it alone), in every form: each
    /// block taken is what the writer writes for its cue, and a block whose settings the writer
    /// would not write as they are is refused.
    @Test func settingsOfTheirOwnOnEveryCueAreWrittenAsTheWriterWritesThem() throws {
        var random = SeededRandom(seed: 0x5E77_1265)
        let forms: [(inout SeededRandom) -> String] = [
            { " line:\(Int.random(in: -3...100, using: &$0))\(["", "%", "%,center", ",end", ",start"].randomElement(using: &$0)!)" },
            { " position:\(Int.random(in: 0...101, using: &$0))%\(["", ",line-left", ",center", ",line-right"].randomElement(using: &$0)!)" },
            { " size:\(Int.random(in: 0...100, using: &$0))\(["%", ".5%"].randomElement(using: &$0)!)" },
            { " align:\(["start", "center", "end", "left", "right", "middle"].randomElement(using: &$0)!)" },
            { [" vertical:rl", " vertical:lr", " region:r1", " line:0.25%"].randomElement(using: &$0)! },
        ]
        var text = "WEBVTT\n\nREGION\nid:r1 width:40%\n\n"
        for index in 0..<3_000 {
            let settings = (0..<Int.random(in: 0...4, using: &random)).map { _ in forms.randomElement(using: &random)!(&random) }.joined()
            let start = index * 1_000
            let hours = Int.random(in: 0..<4, using: &random) == 0 ? "" : "00:"
            text += "\(hours)\(CueTimestamp.format(start).suffix(9)) --> \(CueTimestamp.format(start + 900))\(settings)\ncue \(index)\n\n"
        }
        let bytes = Array(text.utf8)
        let expected = try Self.read(bytes, chunkSize: bytes.count, taker: nil)
        for namesRegion in [false, true] {
            let taker = Taker(namesRegion: { _ in namesRegion }) { _ in true }
            let actual = try Self.read(bytes, chunkSize: 1 << 16, taker: taker)
            #expect(actual.count == expected.count)
            let regions = expected.compactMap { entry -> CueRegion? in
                if case .event(.region(let region)) = entry { return region }
                return nil
            }
            var taken = 0
            for (entry, event) in zip(actual, expected) {
                guard case .block(let block, _, _) = entry else {
                    #expect(entry == event)
                    continue
                }
                guard case .event(.cue(let cue)) = event else {
                    Issue.record("a block where the event is \(event)")
                    continue
                }
                #expect(namesRegion || cue.settings.region == nil, "a block taken in a region the writer does not name: \(cue)")
                let written = try Self.writtenBlock(cue, regions: cue.settings.region == nil ? [] : regions)
                #expect(written == [0x0A] + block, "\(cue)")
                taken += 1
            }
            #expect(taken > 1_000, "\(taken) blocks taken")
        }
    }

    /// With the writer naming the track's region, a block in it is copied too, and is what the
    /// writer writes for its cue after the region's definition.
    @Test func aBlockInARegionTheWriterNamesIsWhatItWritesForTheCue() throws {
        var random = SeededRandom(seed: 0x2E61_0)
        var takenInRegion = 0
        for file in 0..<600 {
            let bytes = Self.randomFile(&random)
            let expected = try Self.read(bytes, chunkSize: bytes.count, taker: nil)
            let regions = expected.compactMap { entry -> CueRegion? in
                if case .event(.region(let region)) = entry { return region }
                return nil
            }
            guard !regions.isEmpty else { continue }
            let taker = Taker(namesRegion: { $0 == "r1" }) { _ in true }
            let actual = try Self.read(bytes, chunkSize: bytes.count, taker: taker)
            let context = "file \(file): \(String(decoding: bytes, as: UTF8.self).debugDescription)"
            guard actual.count == expected.count else {
                Issue.record("\(actual.count) entries for \(expected.count) events; \(context)")
                continue
            }
            for (entry, event) in zip(actual, expected) {
                guard case .block(let block, _, _) = entry, case .event(.cue(let cue)) = event else { continue }
                #expect(try Self.writtenBlock(cue, regions: regions) == [0x0A] + block, "\(cue); \(context)")
                if cue.settings.region != nil { takenInRegion += 1 }
            }
        }
        #expect(takenInRegion > 40)
    }

    @Test func refusedBlocksLeaveTheEventsAsTheyAre() throws {
        var random = SeededRandom(seed: 0x2EF0_5ED)
        var offers = 0
        for file in 0..<400 {
            let bytes = Self.randomFile(&random)
            let expected = try Self.read(bytes, chunkSize: bytes.count, taker: nil)
            let taker = Taker { _ in false }
            #expect(try Self.read(bytes, chunkSize: 1 << 16, taker: taker) == expected, "file \(file)")
            offers += taker.copies
        }
        #expect(offers > 1_000)
    }

    /// A sink that takes every block, noting whether the cache held its text's parse when offered.
    final class ParseWatcher: WebVTTCueSink {
        let cache: CueTextParseCache
        var heldWhenOffered: [Bool] = []
        var events = 0

        init(cache: CueTextParseCache) { self.cache = cache }

        var takesCues: Bool { true }

        func see(_ cue: WebVTTCueAsRead) { Issue.record("a cue shown to a sink that takes cues") }

        func take(_ read: WebVTTCueBlockAsRead, settings: borrowing CueSettings) -> Bool {
            heldWhenOffered.append(cache.holds(bytes: read.text))
            return true
        }
    }

    /// A reader that shares its cue text parses (``CueTextParseCache``, as for a TTML writer) still
    /// shows blocks to a sink that takes cues, and leaves the parse of an offered block's text with
    /// markup for it, as that text's bytes (a TTML writer writes the cue from the block).
    @Test func blocksAreOfferedWithTheirTextsParseShared() throws {
        let cache = CueTextParseCache()
        let bytes = Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<b>bold</b> text\n\n00:00:03.000 --> 00:00:04.000 align:start\nplain\n\n".utf8)
        let watcher = ParseWatcher(cache: cache)
        var reader = WebVTTReader()
        let hooks = WebVTTReaderHooks(cueSink: watcher, cueTextParseCache: cache)
        func handle(_ event: TrackEvent) { if case .cue = event { watcher.events += 1 } }
        try bytes.withUnsafeBytes { try reader.feed($0, hooks: hooks, to: handle) }
        try reader.finish(hooks: hooks, to: handle)
        // Both blocks taken, no cue event; the bold cue's parse is there when its block is
        // offered, and plain text is not parsed.
        #expect(watcher.events == 0)
        #expect(watcher.heldWhenOffered == [true, false])
        var parsed = CueTextEvents.Parsed()
        cache.handOver(into: &parsed)
        #expect(parsed.events.first == .open(.bold, classes: 0..<0, annotation: 0..<0))
    }

    /// The writer's own output, read in one chunk, is copied whole, block for block: every cue but
    /// those the copier cannot vouch for (one in a region, one that does not end after it starts).
    @Test func theWritersOwnOutputIsOfferedWhole() throws {
        var generator = TrackGenerator(options: .init(cues: 3_000, seed: 5, format: .webVTT))
        var source = MemorySink()
        try generator.write(to: &source)
        let track = try WebVTTReader.read(bytes: source.bytes).track
        var writer = WebVTTWriter(to: MemorySink())
        try writer.write(track)
        // An empty line after the last block, as after every other: a block that ends the input
        // is read line by line (the fast path takes only blocks it sees end).
        let written = writer.sink.bytes + [0x0A]
        let read = try WebVTTReader.read(bytes: written).track
        let taker = Taker { _ in true }
        let entries = try Self.read(written, chunkSize: written.count, taker: taker)
        let blocks = entries.compactMap { entry -> [UInt8]? in
            if case .block(let bytes, _, _) = entry { return bytes }
            return nil
        }
        let vouched = read.cues.filter { $0.settings.region == nil && $0.end > $0.start }
        #expect(blocks.count == vouched.count)
        #expect(blocks.count > 2_000)
        for (block, cue) in zip(blocks, vouched) {
            #expect(try Self.writtenBlock(cue) == [0x0A] + block)
        }
    }
}
