import CueKit

extension TTMLDocumentBuilder {
    /// How many lines a cue's region must hold, where that changes the region: only a box placed
    /// by a percentage too short for the text (``TTMLRegionGeometry/init(cue:lines:)``); 1 for any
    /// other, so that such cues share their region whatever their lines. `lines` is the text's
    /// (``TextLineCount``).
    static func lineCount(_ settings: CueSettings, lines: Int) -> Int {
        guard case .percentage(let value) = settings.line else { return 1 }
        let line = min(max(value, 0), 100)
        let room: Double
        switch settings.lineAlignment {
        case .start: room = 100 - line
        case .end: room = line
        case .center: room = 2 * min(line, 100 - line)
        }
        return Double(lines) * TTMLRegionGeometry.lineHeight > room ? lines : 1
    }
}
