/// The regions of the cues shown at a time, to hold a profile to how many it may show at once:
/// IMSC 1.1 Text (section 8.3: `#region` presented at most 4) and EBU-TT-D (section 3.3) show at
/// most four regions at any moment.
///
/// A cue that would be a fifth region shown is written into one of the regions shown then, the
/// one that draws it nearest to where WebVTT does (``TTMLShownRegions/nearest(to:lines:at:in:)``):
/// a renderer stacks a region's paragraphs in document order, so the cue is drawn after the text
/// already there. Only when no shown region has room for it is it written in its own region, and
/// reported.
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
        /// The cue's lines, for the room it takes in its region.
        var lines: Int
    }

    /// Where a cue is written, and whether it still makes more than ``limit`` regions shown.
    struct Placement {
        var region: String
        var isOverLimit: Bool
    }

    /// The last cue, while no cue is shown with another: most tracks show one cue at a time, and
    /// then no list is kept.
    private var alone = Shown(start: 0, end: Int.min, region: "", lines: 1)
    /// The cues shown around the last one, once cues overlap (``alone`` is then unused).
    private var shown: [Shown] = []

    /// Records a cue of `lines` lines shown from `start` to `end`, placed in `region`, and returns
    /// the region to write it in: its own, or, when that would be a region past ``limit`` shown at
    /// `start`, a shown one that holds it (`regions` gives their geometry).
    mutating func place(
        _ region: String, lines: Int, from start: Int, to end: Int, regions: TTMLHeadEntries<TTMLRegionGeometry>
    ) -> Placement {
        if shown.isEmpty {
            if start >= alone.end || end <= start {
                if end > start { alone = Shown(start: start, end: end, region: region, lines: lines) }
                return Placement(region: region, isOverLimit: false)
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
        var placement = Placement(region: region, isOverLimit: false)
        if shown.count >= Self.limit, distinctRegions(with: region, at: start) > Self.limit {
            if let merged = nearest(to: region, lines: lines, at: start, in: regions) {
                placement.region = merged
            } else {
                placement.isOverLimit = true
            }
        }
        guard end > start else { return placement }
        let cue = Shown(start: start, end: end, region: placement.region, lines: lines)
        if shown.isEmpty {
            alone = cue
        } else if shown.count < Self.capacity {
            shown.append(cue)
        } else if let earliest = shown.indices.min(by: { shown[$0].end < shown[$1].end }), shown[earliest].end < end {
            // Keep the cues that end last: they are the ones later cues can meet.
            shown[earliest] = cue
        }
        return placement
    }

    /// How many distinct regions are shown at `time` with `region`. Counted in place (a region
    /// counts where it is first met): the cues kept are few.
    private func distinctRegions(with region: String, at time: Int) -> Int {
        var distinct = 1
        for index in shown.indices where shown[index].start <= time && shown[index].region != region {
            var metBefore = false
            for earlier in 0..<index where shown[earlier].start <= time && shown[earlier].region == shown[index].region {
                metBefore = true
                break
            }
            if !metBefore { distinct += 1 }
        }
        return distinct
    }

    /// The shown region that draws a cue of `region`'s placement and `lines` lines nearest to where
    /// its own region draws it, moving the text already there least; nil when none has room for it
    /// (its lines under those shown there, as wide as its own box) in the same writing mode.
    ///
    /// A region stacks its paragraphs in document order, so the cue goes after the text shown there:
    /// at that text's end in a `before` region; at the bottom of an `after` region, pushing that text
    /// up; in between for `center`. What moves is measured in percent of the video, in both axes.
    func nearest(to region: String, lines: Int, at time: Int, in regions: TTMLHeadEntries<TTMLRegionGeometry>) -> String? {
        guard let own = regions.value(of: region) else { return nil }
        let lineHeight = TTMLRegionGeometry.lineHeight
        let cueExtent = Double(lines) * lineHeight
        /// Where the cue's first line is drawn across lines in `geometry`, with `before` lines
        /// above it; and how far that text is moved.
        func drawn(in geometry: TTMLRegionGeometry, after before: Int) -> (start: Double, moved: Double) {
            let (origin, extent) = geometry.writingMode == nil ? (geometry.originY, geometry.height) : (geometry.originX, geometry.width)
            let above = Double(before) * lineHeight
            switch geometry.displayAlign {
            case "before": return (origin + above, 0)
            case "center": return (origin + (extent - above - cueExtent) / 2 + above, cueExtent / 2)
            default: return (origin + extent - cueExtent, cueExtent)
            }
        }
        let wanted = drawn(in: own, after: 0).start
        let ownCentre = own.writingMode == nil ? own.originX + own.width / 2 : own.originY + own.height / 2
        let ownBreadth = own.writingMode == nil ? own.width : own.height
        var best: (region: String, cost: Double)?
        for index in shown.indices where shown[index].start <= time {
            let candidate = shown[index].region
            // Each region once, where first met.
            guard candidate != region, !shown[..<index].contains(where: { $0.start <= time && $0.region == candidate }),
                let geometry = regions.value(of: candidate), geometry.writingMode == own.writingMode
            else { continue }
            var linesThere = 0
            var cuesThere = 0
            for cue in shown where cue.start <= time && cue.region == candidate {
                linesThere += cue.lines
                cuesThere += 1
            }
            let extent = geometry.writingMode == nil ? geometry.height : geometry.width
            let breadth = geometry.writingMode == nil ? geometry.width : geometry.height
            guard Double(linesThere + lines) * lineHeight <= extent + 0.01, breadth + 0.01 >= ownBreadth else { continue }
            let (start, moved) = drawn(in: geometry, after: linesThere)
            let centre = geometry.writingMode == nil ? geometry.originX + geometry.width / 2 : geometry.originY + geometry.height / 2
            let cost = abs(start - wanted) + abs(centre - ownCentre) + moved * Double(cuesThere)
            if best == nil || cost < best!.cost { best = (candidate, cost) }
        }
        return best?.region
    }
}
