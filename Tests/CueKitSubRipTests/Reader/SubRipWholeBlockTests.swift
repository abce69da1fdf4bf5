import CueKit
import CueKitSubRip
import CueKitTestSupport
import Testing

/// A SubRip reader with a cue sink reads ordinary blocks whole from memory (its fast path) and
/// offers each cue to the sink: on random files (every fault the reader recovers from, LF and
/// CR LF, cut into random chunks), the events, with the cues the sink took in their places, are
/// those of the line-by-line path, with the same locations.
struct SubRipWholeBlockTests {
    /// Events as read, and where each cue is.
    final class Recorder {
        var events: [TrackEvent] = []
        var locations: [CueKit.SourceLocation?] = []

        func record(_ event: TrackEvent) {
            events.append(event)
            if case .cue(let cue) = event { locations.append(cue.location) }
        }
    }

    /// A sink that takes every cue, recorded as the cue its event would carry, or none.
    final class Sink: SubRipCueSink {
        let recorder: Recorder
        let takesCues: Bool
        var offered = 0

        init(recorder: Recorder, takesCues: Bool) {
            self.recorder = recorder
            self.takesCues = takesCues
        }

        func take(_ cue: SubRipCueAsRead) throws -> Bool {
            offered += 1
            guard takesCues else { return false }
            recorder.record(
                .cue(
                    Cue(
                        id: String(decoding: cue.identifier, as: UTF8.self), start: cue.start, end: cue.end,
                        settings: cue.settings ?? CueSettings(),
                        text: String(decoding: cue.text, as: UTF8.self), location: CueKit.SourceLocation(line: cue.timingLine, column: 1))))
            return true
        }
    }

    /// The events of reading `bytes` in chunks of `chunkSizes` (cycled; empty: whole), with a sink
    /// or without one, and how many blocks were read whole.
    static func read(_ bytes: [UInt8], chunkSizes: [Int], sink takesCues: Bool?) -> (Recorder, String?, Int) {
        let recorder = Recorder()
        var reader = SubRipReader(prescan: SubRipReader.prescan(bytes: bytes))
        let hooks = SubRipReaderHooks(cueSink: takesCues.map { Sink(recorder: recorder, takesCues: $0) })
        let handler: (TrackEvent) throws -> Void = { recorder.record($0) }
        do {
            try bytes.withUnsafeBytes { all in
                var offset = 0
                var index = 0
                while offset < all.count {
                    let size = chunkSizes.isEmpty ? all.count : chunkSizes[index % chunkSizes.count]
                    let chunk = UnsafeRawBufferPointer(rebasing: all[offset..<min(all.count, offset + size)])
                    try reader.feed(chunk, hooks: hooks, to: handler)
                    offset += size
                    index += 1
                }
            }
            try reader.finish(hooks: hooks, to: handler)
            return (recorder, nil, reader.blocksReadWhole)
        } catch {
            return (recorder, "\(error)", reader.blocksReadWhole)
        }
    }

    @Test(arguments: 1...60)
    func theFastPathGivesTheEventsOfTheLineByLinePath(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) &* 0x9E37_79B9)
        let bytes = RandomSubRipTrack.bytes(&random)
        let (expected, expectedError, none) = Self.read(bytes, chunkSizes: [], sink: nil)
        #expect(none == 0)
        let chunkings = [[], [Int.random(in: 1...300, using: &random), Int.random(in: 1...40, using: &random)], [1]]
        for chunking in chunkings {
            for takesCues in [true, false] {
                let (actual, actualError, _) = Self.read(bytes, chunkSizes: chunking, sink: takesCues)
                #expect(actual.events == expected.events, "seed \(seed), chunks \(chunking), takes \(takesCues)")
                #expect(actual.locations == expected.locations, "seed \(seed), chunks \(chunking), takes \(takesCues)")
                #expect(actualError == expectedError, "seed \(seed)")
            }
        }
    }

    /// Ordinary blocks are read whole, with LF and with CR LF: all but the last, whose end only
    /// the end of input tells.
    @Test(arguments: ["\n", "\r\n"])
    func ordinaryBlocksAreReadWhole(lineEnd: String) {
        var text = ""
        for number in 1...20 {
            text += "\(number)\(lineEnd)00:00:\(10 + number),000 --> 00:00:\(10 + number),500\(lineEnd)"
            text += "line \(number) <i>x</i> & {\\an8}\(lineEnd)second line\(lineEnd)\(lineEnd)"
        }
        let bytes = Array(text.utf8)
        let (expected, _, _) = Self.read(bytes, chunkSizes: [], sink: nil)
        let (actual, error, whole) = Self.read(bytes, chunkSizes: [], sink: true)
        #expect(error == nil)
        #expect(whole == 19)
        #expect(actual.events == expected.events)
        #expect(actual.locations == expected.locations)
    }
}
