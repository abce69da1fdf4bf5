import CueKit
import CueKitASS
import CueKitTestSupport
import Testing

@Suite struct ASSBadInputTests {
    @Test func badTimesAreLocatedAndTheEventSkipped() throws {
        let result = try ASSScripts.read(
            ASSScripts.script(events: [
                ASSScripts.dialogue("no time", start: "1:2"),
                ASSScripts.dialogue("late", start: "0:00:05.00", end: "0:00:04.00"),
                ASSScripts.dialogue("three digits", start: "0:00:01.500"),
            ]))
        let bad = try #require(result.diagnostics.first { $0.code == .assBadTime })
        #expect(bad.location == SourceLocation(line: 12, column: 13))
        #expect(result.diagnostics.contains { $0.code == .assEndBeforeStart && $0.location?.line == 13 })
        #expect(result.diagnostics.contains { $0.code == .assTimeFraction && $0.location?.line == 14 })
        #expect(result.track.cues.map(\.start) == [5000, 1500])
    }

    @Test func unterminatedSectionHeaderIsReadToTheEndOfItsLine() throws {
        let text = "[Script Info]\nPlayResY: 480\n\n[Events\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,kept\n"
        let result = try ASSScripts.read(text)
        #expect(result.track.cues.map { ShownTextLines.of($0) } == [["kept"]])
        let header = try #require(result.diagnostics.first { $0.code == .assSectionHeader })
        #expect(header.location == SourceLocation(line: 4, column: 8))
    }

    @Test func aScriptThatEndsInsideItsStylesHasNoEvents() throws {
        let text = "[Script Info]\nPlayResY: 480\n\n[V4+ Styles]\n\(ASSScripts.styleFormat)\nStyle: Default,Arial,20,&H00FFFFFF"
        let result = try ASSScripts.read(text)
        #expect(result.track.cues.isEmpty)
        #expect(result.diagnostics.map(\.code) == [.assMissingFields, .assNoEvents])
        #expect(result.diagnostics.first?.location?.line == 6)
    }

    /// Sizes past any screen (an outline and shadow of 10^300 pixels, or a height that makes them
    /// so) are held at a million `vh` in the style's rule, where converting them stopped the reader.
    @Test func sizesPastAnyScreenAreHeldInTheRule() throws {
        for (outline, shadow, size) in [("1e300", "1e300", "48"), ("2", "inf", "48"), ("nan", "-1e300", "1e-300")] {
            let style = "Style: Huge,Arial,\(size),&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,\(outline),\(shadow),2,20,20,24,1"
            let result = try ASSScripts.read(ASSScripts.script(styles: [style], events: [ASSScripts.dialogue("big", style: "Huge")]))
            #expect(result.track.cues.count == 1)
            let rules = result.track.stylesheets.flatMap(\.cueRules)
            let shadows = rules.compactMap { $0.value(of: "text-shadow") }.joined(separator: " ")
            for number in shadows.split(separator: " ").compactMap({ Double($0.replacingOccurrences(of: "vh", with: "")) }) {
                #expect(abs(number) <= 1_000_000, "\(outline), \(shadow): \(shadows)")
            }
        }
    }

    @Test func textThatIsNoScriptIsRefused() {
        #expect(throws: ReadError.self) { try ASSScripts.read("hello\nworld\n") }
    }

    @Test func unknownStylesAreShownInDefault() throws {
        let result = try ASSScripts.read(ASSScripts.script(events: [ASSScripts.dialogue("x", style: "Missing")]))
        #expect(result.track.cues.first?.text == "<c.Default>x</c>")
        #expect(result.diagnostics.map(\.code) == [.assUnknownStyle])
    }

    /// A million styles: the first `maximumStyles` are kept, the limit is said once, and memory
    /// stays bounded (the reader is fed a chunk at a time, never the whole script).
    @Test(.tags(.slow), .skippableByTag) func aMillionStylesAreBoundedByTheLimit() throws {
        var reader = ASSReader()
        var diagnostics: [Diagnostic] = []
        var sheets: [CueStylesheet] = []
        var cues: [Cue] = []
        let handler: (TrackEvent) -> Void = { event in
            switch event {
            case .diagnostic(let diagnostic): diagnostics.append(diagnostic)
            case .stylesheet(let sheet): sheets.append(sheet)
            case .cue(let cue): cues.append(cue)
            default: break
            }
        }
        try reader.feed(Array("[Script Info]\nPlayResY: 480\n[V4+ Styles]\n\(ASSScripts.styleFormat)\n".utf8), to: handler)
        var chunk: [UInt8] = []
        for index in 0..<1_000_000 {
            chunk.append(contentsOf: "Style: S\(index),Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1\n".utf8)
            if chunk.count > 1 << 16 {
                try reader.feed(chunk, to: handler)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        chunk.append(contentsOf: "[Events]\n\(ASSScripts.eventFormat)\nDialogue: 0,0:00:01.00,0:00:02.00,S999999,,0,0,0,,last\n".utf8)
        try reader.feed(chunk, to: handler)
        try reader.finish(to: handler)
        #expect(sheets.flatMap(\.cueRules).count == 10_000)
        #expect(diagnostics.filter { $0.code == .assLimit }.count == 1)
        #expect(diagnostics.first { $0.code == .assLimit }?.location?.line == 10_005)
        #expect(cues.map(\.text) == ["<c.S0>last</c>"])
    }

    @Test func formatLinesOfTooManyFieldsAreCut() throws {
        let format = "Format: " + (0..<100).map { "F\($0)" }.joined(separator: ",")
        let result = try ASSScripts.read("[Script Info]\n[Events]\n\(format)\n")
        #expect(result.diagnostics.map(\.code) == [.assLimit, .assNoEvents])
    }
}
