import CueKit
import CueKitTestSupport
import Testing

@testable import CueKitSubRip

@Suite struct SubRipReaderTests {
    @Test func readsWindows1252WhenToldTo() throws {
        let dump = try EventDump.read(fixture: "windows-1252.srt", options: .init(encoding: .windows1252))
        #expect(
            dump == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | Café crème, naïve “quotes”
                """
        )
    }

    @Test func aByteOrderMarkOverridesTheWindows1252Option() throws {
        let dump = try EventDump.read(fixture: "utf16le-bom.srt", options: .init(encoding: .windows1252))
        #expect(dump.hasSuffix("| UTF-16 café 字幕 🎬"))
    }

    @Test(arguments: ["utf32le-bom.srt", "utf32be-bom.srt"])
    func readsUTF32WithAByteOrderMark(_ fixture: String) throws {
        #expect(
            try EventDump.read(fixture: fixture) == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | Café ♪ 😀
                """
        )
    }

    @Test(arguments: TextEncoding.allCases)
    func readsEveryEncodingItIsToldOf(_ encoding: TextEncoding) throws {
        let text = "1\n00:00:01,000 --> 00:00:02,000\nCafé\n"
        let bytes: [UInt8] =
            switch encoding {
            case .utf8: Array(text.utf8)
            case .utf16LittleEndian: text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            case .utf16BigEndian: text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            case .utf32LittleEndian: text.unicodeScalars.flatMap { s in (0..<4).map { UInt8((s.value >> (8 * $0)) & 0xFF) } }
            case .utf32BigEndian: text.unicodeScalars.flatMap { s in (0..<4).reversed().map { UInt8((s.value >> (8 * $0)) & 0xFF) } }
            case .windows1252, .latin1: text.unicodeScalars.map { UInt8($0.value) }
            }
        #expect(
            try EventDump.read(bytes, options: .init(encoding: encoding)) == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | Café
                """
        )
    }

    /// ffmpeg and pysubs2 read ASS's `\N` and `\n` as line breaks.
    @Test func readsASSLineBreaksAsLineBreaks() throws {
        #expect(
            try EventDump.read(fixture: "ass-line-breaks.srt") == #"""
                3:11: note: '\N' is an ASS line break: read as one, as ffmpeg and pysubs2 read it [srt-ass-line-break]
                3:24: note: '\n' is an ASS line break: read as one, as ffmpeg and pysubs2 read it [srt-ass-line-break]
                cue #1 00:00:01.000 --> 00:00:02.000
                  | First line
                  | Second line
                  | Third
                """#
        )
    }

    @Test func saysWhatIsWrongWithANegativeTime() throws {
        #expect(
            try EventDump.read(fixture: "negative-time.srt") == """
                2:1: error: time is negative: SubRip times count from 00:00:00,000, so the cue is skipped [srt-bad-timing]
                cue #2 00:00:03.000 --> 00:00:04.000
                  | Kept.
                """
        )
    }

    @Test func leavesIdentifiersOutWhenAsked() throws {
        let result = try SubRipReader(options: .init(cueIdentifiers: .none)).readAll(fixture: "wrong-sequence-numbers.srt")
        #expect(result.track.cues.map(\.id) == ["", "", ""])
        #expect(result.track.cues.map(\.start) == [1_000, 3_000, 5_000])
    }

    @Test func aPrescanFindsTheColoursAndItsReaderHandsTheirRulesOutBeforeTheFirstCue() throws {
        let bytes = try TestPaths.bytes(TestPaths.fixture("subrip/font-color.srt"))
        let prescan = SubRipReader.prescan(bytes: bytes)
        #expect(prescan.colors.map(\.className) == ["yellow", "color-ff8000", "red", "color-orange"])
        // Cut anywhere, the prescan finds the same colours.
        for cut in stride(from: 1, to: bytes.count, by: 7) {
            var prescanner = SubRipPrescanner(options: .init())
            bytes[..<cut].withUnsafeBytes { prescanner.feed(UnsafeRawBufferPointer($0)) }
            bytes[cut...].withUnsafeBytes { prescanner.feed(UnsafeRawBufferPointer($0)) }
            #expect(prescanner.finish() == prescan, "cut at \(cut)")
        }
        let events = try ChunkingVerifier.verify(bytes) { SubRipReader(prescan: prescan) }.get()
        #expect(
            Array(events.prefix(5)) == [
                .header(""),
                .stylesheet(CueStylesheet("::cue(.yellow) { color: #ffff00; }")),
                .stylesheet(CueStylesheet("::cue(.color-ff8000) { color: #ff8000; }")),
                .stylesheet(CueStylesheet("::cue(.red) { color: #ff0000; }")),
                .stylesheet(CueStylesheet("::cue(.color-orange) { color: orange; }")),
            ]
        )
        // Each rule once: the reader does not hand a prescanned colour out again.
        #expect(events.filter { if case .stylesheet = $0 { true } else { false } }.count == 4)
        #expect(events.filter { if case .cue = $0 { true } else { false } }.count == 3)
    }

    @Test func aWholeTrackHasItsColourRulesBeforeItsCues() throws {
        let result = try SubRipReader().readAll(fixture: "font-color.srt")
        var writtenOrder: [String] = []
        for event in result.track.events {
            switch event {
            case .stylesheet: writtenOrder.append("style")
            case .cue: writtenOrder.append("cue")
            default: break
            }
        }
        #expect(writtenOrder == ["style", "style", "style", "style", "cue", "cue", "cue"])
    }

    @Test func limitsRepeatedDiagnosticsAndCountsTheRest() throws {
        var text = ""
        for index in 1...5 { text += "\(index)\n00:00:0\(index).000 --> 00:00:0\(index).500\nCue \(index)\n\n" }
        let dump = try EventDump.read(text, options: .init(limits: .init(maximumDiagnosticsPerCode: 3)))
        let separatorWarnings = dump.split(separator: "\n").filter { $0.hasSuffix("[srt-timestamp-separator]") }
        #expect(separatorWarnings.count == 3)
        #expect(
            dump.hasSuffix(
                "note: 7 more diagnostic(s) [srt-timestamp-separator] were not reported (the reader reports 3 of each kind) [srt-diagnostics-limited]"
            ))
    }

    @Test func cutsOverlongLinesAndCueText() throws {
        let long = String(repeating: "a", count: 100)
        let text = "1\n00:00:01,000 --> 00:00:02,000\n\(long)\n\(long)\n\(long)\n"
        let dump = try EventDump.read(text, options: .init(limits: .init(maximumLineLength: 40, maximumCueTextLength: 90)))
        let expectedLine = String(repeating: "a", count: 40)
        #expect(
            dump == """
                3:41: error: line is longer than 40 bytes; the rest of it is dropped [srt-too-long]
                4:41: error: line is longer than 40 bytes; the rest of it is dropped [srt-too-long]
                5:41: error: line is longer than 40 bytes; the rest of it is dropped [srt-too-long]
                5:1: error: cue text is longer than 90 bytes; this line and the rest of the cue's text are dropped [srt-too-long]
                cue #1 00:00:01.000 --> 00:00:02.000
                  | \(expectedLine)
                  | \(expectedLine)
                """
        )
    }

    @Test func anEmptyInputOrOneWithNoCueIsNoTrackAsInEveryFormat() throws {
        for input in ["", "\n\n  \n", "\u{FEFF}\r\n"] {
            let error = try #require(throws: ReadError.self) { try EventDump.read(input) }
            #expect(error.diagnostic.code == .srtEmpty, "\(input.debugDescription)")
            #expect(error.diagnostic.location == .start)
        }
        // Lines, but no cue: not a SubRip track either.
        let error = try #require(throws: ReadError.self) { try EventDump.read("hello\n\n1\n") }
        #expect(error.diagnostic.code == .srtNoCues)
    }

    @Test func countsColumnsInUnicodeScalars() throws {
        let dump = try EventDump.read("1\n00:00:01,000 --> 00:00:02,000\n字幕 é <x>\n")
        #expect(dump.hasPrefix("3:6: warning: '<x>' is not a SubRip tag"))
    }

    @Test func replacesInvalidUTF8WithoutAWindows1252HintWhenItIsNotLikeIt() throws {
        // A lead byte followed by a valid continuation and then ASCII: a truncated sequence.
        let bytes: [UInt8] = Array("1\n00:00:01,000 --> 00:00:02,000\nab".utf8) + [0xE5, 0xAD] + Array("cd\n".utf8)
        let dump = try EventDump.read(bytes)
        #expect(
            dump == """
                3:3: error: bytes that are not UTF-8 (0xE5) are read as U+FFFD [srt-invalid-utf8]
                cue #1 00:00:01.000 --> 00:00:02.000
                  | ab\u{FFFD}cd
                """
        )
    }

    @Test func readsNULAsReplacementAsWebVTTDoes() throws {
        let bytes: [UInt8] = Array("1\n00:00:01,000 --> 00:00:02,000\n\u{E9}".utf8) + [0xFF, 0x00] + Array("b\n".utf8)
        let dump = try EventDump.read(bytes)
        #expect(
            dump == """
                3:2: error: bytes that are not UTF-8 (0xFF) are read as U+FFFD [srt-invalid-utf8]
                3:3: error: NUL characters are read as U+FFFD [srt-null-character]
                cue #1 00:00:01.000 --> 00:00:02.000
                  | \u{E9}\u{FFFD}\u{FFFD}b
                """
        )
    }

    @Test func readsAnUnpairedUTF16SurrogateAsReplacement() throws {
        let units: [UInt16] = Array("1\n00:00:01,000 --> 00:00:02,000\nx".utf16) + [0xD800] + Array("y\n".utf16)
        let bytes: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let dump = try EventDump.read(bytes)
        #expect(
            dump == """
                cue #1 00:00:01.000 --> 00:00:02.000
                  | x\u{FFFD}y
                error: 1 utf-16le code unit(s) could not be decoded (an unpaired surrogate, a value past U+10FFFF, or a cut-off last unit) and were read as U+FFFD [srt-utf16]
                """
        )
    }

    /// Crossed and unclosed tags keep at most 64 open, and a run of `{\` with no `}` is text: the
    /// work and the markup grow with the text, not with its square.
    @Test func pathologicalMarkupStaysBounded() throws {
        let crossed = String(repeating: "<b><i>x</b>", count: 2_000)
        let overrides = String(repeating: "{\\", count: 5_000)
        let text =
            "1\n00:00:01,000 --> 00:00:02,000\n" + Array(repeating: crossed, count: 20).joined(separator: "\n") + "\n\n"
            + "2\n00:00:03,000 --> 00:00:04,000\n" + Array(repeating: overrides, count: 20).joined(separator: "\n") + "\n"
        var reader = SubRipReader()
        let result = try reader.read(Array(text.utf8))
        #expect(result.track.cues.count == 2)
        #expect(result.track.cues[0].text.utf8.count < 3 * text.utf8.count)
        #expect(result.track.cues[0].text.hasPrefix("<b><i>x</i></b><i><b><i>x</i></b><i>"))
        #expect(result.track.cues[1].text == Array(repeating: overrides, count: 20).joined(separator: "\n"))
        #expect(
            result.diagnostics.contains {
                $0.code == .srtTagIgnored && $0.message == "tags nested more than 64 deep are left out, their text kept"
            })
    }

    @Test func readsStringsBytesAndFilesAlike() throws {
        let path = TestPaths.fixture("subrip/basic-crlf.srt")
        let bytes = try TestPaths.bytes(path)
        let fromFile = try SubRipReader.read(fileAtPath: path)
        #expect(fromFile.track.cues.count == 2)
        #expect(try SubRipReader.read(bytes: bytes) == fromFile)
        #expect(try SubRipReader.read(String(decoding: bytes, as: UTF8.self)) == fromFile)
        #expect(throws: ReadError.self) { try SubRipReader.read(fileAtPath: TestPaths.fixture("subrip/missing.srt")) }
    }

    @Test func emitsTheHeaderFirstEvenForNoInput() throws {
        var reader = SubRipReader()
        var events: [TrackEvent] = []
        #expect(throws: ReadError.self) { try reader.finish { events.append($0) } }
        #expect(events == [.header("")])
    }
}

extension SubRipReader {
    /// Reads a fixture of `Fixtures/subrip/` whole.
    func readAll(fixture name: String) throws -> ReadResult {
        var reader = self
        return try reader.read(TestPaths.bytes(TestPaths.fixture("subrip/" + name)))
    }
}
