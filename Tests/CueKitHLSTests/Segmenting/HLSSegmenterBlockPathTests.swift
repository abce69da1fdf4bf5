import CueKit
import CueKitConversion
import CueKitHLS
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// Read from WebVTT, the segmenter takes cue blocks as they were read where it can (the block
/// path), and cues otherwise (the event path): the segments, the playlist and the diagnostics must
/// be the same as when every cue comes as an event, on random files with regions, style sheets,
/// cues spanning several segments, and cues the block path must refuse (in a region, ending
/// before they start, timing lines and settings written in another form).
@Suite struct HLSSegmenterBlockPathTests {
    /// A consumer that takes events alone, so that the reader offers it no cue block.
    struct EventsOnly: TrackEventConsumer {
        var segmenter: HLSSegmenter<HLSMemoryDestination>
        mutating func take(_ event: TrackEvent) throws { try segmenter.take(event) }
    }

    /// A random WebVTT file: regions (some named by no cue, some cues naming undefined ones),
    /// style sheets, notes, and cues in start-time order with identifiers, settings, markup,
    /// several lines, long spans, and ends not after their starts.
    static func randomFile(_ random: inout SeededRandom) -> (text: String, cues: Int) {
        var text = "WEBVTT\n\n"
        let regionIDs = ["left", "right", "top"]
        for id in regionIDs where Bool.random(using: &random) {
            let width = Int.random(in: 10...100, using: &random)
            text += "REGION\nid:\(id)\nwidth:\(width)%\nlines:\(Int.random(in: 1...4, using: &random))\n\n"
        }
        if Bool.random(using: &random) { text += "STYLE\n::cue(.c\(Int.random(in: 0...9, using: &random))) { color: lime; }\n\n" }
        let settings = [
            "", "", "", " align:start", " position:10% align:left", " line:0 size:50%", " size:50% line:-2", " vertical:rl",
            " line:10%,end position:40%,line-right", " region:left", " region:right align:end", " region:nowhere", " align:middle",
            // Regions a later setting takes the cue out of, or not.
            " region:left line:0", " line:0 region:left", " region:top size:80%", " region:right size:100% position:20%",
            " region:left vertical:lr", " region:top region:left",
        ]
        let texts = [
            "plain words", "two\nlines", "<b>bold</b> &amp; <i>italic</i>", "<v Yuki>a voice</v>", "<c.yellow>class</c> 3 &lt; 4",
            "日本語のテキスト", "",
        ]
        var time = 0
        let count = Int.random(in: 1...80, using: &random)
        for index in 0..<count {
            time += Int.random(in: 0...3_000, using: &random)
            let length: Int
            switch Int.random(in: 0..<12, using: &random) {
            case 0: length = 0
            case 1: length = -Int.random(in: 1...500, using: &random)
            case 2, 3: length = Int.random(in: 5_000...30_000, using: &random)
            default: length = Int.random(in: 1...5_000, using: &random)
            }
            if Int.random(in: 0..<8, using: &random) == 0 { text += "NOTE between cues \(index)\n\n" }
            if Bool.random(using: &random) { text += "cue-\(index)\n" }
            let start = time
            let end = max(0, time + length)
            let fullForm = Int.random(in: 0..<4, using: &random) != 0
            text += Self.timestamp(start, fullForm: fullForm) + " --> " + Self.timestamp(end, fullForm: fullForm)
            text += settings.randomElement(using: &random)!
            text += "\n"
            let body = texts.randomElement(using: &random)!
            if !body.isEmpty { text += body + "\n" }
            text += "\n"
        }
        return (text, count)
    }

    /// `hh:mm:ss.ttt`, or `mm:ss.ttt` when not `fullForm` and under an hour.
    static func timestamp(_ milliseconds: Int, fullForm: Bool) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = milliseconds % 1000
        let three = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        let seconds = milliseconds / 1000
        let minutesAndSeconds = two(seconds / 60 % 60) + ":" + two(seconds % 60) + "." + three
        return fullForm || seconds >= 3600 ? two(seconds / 3600) + ":" + minutesAndSeconds : minutesAndSeconds
    }

    static func randomOptions(_ random: inout SeededRandom) -> HLSSegmentOptions {
        var options = HLSSegmentOptions(segmentDuration: Int.random(in: 500...8_000, using: &random))
        options.segmentsInOneFile = Bool.random(using: &random)
        // Mostly the layout blocks are copied in; sometimes another, where every cue is an event.
        if Int.random(in: 0..<4, using: &random) == 0 {
            options.webVTT = WebVTTWriterOptions(lineEnding: Bool.random(using: &random) ? .crlf : .lf, hours: .whenNeeded)
        }
        return options
    }

    @Test(arguments: 0..<60)
    func blocksAndEventsMakeTheSameSegments(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let (text, cueCount) = Self.randomFile(&random)
        let options = Self.randomOptions(&random)
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(text, to: "track.vtt")
        let source = try TrackSource(path: folder.file("track.vtt"))

        var blocks = HLSSegmenter(options: options, to: HLSMemoryDestination())
        try source.stream(into: &blocks)
        try blocks.finish()
        var events = EventsOnly(segmenter: HLSSegmenter(options: options, to: HLSMemoryDestination()))
        try source.stream(into: &events)
        try events.segmenter.finish()

        #expect(blocks.destination == events.segmenter.destination, "seed \(seed)")
        #expect(blocks.diagnostics == events.segmenter.diagnostics, "seed \(seed)")
        #expect(blocks.counts == events.segmenter.counts, "seed \(seed)")
        #expect(blocks.counts.cues == cueCount, "seed \(seed)")
        #expect(events.segmenter.blocksCopied == 0)
        if WebVTTWriter<MemorySink>.copiesCueBlocks(with: options.webVTT) {
            // Blocks were taken, though not every cue's: some the block path refuses.
            #expect(blocks.blocksCopied > 0 || cueCount < 4, "seed \(seed)")
            #expect(blocks.blocksCopied <= cueCount)
        } else {
            #expect(blocks.blocksCopied == 0)
        }
    }

    /// The same through the conversion that every door segments with: the track converted, read
    /// back with its blocks, or as events.
    @Test(arguments: 0..<20)
    func aConversionReadBackWithBlocksMakesTheSameSegments(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(1_000 + seed))
        let (text, _) = Self.randomFile(&random)
        let options = Self.randomOptions(&random)
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(text, to: "track.vtt")
        var conversionOptions = TrackConversion.Options()
        if Bool.random(using: &random) { conversionOptions.timing = TimingEdit(shift: 1_500) }
        let conversion = TrackConversion(source: try TrackSource(path: folder.file("track.vtt")), options: conversionOptions)

        var blocks = HLSSegmenter(options: options, to: HLSMemoryDestination())
        var blockReports: [ConversionDiagnostic] = []
        try conversion.stream(convertedInto: &blocks) { blockReports.append($0) }
        try blocks.finish()
        var events = EventsOnly(segmenter: HLSSegmenter(options: options, to: HLSMemoryDestination()))
        var eventReports: [ConversionDiagnostic] = []
        try conversion.stream(convertedInto: &events) { eventReports.append($0) }
        try events.segmenter.finish()

        #expect(blocks.destination == events.segmenter.destination, "seed \(seed)")
        #expect(blocks.diagnostics == events.segmenter.diagnostics, "seed \(seed)")
        #expect(blockReports == eventReports, "seed \(seed)")
        if WebVTTWriter<MemorySink>.copiesCueBlocks(with: options.webVTT), blocks.counts.cues > 3 {
            #expect(blocks.blocksCopied > 0, "seed \(seed)")
        }
    }
}
