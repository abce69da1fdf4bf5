import CueKit

/// Where a cue is drawn, as a TTML region (TTML2 section 11.1): an origin and extent in percent
/// of the video, where the text sits in it (`tts:displayAlign`), and the writing mode.
///
/// WebVTT places a cue with its settings (W3C WebVTT section 7.2); TTML places a paragraph in a
/// region. The writer gives each distinct placement one region:
/// - along the line (`position`, `size`, `align`), the box WebVTT computes: `size` wide, but no
///   wider than its `position` point allows (WebVTT section 7.2's maximum size: a centred box at 37%
///   is at most 74% wide), that point aligned as `positionAlign` says (or as `align` implies);
/// - across lines (`line`), `auto` is the whole height with the text at the end (`after`); a
///   percentage starts the box there (`start`), ends it there (`end`) or centres it there, and the
///   box is at least as tall as the cue's lines, kept inside the video (`line:100%` is drawn at the
///   bottom, not in a box of no height); a line
///   number counts WebVTT's lines (``webVTTLineStep``) from the top, or from the bottom when
///   negative;
/// - `vertical` becomes `tts:writingMode` `tbrl` or `tblr`, with the two axes exchanged: a line
///   percentage is then an x from the left, and line numbers count columns from the side lines
///   start from.
struct TTMLRegionGeometry: Hashable, Sendable {
    var originX: Double
    var originY: Double
    var width: Double
    var height: Double
    var displayAlign: String
    var writingMode: String?

    /// The room one line of text takes in a region: one row of TTML's default cell grid, a little
    /// more than a line of WebVTT's 5vh text, so that a region sized for its lines holds them.
    static let lineHeight = 100.0 / 15
    /// How far apart WebVTT's line numbers are: the height of a line of its 5vh sans-serif text
    /// at CSS's normal line height (1.164 em for DejaVu Sans, the sans-serif Chromium and imscJS
    /// draw with here), as Chromium steps `line:3` down from the top (WebVTT section 7.2, the
    /// snap-to-lines step is the first line box's height).
    static let webVTTLineStep = 5.0 * 1.164

