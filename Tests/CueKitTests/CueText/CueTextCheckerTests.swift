import CueKit
import CueKitTestSupport
import Testing

/// The checker answers text without `<` or `&` from one scan; it must say what a full run of the
/// parser says, on every text.
@Suite struct CueTextCheckerTests {
    static let pieces = [
        "a", "word ", "é", "漢字", "🎵", "\n", "-", ">", ";", "amp", "<", "&", "&amp;", "&lt", "&nope;", "<i>", "</i>", "<b>",
        "</b>", "<c.x>", "</c>", "<v Bob>", "<v>", "</v>", "<ruby>", "<rt>", "</rt>", "</ruby>", "<lang en>", "<lang>",
        "<00:00:01.000>", "<99:99>", "<font>", "</u>", "<c.>", "<i", "&#x41;", "&#;",
    ]

    @Test func theScanSaysWhatTheParserSaysOnRandomText() {
        var random = SeededRandom(seed: 11)
        var checker = CueText.Checker()
        var plain = 0
        for _ in 0..<5000 {
            let count = Int.random(in: 0...12, using: &random)
            // One text in three is drawn from pieces without markup, so both paths are exercised.
            let choices = Int.random(in: 0..<3, using: &random) == 0 ? Array(Self.pieces.prefix(9)) : Self.pieces
            let text = (0..<count).map { _ in choices.randomElement(using: &random)! }.joined()
            let context = CueText.Context(origin: SourceLocation(line: 3, column: 1), cueStart: 500, cueEnd: 2_000)
            let bytes = Array(text.utf8)
            let fast = bytes.withUnsafeBytes { checker.diagnostics(forUTF8: $0, context: context) }
            let general = bytes.withUnsafeBytes { checker.diagnosticsByParsing($0, context: context) }
            #expect(fast == general, "\(text.debugDescription)")
            if !text.contains("<") && !text.contains("&") { plain += 1 }
        }
        #expect(plain > 1000, "plain texts drawn: \(plain)")
    }

    /// Recording while checking changes no diagnostic, and records the events ``CueTextEvents``
    /// gives for the same text: what the TTML writer takes from the reader.
    @Test func recordingWhileCheckingGivesTheEventsOfAParse() {
        var random = SeededRandom(seed: 13)
        var checker = CueText.Checker()
        var events = CueTextEvents()
        var recorded = CueTextEvents.Parsed()
        for _ in 0..<5000 {
            let text = (0..<Int.random(in: 0...14, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let context = CueText.Context(origin: SourceLocation(line: 7, column: 1), cueStart: 500, cueEnd: 2_000)
            let bytes = Array(text.utf8)
            let plain = bytes.withUnsafeBytes { checker.diagnosticsByParsing($0, context: context) }
            let whileRecording = bytes.withUnsafeBytes { checker.diagnostics(forUTF8: $0, context: context, recordingInto: &recorded) }
            #expect(whileRecording == plain, "\(text.debugDescription)")
            events.parse(text)
            #expect(recorded.events == events.events, "\(text.debugDescription)")
            #expect(recorded.bytes == events.bytes, "\(text.debugDescription)")
            #expect(recorded.classRanges == events.classRanges, "\(text.debugDescription)")
        }
    }

    @Test func markupIsStillChecked() {
        var checker = CueText.Checker()
        let bytes = Array("a <x>b & c".utf8)
        let codes = bytes.withUnsafeBytes { checker.diagnostics(forUTF8: $0, context: CueText.Context()) }.map(\.code)
        #expect(codes.contains(.vttUnknownTag))
    }
}

/// The parse cache answers for the very bytes it was filled with: not for a canonically
/// equivalent text (which `==` calls equal), nor once it is being refilled.
@Suite struct CueTextParseCacheTests {
    @Test func holdsOnlyTheSameBytes() {
        let cache = CueTextParseCache()
        let precomposed = "caf\u{E9} <i>x</i>"
        let decomposed = "cafe\u{301} <i>x</i>"
        #expect(precomposed == decomposed, "Swift calls them equal")
        cache.startFilling()
        cache.fill(with: precomposed)
        #expect(cache.holds(precomposed))
        #expect(cache.holds(String(decoding: Array(precomposed.utf8), as: UTF8.self)), "equal bytes in other storage")
        #expect(!cache.holds(decomposed))
        #expect(!cache.holds("caf\u{E9} <i>y</i>"))
        cache.startFilling()
        #expect(!cache.holds(precomposed))
    }
}
