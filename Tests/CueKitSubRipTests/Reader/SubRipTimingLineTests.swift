import CueKit
import CueKitTestSupport
import Testing

@testable import CueKitSubRip

@Suite struct SubRipTimingLineTests {
    /// The times a line reads as, and the kinds of issue found, or nil when it is no timing line.
    private func parse(_ text: String) -> (start: Int, end: Int, issues: [String])? {
        var issues: [SubRipTimingLine.Issue] = []
        let bytes = Array(text.utf8)
        guard let timing = bytes.withUnsafeBufferPointer({ SubRipTimingLine.parse($0, issues: &issues) }) else { return nil }
        return (timing.start, timing.end, issues.map { "\($0.kind)@\($0.offset)" })
    }

    @Test func readsTheStandardForm() throws {
        let parsed = try #require(parse("01:02:03,004 --> 10:20:30,400"))
        #expect(parsed.start == 3_723_004)
        #expect(parsed.end == 37_230_400)
        #expect(parsed.issues.isEmpty)
    }

    /// The fixed-offset fast path and the general parser agree: every standard line reads as the
    /// times it was written from, with no issue, and a space after it (general path) changes nothing.
    @Test func theFastPathAgreesWithTheGeneralParser() throws {
        var random = SeededRandom(seed: 29)
        for _ in 0..<2_000 {
            let start = Int.random(in: 0..<(100 * 3_600_000), using: &random)
            let end = Int.random(in: 0..<(100 * 3_600_000), using: &random)
            var bytes: [UInt8] = []
            CueTimestamp.append(start, separator: UInt8(ascii: ","), to: &bytes)
            bytes += Array(" --> ".utf8)
            CueTimestamp.append(end, separator: UInt8(ascii: ","), to: &bytes)
            let line = String(decoding: bytes, as: UTF8.self)
            for variant in [line, line + " "] {
                let parsed = try #require(parse(variant), "\(variant)")
                #expect(parsed.start == start && parsed.end == end && parsed.issues.isEmpty, "\(variant)")
            }
        }
    }

    /// The fast path word by word against the same reading byte by byte, on standard lines with
    /// one or two bytes changed: every digit out of range, tens of minutes and seconds of 6 to 9,
    /// punctuation moved, bytes beyond ASCII and NULs.
    @Test func theStandardFormAgreesWithAByteByByteReading() {
        var random = SeededRandom(seed: 0x71)
        let replacements: [UInt8] = Array("0123456789:,. ->/;".utf8) + [0x00, 0x7F, 0x80, 0xB0, 0xFF]
        var read = 0
        for _ in 0..<40_000 {
            var bytes: [UInt8] = []
            CueTimestamp.append(Int.random(in: 0..<(100 * 3_600_000), using: &random), separator: UInt8(ascii: ","), to: &bytes)
            bytes += Array(" --> ".utf8)
            CueTimestamp.append(Int.random(in: 0..<(100 * 3_600_000), using: &random), separator: UInt8(ascii: ","), to: &bytes)
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = replacements.randomElement(using: &random)!
            }
            let fast = bytes.withUnsafeBufferPointer { SubRipTimingLine.standardForm($0) }
            let reference = Self.standardFormByteByByte(bytes)
            #expect(fast?.start == reference?.start && fast?.end == reference?.end, "\(bytes)")
            if fast != nil { read += 1 }
        }
        #expect(read > 10_000 && read < 38_000)
    }

    /// `hh:mm:ss,mmm --> hh:mm:ss,mmm` read one byte at a time.
    private static func standardFormByteByByte(_ line: [UInt8]) -> (start: Int, end: Int)? {
        guard line.count == 29 else { return nil }
        func digit(_ offset: Int) -> Int? {
            let value = line[offset] &- UInt8(ascii: "0")
            return value < 10 ? Int(value) : nil
        }
        func time(at offset: Int) -> Int? {
            guard line[offset + 2] == UInt8(ascii: ":"), line[offset + 5] == UInt8(ascii: ":"), line[offset + 8] == UInt8(ascii: ","),
                let h1 = digit(offset), let h2 = digit(offset + 1), let m1 = digit(offset + 3), let m2 = digit(offset + 4),
                let s1 = digit(offset + 6), let s2 = digit(offset + 7), let f1 = digit(offset + 9), let f2 = digit(offset + 10),
                let f3 = digit(offset + 11), m1 < 6, s1 < 6
            else { return nil }
            return (((h1 * 10 + h2) * 60 + m1 * 10 + m2) * 60 + s1 * 10 + s2) * 1000 + f1 * 100 + f2 * 10 + f3
        }
        guard Array(line[12..<17]) == Array(" --> ".utf8), let start = time(at: 0), let end = time(at: 17) else { return nil }
        return (start, end)
    }

    @Test func acceptsWhiteSpaceAndLongArrows() throws {
        let parsed = try #require(parse(" \t00:00:01,000--->00:00:02,000 \t"))
        #expect(parsed.start == 1_000 && parsed.end == 2_000)
        #expect(parsed.issues.isEmpty)
    }

    @Test func readsHoursOfManyDigits() throws {
        let parsed = try #require(parse("100:00:00,000 --> 100:00:01,000"))
        #expect(parsed.start == 360_000_000)
        #expect(parsed.issues.isEmpty)
    }

    @Test func reportsEachLenience() throws {
        #expect(parse("00:00:01.000 --> 00:00:02,000")?.issues == ["separator(46)@8"])
        #expect(parse("00:00:01:000 --> 00:00:02,000")?.issues == ["separator(58)@8"])
        #expect(parse("00:00:61,000 --> 00:00:62,000")?.start == 61_000)
        #expect(parse("00:00:61,000 --> 00:00:62,000")?.issues == ["outOfRange@0", "outOfRange@17"])
        #expect(parse("00:0:1,000 --> 00:00:02,000")?.issues == ["minuteOrSecondDigits@0"])
        #expect(parse("00:00:01, --> 00:00:02,000")?.issues == ["missingMilliseconds@8"])
        #expect(parse("00:00:01,000 --> 00:00:02,000 X1:1")?.issues == ["coordinates@30"])
        #expect(parse("00:00:01,000 --> 00:00:02,000 align:start")?.issues == ["trailingText@30"])
    }

    @Test func refusesWhatIsNoTimingLine() {
        #expect(parse("Hello --> world") == nil)
        #expect(parse("1") == nil)
        #expect(parse("00:00:01,000 -> 00:00:02,000") == nil)
        #expect(parse("00:00:01,000 --> ") == nil)
        #expect(parse("00:00:01,000") == nil)
        #expect(parse("1234567890:00:00,000 --> 00:00:01,000") == nil)
        #expect(parse("") == nil)
    }

    @Test func recognisesBrokenTimingLines() {
        func looks(_ text: String) -> Bool { Array(text.utf8).withUnsafeBufferPointer { SubRipTimingLine.looksLikeTiming($0) } }
        #expect(looks("00:00:05,000 --> garbage"))
        #expect(looks(" 1:2 --> 3"))
        #expect(!looks("2 --> 3 times"))
        #expect(!looks("Text --> 00:00:01,000"))
    }
}
