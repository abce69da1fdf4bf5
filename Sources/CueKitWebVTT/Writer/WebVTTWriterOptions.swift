import CueKit

/// How ``WebVTTWriter`` lays out its output. Every choice here changes bytes only: whatever the
/// options, the output reads back as the same track (except ``notes`` set to ``Notes/drop``).
///
/// Each member is a small enum with a documented default, so that a command-line flag or a
/// configuration file maps onto it one to one.
public struct WebVTTWriterOptions: Sendable, Hashable {
    /// How lines end. Default: ``LineEnding/lf``.
    public var lineEnding: LineEnding
    /// How timestamps are written. Default: ``Timestamp/HoursStyle/always`` (`00:01:02.500`), which
    /// every WebVTT reader accepts; ``Timestamp/HoursStyle/whenNeeded`` writes `01:02.500`.
    public var hours: CueTimestamp.HoursStyle
    /// Whether `NOTE` comments are written. Default: ``Notes/keep``.
    public var notes: Notes

    /// Creates options; every argument defaults to the documented default.
    public init(lineEnding: LineEnding = .lf, hours: CueTimestamp.HoursStyle = .always, notes: Notes = .keep) {
        self.lineEnding = lineEnding
        self.hours = hours
        self.notes = notes
    }

    /// The line terminator written after every line (WebVTT section 4.1 allows CR, LF and CRLF).
    public enum LineEnding: Sendable, Hashable, CaseIterable {
        /// U+000A LINE FEED, the usual ending on the web and on Unix-like systems.
        case lf
        /// U+000D U+000A, for tools on Windows that expect it.
        case crlf
    }

    /// What to do with `NOTE` comment blocks.
    public enum Notes: Sendable, Hashable, CaseIterable {
        /// Write every comment where the track has it.
        case keep
        /// Leave every comment out (no diagnostic: the caller asked for it).
        case drop
    }
}
