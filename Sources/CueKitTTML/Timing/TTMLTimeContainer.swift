/// The timing of a `body` or `div` as a time container (TTML2 section 12.1.2): where its children's
/// times are measured from, how far they may run, and its active end once it closes.
///
/// A `par` container measures every child from its own begin and ends with the latest child; a `seq`
/// container measures each child from the end of the one before and ends with the last.
struct TTMLTimeContainer: Sendable {
    var begin: TTMLTime
    /// The end of its active interval if `end`/`dur` or an ancestor bounds it.
    var limit: TTMLTime
    var explicitEnd: TTMLTime?
    var isSequence: Bool
    /// `seq`: where the next child's time starts.
    var cursor: TTMLTime
    /// `par`: the latest end of a child so far.
    var latestEnd: TTMLTime

    /// The document's timeline: a `par` container from zero with no end.
    static let root = TTMLTimeContainer(
        begin: .zero, limit: .indefinite, explicitEnd: nil, isSequence: false, cursor: .zero, latestEnd: .zero)

    /// Where a child's `begin` and `end` are measured from.
    var syncBase: TTMLTime { isSequence ? cursor : begin }

    /// A child container with the given timing; nil timing (it could not be read) gives a
    /// container in which nothing is presented.
    func child(_ timing: TTMLTiming?) -> TTMLTimeContainer {
        let syncBase = self.syncBase
        var child = self
        if let timing {
            let begin = timing.resolvedBegin(syncBase: syncBase)
            child.begin = begin
            child.explicitEnd = timing.hasExplicitEnd ? timing.explicitEnd(syncBase: syncBase, begin: begin) : nil
            child.limit = min(child.explicitEnd ?? .indefinite, limit)
            child.isSequence = timing.isSequence
        } else {
            child.begin = syncBase
            child.explicitEnd = syncBase
            child.limit = syncBase
            child.isSequence = false
        }
        child.cursor = child.begin
        child.latestEnd = child.begin
        return child
    }

    /// Its active end as it closes: explicit, or implied by its children, within its parent's limit.
    func activeEnd(within parentLimit: TTMLTime) -> TTMLTime {
        let implicitEnd = isSequence ? cursor : latestEnd
        let end = min(explicitEnd ?? implicitEnd, parentLimit)
        return max(end, begin)
    }

    /// A child (container or paragraph) ended at `end`.
    mutating func childEnded(at end: TTMLTime) {
        cursor = end
        latestEnd = max(latestEnd, end)
    }
}
