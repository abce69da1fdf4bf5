import CueKit
import CueKitSubRip
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// Random and mutated input: the reader never crashes, gives the same events however the input
/// is cut into chunks, and whatever it emits keeps the model's rules.
@Suite struct SubRipRobustnessTests {
    /// Pieces that SubRip files are made of, so that random input reaches deep into the reader.
    static let vocabulary: [[UInt8]] =
        [
            "1", "2", "42", "\n", "\r\n", "\r", "\n\n", " ", "\t", "00:00:01,000", "00:00:02.5", "0:1:2",
            " --> ", "-->", "->", ",", ".", ":", "<i>", "</i>", "<b>", "</b>", "<u>", "</u>", "<font color=\"#ff8000\">",
            "<font color=red face=x>", "<FONT COLOR='Blue'>", "<font color=#abc>", "< font color=\"orange\" >", "</font>", "<s>", "<br/>",
            "<x>", "<", ">", "&", "{\\an8}", "{\\i1}", "{", "}",
            "X1:10 X2:20", "text", "é", "字幕", "🎬", "\u{FEFF}",
        ].map { Array($0.utf8) } + [[0x00], [0xFF], [0xFE], [0xEF, 0xBB], [0xE9], [0x80], [0xC3], [0x1A]]

    @Test func randomInputNeverBreaksTheReader() throws {
        var random = SeededRandom(seed: 0xC0FFEE)
        for run in 0..<1_500 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                if Int.random(in: 0..<8, using: &random) == 0 {
                    bytes.append(UInt8.random(in: 0...255, using: &random))
                } else {
                    bytes += Self.vocabulary.randomElement(using: &random)!
                }
            }
            try check(bytes, label: "random run \(run)")
        }
    }

    @Test func mutatedFixturesNeverBreakTheReader() throws {
        let fixtures = try TestPaths.files(in: TestPaths.fixtures + "/subrip", suffixes: [".srt"]).map(TestPaths.bytes)
        #expect(fixtures.count >= 20)
        var random = SeededRandom(seed: 0x5EB)
        for run in 0..<1_500 {
            var bytes = fixtures[run % fixtures.count]
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                guard !bytes.isEmpty else { break }
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.remove(at: index)
                case 2: bytes.insert(contentsOf: Self.vocabulary.randomElement(using: &random)!, at: index)
                case 3:
                    let end = min(bytes.count, index + Int.random(in: 1...30, using: &random))
                    bytes.insert(contentsOf: bytes[index..<end], at: end)
                default: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...20, using: &random)))
                }
            }
            try check(bytes, label: "mutation run \(run)")
        }
    }

    private func check(_ bytes: [UInt8], label: String) throws {
        let outcome = try ChunkingVerifier.verify(bytes, randomRuns: 2, seed: UInt64(bytes.count)) {
            SubRipReader(options: .init(limits: .init(maximumLineLength: 64, maximumCueTextLength: 256)))
        }
        let events: [TrackEvent]
        switch outcome {
        case .success(let read): events = read
        case .failure(let error) where error.diagnostic.code == .srtEmpty || error.diagnostic.code == .srtNoCues:
            // Input with no cue is no track, in every chunking alike.
            return
        case .failure(let error): throw error
        }
        // The colour pass finds the full read's rules, in the same order, and perhaps more.
        let prescan = SubRipReader.prescan(bytes: bytes, options: .init(limits: .init(maximumLineLength: 64, maximumCueTextLength: 256)))
        let fullRules = events.compactMap { event -> String? in if case .stylesheet(let sheet) = event { sheet.text } else { nil } }
        let scannedRules = prescan.colors.map { $0.rule.css() }
        #expect(
            scannedRules.filter(fullRules.contains) == fullRules,
            "\(label): \(scannedRules) against \(fullRules); input \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        #expect(events.first == .header(""), "\(label)")
        // Whatever the reader makes of the input is WebVTT as it stands: the WebVTT writer needs to
        // change nothing, and the WebVTT reader reads the same cues back.
        var collector = TrackCollector()
        for event in events { collector.collect(event) }
        let track = collector.result.track
        var writer = WebVTTWriter(to: MemorySink())
        try writer.write(track)
        let changes = writer.diagnostics.filter { $0.code != "vtt-write-end-not-after-start" }
        #expect(changes.isEmpty, "\(label): \(changes)")
        let back = try WebVTTReader.read(bytes: writer.sink.bytes)
        #expect(back.track.cues == track.cues, "\(label)")
        for event in events {
            switch event {
            case .cue(let cue):
                let text = cue.text
                let ok =
                    !text.contains("\n\n") && !text.hasPrefix("\n") && !text.hasSuffix("\n") && !text.contains("-->")
                    && !text.contains("\r")
                #expect(
                    ok,
                    "\(label): cue text \(text.debugDescription) breaks a WebVTT cue; input \(String(decoding: bytes, as: UTF8.self).debugDescription)"
                )
            case .diagnostic(let diagnostic):
                if let location = diagnostic.location {
                    #expect(location.line >= 1 && location.column >= 1, "\(label): \(diagnostic)")
                }
            default:
                break
            }
        }
    }
}
