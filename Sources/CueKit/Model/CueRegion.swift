/// A WebVTT region (section 4.5): a box in the video in which cues scroll up as they are added.
///
/// Values are those of `VTTRegion`, with the spec's defaults.
public struct CueRegion: Sendable, Hashable {
    /// The region identifier that cues name in their `region:` setting.
    public var id: String
    /// The width in percent of the video width.
    public var width: Double
    /// The height in lines.
    public var lines: Int
    /// The point of the region, in percent of the region's box, that is pinned to ``viewportAnchor``.
    public var regionAnchor: Point
    /// The point of the video, in percent, that ``regionAnchor`` is pinned to.
    public var viewportAnchor: Point
    /// How cues enter the region.
    public var scroll: Scroll

    /// Creates a region; every argument but the identifier defaults to the WebVTT default.
    public init(
        id: String,
        width: Double = 100,
        lines: Int = 3,
        regionAnchor: Point = Point(x: 0, y: 100),
        viewportAnchor: Point = Point(x: 0, y: 100),
        scroll: Scroll = .none
    ) {
        self.id = id
        self.width = width
        self.lines = lines
        self.regionAnchor = regionAnchor
        self.viewportAnchor = viewportAnchor
        self.scroll = scroll
    }

    /// A point given as two percentages.
    public struct Point: Sendable, Hashable {
        /// Horizontal percentage.
        public var x: Double
        /// Vertical percentage.
        public var y: Double

        /// Creates a point.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// The region's scroll setting. Raw values are those of `VTTRegion.scroll`.
    public enum Scroll: String, Sendable, Hashable, CaseIterable {
        /// Cues appear in place.
        case none = ""
        /// `scroll:up`: cues enter at the bottom and push earlier ones up.
        case up
    }
}
