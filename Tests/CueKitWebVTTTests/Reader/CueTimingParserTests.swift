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

    /// The 29-byte line read in four words: every line that differs from a valid one in a byte or
    /// two (digits out of range, separators changed, bytes with the high bit set, white space or
    /// not after it) gives what the general algorithm gives; the valid ones are all read by it.
    @Test func theTwoDigitHourLineReadInWordsGivesWhatTheGeneralAlgorithmGives() {
        var random = SeededRandom(seed: 0x29)
        let replacements: [UInt8] = Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + [
            UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: "-"),
            UInt8(ascii: ">"), 0x20, 0x09, 0x0C, 0x0A, 0x00, 0x7F, 0x80, 0x8A, 0xB0, 0xFF, UInt8(ascii: "a"),
        ] + Array(0x21...0x29)  // each less than ten away from a space in its low bits

        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: count - text.count) + text
        }
        func time(using random: inout SeededRandom) -> String {
            // Boundary values often: 0, 5, 9 and 59 are where a wrong mask shows.
            let minute = [0, 5, 9, 10, 50, 59].randomElement(using: &random)!, second = Int.random(in: 0...59, using: &random)
            return "\(digits(Int.random(in: 0...99, using: &random), 2)):\(digits(minute, 2)):\(digits(second, 2)).\(digits(Int.random(in: 0...999, using: &random), 3))"
        }
        var readInWords = 0
        for round in 0..<6_000 {
            var bytes = Array((time(using: &random) + " --> " + time(using: &random)).utf8)
            #expect(bytes.count == 29)
            let changes = round % 3
            for _ in 0..<changes {
                // Mostly bytes near the form's own; now and then any byte.
                let replacement = Int.random(in: 0..<4, using: &random) == 0 ? UInt8.random(in: 0...255, using: &random) : replacements.randomElement(using: &random)!
                bytes[Int.random(in: 0..<29, using: &random)] = replacement
            }
            bytes += Array(Self.tails.randomElement(using: &random)!.utf8)
            let line = String(decoding: bytes, as: UTF8.self)
            // Bytes that are not UTF-8 are compared on the bytes themselves, not on a repaired string.
            let words = bytes.withUnsafeBytes { CueTimingParser.twoDigitHourTimes($0) }
            let general = bytes.withUnsafeBytes { raw in
                var parser = CueTimingParser(line: raw, lineNumber: 7, checks: true, readsCommonForm: false)
                return (parser.parse(regions: RegionTable()), parser.diagnostics)
            }
            if let words {
                readInWords += 1
                #expect(words.start == general.0?.start && words.end == general.0?.end, "\(line.debugDescription)")
                #expect(general.1.allSatisfy { $0.code != .vttTimestampHours && $0.code != .vttTimingWhitespace }, "\(line.debugDescription)")
            } else if changes == 0 {
                // A valid line (its tail may be wrong: then the general algorithm is asked).
                #expect(bytes.count > 29 && ![0x20, 0x09, 0x0C].contains(bytes[29]), "\(line.debugDescription)")
            }
            for fast in [Self.parse(line, commonForm: true), Self.parse(line, commonForm: true, intoSettings: true)] where line.utf8.elementsEqual(bytes) {
                let general = Self.parse(line, commonForm: false)
                #expect(fast.0?.start == general.0?.start && fast.0?.end == general.0?.end, "\(line.debugDescription)")
                #expect(fast.0?.settings == general.0?.settings, "\(line.debugDescription)")
                #expect(fast.1 == general.1, "\(line.debugDescription)")
                #expect(fast.2 == general.2, "\(line.debugDescription)")
            }
        }
        #expect(readInWords > 1_500)
    }

    /// The forms the words are xor-ed with, spelled out.
    @Test func theFormsAreTheLinesBytes() {
        func word(_ text: String) -> UInt64 { Array(text.utf8).reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        #expect(CueTimingParser.startClockForm == word("00:00:00"))
        #expect(CueTimingParser.startFractionForm == word(".000 -->"))
        #expect(CueTimingParser.endClockForm == word(" 00:00:0"))
        #expect(CueTimingParser.endTailForm == word("0:00.000"))
    }

    /// The settings cache recalls what it kept by the exact text, forgets the oldest past its
    /// capacity, and forgets everything when the regions change.
    @Test func theSettingsCacheRecallsByTheExactText() {
        var cache = CueSettingsCache()
        func recall(_ text: String, regions: Int = 0) -> CueSettings? {
            var settings = CueSettings()
            var bytes = Array(text.utf8)
            let found = bytes.withUnsafeMutableBytes { cache.recall(UnsafeRawBufferPointer($0), regionDefinitions: regions, into: &settings) }
            return found ? settings : nil
        }
        func keep(_ text: String, _ settings: CueSettings) {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { cache.keep(settings, readFrom: $0) }
        }
        let left = CueSettings(alignment: .left), lined = CueSettings(line: .number(3))
        keep(" align:left", left)
        keep(" line:3", lined)
        #expect(recall(" align:left") == left)
        #expect(recall(" line:3") == lined)
        #expect(recall(" line:4") == nil && recall(" line:3 ") == nil && recall("") == nil)
        // Past the capacity the oldest goes first.
        for index in 0..<(CueSettingsCache.capacity - 1) { keep(" size:\(index)%", CueSettings(size: Double(index))) }
        #expect(recall(" align:left") == nil)
        #expect(recall(" line:3") == lined)
        // The next one kept takes the oldest entry's place (and storage): now `line:3`'s.
        let positioned = CueSettings(position: .percentage(50), positionAlignment: .lineLeft)
        keep(" position:50%,line-left", positioned)
        #expect(recall(" position:50%,line-left") == positioned)
        #expect(recall(" line:3") == nil)
        #expect(recall(" size:0%") == CueSettings(size: 0))
        // A region defined: nothing kept before is recalled.
        #expect(recall(" line:3", regions: 1) == nil)
        #expect(recall(" line:3", regions: 1) == nil)
    }

    /// The settings cache stops being worth asking once it misses far more often than it finds
    /// (every cue with settings of its own), and not while it finds as often as it misses.
    @Test func theSettingsCacheGivesUpOnSettingsThatNeverRepeat() {
        var cache = CueSettingsCache()
        func recall(_ text: String) -> Bool {
            var settings = CueSettings()
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBytes { cache.recall($0, regionDefinitions: 0, into: &settings) }
        }
        Array(" align:left".utf8).withUnsafeBytes { cache.keep(CueSettings(alignment: .left), readFrom: $0) }
        for index in 0..<1_000 {
            #expect(!recall(" line:\(index)%"))
            #expect(recall(" align:left"))
        }
        #expect(cache.isUseful)
        for index in 0..<CueSettingsCache.giveUpAfter { #expect(!recall(" size:\(index)%")) }
        #expect(!cache.isUseful)
    }
}
