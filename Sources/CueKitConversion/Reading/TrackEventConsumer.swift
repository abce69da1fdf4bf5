import CueKit
import CueKitSubRip
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

/// A consumer that may also see a WebVTT input's cues as the reader read them, beside their events
/// (other formats show none), in one of two ways (``WebVTTCueSink``):
/// - ``see(_:)``: each cue's identifier and text as bytes, just before its event (statistics that
///   count characters without a `String`);
/// - ``take(_:settings:)``, for a consumer that ``takesCues``: cue blocks read whole, which it may
///   take in place of their events (a WebVTT to WebVTT conversion copies the blocks no edit
///   changes, with a ``WebVTTCueBlockCopier``).
///
/// And ``cueTextParseCache``: where the reader leaves its parse of each cue text, for a consumer
/// that parses the text again (the TTML writer).
package protocol WebVTTBytesConsumer: TrackEventConsumer {
    /// Where the reader leaves its cue text parses; nil for none.
    var cueTextParseCache: CueTextParseCache? { get }
    /// True when the consumer is shown each cue as read (``see(_:)``).
    var seesCuesAsRead: Bool { get }
    /// True when the consumer is offered cue blocks read whole (``take(_:settings:)``).
    var takesCues: Bool { get }

    /// Shown one cue as read, valid only during the call.
    mutating func see(_ cue: WebVTTCueAsRead) throws

    /// Offered a cue block read whole (valid only during the call); returns true when it took
    /// the block, and then no event follows for its cue.
    mutating func take(_ block: WebVTTCueBlockAsRead, settings: borrowing CueSettings) throws -> Bool
}

extension WebVTTBytesConsumer {
    package var cueTextParseCache: CueTextParseCache? { nil }
    package var seesCuesAsRead: Bool { false }
    package var takesCues: Bool { false }
    package mutating func see(_ cue: WebVTTCueAsRead) throws {}
    package mutating func take(_ block: WebVTTCueBlockAsRead, settings: borrowing CueSettings) throws -> Bool { false }
}

extension TrackSource {
    /// Reads the whole input, handing each event to `consumer` (see ``stream(to:)``).
    public func stream<Consumer: TrackEventConsumer>(into consumer: inout Consumer) throws {
        try stream(to: { try consumer.take($0) }, webVTTHooks: nil)
    }

    /// Reads the whole input, handing each event to `consumer`, and, for WebVTT, its cues as read
    /// as the consumer asks.
    package func stream<Consumer: WebVTTBytesConsumer>(into consumer: inout Consumer) throws {
        try streamWithWebVTTHooks(into: &consumer)
    }

    /// Reads the whole input, handing each event to `consumer`, and its cues as read as the
    /// consumer asks: for WebVTT, as ``WebVTTBytesConsumer``; for SubRip, offered in place of their
    /// events (``SubRipCuesConsumer``).
    package func stream<Consumer: WebVTTBytesConsumer & SubRipCuesConsumer>(into consumer: inout Consumer) throws {
        guard format == .subRip, !isHLSPlaylist, consumer.takesSubRipCues else {
            try streamWithWebVTTHooks(into: &consumer)
            return
        }
        try withUnsafeMutablePointer(to: &consumer) { consumer in
            // A closure made here, where the consumer's type is known, so that the reader's calls
            // reach specialized code.
            let passage = SubRipCuePassage(take: { try consumer.pointee.take($0) })
            try stream(to: { try consumer.pointee.take($0) }, webVTTHooks: nil, subRipHooks: SubRipReaderHooks(cueSink: passage))
        }
    }

    private func streamWithWebVTTHooks<Consumer: WebVTTBytesConsumer>(into consumer: inout Consumer) throws {
        let takesCues = consumer.takesCues, seesCues = consumer.seesCuesAsRead && !takesCues, parseCache = consumer.cueTextParseCache
        guard isOneWebVTTFile, takesCues || seesCues || parseCache != nil else {
            try stream(to: { try consumer.take($0) }, webVTTHooks: nil)
            return
        }
        try withUnsafeMutablePointer(to: &consumer) { consumer in
            // Closures made here, where the consumer's type is known, so that the reader's calls
            // reach specialized code.
            let passage = WebVTTCuePassage(
                takesCues: takesCues, see: { try consumer.pointee.see($0) },
                take: { block, settings in try consumer.pointee.take(block, settings: settings) })
            let hooks = WebVTTReaderHooks(cueSink: takesCues || seesCues ? passage : nil, cueTextParseCache: parseCache)
            try stream(to: { try consumer.pointee.take($0) }, webVTTHooks: hooks)
        }
    }
}

/// A consumer that may also take a SubRip input's cues as the reader read them, in place of their
/// events (``SubRipCueSink``): a conversion to WebVTT writes them as bytes.
package protocol SubRipCuesConsumer: TrackEventConsumer {
    /// True when the consumer is offered the cues of a SubRip input as read.
    var takesSubRipCues: Bool { get }

    /// Offered a cue as read (valid only during the call); returns true when it took the cue, and
    /// then no event follows for it.
    mutating func take(_ cue: SubRipCueAsRead) throws -> Bool
}

/// Hands the cues the SubRip reader offers its sink on to a ``SubRipCuesConsumer``, through a
/// pointer valid for one ``TrackSource/stream(into:)`` call, as ``WebVTTCuePassage`` does.
private final class SubRipCuePassage: SubRipCueSink {
    typealias Take = (SubRipCueAsRead) throws -> Bool
    private let takeCue: Take

    init(take: @escaping Take) {
        takeCue = take
    }

    func take(_ cue: SubRipCueAsRead) throws -> Bool { try takeCue(cue) }
}

/// Hands the cues the WebVTT reader shows its sink on to a ``WebVTTBytesConsumer``.
///
/// The reader keeps its sink as a reference, while the consumer is a value the caller owns: the
/// passage's closures reach it through a pointer that is valid for one ``TrackSource/stream(into:)``
/// call, the only time the reader runs. The reader calls the event handler and the sink one at a
/// time, on the calling thread, so no two accesses to the consumer overlap.
final class WebVTTCuePassage: WebVTTCueSink {
    typealias See = (WebVTTCueAsRead) throws -> Void
    typealias Take = (WebVTTCueBlockAsRead, borrowing CueSettings) throws -> Bool
    let takesCues: Bool
    private let seeCue: See
    private let takeBlock: Take

    init(takesCues: Bool, see: @escaping See, take: @escaping Take) {
        self.takesCues = takesCues
        seeCue = see
        takeBlock = take
    }

    func see(_ cue: WebVTTCueAsRead) throws { try seeCue(cue) }

    func take(_ block: WebVTTCueBlockAsRead, settings: borrowing CueSettings) throws -> Bool {
        try takeBlock(block, settings)
    }
}
