/// The cue settings of WebVTT (section 4.3), each typed, with the spec's defaults.
///
/// These are the values a browser exposes on `VTTCue`; a reader stores the result of the spec's
/// parsing rules, not the text of the settings list.
public struct CueSettings: Sendable, Hashable {
    /// `vertical:` the writing direction.
    public var vertical: Vertical
    /// `line:` the line position, `auto` by default.
    public var line: Line
    /// The alignment of the cue box against ``line`` (`line:10%,end`).
    public var lineAlignment: LineAlignment
    /// `position:` the position in percent of the video, `auto` by default.
    public var position: Position
    /// The alignment of the cue box against ``position`` (`position:10%,line-left`).
    public var positionAlignment: PositionAlignment
    /// `size:` the cue box size in percent of the video, 100 by default.
    public var size: Double
    /// `align:` the text alignment, `center` by default.
    public var alignment: TextAlignment
    /// `region:` the identifier of the region the cue is shown in, if the track defines it.
    public var region: String?

    /// Creates settings; every argument defaults to the WebVTT default.
    public init(
        vertical: Vertical = .horizontal,
        line: Line = .auto,
        lineAlignment: LineAlignment = .start,
        position: Position = .auto,
        positionAlignment: PositionAlignment = .auto,
        size: Double = 100,
        alignment: TextAlignment = .center,
        region: String? = nil
    ) {
        self.vertical = vertical
        self.line = line
        self.lineAlignment = lineAlignment
        self.position = position
        self.positionAlignment = positionAlignment
        self.size = size
        self.alignment = alignment
        self.region = region
    }

    /// True when every setting has its default value.
    public var isDefault: Bool {
        guard case .auto = line, case .auto = position, region == nil else { return false }
        return vertical == .horizontal && lineAlignment == .start && positionAlignment == .auto && size == 100 && alignment == .center
    }

    /// The writing direction (`vertical:`). Raw values are those of `VTTCue.vertical`.
    public enum Vertical: String, Sendable, Hashable, CaseIterable {
        /// Horizontal text (no `vertical` setting).
        case horizontal = ""
        /// `vertical:rl`, lines growing to the left.
        case growingLeft = "rl"
        /// `vertical:lr`, lines growing to the right.
        case growingRight = "lr"
    }

    /// The line position (`line:`).
    public enum Line: Sendable, Hashable {
        /// No `line` setting: the browser places the cue.
        case auto
        /// A line number (`line:-1`), counted from the top (or from the bottom when negative);
        /// `VTTCue.snapToLines` is true.
        case number(Double)
        /// A percentage of the video (`line:90%`); `VTTCue.snapToLines` is false.
        case percentage(Double)

        /// `VTTCue.snapToLines`.
        public var snapsToLines: Bool {
            if case .percentage = self { return false }
            return true
        }
    }

    /// Line alignment. Raw values are those of `VTTCue.lineAlign`.
    public enum LineAlignment: String, Sendable, Hashable, CaseIterable {
        case start, center, end
    }

    /// The position (`position:`).
    public enum Position: Sendable, Hashable {
        /// No `position` setting: derived from the alignment.
        case auto
        /// A percentage of the video.
        case percentage(Double)
    }

    /// Position alignment. Raw values are those of `VTTCue.positionAlign`.
    public enum PositionAlignment: String, Sendable, Hashable, CaseIterable {
        case lineLeft = "line-left", center, lineRight = "line-right", auto
    }

    /// Text alignment (`align:`). Raw values are those of `VTTCue.align`.
    public enum TextAlignment: String, Sendable, Hashable, CaseIterable {
        case start, center, end, left, right
    }
}