    /// The region of a cue of `lines` lines placed by its own settings.
    init(cue settings: CueSettings, lines: Int = 1) {
        var size = min(max(settings.size, 0), 100)
        let position: Double
        switch settings.position {
        case .percentage(let value): position = value
        case .auto:
            switch settings.alignment {
            case .start, .left: position = 0
            case .end, .right: position = 100
            case .center: position = 50
            }
        }
        let anchor: CueSettings.PositionAlignment
        if settings.positionAlignment != .auto {
            anchor = settings.positionAlignment
        } else {
            switch settings.alignment {
            case .start, .left: anchor = .lineLeft
            case .end, .right: anchor = .lineRight
            case .center: anchor = .center
            }
        }
        // WebVTT's maximum size: the box may not cross the video's edge from its position point.
        let maximumSize: Double
        switch anchor {
        case .lineLeft, .auto: maximumSize = 100 - position
        case .center: maximumSize = 2 * min(position, 100 - position)
        case .lineRight: maximumSize = position
        }
        size = min(size, max(maximumSize, 0))
        var inlineStart: Double
        switch anchor {
        case .lineLeft, .auto: inlineStart = position
        case .center: inlineStart = position - size / 2
        case .lineRight: inlineStart = position - size
        }
        inlineStart = min(max(inlineStart, 0), 100 - size)

        let lineHeight = Self.lineHeight
        // The cue's own lines, for a box placed by a percentage.
        let textExtent = min(Double(max(lines, 1)) * lineHeight, 100)
        /// The start and extent of a box at `line` percent, aligned as `lineAlignment` says and at
        /// least `textExtent` long, kept inside the video.
        func box(at line: Double) -> (start: Double, extent: Double) {
            var (start, extent): (Double, Double)
            switch settings.lineAlignment {
            case .start: (start, extent) = (line, 100 - line)
            case .end: (start, extent) = (0, line)
            case .center:
                let half = min(line, 100 - line)
                (start, extent) = (line - half, 2 * half)
            }
            if extent < textExtent {
                let wanted: Double
                switch settings.lineAlignment {
                case .start: wanted = line
                case .end: wanted = line - textExtent
                case .center: wanted = line - textExtent / 2
                }
                (start, extent) = (min(max(wanted, 0), 100 - textExtent), textExtent)
            }
            return (start, extent)
        }
        switch settings.vertical {
        case .horizontal:
            // Lines are rows from the top (negative: from the bottom); percentages are y.
            var (top, height, align) = (0.0, 100.0, "after")
            switch settings.line {
            case .auto: break
            case .percentage(let value):
                let line = min(max(value, 0), 100)
                (top, height) = box(at: line)
                switch settings.lineAlignment {
                case .start: align = "before"
                case .end: align = "after"
                case .center: align = "center"
                }
            case .number(let value):
                let lines = Self.lineNumber(value)
                let step = Self.webVTTLineStep
                if lines >= 0 {
                    top = min(lines * step, 100 - lineHeight)
                    (height, align) = (100 - top, "before")
                } else {
                    (height, align) = (max(100 + (lines + 1) * step, lineHeight), "after")
                }
            }
            self.init(originX: inlineStart, originY: top, width: size, height: height, displayAlign: align, writingMode: nil)
        case .growingLeft, .growingRight:
            // Lines are columns; a percentage is x from the left, whichever way lines grow, and the
            // line alignment names the box's edge in the lines' direction (start: right for `rl`).
            let growsLeft = settings.vertical == .growingLeft
            var (left, width, align) = (0.0, 100.0, "after")
            switch settings.line {
            case .auto: break
            case .percentage(let value):
                let line = min(max(value, 0), 100)
                switch settings.lineAlignment {
                case .start: (left, width, align) = growsLeft ? (0, line, "before") : (line, 100 - line, "before")
                case .end: (left, width, align) = growsLeft ? (line, 100 - line, "after") : (0, line, "after")
                case .center:
                    let half = min(line, 100 - line)
                    (left, width, align) = (line - half, 2 * half, "center")
                }
            case .number(let value):
                // Counted from the side lines start from (the right for `rl`); negative from the other.
                let lines = Self.lineNumber(value)
                let step = Self.webVTTLineStep
                let offset = lines >= 0 ? min(lines * step, 100 - lineHeight) : 0
                let extent = lines >= 0 ? 100 - offset : max(100 + (lines + 1) * step, lineHeight)
                align = lines >= 0 ? "before" : "after"
                width = extent
                left = (growsLeft == (lines >= 0)) ? 0 : 100 - extent
                if lines >= 0, !growsLeft { left = offset }
            }
            self.init(originX: left, originY: inlineStart, width: width, height: size, displayAlign: align, writingMode: growsLeft ? "tbrl" : "tblr")
        }
    }

    /// A line number as WebVTT draws it: rounded half up (section 7.2, "round line to an integer
    /// by adding 0.5 and then flooring it"), so `line:1.5` is the third line.
    static func lineNumber(_ value: Double) -> Double { (value + 0.5).rounded(.down) }

    /// The region of a WebVTT `REGION`: `width` wide, `lines` rows high, its anchor point pinned to
    /// the viewport anchor; text at the bottom, where WebVTT adds lines.
    init(region: CueRegion) {
        let width = min(max(region.width, 0), 100)
        let height = min(Double(max(region.lines, 1)) * Self.lineHeight, 100)
        let x = region.viewportAnchor.x - region.regionAnchor.x * width / 100
        let y = region.viewportAnchor.y - region.regionAnchor.y * height / 100
        self.init(
            originX: min(max(x, 0), 100 - width), originY: min(max(y, 0), 100 - height), width: width, height: height,
            displayAlign: "after", writingMode: nil)
    }

    init(originX: Double, originY: Double, width: Double, height: Double, displayAlign: String, writingMode: String?) {
        // Rounded to what is written, so that placements that write the same share a region.
        func round(_ value: Double) -> Double { (value * 100).rounded() / 100 }
        self.originX = round(originX)
        self.originY = round(originY)
        self.width = round(width)
        self.height = round(height)
        self.displayAlign = displayAlign
        self.writingMode = writingMode
    }

    /// The region's attributes, after its `xml:id`.
    var attributes: String {
        var text = #" tts:origin="\#(originX.ttmlNumber)% \#(originY.ttmlNumber)%" tts:extent="\#(width.ttmlNumber)% \#(height.ttmlNumber)%""#
        text += #" tts:displayAlign="\#(displayAlign)""#
        if let writingMode { text += #" tts:writingMode="\#(writingMode)""# }
        return text
    }
}
