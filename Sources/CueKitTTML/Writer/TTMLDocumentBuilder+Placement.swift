import CueKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TTMLDocumentBuilder {
    /// How many lines a cue's region must hold, where that changes the region: only a box placed
    /// by a percentage too short for the text (``TTMLRegionGeometry/init(cue:lines:)``); 1 for any
    /// other, so that such cues share their region whatever their lines. `lines` is the text's
    /// (``textLines(_:)``).
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

    /// The lines of a cue's text (its UTF-8 bytes): one more than its line feeds.
    static func textLines(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard var next = bytes.baseAddress else { return 1 }
        let end = next + bytes.count
        var count = 1
        while next < end, let found = memchr(next, Int32(UInt8(ascii: "\n")), end - next) {
            count += 1
            next = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return count
    }
}
