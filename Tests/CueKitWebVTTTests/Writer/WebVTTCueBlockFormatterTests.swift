import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// Cue blocks formatted apart from any file (``WebVTTCueBlockFormatter``): each is, byte for byte,
/// what a ``WebVTTWriter`` with the same options writes for the cue in a file that defines the
/// same regions, wherever the cue comes; a cue the writer reports something about, or whose region
/// is not defined, gets no block.
@Suite struct WebVTTCueBlockFormatterTests {
    static let regions = [CueRegion(id: "left"), CueRegion(id: "bad id")]

    /// A random cue: settings, regions defined, undefined and unwritable, texts the writer changes,
    /// times it reports.
    static func randomCue(_ random: inout SeededRandom) -> Cue {
        var settings = CueSettings()
        switch Int.random(in: 0..<8, using: &random) {
        case 0: settings.region = "left"
        case 1: settings.region = "nowhere"
        case 2: settings.region = "bad id"
        case 3: settings.alignment = .start
        case 4: settings.size = Double(Int.random(in: 0...150, using: &random))
        case 5: settings.line = .percentage(Double(Int.random(in: 0...100, using: &random)))
        default: break
        }
        let texts = ["plain", "two\nlines", "<b>bold</b> &amp;", "an --> arrow", "\nleading break", ""]
        let start = Int.random(in: -1_000...100_000, using: &random)
        let end = start + Int.random(in: -500...8_000, using: &random)
        let id = Bool.random(using: &random) ? "" : "cue \(Int.random(in: 0...99, using: &random))"
        return Cue(id: id, start: start, end: end, settings: settings, text: texts.randomElement(using: &random)!)
    }

    @Test(arguments: 0..<30)
    func aBlockIsWhatAWriterWritesForItsCue(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let options = WebVTTWriterOptions(
            lineEnding: Bool.random(using: &random) ? .lf : .crlf, hours: Bool.random(using: &random) ? .always : .whenNeeded)
        var formatter = WebVTTCueBlockFormatter(options: options, regions: Self.regions)
        var blocks = 0
        var refused = 0
        for _ in 0..<40 {
            let cue = Self.randomCue(&random)
            // A file of the regions, a cue or two before (the regions are written with the first), then this one.
            var writer = WebVTTWriter(to: MemorySink(), options: options)
            try writer.write(.header(""))
            for region in Self.regions { try writer.write(.region(region)) }
            for _ in 0..<Int.random(in: 1...2, using: &random) { try writer.write(.cue(Cue(start: 0, end: 1_000, text: "before"))) }
            let before = writer.sink.bytes.count
            let issuesBefore = writer.diagnostics.count
            try writer.write(.cue(cue))
            try writer.finish()
            let written = Array(writer.sink.bytes[before...])
            let reported = writer.diagnostics.count > issuesBefore

            var bytes: [UInt8] = [1, 2, 3]
            if formatter.appendBlock(of: cue, to: &bytes) {
                blocks += 1
                #expect(!reported, "seed \(seed): \(cue)")
                #expect(Array(bytes.dropFirst(3)) == written, "seed \(seed): \(cue)")
            } else {
                refused += 1
                #expect(bytes == [1, 2, 3])
                let undefined = cue.settings.region.map { $0 != "left" } ?? false
                #expect(reported || undefined, "seed \(seed): \(cue)")
            }
        }
        #expect(blocks > 0 && refused > 0, "seed \(seed)")
    }
}
