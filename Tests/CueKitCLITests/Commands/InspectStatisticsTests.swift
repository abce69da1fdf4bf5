import CueKitTestSupport
import Foundation
import Testing

/// `cuekit inspect --stats`, run as the built binary.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"))
struct InspectStatisticsTests {
    static let track = """
        WEBVTT

        00:00:01.000 --> 00:00:02.000
        Hello

        fast
        00:00:01.500 --> 00:00:02.500
        <i>twenty-five characters!!!</i>

        00:00:03.000 --> 00:00:05.000
        a line that is longer than twenty
        short

        00:00:06.000 --> 00:00:07.000
        <b> </b>

        """

    @Test func listsWhatAReviewerChecks() throws {
        let run = try CommandLineRun.cuekit(
            ["inspect", "--stats", "--max-cps", "20", "--max-line-length", "20", "-"], input: Array(Self.track.utf8))
        #expect(run.status == 0)
        #expect(
            run.standardOutput == """
                <stdin>: WebVTT, 4 cues
                time span: 00:00:01.000 --> 00:00:07.000; cues shown for 00:00:05.000 in all
                reading speed: median 19 characters/s, fastest 25 (cue 2 "fast" 00:00:01.500 --> 00:00:02.500)
                faster than 20 characters/s: 1 cue
                  cue 2 "fast" 00:00:01.500 --> 00:00:02.500: 25 characters/s
                overlapping cues: 1
                  cue 2 starts at 00:00:01.500 before cue 1 ends at 00:00:02.000
                lines over 20 characters: 2
                  cue 2 "fast" 00:00:01.500 --> 00:00:02.500, line 1: 25 characters
                  cue 3 00:00:03.000 --> 00:00:05.000, line 1: 33 characters
                empty cues: 1
                  cue 4 00:00:06.000 --> 00:00:07.000

                """)
    }

    @Test func statisticsAsJSON() throws {
        let run = try CommandLineRun.cuekit(["inspect", "--stats", "--json", "-"], input: Array(Self.track.utf8))
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(object["cues"] as? Int == 4)
        #expect(object["fastCueCount"] as? Int == 1)
        #expect(object["overlapCount"] as? Int == 1)
        #expect(object["longLineCount"] as? Int == 0)
        #expect(object["emptyCueCount"] as? Int == 1)
        #expect(object["maximumLineLength"] as? Int == 42)
        let fast = try #require((object["fastCues"] as? [[String: Any]])?.first)
        #expect(fast["id"] as? String == "fast" && fast["charactersPerSecond"] as? Double == 25)
    }

    /// Characters are Unicode scalars of the text shown (markup removed, ruby text counted), and a
    /// cue of white space alone, whatever the script's spaces, is empty.
    @Test(arguments: [
        ("é漢字🎵 x", 6, false),
        ("e\u{301}", 2, false),
        ("<ruby>漢<rt>kan</rt></ruby>", 4, false),
        ("&amp;&lt;<c.a>é</c>", 3, false),
        ("\u{3000}\u{00A0}", 0, true),
        ("<i> </i>\u{2003}", 0, true),
    ])
    func charactersAreScalarsOfTheShownText(text: String, length: Int, empty: Bool) throws {
        let track = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\(text)\n"
        let run = try CommandLineRun.cuekit(["inspect", "--stats", "--json", "-"], input: Array(track.utf8))
        #expect(run.status == 0, "\(run.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        // A one-second cue: its characters per second are its characters.
        if empty {
            #expect(object["emptyCueCount"] as? Int == 1)
        } else {
            #expect(object["emptyCueCount"] as? Int == 0)
            #expect(object["medianCharactersPerSecond"] as? Int == length)
        }
    }

    @Test func notATrackExitsOne() throws {
        let run = try CommandLineRun.cuekit(["inspect", "--stats", "-"], input: Array("hello\n".utf8))
        #expect(run.status == 1)
        #expect(run.standardError.contains("[vtt-no-signature]"))
    }
}
