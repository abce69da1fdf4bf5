import CueKit
import CueKitWebVTT
import Testing

/// The writer's output, byte for byte, for tracks that show each rule.
@Suite struct WebVTTWriterTests {
    static func written(_ track: Track, options: WebVTTWriterOptions = .init()) throws -> (text: String, diagnostics: [Diagnostic]) {
        var writer = WebVTTWriter(to: MemorySink(), options: options)
        try writer.write(track)
        return (writer.sink.string, writer.diagnostics)
    }

    static let sample = Track(
        header: "- Episode 1\nKind: captions",
        stylesheets: [CueStylesheet("::cue(.loud) {\n  color: red;\n}")],
        regions: [
            CueRegion(id: "left", width: 40, lines: 4, regionAnchor: .init(x: 0, y: 100), viewportAnchor: .init(x: 10, y: 90), scroll: .up)
        ],
        cues: [
            Cue(id: "1", start: 1_000, end: 2_500, text: "<v Bob>Hello &amp; welcome</v>"),
            Cue(
                start: 3_723_004, end: 3_725_000,
                settings: CueSettings(
                    vertical: .growingLeft, line: .number(-2), lineAlignment: .end, position: .percentage(10),
                    positionAlignment: .lineLeft, size: 50, alignment: .start, region: "left"),
                text: "two\nlines"),
            Cue(id: "empty", start: 4_000_000, end: 4_000_001, text: ""),
        ],
        notes: [CueNote("first", cueIndex: 0), CueNote("\ntwo\nlines", cueIndex: 1), CueNote("", cueIndex: 3)]
    )

