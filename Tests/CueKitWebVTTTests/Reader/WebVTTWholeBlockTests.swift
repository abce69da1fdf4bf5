import CueKit
import CueKitSynthetic
import CueKitTestSupport
import Testing

@testable import CueKitWebVTT

/// The reader's fast path (ordinary cue blocks read straight from the chunk) against the
/// line-by-line path that follows the spec's algorithm: the same events, diagnostics included,
/// on random files built from the lines that tell the two apart.
@Suite struct WebVTTWholeBlockTests {
    /// Lines that make a block a cue, or stop it being one, or end it early, or need repair.
    static let lines: [[UInt8]] = textLines.map { Array($0.utf8) } + rawLines

    static let textLines: [String] = [
        "00:00:01.000 --> 00:00:02.000", "00:01.000 --> 00:02.500 align:start size:50% position:10%,line-left",
        "00:00:05.000 --> 00:00:04.000", "01:00.000 --> 00:59.000 line:-2 region:r1", "00:00:03.000 -->", "x --> y",
        "00:00:07.000-->00:00:08.000", "0:00:01.000 --> 0:00:02.000 vertical:rl", "00:00:09.000 --> 00:00:10.000 bogus:1 align:end size:40%",
        // Settings texts that come back from cue to cue, read once and then recalled (or, with
        // something to report, read every time).
        "00:00:11.000 --> 00:00:12.000 line:0", "00:00:12.000 --> 00:00:13.000 region:r1", "00:00:13.000 --> 00:00:14.000 region:r1 vertical:lr",
        "00:00:14.000 --> 00:00:15.000 align:start size:50%", "00:00:15.000 --> 00:00:16.000 line:0",
        "c1", "c1", "2", "3", "NOTE a comment", "NOTE", "STYLE", "REGION", "id:r1 width:40%", "::cue { color: red }",
        "plain words here", "<b>bold</b> and <i>italic", "<v Ann>voice</v>", "<lang en-US>hi</lang> <lang x_y>no</lang>",
        "&amp; &lt; &bogus; & &#x41;", "<c.a.b>classes</c> </b> <zz>", "<00:00:01.500> <00:00:09.000> timestamps",
        "<ruby>漢<rt>kan</rt></ruby>", "가요 네 괜찮아요", "émigré 😀", "text --> arrow", "-->", "--", "-- >",
        "\t  ", "WEBVTT",
    ]

    /// Invalid UTF-8, a NUL, a byte order mark.
    static let rawLines: [[UInt8]] = [[0x62, 0x61, 0x64, 0xFF, 0x21], [0xE2, 0x82], [0x6E, 0x00, 0x6C], [0xEF, 0xBB, 0xBF, 0x61]]

    static let terminators: [[UInt8]] = [[0x0A], [0x0A], [0x0A], [0x0A], [0x0A], [0x0A, 0x0A], [0x0A, 0x0A], [0x0D, 0x0A], [0x0D]]

    /// A random file: a header, then lines and line breaks of every kind.
    static func randomFile(_ random: inout SeededRandom) -> [UInt8] {
        var bytes: [UInt8] = Array("WEBVTT\n\n".utf8)
        if Bool.random(using: &random) {
            bytes += Array("REGION\nid:r1 width:40%\n\nSTYLE\n::cue { color: lime }\n\n".utf8)
        }
        for _ in 0..<Int.random(in: 1...60, using: &random) {
            bytes += lines.randomElement(using: &random)!
            bytes += Int.random(in: 0..<10, using: &random) < 7 ? [0x0A] : terminators.randomElement(using: &random)!
        }
        return bytes
    }

    /// `events` written twice: by a writer that copies the read cue text, and by one that checks it.
    static func writtenBothWays(_ events: [TrackEvent]) throws -> (copied: WebVTTWriter<MemorySink>, checked: WebVTTWriter<MemorySink>) {
        var checked = WebVTTWriter(to: MemorySink())
        var copied = WebVTTWriter(to: MemorySink())
        copied.copiesReadCueText = true
        for event in events {
            try checked.write(event)
            try copied.write(event)
        }
        try checked.finish()
        try copied.finish()
        return (copied, checked)
    }

    static func events(_ bytes: [UInt8], wholeBlocks: Bool, chunkSize: Int) -> ChunkingVerifier.Outcome {
        ChunkingVerifier.read(bytes, chunkSizes: { chunkSize }) {
            var reader = WebVTTReader()
            reader.readsWholeBlocks = wholeBlocks
            return reader
        }
    }

