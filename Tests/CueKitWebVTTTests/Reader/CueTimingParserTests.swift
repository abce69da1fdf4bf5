import CueKit
import CueKitTestSupport
import Testing

@testable import CueKitWebVTT

/// The timing line's common-form fast path, and the parse into settings kept from line to line,
/// against the general algorithm.
@Suite struct CueTimingParserTests {
    static let times = [
        "00:00:01.000", "01:02:03.004", "99:59:59.999", "00:01.500", "59:59.999", "1:00:00.000", "123:00:00.000", "00:60:00.000",
        "00:00:60.000", "60:00.000", "00:00:01.00", "00:00:01.0000", "00:00:01,000", "0:01.000", "00:1.000", "x", "",
    ]
    static let arrows = [" --> ", "-->", "  -->  ", "\t-->\t", " --> \u{0C}", " -> ", " -- > ", " -->"]
    static let tails = [
        "", " ", "\t", "x", "0", " align:start", " size:50% align:end", " line:-2 position:10%,line-left", " region:r1 line:3",
        " vertical:rl", " bogus", " align:middle", "\u{0C}size:40%", " line:1.5 line:2",
    ]

    /// `intoSettings` parses with ``CueTimingParser/parse(regions:settings:)``, into settings that
    /// held another line's.
    static func parse(_ line: String, commonForm: Bool, intoSettings: Bool = false) -> (CueTimingParser.Timings?, [Diagnostic], String?) {
        var regions = RegionTable()
        _ = regions.add(CueRegion(id: "r1", width: 40), line: 3)
        var copy = line
        return copy.withUTF8 { bytes in
            var parser = CueTimingParser(line: UnsafeRawBufferPointer(bytes), lineNumber: 7, checks: true, readsCommonForm: commonForm)
            let timings: CueTimingParser.Timings?
            if intoSettings {
                // Every setting other than its default, as another line left them.
                var settings = CueSettings(
                    vertical: .growingLeft, line: .number(-3), lineAlignment: .end, position: .percentage(7), positionAlignment: .lineRight,
                    size: 12, alignment: .right, region: "earlier")
                timings = parser.parse(regions: regions, settings: &settings).map { CueTimingParser.Timings(start: $0.start, end: $0.end, settings: settings) }
            } else {
                timings = parser.parse(regions: regions)
            }
            return (timings, parser.diagnostics, parser.failure.map { "\($0.code) \($0.offset) \($0.message)" })
        }
    }

    @Test func theCommonFormGivesWhatTheGeneralAlgorithmGives() {
        var random = SeededRandom(seed: 0x71A1)
        var takenByFastPath = 0
        for _ in 0..<5_000 {
            // Half the lines have the arrow the fast path takes.
            let arrow = Bool.random(using: &random) ? " --> " : Self.arrows.randomElement(using: &random)!
            let line = Self.times.randomElement(using: &random)! + arrow
                + Self.times.randomElement(using: &random)! + Self.tails.randomElement(using: &random)!
            let general = Self.parse(line, commonForm: false)
            for fast in [Self.parse(line, commonForm: true), Self.parse(line, commonForm: true, intoSettings: true)] {
                #expect(fast.0?.start == general.0?.start && fast.0?.end == general.0?.end, "\(line.debugDescription)")
                #expect(fast.0?.settings == general.0?.settings, "\(line.debugDescription)")
                #expect(fast.1 == general.1, "\(line.debugDescription)")
                #expect(fast.2 == general.2, "\(line.debugDescription)")
            }
            let fast = Self.parse(line, commonForm: true)
            if fast.0 != nil, fast.1.isEmpty { takenByFastPath += 1 }
        }
        #expect(takenByFastPath > 150)
    }
}
