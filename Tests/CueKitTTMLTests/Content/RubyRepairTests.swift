import CueKit
import CueKitTTML
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// TTML ruby that WebVTT cannot say as written is mended so that nothing is lost and Chromium draws
/// it: each case is read from its fixture, its cue text checked, its repair reported once, and the
/// WebVTT written from it read back by CueKit's own WebVTT reader with no cue-text diagnostic.
@Suite struct RubyRepairTests {
    static func read(_ fixture: String) throws -> ReadResult {
        try TTMLReader.read(fileAtPath: TestPaths.fixture("ttml/" + fixture))
    }

    static func repairs(_ result: ReadResult) -> [String] {
        result.diagnostics.filter { $0.code == .ttmlRubyRepaired }.map(\.message)
    }

    /// The cue text, written as WebVTT and read back with every check on, has no problem.
    static func expectCleanWebVTT(_ result: ReadResult, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        var writer = WebVTTWriter(to: MemorySink())
        for event in result.track.events { try writer.write(event) }
        try writer.finish()
        let back = try WebVTTReader.read(bytes: writer.sink.bytes)
        #expect(back.diagnostics == [], sourceLocation: sourceLocation)
        #expect(back.track.cues.map(\.text) == result.track.cues.map(\.text), sourceLocation: sourceLocation)
    }

    @Test func textDirectlyInAContainerIsKeptAfterTheRuby() throws {
        let result = try Self.read("ruby-text-in-container.ttml")
        #expect(result.track.cues.map(\.text) == ["A <ruby>B<rt>r</rt></ruby>C D"])
        #expect(Self.repairs(result).count == 1)
        #expect(Self.repairs(result).first?.contains("kept after the ruby") == true)
        try Self.expectCleanWebVTT(result)
    }

    @Test func anAnnotationBeforeItsBaseIsWrittenAfterIt() throws {
        let result = try Self.read("ruby-text-before-base.ttml")
        #expect(result.track.cues.map(\.text) == ["<ruby>漢<rt>かん</rt></ruby>字"])
        #expect(Self.repairs(result).count == 1)
        #expect(Self.repairs(result).first?.contains("written after it") == true)
        try Self.expectCleanWebVTT(result)
    }

    @Test func anAnnotationWithoutAContainerIsWrittenInParentheses() throws {
        let result = try Self.read("ruby-text-without-container.ttml")
        #expect(result.track.cues.map(\.text) == ["漢字(かんじ)"])
        #expect(Self.repairs(result).count == 1)
        #expect(Self.repairs(result).first?.contains("parentheses") == true)
        try Self.expectCleanWebVTT(result)
    }
}
