import CueKit
import CueKitSynthetic
import CueKitTestSupport
import Testing

@testable import CueKitWebVTT

/// The reader's one consumer hook (``WebVTTCueSink``): a sink that looks is shown each cue once,
/// just before its event, as the bytes of that event; a sink that takes cues is offered the blocks
/// read whole, each in place of its cue's event when taken.
@Suite struct WebVTTCueSinkTests {
    /// Records each cue shown, and the events, in the order they come.
    final class Recorder: WebVTTCueSink {
        enum Entry: Equatable {
            case shown(identifier: String, text: String, start: Int, end: Int, timingLine: Int)
            case offered(block: String, start: Int, end: Int, settings: CueSettings)
            case event(TrackEvent)
        }

        let takesCues: Bool
        /// Whether to take the blocks offered.
        let takes: Bool
        var entries: [Entry] = []

        init(takesCues: Bool, takes: Bool = false) {
            self.takesCues = takesCues
            self.takes = takes
        }

        func see(_ cue: WebVTTCueAsRead) {
            entries.append(
                .shown(
                    identifier: String(decoding: cue.identifier, as: UTF8.self), text: String(decoding: cue.text, as: UTF8.self),
                    start: cue.start, end: cue.end, timingLine: cue.timingLine))
        }

        func take(_ block: WebVTTCueBlockAsRead, settings: borrowing CueSettings) -> Bool {
            entries.append(.offered(block: String(decoding: block.bytes, as: UTF8.self), start: block.start, end: block.end, settings: copy settings))
            return takes
        }
    }

    static func read(_ text: String, sink: Recorder) throws {
        var reader = WebVTTReader()
        let hooks = WebVTTReaderHooks(cueSink: sink)
        try Array(text.utf8).withUnsafeBytes { try reader.feed($0, hooks: hooks) { sink.entries.append(.event($0)) } }
        try reader.finish(hooks: hooks) { sink.entries.append(.event($0)) }
    }

    /// Blocks read whole from memory, one read line by line (CR LF endings), and one at the end.
    static let file =
        "WEBVTT\n\nintro\n00:00:01.000 --> 00:00:02.000 align:start\nHello <b>there</b>\n\n00:03.000 --> 00:00:04.000\nplain\n\n"
        + "00:00:05.000 --> 00:00:06.000\r\ncarriage\r\n\r\nlast\n00:00:07.000 --> 00:00:08.000\nend"

    @Test func aSinkThatLooksIsShownEveryCueOnceBeforeItsEventAsItsBytes() throws {
        let sink = Recorder(takesCues: false)
        try Self.read(Self.file, sink: sink)
        var timingLines: [Int] = []
        for (index, entry) in sink.entries.enumerated() {
            if case .offered = entry { Issue.record("a block offered to a sink that only looks") }
            guard case .shown(let identifier, let text, let start, let end, let timingLine) = entry else { continue }
            timingLines.append(timingLine)
            let next = sink.entries[index + 1]
            guard case .event(.cue(let cue)) = next else {
                Issue.record("after a cue shown: \(next)")
                continue
            }
            #expect(cue.id == identifier && cue.text == text && cue.start == start && cue.end == end)
        }
        #expect(timingLines == [4, 7, 10, 14])
    }

    /// The first two blocks lie whole in memory and are offered; the CR LF one and the last one
    /// are read line by line and come as events alone.
    @Test(arguments: [false, true]) func aSinkThatTakesCuesIsOfferedTheBlocksReadWhole(takes: Bool) throws {
        let sink = Recorder(takesCues: true, takes: takes)
        try Self.read(Self.file, sink: sink)
        let offered = sink.entries.compactMap { entry -> String? in
            if case .shown = entry { Issue.record("a cue shown to a sink that takes cues") }
            guard case .offered(let block, let start, let end, let settings) = entry else { return nil }
            return "\(start)-\(end) \(settings.alignment) \(block)"
        }
        #expect(offered == ["1000-2000 start intro\n00:00:01.000 --> 00:00:02.000 align:start\nHello <b>there</b>\n", "3000-4000 center 00:03.000 --> 00:00:04.000\nplain\n"])
        let cues = sink.entries.compactMap { entry -> Int? in
            guard case .event(.cue(let cue)) = entry else { return nil }
            return cue.start
        }
        #expect(cues == (takes ? [5000, 7000] : [1000, 3000, 5000, 7000]))
    }
}
