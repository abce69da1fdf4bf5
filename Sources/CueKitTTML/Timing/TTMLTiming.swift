/// An element's `begin`, `end`, `dur` and `timeContainer` (TTML2 sections 12.2.1 to 12.2.4),
/// read, and the interval arithmetic of TTML2 section 12.4 ("Timing Semantics").
struct TTMLTiming: Sendable, Hashable {
    /// `begin`: an offset from the element's sync base; zero when absent.
    var begin: TTMLTime?
    /// `end`: an offset from the same sync base.
    var end: TTMLTime?
    /// `dur`: the duration from the element's begin.
    var duration: TTMLTime?
    /// `timeContainer="seq"`: children play one after another. Otherwise `par`.
    var isSequence = false

    static let none = TTMLTiming()

    /// True when `end` or `dur` bounds the element.
    var hasExplicitEnd: Bool { end != nil || duration != nil }

    /// The element's begin, given its sync base: the parent's begin for a child of a `par`
    /// container, the previous sibling's end (or the parent's begin for the first child) for a child
    /// of a `seq` container.
    func resolvedBegin(syncBase: TTMLTime) -> TTMLTime {
        syncBase + (begin ?? .zero)
    }

    /// The end set by `end` and `dur`, whichever comes first (SMIL's active end, as TTML2 section
    /// 12.4 constrains it); the indefinite time when neither is present. `end` is measured from
    /// the same sync base as `begin`.
    func explicitEnd(syncBase: TTMLTime, begin resolvedBegin: TTMLTime) -> TTMLTime {
        var result = TTMLTime.indefinite
        if let end { result = min(result, syncBase + end) }
        if let duration { result = min(result, resolvedBegin + duration) }
        return result
    }
}

/// A half-open interval of media time, `[begin, end)`; empty when `end <= begin`.
struct TTMLInterval: Sendable, Hashable {
    var begin: TTMLTime
    var end: TTMLTime

    var isEmpty: Bool { !(begin < end) }

    static let always = TTMLInterval(begin: .zero, end: .indefinite)

    func intersection(_ other: TTMLInterval) -> TTMLInterval {
        TTMLInterval(begin: max(begin, other.begin), end: min(end, other.end))
    }

    func contains(_ time: TTMLTime) -> Bool { begin <= time && time < end }
}
