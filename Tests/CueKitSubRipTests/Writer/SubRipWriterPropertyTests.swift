import CueKit
import CueKitSubRip
import CueKitTestSupport
import Testing

/// Random tracks, hostile text included: whatever the writer is given, its output reads back with
/// the same blocks (one cue per cue, with its times) and no structural diagnostic.
@Suite struct SubRipWriterPropertyTests {
    static let texts = [
        "word", " ", "é", "字幕", "🎬", "&", "<", ">", "-->", "\n", "\n\n", "\r", "\r\n", "1", "42\n", "\n7\n",
        "00:00:01,000 --> 00:00:02,000", "12:30 --> noon", "<i>", "{\\an8}", "{", "}", "  ", "\t", "\n \n",
    ]
    static let classes = ["yellow", "color-ff8000", "color-orange", "loud", "bg_red", "a.b", ""]

    static func randomNodes(_ random: inout SeededRandom, depth: Int = 0) -> [CueNode] {
        (0..<Int.random(in: 0...4, using: &random)).map { _ in
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                return .text(texts.randomElement(using: &random)!)
            case 5:
                return .timestamp(Int.random(in: 0...10_000, using: &random))
            default:
                guard depth < 4 else { return .text("x") }
                let kinds: [CueSpan.Kind] = [
                    .class, .italic, .bold, .underline, .ruby, .rubyText, .voice("Bob"), .voice(""), .language("fr"),
                ]
                let kind = kinds.randomElement(using: &random)!
                let spanClasses = (0..<Int.random(in: 0...2, using: &random)).map { _ in classes.randomElement(using: &random)! }
                return .span(CueSpan(kind, classes: spanClasses, children: randomNodes(&random, depth: depth + 1)))
            }
        }
    }

    static func randomSettings(_ random: inout SeededRandom) -> CueSettings {
        var settings = CueSettings()
        if Bool.random(using: &random) {
            settings.line = [.auto, .number(0), .number(-1), .number(3), .percentage(10), .percentage(50), .percentage(90)].randomElement(
                using: &random)!
            settings.alignment = CueSettings.TextAlignment.allCases.randomElement(using: &random)!
            if Int.random(in: 0..<4, using: &random) == 0 { settings.position = .percentage(30) }
        }
        return settings
    }

    @Test func everyTrackReadsBackWithTheSameBlocks() throws {
        var random = SeededRandom(seed: 0x5B7)
        let structural: Set<DiagnosticCode> = [
            .srtMissingSequenceNumber, .srtSequenceNumber, .srtMissingTiming, .srtBadTiming, .srtStrayText,
            .srtMissingBlankLine, .srtBlankLineInText, .srtIncompleteCue, .srtInvalidUTF8, .srtTooLong,
        ]
        for run in 0..<1_000 {
            let cues = (0..<Int.random(in: 0...6, using: &random)).map { index in
                let start = Int.random(in: -1_000...100_000, using: &random)
                return Cue(
                    id: "c\(index)", start: start, end: start + Int.random(in: 1...5_000, using: &random),
                    settings: Self.randomSettings(&random), nodes: Self.randomNodes(&random))
            }
            let track = Track(
                header: Bool.random(using: &random) ? "- title" : "",
                stylesheets: Bool.random(using: &random) ? [CueStylesheet("::cue(.loud) { color: #123456; }")] : [],
                cues: cues)
            for lineEnding in SubRipWriterOptions.LineEnding.allCases {
                var writer = SubRipWriter(
                    to: MemorySink(), options: .init(lineEnding: lineEnding, voices: run % 2 == 0 ? .textOnly : .namePrefix))
                try writer.write(track)
                var reader = SubRipReader()
                if cues.isEmpty {
                    // No cue, no bytes: an empty SubRip file, which reads as no track.
                    #expect(writer.sink.bytes.isEmpty)
                    #expect(throws: ReadError.self) { try reader.read(writer.sink.bytes) }
                    continue
                }
                let back = try reader.read(writer.sink.bytes)
                let label = "run \(run): \(writer.sink.string.debugDescription)"
                #expect(back.track.cues.count == cues.count, "\(label)")
                #expect(back.track.cues.map(\.start) == cues.map { max(0, $0.start) }, "\(label)")
                #expect(back.track.cues.map(\.end) == cues.map { max(0, $0.end) }, "\(label)")
                #expect(back.track.cues.map(\.id) == cues.indices.map { String($0 + 1) }, "\(label)")
                let broken = back.diagnostics.filter { structural.contains($0.code) }
                #expect(broken.isEmpty, "\(label): \(broken)")
            }
        }
    }
}
