import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

@testable import CueKitTTML

/// IMSC 1.1 Text and EBU-TT-D show at most four regions at once (TTML1 has no such limit): a cue
/// that would be a fifth goes into the shown region that draws it nearest to where WebVTT does;
/// only cues that fit in none are reported, once with a count.
@Suite struct TTMLShownRegionsTests {
    /// Cues at these `line` percentages (and settings), all shown from 1 s to 1.9 s, or one after
    /// the other.
    static func cues(_ lines: [Int], overlapping: Bool = true, settings: String = "") -> String {
        var text = "WEBVTT\n"
        for (index, line) in lines.enumerated() {
            let start = overlapping ? 1 : index + 1
            text += "\n00:00:0\(start).000 --> 00:00:0\(start).900 line:\(line)%\(settings)\nline \(line)\n"
        }
        return text
    }

    /// The region of each paragraph, in document order, and the regions' attributes by identifier.
    static func placements(_ text: String) -> (paragraphs: [String], regions: [String: String]) {
        let paragraphs = TTMLWriterTests.paragraphs(text).map { paragraph -> String in
            guard let start = paragraph.firstRange(of: #"region=""#)?.upperBound else { return "" }
            return String(paragraph[start...].prefix { $0 != "\"" })
        }
        var regions: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("<region xml:id=\"") {
            let id = line.dropFirst("<region xml:id=\"".count).prefix { $0 != "\"" }
            regions[String(id)] = String(line.drop { $0 != " " }.dropFirst().drop { $0 != " " }.dropFirst().dropLast(2))
        }
        return (paragraphs, regions)
    }

    @Test func fiveCuesAtOnceShareFourRegionsTheFifthUnderTheCueAboveIt() throws {
        let (text, diagnostics) = try TTMLWriterTests.write(Self.cues([0, 20, 40, 60, 80]))
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let (paragraphs, regions) = Self.placements(text)
        #expect(Set(paragraphs).count == 4, "\(paragraphs)")
        // The 80% cue is drawn after the 60% cue's line, in its region (60% to the bottom, text
        // from the top): at 66.67%, the nearest a shown region draws it.
        #expect(paragraphs[4] == paragraphs[3], "\(paragraphs)")
        #expect(regions[paragraphs[3]] == #"tts:origin="0% 60%" tts:extent="100% 40%" tts:displayAlign="before""#, "\(regions)")
    }

    @Test func eachCuePastFourGoesWhereItIsDrawnNearest() throws {
        // Six: the fifth and sixth both stack under the 60% cue (66.67% and 73.33%).
        let (six, sixDiagnostics) = try TTMLWriterTests.write(Self.cues([0, 20, 40, 60, 80, 90]))
        #expect(sixDiagnostics.isEmpty, "\(sixDiagnostics)")
        let sixPlaced = Self.placements(six).paragraphs
        #expect(Set(sixPlaced).count == 4 && sixPlaced[4] == sixPlaced[3] && sixPlaced[5] == sixPlaced[3], "\(sixPlaced)")
        // In the reverse order the fifth (at 0%) can only come after a shown cue's text: it goes
        // under the highest, the 20% cue, at 26.67%.
        let (reversed, reversedDiagnostics) = try TTMLWriterTests.write(Self.cues([80, 60, 40, 20, 0]))
        #expect(reversedDiagnostics.isEmpty, "\(reversedDiagnostics)")
        let reversedPlaced = Self.placements(reversed).paragraphs
        #expect(Set(reversedPlaced).count == 4 && reversedPlaced[4] == reversedPlaced[3], "\(reversedPlaced)")
        // Boxes ending at their line (`line:N%,end`): the fifth, ending at 100%, goes to the
        // bottom of the box ending at 80%, pushing that box's line up by one.
        let (ends, endsDiagnostics) = try TTMLWriterTests.write(Self.cues([20, 40, 60, 80, 100], settings: ",end"))
        #expect(endsDiagnostics.isEmpty, "\(endsDiagnostics)")
        let (endsPlaced, endsRegions) = Self.placements(ends)
        #expect(Set(endsPlaced).count == 4, "\(endsPlaced)")
        #expect(endsRegions[endsPlaced[4]]?.contains(#"tts:displayAlign="after""#) == true, "\(endsRegions)")
        // EBU-TT-D merges as IMSC 1.1 does; TTML1 has no limit and keeps five regions.
        let (ebu, ebuDiagnostics) = try TTMLWriterTests.write(
            Self.cues([0, 20, 40, 60, 80]), TTMLWriterOptions(profile: .ebuTTD, look: .ttml))
        #expect(ebuDiagnostics.isEmpty && Set(Self.placements(ebu).paragraphs).count == 4, "\(ebuDiagnostics)")
        let (ttml1, ttml1Diagnostics) = try TTMLWriterTests.write(
            Self.cues([0, 20, 40, 60, 80]), TTMLWriterOptions(profile: .ttml1, look: .ttml))
        #expect(ttml1Diagnostics.isEmpty && Set(Self.placements(ttml1).paragraphs).count == 5)
    }

    @Test func cuesNeverShownWithFourOthersKeepTheirOwnRegions() throws {
        let (four, fourDiagnostics) = try TTMLWriterTests.write(Self.cues([0, 20, 40, 60]))
        #expect(fourDiagnostics.isEmpty && Set(Self.placements(four).paragraphs).count == 4)
        let (oneAtATime, oneDiagnostics) = try TTMLWriterTests.write(Self.cues([0, 20, 40, 60, 80, 90], overlapping: false))
        #expect(oneDiagnostics.isEmpty && Set(Self.placements(oneAtATime).paragraphs).count == 6)
        // Five cues in two regions are not five regions.
        let (shared, sharedDiagnostics) = try TTMLWriterTests.write(Self.cues([0, 0, 0, 20, 20]))
        #expect(sharedDiagnostics.isEmpty && Set(Self.placements(shared).paragraphs).count == 2)
    }

    /// Five WebVTT regions one line high, each showing a cue: none has room for another line, so
    /// each cue keeps its region, and the moments are reported once with a count.
    @Test func regionsWithNoRoomAreReportedOnceWithACount() throws {
        var track = "WEBVTT\n"
        for index in 0..<5 {
            track += "\nREGION\nid:r\(index)\nwidth:40%\nlines:1\nregionanchor:0%,0%\nviewportanchor:10%,\(index * 15 + 5)%\n"
        }
        for second in [1, 3] {
            for index in 0..<5 { track += "\n00:00:0\(second).000 --> 00:00:0\(second).900 region:r\(index)\ncue \(index)\n" }
        }
        let (text, diagnostics) = try TTMLWriterTests.write(track)
        #expect(Set(Self.placements(text).paragraphs).count == 5)
        #expect(
            diagnostics.map(\.message) == [
                "IMSC 1.1 Text shows at most 4 regions at once: cues that start while 4 other regions are shown, none with room for them, are written in their own region all the same (2 times, first in cue 5)"
            ])
        // A horizontal cue never goes into a vertical cue's region.
        let (mixed, mixedDiagnostics) = try TTMLWriterTests.write(
            "WEBVTT\n\n00:00:01.000 --> 00:00:02.000 vertical:rl line:0%\nA\n\n00:00:01.000 --> 00:00:02.000 vertical:rl line:25%\nB\n\n"
                + "00:00:01.000 --> 00:00:02.000 vertical:rl line:50%\nC\n\n00:00:01.000 --> 00:00:02.000 vertical:rl line:75%\nD\n\n"
                + "00:00:01.000 --> 00:00:02.000 line:0%\nE\n")
        #expect(Set(Self.placements(mixed).paragraphs).count == 5)
        #expect(mixedDiagnostics.map(\.code) == [.ttmlWriteNotCarried])
    }
}
