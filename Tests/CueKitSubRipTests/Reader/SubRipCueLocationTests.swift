import CueKit
import CueKitSubRip
import Testing

/// Each SubRip cue carries its timing line, so that a check of its content can point at it.
@Suite struct SubRipCueLocationTests {
    @Test func eachCueIsAtItsTimingLine() throws {
        let text =
            "1\n00:00:01,000 --> 00:00:02,000\nOne\n\n\n2\n00:00:03,000 --> 00:00:04,000\n<i>Two</i>\nlines\n\n00:00:05,000 --> 00:00:06,000\nNo number\n"
        var reader = SubRipReader()
        let result = try reader.read(Array(text.utf8))
        #expect(
            result.track.cues.map(\.location) == [
                SourceLocation(line: 2, column: 1), SourceLocation(line: 7, column: 1), SourceLocation(line: 11, column: 1),
            ])
        // Where a cue was read is not part of its value.
        #expect(result.track.cues[0] == Cue(id: "1", start: 1000, end: 2000, text: "One"))
    }
}
