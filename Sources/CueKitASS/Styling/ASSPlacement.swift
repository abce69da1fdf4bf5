import CueKit

/// The `[Script Info]` values the reader uses.
public struct ASSScript: Sendable, Hashable {
    /// `PlayResX`, `PlayResY`: the size of the script's coordinate space; nil when not given.
    public var playResX: Int?, playResY: Int?
    /// `WrapStyle`: 2 makes `\n` a line break too.
    public var wrapStyle = 0
    /// `ScriptType` (`v4.00+` for ASS, `v4.00` for SSA), when given.
    public var scriptType: String?

    /// An empty `[Script Info]`.
    public init() {}

    /// The coordinate space as libass completes it: 384 × 288 when neither is given, otherwise the
    /// missing one from a 4:3 picture (1280 wide is 1024 high).
    public var resolution: (width: Int, height: Int) {
        switch (playResX, playResY) {
        case (let x?, let y?): return (max(1, x), max(1, y))
        case (let x?, nil): return (max(1, x), x == 1280 ? 1024 : max(1, x * 3 / 4))
        case (nil, let y?): return (y == 1024 ? 1280 : max(1, y * 4 / 3), max(1, y))
        case (nil, nil): return (384, 288)
        }
    }
}

/// Where an event is drawn, as WebVTT cue settings.
///
/// ASS places an event by its alignment (a numeric keypad: 1 bottom left … 9 top right) inside the
/// frame less its margins, or at a point (`\pos(x,y)`) with the alignment naming which point of the
/// text is there. WebVTT places a cue box by a line (vertical, `line:` as a percentage with
/// `start`/`center`/`end` alignment) and a position (horizontal, `position:` with `line-left`/
/// `center`/`line-right`); the text is aligned with `align:`. Coordinates become percentages of
/// PlayResX and PlayResY.
enum ASSPlacement {
    static func settings(
        alignment: Int, marginLeft: Int, marginRight: Int, marginVertical: Int, point: (x: Double, y: Double)?, width: Int, height: Int
    ) -> CueSettings {
        let keypad = (1...9).contains(alignment) ? alignment : 2
        let column = (keypad - 1) % 3
        let row = (keypad - 1) / 3
        var settings = CueSettings()
        settings.alignment = column == 0 ? .left : column == 2 ? .right : .center
        settings.positionAlignment = column == 0 ? .lineLeft : column == 2 ? .lineRight : .center
        settings.lineAlignment = row == 0 ? .end : row == 1 ? .center : .start
        let xScale = 100 / Double(width)
        let yScale = 100 / Double(height)
        if let point {
            settings.position = .percentage(clamp(point.x * xScale))
            settings.line = .percentage(clamp(point.y * yScale))
            return settings
        }
        switch row {
        case 0: settings.line = .percentage(clamp(100 - Double(marginVertical) * yScale))
        case 1: settings.line = .percentage(50)
        default: settings.line = .percentage(clamp(Double(marginVertical) * yScale))
        }
        let left = min(100, max(0, Double(marginLeft) * xScale))
        let right = max(left, min(100, 100 - Double(marginRight) * xScale))
        settings.size = rounded(right - left)
        switch column {
        case 0: settings.position = .percentage(rounded(left))
        case 2: settings.position = .percentage(rounded(right))
        default: settings.position = .percentage(rounded((left + right) / 2))
        }
        return settings
    }

    private static func clamp(_ value: Double) -> Double { rounded(min(100, max(0, value))) }

    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
