import CueKit
import CueKitTestSupport
import Testing

@testable import CueKitTTML

/// The one-pass read of a file that holds its events until the end: the same events as the two
/// passes (a prescan, then the reading pass), with every class in the one STYLE block.
@Suite struct TTMLOnePassTests {
    private static let head = #"<styling><style xml:id="s1" tts:color="lime"/></styling>"#
    /// Inline styles in the body: classes the head does not make.
    private static let body = """
        <div>
        <p begin="0s" end="1s" style="s1">plain</p>
        <p begin="1s" end="2s" tts:color="yellow">styled <span tts:fontWeight="bold" tts:color="red">red</span></p>
        <p begin="2s" end="3s"><span tts:color="yellow">again</span></p>
        </div>
        """

    private static func events(_ read: ((TrackEvent) throws -> Void) throws -> Void) rethrows -> [TrackEvent] {
        var events: [TrackEvent] = []
        try read { events.append($0) }
        return events
    }

    private static func stylesheets(_ events: [TrackEvent]) -> [CueStylesheet] {
        events.compactMap { if case .stylesheet(let sheet) = $0 { sheet } else { nil } }
    }

    @Test func aSmallFileIsReadOnceWithEveryClassBeforeTheFirstCue() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(TTMLDocument.make(head: Self.head, body: Self.body), to: "styled.ttml")
        let path = directory.file("styled.ttml")

        let once = try Self.events { try TTMLReader.stream(fileAtPath: path, to: $0) }
        let twice = try Self.events { try TTMLReader.streamInTwoPasses(fileAtPath: path, to: $0) }
        #expect(once == twice)

        let sheets = Self.stylesheets(once)
        #expect(sheets.count == 1, "one STYLE block, with the body's classes in it")
        let classes = sheets.first?.rules?.count ?? 0
        #expect(classes >= 4, "the background, s1 and the body's yellow and bold red: \(sheets)")
        let firstCue = once.firstIndex { if case .cue = $0 { true } else { false } }
        let sheet = once.firstIndex { if case .stylesheet = $0 { true } else { false } }
        #expect(sheet != nil && firstCue != nil && sheet! < firstCue!)
        #expect(!once.contains { if case .diagnostic(let note) = $0 { note.code == .ttmlInlineStyleLate } else { false } })
    }

    /// A reader fed in one pass without holding hands the body's classes out late, after the cues
    /// that use them; holding puts them back in the first STYLE block.
    @Test func holdingIsWhatPutsLateClassesUpFront() throws {
        let bytes = Array(TTMLDocument.make(head: Self.head, body: Self.body).utf8)
        var unheldReader = TTMLReader()
        let unheld = try unheldReader.read(bytes)
        #expect(unheld.diagnostics.contains { $0.code == .ttmlInlineStyleLate })
        var heldReader = TTMLReader(holdingEventsUntilEnd: true)
        let held = try heldReader.read(bytes)
        #expect(!held.diagnostics.contains { $0.code == .ttmlInlineStyleLate })
        #expect(held.track.cues == unheld.track.cues)
        #expect(held.track.stylesheets.count == 1)
    }

    /// The head's events come as they are read; the STYLE block and everything after the head wait
    /// for the end of the document.
    @Test func theHoldStartsWhereTheHeadEnds() throws {
        let bytes = Array(TTMLDocument.make(head: Self.head, body: Self.body).utf8)
        let reader = TTMLReader(holdingEventsUntilEnd: true)
        var beforeTheEnd: [TrackEvent] = []
        try bytes.withUnsafeBytes { try reader.feed($0) { beforeTheEnd.append($0) } }
        #expect(!beforeTheEnd.contains { if case .cue = $0 { true } else { false } })
        #expect(Self.stylesheets(beforeTheEnd).isEmpty)
        var atTheEnd: [TrackEvent] = []
        try reader.finish { atTheEnd.append($0) }
        #expect(Self.stylesheets(atTheEnd).count == 1)
        #expect(atTheEnd.filter { if case .cue = $0 { true } else { false } }.count == 3)
    }

    /// A document that stops being well-formed after its first cues: what was read before the
    /// problem is handed out, STYLE block first, as the two passes hand it out, then the error.
    @Test func whatCameBeforeAnErrorIsHandedOutAsInTwoPasses() throws {
        let whole = TTMLDocument.make(head: Self.head, body: Self.body)
        let truncated = Array(whole.utf8.prefix(whole.utf8.count - 40))
        let twoPasses = ChunkingVerifier.read(truncated, chunkSizes: { 13 }) { TTMLReader(prescan: TTMLReader.prescan(bytes: truncated)) }
        let held = ChunkingVerifier.read(truncated, chunkSizes: { 13 }) { TTMLReader(holdingEventsUntilEnd: true) }
        #expect(held == twoPasses)
        guard case .success(let events) = held else { return }
        Issue.record("a truncated document was read without an error: \(events.count) events")
    }

    @Test func overTheSizeLimitAFileIsReadInTwoPassesToTheSameEvents() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let document = TTMLDocument.make(head: Self.head, body: Self.body)
        directory.write(document, to: "styled.ttml")
        let path = directory.file("styled.ttml")
        var small = TTMLReader.Options()
        small.limits.maximumHeldDocumentSize = document.utf8.count - 1
        let twoPasses = try Self.events { try TTMLReader.stream(fileAtPath: path, options: small, to: $0) }
        let once = try Self.events { try TTMLReader.stream(fileAtPath: path, to: $0) }
        #expect(once == twoPasses)
    }

    @Test func onlyARegularFileHasASizeToDecideBy() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("12345", to: "five.ttml")
        #expect(FileByteSource.regularFileSize(atPath: directory.file("five.ttml")) == 5)
        #expect(FileByteSource.regularFileSize(atPath: directory.path) == nil)
        #expect(FileByteSource.regularFileSize(atPath: "-") == nil)
        #expect(FileByteSource.regularFileSize(atPath: directory.file("missing.ttml")) == nil)
        #expect(FileByteSource.regularFileSize(atPath: "/dev/null") == nil)
    }
}
