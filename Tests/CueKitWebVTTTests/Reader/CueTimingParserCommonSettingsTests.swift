import CueKit
import CueKitTestSupport
import Testing

@testable import CueKitWebVTT

/// The settings read in one pass (``CueTimingParser/readCommonSettings(from:regions:into:)``)
/// against the general algorithm, on random settings in the forms it takes and near them.
@Suite struct CueTimingParserCommonSettingsTests {
    /// Settings and near misses: names misspelt or cased otherwise, values out of range, with a
    /// fraction, a sign, a wrong keyword, an empty part, too many digits.
    static let settings = [
        "line:0", "line:-2", "line:-0", "line:12", "line:007", "line:85%", "line:0%", "line:100%", "line:12.5%", "line:10%,start",
        "line:10%,center", "line:-1,end", "line:1.5", "line:101%", "line:-5%", "line:5.%", "line:.5%", "line:", "line:%",
        "line:10%,", "line:10%,middle", "line:10%,start,end", "line:x", "line:1-", "line:123456789012345", "line:1234567890123456",
        "line:5%x", "Line:5", "lines:5", "line5",
        "position:10%", "position:0%", "position:100%", "position:99.999%", "position:10%,line-left", "position:10%,line-right",
        "position:10%,center", "position:10%,line-lef", "position:10%,line-rightx", "position:10%,auto", "position:10", "position:-1%",
        "position:100.5%", "position:%", "position:", "positio:10%", "positions:10%", "position:0.000000000000001%",
        "position:00000000000000050%",
        "size:50%", "size:100%", "size:100.0%", "size:0%", "size:30.25%", "size:101%", "size:50", "size:50%,x", "size:",
        "align:start", "align:center", "align:end", "align:left", "align:right", "align:middle", "align:", "align:Start", "align:startx",
        "vertical:rl", "vertical:lr", "vertical:", "vertical:rlx", "vertical:RL", "verticals:rl",
        "region:r1", "region:top", "region:", "region:r1x", "region:R1",
        "bogus", "bogus:1", ":", "a:", ":b", "x:y:z",
        // Keywords against bytes under 0x21 that are not white space, and bytes beyond ASCII.
        "align:start\u{01}x", "align:end\u{0B}", "align:endé", "vertical:rl\u{0B}", "position:10%,center\u{01}", "align:lef\u{7F}",
    ]
    static let separators = [" ", " ", " ", "  ", "\t", "\u{0C}", " \t "]

    /// The line `00:00:01.000 --> 00:00:02.000` and `tail`, read with or without the one-pass
    /// form, and whether that form took the settings.
    static func read(_ tail: String, commonForm: Bool) -> (CueSettings?, [Diagnostic], took: Bool) {
        var regions = RegionTable()
        _ = regions.add(CueRegion(id: "r1", width: 40), line: 3)
        _ = regions.add(CueRegion(id: "top", width: 80), line: 9)
        // A region without an identifier, which `region:` (no value) must not name.
        _ = regions.add(CueRegion(id: ""), line: 15)
        var text = "00:00:01.000 --> 00:00:02.000" + tail
        return text.withUTF8 { bytes in
            let line = UnsafeRawBufferPointer(bytes)
            var parser = CueTimingParser(line: line, lineNumber: 7, checks: true, readsCommonForm: commonForm)
            let timings = parser.parse(regions: regions)
            var settings = CueSettings()
            let took = parser.readCommonSettings(from: 29, regions: regions, into: &settings)
            if took { #expect(settings == timings?.settings, "\(tail.debugDescription)") }
            return (timings?.settings, parser.diagnostics, took)
        }
    }

    @Test func theOnePassFormGivesWhatTheGeneralAlgorithmGives() {
        var random = SeededRandom(seed: 0x5E77)
        var taken = 0, refused = 0
        for _ in 0..<30_000 {
            var tail = ""
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                tail += Self.separators.randomElement(using: &random)! + Self.settings.randomElement(using: &random)!
            }
            if Int.random(in: 0..<8, using: &random) == 0 { tail += " " }
            let general = Self.read(tail, commonForm: false)
            let fast = Self.read(tail, commonForm: true)
            #expect(fast.0 == general.0, "\(tail.debugDescription)")
            #expect(fast.1 == general.1, "\(tail.debugDescription)")
            // What the one pass takes, the general algorithm reads without a word.
            if fast.took {
                taken += 1
                #expect(general.1.isEmpty, "\(tail.debugDescription)")
            } else {
                refused += 1
            }
        }
        #expect(taken > 2_000 && refused > 2_000, "\(taken) taken, \(refused) refused")
    }

    /// The orders in which a region stays or goes: `region` after `line`, `vertical` or a size
    /// keeps it (taken); before them, it is dropped with a warning (left to the general algorithm).
    @Test func aRegionBeforeWhatTakesACueOutOfItIsLeftToTheGeneralAlgorithm() {
        for tail in [" line:3 region:r1", " vertical:rl region:r1", " size:50% region:r1", " size:100% region:r1", " region:r1 size:100%"] {
            let read = Self.read(tail, commonForm: true)
            #expect(read.took && read.0?.region == "r1" && read.1.isEmpty, "\(tail)")
        }
        for tail in [" region:r1 line:3", " region:r1 vertical:rl", " region:r1 size:50%"] {
            let read = Self.read(tail, commonForm: true)
            #expect(!read.took && read.0?.region == nil && read.1.map(\.code) == [.vttRegionIgnored], "\(tail)")
        }
    }
}
