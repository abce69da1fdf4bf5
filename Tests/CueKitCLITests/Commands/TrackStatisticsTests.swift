import CueKit
import CueKitConversion
import CueKitSynthetic
import Foundation
import CueKitTestSupport
import CueKitWebVTT
import Testing

@testable import CueKitCLI

/// Statistics counted from the common markup's runs of text (`CueTextQuickCheck`) are those
/// counted from the parser's events, and streamed cues count as the cues of a track read whole.
struct TrackStatisticsTests {
    /// A track read through a transcoding reader (`--encoding`) still shows each cue's bytes to the
    /// statistics: the byte hooks go through the transcoder to the WebVTT reader.
    @Test func statisticsCountTranscodedText() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let latin1: [UInt8] = Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\ncaf".utf8) + [0xE9] + Array(" cr".utf8) + [0xE8] + Array("me\n".utf8)
        ExternalProcess.writeBytes(latin1, to: folder.file("latin1.vtt"))
        var options = TrackSource.Options()
        options.encoding = .latin1
        let source = try TrackSource(path: folder.file("latin1.vtt"), format: .webVTT, options: options)
        var collector = StatisticsCollector(TrackStatistics(maximumCharactersPerSecond: 12, maximumLineLength: 30))
        try source.streamForCommand(statistics: &collector)
        var whole = TrackStatistics(maximumCharactersPerSecond: 12, maximumLineLength: 30)
        try source.streamForCommand { if case .cue(let cue) = $0 { whole.add(cue) } }
        #expect(collector.statistics.cueCount == 1)
        #expect(collector.statistics.text(name: "t", format: "WebVTT") == whole.text(name: "t", format: "WebVTT"))
    }

    @Test func theCommonMarkupScanCountsAsTheParse() throws {
        var generator = TrackGenerator(options: .init(cues: 3000, seed: 3, format: .webVTT))
        var sink = MemorySink()
        try generator.write(to: &sink)
        let bytes = sink.bytes
        let cues = try WebVTTReader.read(bytes: bytes).track.cues

        var parsed = TrackStatistics(maximumCharactersPerSecond: 12, maximumLineLength: 30)
        parsed.countsCommonMarkupByScan = false
        for cue in cues { parsed.add(cue) }

        var streamed = TrackStatistics(maximumCharactersPerSecond: 12, maximumLineLength: 30)
        var reader = WebVTTReader()
        func take(_ event: TrackEvent) {
            if case .cue(let cue) = event { streamed.add(cue) }
        }
        try bytes.withUnsafeBytes { try reader.feed($0, to: take) }
        try reader.finish(to: take)

        let scanned = cues.count { cue in
            var text = cue.text
            return text.withUTF8 { CueTextEvents.hasMarkup(bytes: $0) && CueTextQuickCheck.isClean(UnsafeRawBufferPointer($0)) }
        }
        #expect(scanned > 1000, "most marked-up cues are counted by the scan")
        #expect(streamed.text(name: "t", format: "WebVTT") == parsed.text(name: "t", format: "WebVTT"))
        #expect(streamed.fastCount > 0 && streamed.longLineCount > 0)
    }

    /// `inspect --stats` on WebVTT takes each cue's identifier and text as bytes from the reader
    /// (``StatisticsCollector``), with no string of the text and no diagnostic looked for: it
    /// finds what whole cues, read with every check, give, on a generated track and on every
    /// WebVTT fixture and conformance file (identifiers, repairs, broken markup, notes, regions).
    /// Timestamp tags of every kind (in order, out of order, beyond the cue, malformed, holding
    /// `<`, `&` or spaces, left open) are passed over by the scan as the parser's text has them.
    @Test func timestampTagsCountAsTheParseHasThem() {
        let pieces = [
            "word", " ", "\n", "é字", "<00:00:01.500>", "<00:00:09.000>", "<00:02.000>", "<99:00:00.000>", "<00:1>", "<1 &amp; x>",
            "<2<b>", "<3 >", "<0>", "<00:00:01.000", "<i>", "</i>", "<v Ann>", "</v>", "&amp;", "<b>", "</b>",
        ]
        var random = SeededRandom(seed: 0x7157)
        var cues: [Cue] = []
        for index in 0..<2_000 {
            let text = (0..<Int.random(in: 1...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            cues.append(Cue(id: "", start: index * 1_000, end: index * 1_000 + 2_000, text: text))
        }
        var parsed = TrackStatistics(maximumCharactersPerSecond: 12, maximumLineLength: 10)
        parsed.countsCommonMarkupByScan = false
        var scanned = TrackStatistics(maximumCharactersPerSecond: 12, maximumLineLength: 10)
        for cue in cues {
            parsed.add(cue)
            scanned.add(cue)
        }
        #expect(scanned.text(name: "t", format: "WebVTT") == parsed.text(name: "t", format: "WebVTT"))
        // Most cues with a timestamp tag are counted by the scan, not parsed.
        let byScan = cues.count { cue in
            var text = cue.text
            return text.contains("<0") && text.withUTF8 { bytes in
                var counter = CueTextLineCounter(maximumLineLength: 10)
                return counter.countCommonMarkup(UnsafeRawBufferPointer(bytes))
            }
        }
        #expect(byScan > 300)
    }

    @Test func cueBytesFromTheReaderCountAsWholeCues() throws {
        var generator = TrackGenerator(options: .init(cues: 3000, seed: 5, format: .webVTT))
        var sink = MemorySink()
        try generator.write(to: &sink)
        let generated = FileManager.default.temporaryDirectory.appendingPathComponent("cuekit-stats-\(UUID().uuidString).vtt").path
        try Data(sink.bytes).write(to: URL(fileURLWithPath: generated))
        defer { try? FileManager.default.removeItem(atPath: generated) }

        var compared = 0
        for path in [generated] + TestPaths.files(in: TestPaths.fixtures, suffixes: [".vtt"]) {
            let source = try TrackSource(path: path, format: .webVTT)
            var whole = TrackStatistics(maximumCharactersPerSecond: 12, maximumLineLength: 30)
            let wholeError = Result { try source.streamForCommand { if case .cue(let cue) = $0 { whole.add(cue) } } }
            var collector = StatisticsCollector(TrackStatistics(maximumCharactersPerSecond: 12, maximumLineLength: 30))
            let bytesError = Result { try source.streamForCommand(statistics: &collector) }
            #expect(((try? wholeError.get()) != nil) == ((try? bytesError.get()) != nil), "\(path)")
            #expect(collector.statistics.text(name: "t", format: "WebVTT") == whole.text(name: "t", format: "WebVTT"), "\(path)")
            if whole.cueCount > 0 { compared += 1 }
        }
        #expect(compared > 100)
    }

    /// The byte-level counts agree with Swift's own view of the text: scalars counted a word at a
    /// time, and "has a visible character" from the White_Space list, on 20,000 random lines.
    @Test func bytesAreCountedAsTheirScalarsAndWhiteSpaceIsUnicodes() {
        // White space first: half the lines are made of it alone.
        let pieces = [" ", "\t", "\u{A0}", "\u{3000}", "\u{2009}", "\u{85}", "\u{1680}", "a", "é", "가요", "😀", "שלום", "\u{200B}", "\u{FEFF}", "-"]
        var random = SeededRandom(seed: 0x57A7_0001)
        var visibleLines = 0
        for _ in 0..<20_000 {
            let choices = UInt64(random.next() % 2 == 0 ? 7 : pieces.count)
            let text = (0..<Int(random.next() % 24)).map { _ in pieces[Int(random.next() % choices)] }.joined()
            let bytes = Array(text.utf8)
            let visible = text.unicodeScalars.contains { !$0.properties.isWhitespace }
            if visible { visibleLines += 1 }
            bytes.withUnsafeBufferPointer { buffer in
                #expect(UTF8Bytes.scalarCount(buffer) == text.unicodeScalars.count, "\(text.debugDescription)")
                #expect(CueTextLineCounter.hasVisibleCharacter(UnsafeRawBufferPointer(buffer)) == visible, "\(text.debugDescription)")
            }
        }
        #expect(visibleLines > 2_000 && visibleLines < 18_000, "\(visibleLines) of 20,000 lines have a visible character")
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if CueTextLineCounter.isWhiteSpace(value) != scalar.properties.isWhitespace {
                Issue.record("U+\(String(value, radix: 16)): White_Space is \(scalar.properties.isWhitespace)")
            }
        }
    }
}
