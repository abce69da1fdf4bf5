import CueKit

/// The fixed grid of an HLS subtitle playlist: segment `n` covers `[n × duration, (n + 1) ×
/// duration)` milliseconds of cue time, the last one ending with the last cue.
///
/// A cue belongs to every segment its interval overlaps (RFC 8216, section 3.5: a cue that spans
/// segments is repeated in each). A cue that ends when it starts still belongs to the segment its
/// start is in.
public struct HLSSegmentTimeline: Sendable, Hashable {
    /// Each segment's length in milliseconds (the last may be shorter).
    public let segmentDuration: Int

    /// A timeline of `segmentDuration` milliseconds a segment; at least 1.
    public init(segmentDuration: Int) {
        precondition(segmentDuration > 0, "a segment lasts at least 1 ms")
        self.segmentDuration = segmentDuration
    }

    /// The segment that holds time `milliseconds` (negative times belong to the first).
    public func segment(containing milliseconds: Int) -> Int {
        max(0, milliseconds) / segmentDuration
    }

    /// The start of segment `index`.
    public func start(ofSegment index: Int) -> Int { index * segmentDuration }

    /// The end of the time a cue takes on the grid: its end, or 1 ms past its start for a cue that
    /// ends when (or before) it starts, so that it still lands in one segment.
    public static func effectiveEnd(of cue: Cue) -> Int { max(cue.end, cue.start + 1) }

    /// True when `cue` overlaps segment `index`.
    public func segment(_ index: Int, overlaps cue: Cue) -> Bool {
        cue.start < start(ofSegment: index + 1) && Self.effectiveEnd(of: cue) > start(ofSegment: index)
    }

    /// How many segments cover `[0, end)` (at least one).
    public func segmentCount(coveringUpTo end: Int) -> Int {
        max(1, (end + segmentDuration - 1) / segmentDuration)
    }

    /// The length of segment `index` of `count` when the track ends at `end`: the whole duration,
    /// except the last, which ends at `end` (the whole duration for an empty track).
    public func duration(ofSegment index: Int, of count: Int, trackEnd end: Int) -> Int {
        guard index == count - 1 else { return segmentDuration }
        let rest = end - start(ofSegment: index)
        return rest > 0 ? min(rest, segmentDuration) : segmentDuration
    }
}
