import CueKit
import CueKitWebVTT

/// What a ``TrackSource`` hands a track to, event by event: a value whose handler is a mutating
/// method, so that the state it keeps is checked for exclusive access when it is compiled.
///
/// ```swift
/// struct CueCounter: TrackEventConsumer {
///     var cues = 0
///     mutating func take(_ event: TrackEvent) throws { if case .cue = event { cues += 1 } }
/// }
/// var counter = CueCounter()
/// try TrackSource(path: "movie.srt").stream(into: &counter)
/// ```
public protocol TrackEventConsumer {
    /// Takes the next event of the track.
    mutating func take(_ event: TrackEvent) throws
}

/// A consumer that may also see a WebVTT input's cues as the bytes they were read from, in two
/// ways the WebVTT reader offers (other formats never offer them):
/// - ``observe(identifier:text:textHasMarkup:start:end:timingLine:)``: each cue's identifier and text, just
///   before its event (statistics that count characters without a `String`);
/// - ``take(cueBlock:start:end:)``: whole cue blocks, which the consumer may take in place of their
///   events (a WebVTT to WebVTT conversion copies the blocks no edit changes);
/// - ``cueTextParseCache``: where the reader leaves its parse of each cue text, for a consumer that
///   parses the text again (the TTML writer).
package protocol WebVTTBytesConsumer: TrackEventConsumer {
    /// Where the reader leaves its cue text parses; nil for none.
    var cueTextParseCache: CueTextParseCache? { get }
    /// True when the reader is to offer cue blocks whole.
    var takesCueBlocks: Bool { get }
    /// True when the reader is to show each cue's bytes before its event.
    var observesCueBytes: Bool { get }

    /// Offered one cue block (valid only during the call); returns true when it took the block, and
    /// then no event follows for the cue.
    mutating func take(cueBlock: WebVTTCueBlockBytes, start: Int, end: Int) throws -> Bool

    /// One cue's identifier (empty when it has none) and text, valid only during the call, and the
    /// line number of its timing line.
    mutating func observe(identifier: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer, textHasMarkup: Bool, start: Int, end: Int, timingLine: Int)
}

extension WebVTTBytesConsumer {
    package var cueTextParseCache: CueTextParseCache? { nil }
    package var takesCueBlocks: Bool { false }
    package var observesCueBytes: Bool { false }
    package mutating func take(cueBlock: WebVTTCueBlockBytes, start: Int, end: Int) throws -> Bool { false }
    package mutating func observe(identifier: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer, textHasMarkup: Bool, start: Int, end: Int, timingLine: Int) {}
}

extension TrackSource {
    /// Reads the whole input, handing each event to `consumer` (see ``stream(to:)``).
    public func stream<Consumer: TrackEventConsumer>(into consumer: inout Consumer) throws {
        try stream(to: { try consumer.take($0) }, webVTTHooks: nil)
    }

    /// Reads the whole input, handing each event to `consumer`, and, for WebVTT, its cues' bytes as
    /// the consumer asks.
    package func stream<Consumer: WebVTTBytesConsumer>(into consumer: inout Consumer) throws {
        guard isOneWebVTTFile, consumer.takesCueBlocks || consumer.observesCueBytes || consumer.cueTextParseCache != nil else {
            try stream(to: { try consumer.take($0) }, webVTTHooks: nil)
            return
        }
        let takesBlocks = consumer.takesCueBlocks, observes = consumer.observesCueBytes, parseCache = consumer.cueTextParseCache
        try withUnsafeMutablePointer(to: &consumer) { consumer in
            // Closures made here, where the consumer's type is known, so that the reader's calls
            // reach specialized code.
            let passage = WebVTTBytesPassage(
                take: { block, start, end in try consumer.pointee.take(cueBlock: block, start: start, end: end) },
                observe: { identifier, text, hasMarkup, start, end, timingLine in
                    consumer.pointee.observe(identifier: identifier, text: text, textHasMarkup: hasMarkup, start: start, end: end, timingLine: timingLine)
                })
            let hooks = WebVTTReaderHooks(
                cueBlockTaker: takesBlocks ? passage : nil, cueBytesObserver: observes ? passage : nil, cueTextParseCache: parseCache)
            try stream(to: { try consumer.pointee.take($0) }, webVTTHooks: hooks)
        }
    }
}

/// Hands the WebVTT reader's byte hooks on to a ``WebVTTBytesConsumer``.
///
/// The reader keeps its hooks as references, while the consumer is a value the caller owns: the
/// passage's closures reach it through a pointer that is valid for one ``TrackSource/stream(into:)``
/// call, the only time the reader runs. The reader calls the event handler and the hooks one at a
/// time, on the calling thread, so no two accesses to the consumer overlap.
private final class WebVTTBytesPassage: WebVTTCueBlockTaker, WebVTTCueBytesObserver {
    typealias Take = (WebVTTCueBlockBytes, Int, Int) throws -> Bool
    typealias Observe = (UnsafeRawBufferPointer, UnsafeRawBufferPointer, Bool, Int, Int, Int) -> Void
    private let takeBlock: Take
    private let observeBytes: Observe

    init(take: @escaping Take, observe: @escaping Observe) {
        takeBlock = take
        observeBytes = observe
    }

    func take(_ block: WebVTTCueBlockBytes, start: Int, end: Int) throws -> Bool {
        try takeBlock(block, start, end)
    }

    func observe(identifier: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer, textHasMarkup: Bool, start: Int, end: Int, timingLine: Int) {
        observeBytes(identifier, text, textHasMarkup, start, end, timingLine)
    }
}
