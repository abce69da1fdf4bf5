/// The regions of the cues shown at a time, to hold a profile to how many it may show at once:
/// IMSC 1.1 Text (section 8.3: `#region` presented at most 4) and EBU-TT-D (section 3.3) show at
/// most four regions at any moment.
///
/// Cues come in any order (TTML times each paragraph itself), so each cue is checked at its start
/// against the cues met so far that are shown then. In start order, as WebVTT and SubRip tracks
/// come, that finds every moment with too many regions. At most ``capacity`` cues are kept, those
/// that end last, so that memory stays bounded whatever the track.
struct TTMLShownRegions {
    /// How many regions a profile that limits them shows at once.
    static let limit = 4
    /// How many cues are kept to check against.
    static let capacity = 64

    private struct Shown {
        var start: Int
        var end: Int
        var region: String
    }

    /// The last cue, while no cue is shown with another: most tracks show one cue at a time, and
    /// then no list is kept.
    private var alone = Shown(start: 0, end: Int.min, region: "")
    /// The cues shown around the last one, once cues overlap (``alone`` is then unused).
    private var shown: [Shown] = []

    /// Records a cue shown from `start` to `end` in `region`. Returns how many distinct regions are
    /// shown at `start`, this cue's included, when that is more than ``limit``; nil otherwise.
    mutating func show(_ region: String, from start: Int, to end: Int) -> Int? {
        if shown.isEmpty {
            if start >= alone.end || end <= start {
                if end > start { alone = Shown(start: start, end: end, region: region) }
                return nil
            }
            shown.append(alone)
            alone.end = Int.min
        }
        // Forget the cues that ended by now (in start order, they never show again).
        var index = shown.count - 1
        while index >= 0 {
            if shown[index].end <= start {
                shown.swapAt(index, shown.count - 1)
                shown.removeLast()
            }
            index -= 1
        }
        let over = shown.count >= Self.limit ? overLimit(region, at: start) : nil
        guard end > start else { return over }
        let cue = Shown(start: start, end: end, region: region)
        if shown.isEmpty {
            alone = cue
        } else if shown.count < Self.capacity {
            shown.append(cue)
        } else if let earliest = shown.indices.min(by: { shown[$0].end < shown[$1].end }), shown[earliest].end < end {
            // Keep the cues that end last: they are the ones later cues can meet.
            shown[earliest] = cue
        }
        return over
    }

    /// How many distinct regions are shown at `time` with `region`, when more than ``limit``.
    /// Counted in place (a region counts where it is first met): the cues kept are few.
    private func overLimit(_ region: String, at time: Int) -> Int? {
        var distinct = 1
        for index in shown.indices where shown[index].start <= time && shown[index].region != region {
            var metBefore = false
            for earlier in 0..<index where shown[earlier].start <= time && shown[earlier].region == shown[index].region {
                metBefore = true
                break
            }
            if !metBefore { distinct += 1 }
        }
        return distinct > Self.limit ? distinct : nil
    }
}