    @Test func writesEveryBlockInWebVTTOrder() throws {
        let (text, diagnostics) = try Self.written(Self.sample)
        #expect(
            text == """
                WEBVTT - Episode 1
                Kind: captions

                NOTE first

                REGION
                id:left
                width:40%
                lines:4
                viewportanchor:10%,90%
                scroll:up

                STYLE
                ::cue(.loud) {
                  color: red;
                }

                1
                00:00:01.000 --> 00:00:02.500
                <v Bob>Hello &amp; welcome</v>

                NOTE
                two
                lines

                01:02:03.004 --> 01:02:05.000 vertical:rl line:-2,end position:10%,line-left size:50% align:start region:left
                two
                lines

                empty
                01:06:40.000 --> 01:06:40.001

                NOTE

                """)
        #expect(diagnostics.isEmpty)
    }

    @Test func writesCRLFAndShortTimestamps() throws {
        let track = Track(header: "\nA: b", cues: [Cue(start: 61_001, end: 3_600_000, text: "a\nb")])
        let (text, _) = try Self.written(track, options: .init(lineEnding: .crlf, hours: .whenNeeded))
        #expect(text == "WEBVTT\r\nA: b\r\n\r\n01:01.001 --> 01:00:00.000\r\na\r\nb\r\n")
    }

    @Test func dropsNotesWhenAsked() throws {
        let (text, diagnostics) = try Self.written(Self.sample, options: .init(notes: .drop))
        #expect(!text.contains("NOTE"))
        #expect(diagnostics.isEmpty)
    }

    @Test func anEmptyTrackIsABareSignature() throws {
        #expect(try Self.written(Track()).text == "WEBVTT\n")
        var writer = WebVTTWriter(to: MemorySink())
        try writer.finish()
        #expect(writer.sink.string == "WEBVTT\n")
    }

    @Test func handsEachBlockToTheSinkAsItComes() throws {
        var writer = WebVTTWriter(to: MemorySink())
        try writer.write(.header(""))
        #expect(writer.sink.string == "WEBVTT\n")
        try writer.write(.cue(Cue(start: 0, end: 1, text: "a")))
        #expect(writer.sink.string == "WEBVTT\n\n00:00:00.000 --> 00:00:00.001\na\n")
        try writer.write(.diagnostic(Diagnostic(.error, "vtt-x", at: nil, "ignored")))
        try writer.finish()
        #expect(writer.sink.string == "WEBVTT\n\n00:00:00.000 --> 00:00:00.001\na\n")
    }

    @Test func writesASignatureWhenTheHeaderIsMissing() throws {
        var writer = WebVTTWriter(to: MemorySink())
        try writer.write(.cue(Cue(start: 0, end: 1, text: "a")))
        try writer.write(.header("late"))
        try writer.finish()
        #expect(writer.sink.string == "WEBVTT\n\n00:00:00.000 --> 00:00:00.001\na\n")
        #expect(writer.diagnostics.map(\.code) == [.vttWriteLateHeader])
    }

    // MARK: Settings and numbers

    @Test(arguments: [
        (CueSettings(line: .percentage(0)), " line:0%"),
        (CueSettings(line: .number(0), lineAlignment: .center), " line:0,center"),
        (CueSettings(line: .number(-0.0)), " line:0"),
        (CueSettings(line: .number(1e34)), " line:10000000000000000000000000000000000"),
        (CueSettings(line: .number(-1.5)), " line:-1.5"),
        (CueSettings(position: .percentage(33.333333333333336)), " position:33.333333333333336%"),
        (CueSettings(size: .leastNonzeroMagnitude), " size:0." + String(repeating: "0", count: 323) + "5%"),
        (CueSettings(size: 0.1), " size:0.1%"),
        (CueSettings(size: 99.99999999999999), " size:99.99999999999999%"),
        (CueSettings(vertical: .growingRight, alignment: .right), " vertical:lr align:right"),
        (CueSettings(positionAlignment: .auto, alignment: .left), " align:left"),
    ])
    func writesSettingsInAFixedOrderWithoutDefaults(settings: CueSettings, expected: String) throws {
        let (text, diagnostics) = try Self.written(Track(cues: [Cue(start: 0, end: 1, settings: settings, text: "x")]))
        #expect(text == "WEBVTT\n\n00:00:00.000 --> 00:00:00.001\(expected)\nx\n")
        #expect(diagnostics.isEmpty)
    }

    @Test(arguments: [
        1e34, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, 1.7976931348623157e308, 0.1, 1e-7, 123456.789, 2.5e-5,
        4503599627370497.5, 9007199254740993.0,
    ])
    func numbersHaveNoExponentAndReadBackExactly(value: Double) throws {
        var writer = WebVTTWriter(to: MemorySink())
        try writer.write(Track(cues: [Cue(start: 0, end: 1, settings: CueSettings(line: .number(value)), text: "")]))
        let line = writer.sink.string.split(separator: "\n", omittingEmptySubsequences: false)[2]
        let number = line.split(separator: ":").last.map(String.init) ?? ""
        let bytes = Array(number.utf8)
        #expect(bytes.allSatisfy { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) }, "\(number)")
        #expect(Double(number) == value, "\(number)")
    }

    @Test func reportsSettingsWebVTTCannotExpress() throws {
        let settings = CueSettings(
            line: .auto, lineAlignment: .end, position: .percentage(150), size: .nan, alignment: .center)
        let track = Track(cues: [
            Cue(id: "a", start: 0, end: 1, settings: settings, text: "x"),
            Cue(
                start: 0, end: 1, settings: CueSettings(line: .number(.infinity), position: .auto, positionAlignment: .lineRight), text: "y"
            ),
            Cue(start: 0, end: 1, settings: CueSettings(line: .percentage(-3)), text: "z"),
        ])
        let (text, diagnostics) = try Self.written(track)
        #expect(
            text == """
                WEBVTT

                a
                00:00:00.000 --> 00:00:00.001 position:100%
                x

                00:00:00.000 --> 00:00:00.001
                y

                00:00:00.000 --> 00:00:00.001 line:0%
                z

                """)
        #expect(diagnostics.count == 6, "\(diagnostics)")
        #expect(diagnostics.allSatisfy { $0.code == .vttWriteCueSetting && $0.severity == .error && $0.location == nil })
        #expect(diagnostics[0].message == "cue 1 (\"a\"): line alignment 'end' cannot be written without a line position; it was left out")
        #expect(diagnostics[1].message == "cue 1 (\"a\"): position 150.0% is outside the 0–100% WebVTT allows; written as 100%")
        #expect(diagnostics[2].message == "cue 1 (\"a\"): size is not a number; the setting was left out")
    }

    /// Settings written once are copied for later cues with the same settings: the bytes are those
    /// each cue written alone gets, with more distinct settings than are kept, and settings with
    /// a problem are reported for every cue that has them.
    @Test func repeatedSettingsAreWrittenAsEachAlone() throws {
        var kinds: [CueSettings] = []
        for index in 0..<11 {
            let alignment: CueSettings.TextAlignment = index % 2 == 0 ? .left : .end
            let line = CueSettings.Line.percentage(Double(index * 9))
            let position = CueSettings.Position.percentage(Double(index))
            kinds.append(
                CueSettings(line: line, position: position, positionAlignment: .lineLeft, size: Double(50 + index), alignment: alignment))
        }
        kinds.append(CueSettings(position: .percentage(150)))
        var cues: [Cue] = []
        for round in 0..<40 {
            let settings = kinds[(round * 7) % kinds.count]
            cues.append(Cue(start: round * 1000, end: round * 1000 + 500, settings: settings, text: "cue \(round)"))
        }
        let (text, diagnostics) = try Self.written(Track(cues: cues))
        var expected = "WEBVTT\n"
        for cue in cues {
            let alone = try Self.written(Track(cues: [cue])).text
            expected += String(alone.dropFirst("WEBVTT\n".count))
        }
        #expect(text == expected)
        let outOfRange = cues.filter { $0.settings == kinds.last! }.count
        #expect(outOfRange > 1)
        #expect(diagnostics.count == outOfRange, "\(diagnostics)")
    }

    // MARK: Regions

    @Test func writesRegionsWithTheSpecSyntax() throws {
        let track = Track(
            regions: [
                CueRegion(id: "", width: 100, lines: 3),
                CueRegion(id: "a:b", width: 12.5, lines: 0, regionAnchor: .init(x: 100, y: 0), viewportAnchor: .init(x: 0, y: 100)),
            ],
            cues: [Cue(start: 0, end: 1, settings: CueSettings(region: "a:b"), text: "x")])
        let (text, diagnostics) = try Self.written(track)
        #expect(
            text == """
                WEBVTT

                REGION
                width:100%

                REGION
                id:a:b
                width:12.5%
                lines:0
                regionanchor:100%,0%

                00:00:00.000 --> 00:00:00.001 region:a:b
                x

                """)
        #expect(diagnostics.isEmpty)
    }

    @Test func reportsRegionsItCannotWrite() throws {
        let track = Track(
            regions: [
                CueRegion(id: "two words"), CueRegion(id: "x-->y"), CueRegion(id: "bad", width: -1, lines: -2, viewportAnchor: .init(x: .nan, y: 5)),
                CueRegion(id: "twice", lines: 1), CueRegion(id: "other"), CueRegion(id: "twice", lines: 2),
            ],
            cues: [
                Cue(start: 0, end: 1, settings: CueSettings(region: "two words"), text: "a"),
                Cue(start: 0, end: 1, settings: CueSettings(region: "two words"), text: "b"),
                Cue(start: 0, end: 1, settings: CueSettings(region: "nowhere"), text: "c"),
            ])
        let (text, diagnostics) = try Self.written(track)
        #expect(
            text == """
                WEBVTT

                REGION
                id:bad
                width:0%
                lines:0

                REGION
                id:other

                REGION
                id:twice
                lines:2

                00:00:00.000 --> 00:00:00.001
                a

                00:00:00.000 --> 00:00:00.001
                b

                00:00:00.000 --> 00:00:00.001
                c

                """)
        #expect(
            diagnostics.map(\.code) == [
                .vttWriteRegionIdentifier, .vttWriteRegionIdentifier, .vttWriteDuplicateRegion, .vttWriteRegionSetting,
                .vttWriteRegionSetting, .vttWriteRegionSetting, .vttWriteUndefinedRegion, .vttWriteUndefinedRegion,
            ])
        #expect(diagnostics[2].severity == .warning)
    }

    @Test func refusesRegionsAndStyleSheetsAfterTheFirstCue() throws {
        var writer = WebVTTWriter(to: MemorySink())
        try writer.write(.header(""))
        try writer.write(.cue(Cue(start: 0, end: 1, text: "a")))
        try writer.write(.region(CueRegion(id: "late")))
        try writer.write(.stylesheet(CueStylesheet("::cue {}")))
        try writer.write(.note(CueNote("a note may come anywhere", cueIndex: 1)))
        try writer.finish()
        #expect(writer.sink.string == "WEBVTT\n\n00:00:00.000 --> 00:00:00.001\na\n\nNOTE a note may come anywhere\n")
        #expect(writer.diagnostics.map(\.code) == [.vttWriteLateRegion, .vttWriteLateStylesheet])
        #expect(writer.diagnostics.allSatisfy { $0.severity == .error })
    }

    // MARK: Times

    @Test func reportsTimesItCannotWrite() throws {
        let track = Track(cues: [
            Cue(start: -500, end: 1_000, text: "a"),
            Cue(start: 2_000, end: 1_000, text: "b"),
            Cue(start: 3_000, end: 3_000, text: "c"),
        ])
        let (text, diagnostics) = try Self.written(track)
        #expect(
            text == """
                WEBVTT

                00:00:00.000 --> 00:00:01.000
                a

                00:00:02.000 --> 00:00:01.000
                b

                00:00:03.000 --> 00:00:03.000
                c

                """)
        #expect(diagnostics.map(\.code) == [.vttWriteNegativeTime, .vttWriteEndNotAfterStart, .vttWriteEndNotAfterStart])
        #expect(diagnostics.map(\.severity) == [.error, .warning, .warning])
    }

    // MARK: Free text

    @Test func makesCueTextSafeKeepingItsTree() throws {
        let track = Track(cues: [
            Cue(start: 0, end: 1, text: "a --> b <c.x-->y</c-->"),
            Cue(start: 0, end: 1, text: "\n\nfirst\r\n\r\nsecond\rthird\0\n"),
            Cue(start: 0, end: 1, text: "\n\n"),
        ])
        let (text, diagnostics) = try Self.written(track)
        #expect(
            text == """
                WEBVTT

                00:00:00.000 --> 00:00:00.001
                a --&gt; b <c.x-- >y</c-- >

                00:00:00.000 --> 00:00:00.001
                first
                second
                third\u{FFFD}

                00:00:00.000 --> 00:00:00.001

                """)
        #expect(diagnostics.map(\.code) == [.vttWriteCueText, .vttWriteCueText, .vttWriteCueText])
        #expect(diagnostics.allSatisfy { $0.severity == .warning }, "\(diagnostics)")
    }

    @Test func makesIdentifiersSafe() throws {
        let track = Track(cues: [
            Cue(id: "line\r\nbreak", start: 0, end: 1, text: "a"),
            Cue(id: "a-->b", start: 0, end: 1, text: "b"),
            Cue(id: "NOTE", start: 0, end: 1, text: "c"),
            Cue(id: " ", start: 0, end: 1, text: "d"),
        ])
        let (text, diagnostics) = try Self.written(track)
        #expect(
            text == """
                WEBVTT

                line break
                00:00:00.000 --> 00:00:00.001
                a

                a-- >b
                00:00:00.000 --> 00:00:00.001
                b

                NOTE
                00:00:00.000 --> 00:00:00.001
                c

                \u{20}
                00:00:00.000 --> 00:00:00.001
                d

                """)
        #expect(diagnostics.map(\.code) == [.vttWriteCueIdentifier, .vttWriteCueIdentifier])
        #expect(diagnostics.allSatisfy { $0.severity == .error })
        #expect(diagnostics[0].message == "cue 1 (\"line\\r\\nbreak\")'s identifier: line breaks were written as spaces")
    }

    @Test func makesTheHeaderAndCommentsSafe() throws {
        let track = Track(
            header: "first --> line stays\r\n\nsecond --> line\n",
            notes: [CueNote("a --> b\n\nc", cueIndex: 0), CueNote("\n\n", cueIndex: 0), CueNote(" spaced", cueIndex: 0)])
        let (text, diagnostics) = try Self.written(track)
        #expect(
            text == """
                WEBVTT first --> line stays
                second -- > line

                NOTE a -- > b
                c

                NOTE

                NOTE  spaced

                """)
        #expect(diagnostics.map(\.code) == [.vttWriteHeaderText, .vttWriteNoteText, .vttWriteNoteText])
        #expect(diagnostics.map(\.severity) == [.error, .error, .warning])
    }

    @Test func makesStyleSheetsSafeWhereTheirMeaningIsKept() throws {
        let sheets = [
            CueStylesheet("<!--\n::cue { color: red }\n-->"),
            CueStylesheet("::cue::before { content: \"-->\" }\n/* --> */\n\n::cue(.a-->.b) {}"),
            CueStylesheet("::cue { color: red --> }"),
            CueStylesheet("\n\n"),
        ]
        let (text, diagnostics) = try Self.written(Track(stylesheets: sheets))
        #expect(
            text == """
                WEBVTT

                STYLE
                <!--
                ::cue { color: red }

                STYLE
                ::cue::before { content: "--\\>" }
                /* -- > */
                ::cue(.a-- >.b) {}

                STYLE
                ::cue { color: red -- > }

                """)
        #expect(diagnostics.map(\.code) == Array(repeating: .vttWriteStylesheetText, count: 5))
        #expect(diagnostics.map(\.severity) == [.warning, .warning, .error, .warning, .warning], "\(diagnostics)")
    }
}
