import CueKit

/// One cue as a ``SubRipReader`` read it, offered to a ``SubRipCueSink`` in place of its event: a
/// borrowed view, valid only during the call, that costs the reader no string.
package struct SubRipCueAsRead {
    /// The sequence number as written (empty when the cue has none, or identifiers are not kept).
    package var identifier: UnsafeRawBufferPointer
    /// The cue text as the model holds it (``Cue/text``): the markup mapped to WebVTT's and the
    /// rest escaped (``SubRipMarkupConverter``), lines joined by LF; valid UTF-8. It never holds a
    /// CR, a NUL, an empty line, a line break at either end, or `-->`: lines end at CR, NUL is
    /// read as U+FFFD, blank lines are left out, and `>` is escaped outside the tags written.
    package var text: UnsafeRawBufferPointer
    /// The settings an ASS alignment (`{\anN}`) gave the cue; nil without one (the defaults).
    package var settings: CueSettings?
    /// Start and end, in milliseconds.
    package var start: Int
    package var end: Int
    /// The timing line, when it is in the standard form `hh:mm:ss,mmm --> hh:mm:ss,mmm` (and so
    /// gives the times in WebVTT's form with `.` in place of each `,`).
    package var standardTimingLine: UnsafeRawBufferPointer?
    /// The line number of the timing line, where the cue is located.
    package var timingLine: Int
}

/// What a consumer hands the reader to take cues in place of their events: a conversion to
/// WebVTT writes them as bytes at once, where a ``Cue`` would be built, ordered and formatted.
///
/// The reader knows nothing of what the sink does with a cue. A reader with a sink also reads
/// ordinary blocks straight from memory (its fast path), giving the events the line-by-line path
/// gives for them.
package protocol SubRipCueSink: AnyObject {
    /// Offered one cue, after the diagnostics and style sheets about it. Returns true when it took
    /// the cue: then no event is made for it.
    func take(_ cue: SubRipCueAsRead) throws -> Bool
}

/// What a consumer in this package hands the reader for one ``SubRipReader/feed(_:hooks:to:)`` or
/// ``SubRipReader/finish(hooks:to:)`` call.
///
/// Unchecked `Sendable`: the sink is a reference the consumer owns, and the reader holds it only
/// during the call it is handed to, on the calling thread, and forgets it before it returns; a
/// reader between calls holds none, so no reader that crosses a thread carries one.
package struct SubRipReaderHooks: @unchecked Sendable {
    package var cueSink: (any SubRipCueSink)?

    package init(cueSink: (any SubRipCueSink)? = nil) {
        self.cueSink = cueSink
    }
}