    /// Expects the fast path to give the line-by-line path's events on `bytes`, read whole and in
    /// chunks of four sizes; returns the number of cues.
    static func expectTheFastPathsEvents(_ bytes: [UInt8], file: Int) -> Int {
        let expected = events(bytes, wholeBlocks: false, chunkSize: bytes.count)
        for chunkSize in [bytes.count, 1 << 16, 7, 64] {
            let actual = events(bytes, wholeBlocks: true, chunkSize: chunkSize)
            #expect(actual == expected, "file \(file), chunks of \(chunkSize): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        guard case .success(let events) = expected else { return 0 }
        return events.count { if case .cue = $0 { true } else { false } }
    }

    @Test func theFastPathGivesTheEventsOfTheLineByLinePath() {
        var random = SeededRandom(seed: 0xB10C)
        var fastBlocksSeen = 0
        for file in 0..<400 {
            fastBlocksSeen += Self.expectTheFastPathsEvents(Self.randomFile(&random), file: file)
        }
        // The files hold plenty of cues for the fast path to take.
        #expect(fastBlocksSeen > 1_000)
    }

    /// Settings texts come back from cue to cue in real files; the fast path reads each once and
    /// then recalls it (``CueSettingsCache``), unless its parse reported something. Files of
    /// well-formed cue blocks whose settings come from a small pool, some with problems, some
    /// naming a region, give the line-by-line path's events, every diagnostic of every cue included.
    @Test func recalledSettingsGiveTheEventsOfTheLineByLinePath() {
        let settings = [
            "", " line:0", " align:start position:10%,line-left", " region:r1", " region:r1 vertical:lr", " region:r2",
            " bogus:1 align:end", " align:start size:50%", " line:0 line:1", " size:60% line:-2", " vertical:rl line:90% align:start",
            " line:50%,center", "\tline:0", " line:0 ", " position:120%",
        ]
        var random = SeededRandom(seed: 0x5E77)
        var cues = 0
        for file in 0..<200 {
            var text = "WEBVTT\n\n"
            if Bool.random(using: &random) { text += "REGION\nid:r1 width:40%\n\n" }
            for index in 0..<Int.random(in: 1...40, using: &random) {
                let start = index * 1_000
                let times = "\(CueTimestamp.format(start)) --> \(CueTimestamp.format(start + 900))"
                text += "\(times)\(settings.randomElement(using: &random)!)\ncue \(index)\n\n"
            }
            cues += Self.expectTheFastPathsEvents(Array(text.utf8), file: file)
        }
        #expect(cues > 3_000)
    }

    /// What ``WebVTTWriter/copiesReadCueText`` relies on: the reader never hands out an
    /// identifier or a cue text the writer would have to change.
    @Test func theReaderNeverHandsOutTextTheWriterWouldChange() throws {
        var random = SeededRandom(seed: 0x5AFE)
        var cues = 0
        for file in 0..<400 {
            let bytes = Self.randomFile(&random)
            guard case .success(let events) = Self.events(bytes, wholeBlocks: true, chunkSize: 13) else { continue }
            for case .cue(var cue) in events {
                cues += 1
                let safeText = cue.text.withUTF8 { WebVTTBlockText.isSafeCueText($0) }
                let safeID = cue.id.withUTF8 { WebVTTBlockText.isSafeLine($0) }
                #expect(safeText && safeID, "file \(file): \(cue)")
            }
            let (copied, checked) = try Self.writtenBothWays(events)
            #expect(copied.sink.bytes == checked.sink.bytes, "file \(file)")
            #expect(copied.diagnostics == checked.diagnostics, "file \(file)")
        }
        #expect(cues > 1_000)
    }

    /// Every shape the generator makes, so that a shape the fast path does not know falls back to
    /// the line-by-line path rather than reads it differently: the same events, in chunks of every
    /// size, and the same bytes written whether the writer copies the read text or checks it.
    @Test(arguments: TrackGenerator.Shape.allCases.filter { $0.supports(.webVTT) })
    func aGeneratedTrackOfEveryShapeReadsTheSameEitherWay(shape: TrackGenerator.Shape) throws {
        var generator = TrackGenerator(options: .init(cues: 600, seed: 11, format: .webVTT, shape: shape))
        var sink = MemorySink()
        try generator.write(to: &sink)
        let bytes = sink.bytes
        #expect(Self.expectTheFastPathsEvents(bytes, file: 0) == 600, "\(shape)")
        let events = try Self.events(bytes, wholeBlocks: true, chunkSize: 1 << 16).get()
        let (copied, checked) = try Self.writtenBothWays(events)
        #expect(copied.sink.bytes == checked.sink.bytes, "\(shape)")
    }
}
