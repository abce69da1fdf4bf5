import CueKit

/// One cue as a ``WebVTTReader`` read it, shown to a ``WebVTTCueSink`` just before its event: a
/// borrowed view, valid only during the call, that costs the reader no string. The identifier and
/// text are valid UTF-8, the reader's repairs made.
package struct WebVTTCueAsRead {
    /// The identifier (empty when the cue has none).
    package var identifier: UnsafeRawBufferPointer
    /// The text, its lines joined by LF.
    package var text: UnsafeRawBufferPointer
    /// False when the text is known to hold neither `<` nor `&`.
    package var textHasMarkup: Bool
    /// Start and end, in milliseconds.
    package var start: Int
    package var end: Int
    /// The line number of the timing line (the text starts on the next line).
    package var timingLine: Int
}

/// A cue block a ``WebVTTReader`` read whole from memory, on its fast path, as its bytes and what
/// the reader learnt of them: a borrowed view, valid only during the call.
package struct WebVTTCueBlockAsRead {
    /// The block: an identifier line or none, the timing line, then the text lines, each ending
    /// in LF; valid UTF-8, free of CR, NUL, empty lines and `-->` in the text.
    package var bytes: UnsafeRawBufferPointer
    /// The timing line, within ``bytes``.
    package var timingLine: UnsafeRawBufferPointer
    /// The identifier, within ``bytes`` (empty when the cue has none).
    package var identifier: UnsafeRawBufferPointer
    /// The text, within ``bytes``: its lines joined by LF, with no LF after the last.
    package var text: UnsafeRawBufferPointer
    /// False when the text is known to hold neither `<` nor `&`.
    package var textHasMarkup: Bool
    /// When the timing line starts with both times in full (`hh:mm:ss.ttt --> hh:mm:ss.ttt`,
    /// hours in two digits or as many as they need with no leading zero, one space each side of
    /// the arrow), the length of that text; else nil.
    package var fullFormTimesLength: Int?
    /// The text the settings were read from (what follows the times), when known.
    package var settingsText: UnsafeRawBufferPointer?
    /// Start and end, in milliseconds.
    package var start: Int
    package var end: Int
}

/// The one thing a consumer hands the reader to see its cues as they were read, beside their
/// events: statistics that count characters without a `String` look at each cue
/// (``see(_:)``); a conversion that copies the blocks it would write unchanged ``takesCues``
/// and is offered blocks read whole (``take(_:settings:)``).
///
/// The reader knows nothing of what the sink does with a cue: a writer decides what it can copy
/// (``WebVTTCueBlockCopier``).
package protocol WebVTTCueSink: AnyObject {
    /// True when the sink may take cues in place of their events: it is then offered the blocks
    /// read whole (``take(_:settings:)``), and the other cues come as events alone. False, and it
    /// is shown every cue (``see(_:)``) before its event.
    var takesCues: Bool { get }

    /// Shown one cue, after the diagnostics about it and before its event (a sink that does not
    /// take cues).
    func see(_ cue: WebVTTCueAsRead) throws

    /// Offered a cue block read whole, with the settings read from its timing line, after the
    /// diagnostics about the cue (a sink that takes cues). Returns true when it took the block:
    /// then no event is made for the cue.
    func take(_ block: WebVTTCueBlockAsRead, settings: borrowing CueSettings) throws -> Bool
}

/// What a consumer in this package hands the reader for one ``WebVTTReader/feed(_:hooks:to:)`` or
/// ``WebVTTReader/finish(hooks:to:)`` call: the sink that sees its cues, and where the checker
/// leaves its cue text parses (for a TTML writer, which parses the text again, whether it takes
/// cue blocks whole or their events).
///
/// Unchecked `Sendable`: the hooks are references the consumer owns, and the reader holds them only
/// during the call they are handed to, on the calling thread, and forgets them before it returns;
/// a reader between calls holds none, so no reader that crosses a thread carries one.
package struct WebVTTReaderHooks: @unchecked Sendable {
    package var cueSink: (any WebVTTCueSink)?
    package var cueTextParseCache: CueTextParseCache?
    /// The sink when it takes cues, and when it only looks (read once per call, not per cue).
    var taker: (any WebVTTCueSink)?
    var seer: (any WebVTTCueSink)?
    /// The cache the checker fills: ``cueTextParseCache``.
    var checkerParseCache: CueTextParseCache?

    package init(cueSink: (any WebVTTCueSink)? = nil, cueTextParseCache: CueTextParseCache? = nil) {
        self.cueSink = cueSink
        self.cueTextParseCache = cueTextParseCache
    }
}
