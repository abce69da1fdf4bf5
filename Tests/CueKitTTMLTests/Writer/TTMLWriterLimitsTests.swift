import CueKit
import CueKitTestSupport
import Testing

@testable import CueKitTTML

/// What ``TTMLWriter`` writes stays within what CueKit's TTML reader reads by default: past a
/// limit, it flattens or falls back and says so, and the document reads back.
@Suite struct TTMLWriterLimitsTests {
    static func write(_ track: Track) throws -> (bytes: [UInt8], diagnostics: [Diagnostic]) {
        var writer = TTMLWriter(to: MemorySink())
        try writer.write(track)
        return (writer.sink.bytes, writer.diagnostics)
    }

    /// Reads `bytes` back with the reader's default limits: no error.
    static func readBack(_ bytes: [UInt8]) throws -> Track {
        let read = try TTMLReader.read(bytes: bytes)
        #expect(read.diagnostics.filter { $0.severity == .error }.isEmpty, "\(read.diagnostics.prefix(3))")
        return read.track
    }

    static func count(_ needle: String, in bytes: [UInt8]) -> Int {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: needle).count - 1
    }

    @Test func placementsPastTheRegionLimitGoToTheDefaultRegion() throws {
        let cues = (0...1_000).map { index in
            Cue(
                start: index * 1000, end: index * 1000 + 500, settings: CueSettings(position: .percentage(Double(index) / 20), size: 10),
                text: "c\(index)")
        }
        let (bytes, diagnostics) = try Self.write(Track(cues: cues))
        #expect(Self.count("<region ", in: bytes) == TTMLDocumentBuilder.maximumRegions)
        #expect(diagnostics.map(\.code) == [.ttmlWriteLimit])
        #expect(diagnostics.first?.message.hasPrefix("past 1000 regions, the most CueKit's TTML reader reads") == true, "\(diagnostics)")
        #expect(try Self.readBack(bytes).cues.count == 1_001)
    }

    @Test func regionBlocksPastTheLimitAreNotDeclared() throws {
        var track = Track(cues: [Cue(start: 0, end: 1000, settings: CueSettings(region: "r1000"), text: "x")])
        track.regions = (0...1_000).map { CueRegion(id: "r\($0)", width: Double($0) / 20) }
        let (bytes, diagnostics) = try Self.write(track)
        #expect(Self.count("<region ", in: bytes) <= TTMLDocumentBuilder.maximumRegions)
        #expect(diagnostics.map(\.code) == [.ttmlWriteLimit])
        #expect(try Self.readBack(bytes).cues.map { $0.nodes().plainText } == ["x"])
    }

    @Test func aParagraphOfTooManySpansIsFlattenedPastTheLimit() throws {
        let text = (0...10_000).map { "<i>w\($0)</i>" }.joined()
        let (bytes, diagnostics) = try Self.write(Track(cues: [Cue(start: 0, end: 1000, text: text)]))
        #expect(diagnostics.map(\.code) == [.ttmlWriteLimit], "\(diagnostics)")
        let read = try Self.readBack(bytes)
        #expect(read.cues.count == 1)
        // Every word is kept, the spans past the limit without their style.
        #expect(read.cues.first.map { $0.nodes().plainText.hasSuffix("w10000") } == true)
    }

    @Test func aParagraphOfTooManyLineBreaksWritesTheRestAsSpaces() throws {
        let text = (0...10_000).map { "l\($0)" }.joined(separator: "\n")
        let (bytes, diagnostics) = try Self.write(Track(cues: [Cue(start: 0, end: 1000, text: text)]))
        #expect(diagnostics.map(\.message).first?.contains("line breaks past it are written as spaces") == true, "\(diagnostics)")
        #expect(try Self.readBack(bytes).cues.count == 1)
    }

    @Test(arguments: [false, true])
    func nestingPastTheReadersDepthIsFlattened(throughTheTree: Bool) throws {
        // 127 ruby nested in one another: two elements each, past 256 with tt, body, div and p.
        let ruby = String(repeating: "<ruby>a", count: 127) + String(repeating: "<rt>b</rt></ruby>", count: 127)
        let spans = String(repeating: "<b>", count: 126) + "deep" + String(repeating: "</b>", count: 126)
        for text in [ruby, spans] {
            var writer = TTMLWriter(to: MemorySink(), throughTheTree: throughTheTree)
            try writer.write(Track(cues: [Cue(start: 0, end: 1000, text: text)]))
            #expect(writer.diagnostics.map(\.code).contains(.ttmlWriteLimit) || !text.hasPrefix("<ruby>"), "\(writer.diagnostics)")
            #expect(try Self.readBack(writer.sink.bytes).cues.count == 1)
        }
    }

    @Test func voicesPastTheAgentLimitKeepTheirText() throws {
        let count = TTMLDocumentBuilder.maximumAgents + 1
        let cues = (0..<count).map { Cue(start: $0 * 10, end: $0 * 10 + 5, text: "<v n\($0)>t\($0)</v>") }
        let (bytes, diagnostics) = try Self.write(Track(cues: cues))
        #expect(Self.count("<ttm:agent ", in: bytes) == TTMLDocumentBuilder.maximumAgents)
        #expect(
            diagnostics.map(\.message) == [
                "past 10000 agents, the most the writer holds, no more are written: the other voices' names are left out, their text kept (once, first in cue 10001)"
            ])
        #expect(try Self.readBack(bytes).cues.last.map { $0.nodes().plainText } == "t10000")
    }

    @Test func stylesPastTheLimitAreNotDeclaredButParagraphStylesStillAre() {
        var builder = TTMLDocumentBuilder(options: TTMLWriterOptions())
        var declared = 0
        for index in 0..<TTMLDocumentBuilder.maximumStyles {
            if builder.styleID(for: [TTMLStyleAttribute(name: "tts:color", value: "#\(index)")]) != nil { declared += 1 }
        }
        #expect(declared == TTMLDocumentBuilder.maximumStyles - TTMLDocumentBuilder.reservedParagraphStyles)
        for alignment in CueSettings.TextAlignment.allCases {
            _ = builder.paragraphStyle(alignment, rightToLeft: false)
            _ = builder.paragraphStyle(alignment, rightToLeft: true)
        }
        #expect(builder.styles.count == TTMLDocumentBuilder.maximumStyles)
        #expect(builder.diagnostics.map(\.code) == [.ttmlWriteLimit])
    }
}
