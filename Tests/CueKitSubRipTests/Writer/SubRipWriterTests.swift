import CueKit
import CueKitSubRip
import CueKitTestSupport
import Testing

@Suite struct SubRipWriterTests {
    private func write(_ track: Track, options: SubRipWriterOptions = .init()) throws -> (text: String, diagnostics: [String]) {
        var writer = SubRipWriter(to: MemorySink(), options: options)
        try writer.write(track)
        return (writer.sink.string, writer.diagnostics.map(\.description))
    }

    @Test func writesNumbersTimesAndCRLF() throws {
        let track = Track(cues: [
            Cue(id: "intro", start: 1_000, end: 2_500, text: "Hello,\nworld."),
            Cue(start: 3_723_004, end: 3_725_000, text: "Later"),
        ])
        let written = try write(track)
        #expect(
            written.text
                == "1\r\n00:00:01,000 --> 00:00:02,500\r\nHello,\r\nworld.\r\n\r\n2\r\n01:02:03,004 --> 01:02:05,000\r\nLater\r\n\r\n")
        #expect(
            written.diagnostics == [
                "warning: 1 cue identifier(s) (first in cue 1) replaced by the cue's sequence number: SubRip numbers its cues and has no identifiers [srt-write-unsupported]"
            ])
        // Identifiers that are the sequence numbers lose nothing.
        let numbered = Track(cues: [Cue(id: "1", start: 0, end: 1, text: "a"), Cue(id: "2", start: 1, end: 2, text: "b")])
        #expect(try write(numbered).diagnostics.isEmpty)
        #expect(
            try write(track, options: .init(lineEnding: .lf)).text
                == "1\n00:00:01,000 --> 00:00:02,500\nHello,\nworld.\n\n2\n01:02:03,004 --> 01:02:05,000\nLater\n\n")
    }

    @Test func writesAByteOrderMarkWhenAsked() throws {
        let written = try write(Track(cues: [Cue(start: 0, end: 1, text: "a")]), options: .init(lineEnding: .lf, byteOrderMark: .utf8))
        #expect(Array(written.text.utf8.prefix(3)) == [0xEF, 0xBB, 0xBF])
    }

    @Test func mapsTagsAndColoursBack() throws {
        let track = Track(
            stylesheets: [
                CueStylesheet(
                    "::cue(.speaker1) { color: #80C0FF; }\n::cue(.loud) { font-weight: bold; }\n::cue(.whisper) { color: #c0c0c0; font-style: italic }"
                )
            ],
            cues: [
                Cue(start: 0, end: 1_000, text: "<i>it</i> <b>bo</b> <u>un</u> &amp; &lt;3"),
                Cue(
                    start: 1_000, end: 2_000, text: "<c.yellow>y</c> <c.color-ff8000>o</c> <c.speaker1>s</c> <c.loud>l</c> <c.whisper>w</c>"
                ),
            ])
        let written = try write(track, options: .init(lineEnding: .lf))
        #expect(
            written.text == """
                1
                00:00:00,000 --> 00:00:01,000
                <i>it</i> <b>bo</b> <u>un</u> & <3

                2
                00:00:01,000 --> 00:00:02,000
                <font color="#ffff00">y</font> <font color="#ff8000">o</font> <font color="#80c0ff">s</font> l <font color="#c0c0c0">w</font>


                """
        )
        #expect(
            written.diagnostics == [
                "warning: 2 style sheet rule(s) not written: SubRip has no style sheets (colours given to single classes are written as <font color>) [srt-write-unsupported]",
                "warning: 1 span(s) (first in cue 2) with classes that give no known colour written without their classes [srt-write-unsupported]",
                "warning: 1 cue(s) (first in cue 1) hold a literal '<' or '{\\' that SubRip readers may take for a tag or an override (SubRip cannot escape them) [srt-write-cue-text]",
            ]
        )
    }

    @Test func reportsWhatSubRipCannotCarryOncePerKind() throws {
        let track = Track(
            header: "- Episode 1",
            regions: [CueRegion(id: "top")],
            cues: [
                Cue(start: 0, end: 1_000, text: "<v Bob>Hi</v>"),
                Cue(start: 1_000, end: 2_000, text: "<v Ann>Yo</v> <ruby>漢字<rt>かんじ</rt></ruby> <lang fr>oui</lang> a<00:00:01.500>b"),
            ],
            notes: [CueNote("a comment", cueIndex: 1)]
        )
        let written = try write(track, options: .init(lineEnding: .lf))
        #expect(written.text.hasSuffix("00:00:01,000 --> 00:00:02,000\nYo 漢字(かんじ) oui ab\n\n"))
        #expect(
            written.diagnostics == [
                "warning: the WebVTT header text is not written: SubRip has no header [srt-write-unsupported]",
                "warning: 1 region(s) not written: SubRip has no regions [srt-write-unsupported]",
                "warning: 1 NOTE comment(s) not written: SubRip has no comments [srt-write-unsupported]",
                "warning: 2 voice span(s) (first in cue 1) written as their text alone, as a browser shows them: SubRip has no voices (the name-prefix option writes 'Name: ') [srt-write-unsupported]",
                "warning: 1 ruby span(s) (first in cue 2) written as 'base(reading)': SubRip has no ruby [srt-write-unsupported]",
                "warning: 1 language span(s) (first in cue 2) written as their text alone: SubRip has no language markup [srt-write-unsupported]",
                "warning: 1 inner timestamp(s) (first in cue 2) not written: SubRip has no karaoke timing [srt-write-unsupported]",
            ]
        )
        let prefixed = try write(track, options: .init(lineEnding: .lf, voices: .namePrefix))
        #expect(prefixed.text.contains("\nBob: Hi\n"))
        #expect(prefixed.text.contains("\nAnn: Yo 漢字"))
    }

    @Test func writesPlacementAsAlignmentOverrides() throws {
        var top = CueSettings()
        top.line = .number(0)
        var topLeft = top
        topLeft.alignment = .left
        var middleRight = CueSettings(line: .percentage(50), lineAlignment: .center)
        middleRight.alignment = .right
        var positioned = CueSettings(line: .percentage(90), position: .percentage(30))
        positioned.alignment = .start
        let track = Track(cues: [
            Cue(start: 0, end: 1, settings: top, text: "top"),
            Cue(start: 1, end: 2, settings: topLeft, text: "top left"),
            Cue(start: 2, end: 3, settings: middleRight, text: "middle right"),
            Cue(start: 3, end: 4, settings: positioned, text: "positioned"),
        ])
        let written = try write(track, options: .init(lineEnding: .lf))
        let textLines = written.text.split(separator: "\n").filter { !$0.contains("-->") && Int($0) == nil }
        #expect(textLines == ["{\\an8}top", "{\\an7}top left", "{\\an6}middle right", "{\\an1}positioned"])
        #expect(
            written.diagnostics == [
                "warning: 1 cue(s) (first in cue 4) with settings that {\\anN} cannot say exactly (positions, sizes, line numbers, vertical text, regions) written with the nearest alignment override [srt-write-unsupported]"
            ])
        // The reader reads the overrides back as the same settings.
        var reader = SubRipReader()
        let cues = try reader.read(Array(written.text.utf8)).track.cues
        #expect(cues[0].settings == top && cues[1].settings == topLeft && cues[2].settings == middleRight)
        let unplaced = try write(track, options: .init(lineEnding: .lf, placement: .none))
        #expect(!unplaced.text.contains("{\\an"))
    }

    @Test func keepsTheTextReadableAsSubRip() throws {
        let track = Track(cues: [
            Cue(start: -500, end: 1_000, text: "12:30 --&gt; noon"),
            Cue(start: 1_000, end: 2_000, text: "one\n\ntwo"),
        ])
        let written = try write(track, options: .init(lineEnding: .lf))
        #expect(written.text == "1\n00:00:00,000 --> 00:00:01,000\n12:30 -- > noon\n\n2\n00:00:01,000 --> 00:00:02,000\none\ntwo\n\n")
        #expect(
            written.diagnostics == [
                "warning: 1 cue(s) (first in cue 1) with a negative time written with 00:00:00,000 for it [srt-write-negative-time]",
                "warning: 1 empty or white-space line(s) in cue text (first in cue 2) left out: a SubRip reader takes them for the end of the cue [srt-write-cue-text]",
                "warning: 1 line(s) of cue text (first in cue 1) that a SubRip reader would take for a timing line written with '-- >' for '-->' [srt-write-cue-text]",
            ]
        )
    }

    /// Every fixture read, written and read again gives the same cues (numbered from 1).
    @Test func roundTripsEveryFixture() throws {
        for path in TestPaths.files(in: TestPaths.fixtures + "/subrip", suffixes: [".srt"]) {
            var reader = SubRipReader(options: .init(cueIdentifiers: .none))
            let first = try reader.read(TestPaths.bytes(path)).track
            var writer = SubRipWriter(to: MemorySink())
            try writer.write(first)
            var again = SubRipReader(options: .init(cueIdentifiers: .none))
            let second = try again.read(writer.sink.bytes)
            #expect(second.track.cues == first.cues, "\(path)")
            #expect(second.track.stylesheets == first.stylesheets, "\(path)")
            // Only what the cues themselves carry is reported again (a cue that ends before it starts).
            let errors = second.diagnostics.filter { $0.severity == .error && $0.code != .srtEndBeforeStart }
            #expect(errors.isEmpty, "\(path): \(errors)")
        }
    }
}
