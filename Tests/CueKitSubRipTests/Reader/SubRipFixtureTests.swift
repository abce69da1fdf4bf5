import CueKit
import CueKitSubRip
import CueKitTestSupport
import Testing

/// Each fixture of `Fixtures/subrip/`, read whole, byte by byte and in random chunks, against the
/// events it must give: cues, style sheets and diagnostics in stream order.
@Suite struct SubRipFixtureTests {
    @Test func assAlignment() throws {
        #expect(
            try EventDump.read(fixture: "ass-alignment.srt") == """
                cue #1 00:00:01.000 --> 00:00:02.000 line:0
                  | At the top.
                cue #2 00:00:03.000 --> 00:00:04.000 line:0 align:left
                  | Top left.
                11:7: warning: ASS override '{\\i1}' is left out (only {\\an1} to {\\an9} are read) [srt-override-ignored]
                cue #3 00:00:05.000 --> 00:00:06.000 line:50%,center
                  | Middle, with an override.
                cue #4 00:00:07.000 --> 00:00:08.000
                  | {Not an override} stays.
                """
        )
    }

    @Test func basicCrlf() throws {
        #expect(
            try EventDump.read(fixture: "basic-crlf.srt") == """
                cue #1 00:00:01.000 --> 00:00:02.500
                  | Hello, world.
                cue #2 00:00:03.000 --> 00:00:05.000
                  | Two lines
                  | of text.
                """
        )
    }

    @Test func blankLineInText() throws {
        #expect(
            try EventDump.read(fixture: "blank-line-in-text.srt") == """
                4:1: warning: blank line inside a cue's text (the next line is neither a timing line nor a sequence number followed by one): it is left out, as a cue cannot hold an empty line, and the text after it is kept in the cue [srt-blank-line-in-text]
                cue #1 00:00:01.000 --> 00:00:02.000
                  | First paragraph.
                  | Second paragraph, same cue.
                cue #2 00:00:03.000 --> 00:00:04.000
                  | Next cue.
                """
        )
    }

    @Test func coordinates() throws {
        #expect(
            try EventDump.read(fixture: "coordinates.srt") == """
                2:32: warning: position coordinates (X1:… X2:… Y1:… Y2:…) are ignored: they are pixels of a video size the file does not give [srt-coordinates-ignored]
                cue #1 00:00:01.000 --> 00:00:02.000
                  | With coordinates.
                """
        )
    }

    @Test func crLineEndings() throws {
        #expect(
            try EventDump.read(fixture: "cr-line-endings.srt") == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | Old Mac line endings.
                cue #2 00:00:03.000 --> 00:00:04.000
                  | Second.
                """
        )
    }

    @Test func dosEndOfFile() throws {
        #expect(
            try EventDump.read(fixture: "dos-end-of-file.srt") == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | The end.
                """
        )
    }

    @Test func dotMilliseconds() throws {
        #expect(
            try EventDump.read(fixture: "dot-milliseconds.srt") == """
                2:9: warning: milliseconds are separated by '.' instead of ',' [srt-timestamp-separator]
                2:26: warning: milliseconds are separated by '.' instead of ',' [srt-timestamp-separator]
                cue #1 00:00:01.000 --> 00:00:02.500
                  | Dots before milliseconds.
                """
        )
    }

    @Test func endBeforeStart() throws {
        #expect(
            try EventDump.read(fixture: "end-before-start.srt") == """
                2:1: error: cue ends (00:00:01.000) before it starts (00:00:02.000), so it is never shown [srt-end-before-start]
                cue #1 00:00:02.000 --> 00:00:01.000
                  | Backwards.
                6:1: error: cue ends when it starts (00:00:03.000), so it is never shown [srt-end-before-start]
                cue #2 00:00:03.000 --> 00:00:03.000
                  | Zero length.
                """
        )
    }

    @Test func fontColor() throws {
        #expect(
            try EventDump.read(fixture: "font-color.srt") == """
                style ::cue(.yellow) { color: #ffff00; }
                style ::cue(.color-ff8000) { color: #ff8000; }
                cue #1 00:00:01.000 --> 00:00:02.000
                  | <c.yellow>Yellow</c> and <c.color-ff8000>orange</c>
                7:19: warning: font attribute face="Arial" has no equivalent in the cue model; it is ignored [srt-font-attribute-ignored]
                7:65: warning: font attribute size="20" has no equivalent in the cue model; it is ignored [srt-font-attribute-ignored]
                style ::cue(.red) { color: #ff0000; }
                cue #2 00:00:03.000 --> 00:00:04.000
                  | <c.red>Red</c> <c.color-ff8000>again</c>
                11:7: warning: font color "rgb(1,2,3)" is not a colour name or hex value (#rrggbb); it is ignored [srt-font-attribute-ignored]
                style ::cue(.color-orange) { color: orange; }
                cue #3 00:00:05.000 --> 00:00:06.000
                  | Unknown colour <c.color-orange>named</c>
                """
        )
    }

    @Test func missingBlankLine() throws {
        #expect(
            try EventDump.read(fixture: "missing-blank-line.srt") == """
                4:1: warning: no blank line between a cue's text and the next cue [srt-missing-blank-line]
                cue #1 00:00:01.000 --> 00:00:02.000
                  | No blank line after me.
                7:1: warning: no blank line between a cue's text and the next cue [srt-missing-blank-line]
                7:1: warning: cue has no sequence number line before its timing line [srt-missing-sequence-number]
                cue #2 00:00:03.000 --> 00:00:04.000
                  | Nor after me.
                cue 00:00:05.000 --> 00:00:06.000
                  | Last.
                """
        )
    }

    @Test func missingSequenceNumbers() throws {
        #expect(
            try EventDump.read(fixture: "missing-sequence-numbers.srt") == """
                1:1: warning: cue has no sequence number line before its timing line [srt-missing-sequence-number]
                4:1: warning: cue has no sequence number line before its timing line [srt-missing-sequence-number]
                cue 00:00:01.000 --> 00:00:02.000
                  | No number here.
                cue 00:00:03.000 --> 00:00:04.000
                  | Nor here.
                """
        )
    }

    @Test func nonAscii() throws {
        #expect(
            try EventDump.read(fixture: "non-ascii.srt") == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | 日本語の字幕 — מה שלום — 🎬
                """
        )
    }

    @Test func numberInText() throws {
        #expect(
            try EventDump.read(fixture: "number-in-text.srt") == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | The year
                  | 1984
                  | was a number.
                cue #2 00:00:03.000 --> 00:00:04.000
                  | 42
                cue #3 00:00:05.000 --> 00:00:06.000
                  | Last.
                """
        )
    }

    @Test func strayText() throws {
        #expect(
            try EventDump.read(fixture: "stray-text.srt") == """
                1:1: error: text outside any cue (no sequence number and timing line before it) is skipped, up to the next blank line [srt-stray-text]
                cue #1 00:00:01.000 --> 00:00:02.000
                  | After stray text.
                9:1: error: sequence number 2 is not followed by a timing line (such as '00:00:01,000 --> 00:00:02,000'); the block is skipped [srt-missing-timing]
                12:1: error: timing line cannot be read (SubRip writes '00:00:01,000 --> 00:00:02,000'); the cue is skipped [srt-bad-timing]
                cue #4 00:00:07.000 --> 00:00:08.000
                  | Last good cue.
                19:1: warning: the input ends with sequence number 5 after a blank line and no timing line; that cut-off cue is dropped [srt-incomplete-cue]
                """
        )
    }

    @Test func tags() throws {
        #expect(
            try EventDump.read(fixture: "tags.srt") == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | <i>Italic</i>, <b>bold</b>, <u>underlined</u>
                7:32: warning: <i> is not closed; it is closed at the end of the cue [srt-unclosed-tag]
                cue #2 00:00:03.000 --> 00:00:04.000
                  | <b><i>crossed</i></b><i> tags</i> and <i>never closed</i>
                11:1: warning: end tag '</b>' has no open tag; it is ignored [srt-unmatched-end-tag]
                11:16: warning: '<Music>' is not a SubRip tag (<i>, <b>, <u>, <font>); it is kept as text [srt-unknown-tag]
                cue #3 00:00:05.000 --> 00:00:06.000
                  | stray end, &lt;Music&gt; and 1 &lt; 2 &amp;&amp; 3 &gt; 2
                15:1: warning: <s> has no equivalent in the cue model; the tag is left out and its text kept [srt-tag-ignored]
                cue #4 00:00:07.000 --> 00:00:08.000
                  | struck one
                  | two
                """
        )
    }

    @Test func timestampForms() throws {
        #expect(
            try EventDump.read(fixture: "timestamp-forms.srt") == """
                2:1: warning: timestamp hours have one digit instead of two [srt-timestamp-digits]
                2:17: warning: timestamp hours have one digit instead of two [srt-timestamp-digits]
                cue #1 00:00:01.000 --> 00:00:02.000
                  | One-digit hours.
                6:9: warning: timestamp has no milliseconds; read as ',000' [srt-timestamp-milliseconds]
                6:22: warning: timestamp has no milliseconds; read as ',000' [srt-timestamp-milliseconds]
                cue #2 00:00:03.000 --> 00:00:04.000
                  | No milliseconds.
                10:10: error: milliseconds have 1 digit(s) instead of three: read as a fraction of a second (500 ms), though some players read them as a number of milliseconds [srt-timestamp-milliseconds]
                10:25: error: milliseconds have 2 digit(s) instead of three: read as a fraction of a second (250 ms), though some players read them as a number of milliseconds [srt-timestamp-milliseconds]
                cue #3 00:00:05.500 --> 00:00:06.250
                  | Short milliseconds.
                14:1: warning: timestamp has no hours (read as 0); SubRip writes 'hh:mm:ss,mmm' [srt-timestamp-digits]
                14:15: warning: timestamp has no hours (read as 0); SubRip writes 'hh:mm:ss,mmm' [srt-timestamp-digits]
                14:24: warning: milliseconds have more than three digits; the rest are dropped [srt-timestamp-milliseconds]
                cue #4 00:00:07.000 --> 00:00:08.123
                  | No hours; four digits.
                """
        )
    }

    @Test func utf16beBom() throws {
        #expect(
            try EventDump.read(fixture: "utf16be-bom.srt") == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | UTF-16 café 字幕 🎬
                """
        )
    }

    @Test func utf16leBom() throws {
        #expect(
            try EventDump.read(fixture: "utf16le-bom.srt") == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | UTF-16 café 字幕 🎬
                """
        )
    }

    @Test func utf16leNoBom() throws {
        #expect(
            try EventDump.read(fixture: "utf16le-no-bom.srt") == """
                1:1: warning: the input is UTF-16 without a byte order mark (recognised by its NUL bytes); UTF-8 is what players expect [srt-utf16]
                cue #1 00:00:01.000 --> 00:00:02.000
                  | UTF-16 café 字幕 🎬
                """
        )
    }

    @Test func utf8Bom() throws {
        #expect(
            try EventDump.read(fixture: "utf8-bom.srt") == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | UTF-8 with a byte order mark: é.
                """
        )
    }

    @Test func windows1252() throws {
        #expect(
            try EventDump.read(fixture: "windows-1252.srt") == """
                3:4: error: bytes that are not UTF-8 (0xE9 0xE8 0xEF 0x93) are read as U+FFFD; the file looks like Windows-1252 (in which they are 'éèï“'): convert it to UTF-8, or read it with --encoding windows-1252 [srt-invalid-utf8]
                cue #1 00:00:01.000 --> 00:00:02.000
                  | Caf� cr�me, na�ve �quotes�
                """
        )
    }

    @Test func wrongSequenceNumbers() throws {
        #expect(
            try EventDump.read(fixture: "wrong-sequence-numbers.srt") == """
                1:1: warning: sequence number is 5 where 1 was expected [srt-sequence-number]
                cue #5 00:00:01.000 --> 00:00:02.000
                  | Starts at five.
                cue #6 00:00:03.000 --> 00:00:04.000
                  | Six.
                9:1: warning: sequence number is 3 where 7 was expected [srt-sequence-number]
                cue #3 00:00:05.000 --> 00:00:06.000
                  | Back to three.
                """
        )
    }

    /// Text after a blank line in the last cue stays in it, as ffmpeg and pysubs2 keep it.
    @Test func textAfterABlankLineInTheLastCueIsKept() throws {
        #expect(
            try EventDump.read(fixture: "trailing-garbage.srt") == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | First cue.
                8:1: warning: blank line inside the last cue's text, with no cue after it: it is left out, as a cue cannot hold an empty line, and the text after it is kept in the cue [srt-blank-line-in-text]
                cue #2 00:00:03.000 --> 00:00:04.000
                  | Last cue.
                  | Subtitles by someone
                  | www.example.com
                """
        )
        #expect(
            try EventDump.read(fixture: "last-cue-blank-line.srt") == """
                4:1: warning: blank line inside the last cue's text, with no cue after it: it is left out, as a cue cannot hold an empty line, and the text after it is kept in the cue [srt-blank-line-in-text]
                cue #1 00:00:01.000 --> 00:00:02.000
                  | first line
                  | second line
                """
        )
    }
}
