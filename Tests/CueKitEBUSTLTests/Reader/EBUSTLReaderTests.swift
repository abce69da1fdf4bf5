import CueKit
import CueKitEBUSTL
import CueKitTestSupport
import Testing

@Suite struct EBUSTLReaderTests {
    static func read(_ file: STLFile, options: EBUSTLReader.Options = .init()) throws -> ReadResult {
        try EBUSTLReader.read(bytes: file.bytes, options: options)
    }

    @Test func subtitlesBecomeCuesTimedInFramesAndPlacedByRow() throws {
        var file = STLFile()
        file.add("Hello|world", number: 1, from: 1, to: 3)
        file.add(STLFile.Subtitle(number: 2, timeIn: (0, 0, 4, 12), timeOut: (0, 0, 5, 24), text: Array("Top".utf8), verticalPosition: 1, justification: 1))
        let result = try Self.read(file)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.track.cues.map(\.text) == ["Hello\nworld", "Top"])
        #expect(result.track.cues.map(\.start) == [1000, 4480])
        #expect(result.track.cues.map(\.end) == [3000, 5960])
        // Row 22 of 23 inside a 10% margin: 10 + 21/23 × 80.
        #expect(result.track.cues[0].settings.line == .percentage(83.04))
        #expect(result.track.cues[0].settings.lineAlignment == .start)
        #expect(result.track.cues[1].settings.line == .percentage(10))
        #expect(result.track.cues[1].settings.alignment == .left)
    }

    @Test func thirtyAndFiftyFramesASecond() throws {
        for (code, frames, milliseconds) in [("STL30.01", 15, 500), ("STL50.01", 25, 500), ("STL25.01", 24, 960)] {
            var file = STLFile()
            file.diskFormatCode = code
            file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, frames), timeOut: (0, 0, 3, 0), text: Array("x".utf8)))
            #expect(try Self.read(file).track.cues.first?.start == 1000 + milliseconds, "\(code)")
        }
    }

    @Test func startOfProgrammeIsSubtractedUnlessKept() throws {
        var file = STLFile()
        file.startOfProgramme = "10000000"
        file.add(STLFile.Subtitle(number: 1, timeIn: (10, 0, 1, 0), timeOut: (10, 0, 2, 0), text: Array("in".utf8)))
        file.add(STLFile.Subtitle(number: 2, timeIn: (9, 59, 59, 0), timeOut: (10, 0, 2, 0), text: Array("before".utf8)))
        let result = try Self.read(file)
        #expect(result.track.cues.map(\.start) == [1000])
        #expect(result.diagnostics.map(\.code) == [.stlBeforeProgramme])
        #expect(result.diagnostics.first?.location == SourceLocation(line: 2, column: 6))
        let kept = try Self.read(file, options: .init(keepTimeCodeOfProgramme: true))
        #expect(kept.track.cues.map(\.start) == [36_001_000, 35_999_000])
    }

    @Test func extensionBlocksAreJoinedAndCommentsAndUserDataSkipped() throws {
        var file = STLFile()
        let long = String(repeating: "abcdefghij", count: 15)  // 150 bytes: two blocks
        file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, 0), timeOut: (0, 0, 2, 0), text: Array(long.utf8)))
        file.add(STLFile.Subtitle(number: 2, timeIn: (0, 0, 3, 0), timeOut: (0, 0, 4, 0), text: Array("note".utf8), comment: 1))
        var userData = [UInt8](repeating: 0x41, count: 128)
        userData[3] = 0xFE
        file.blocks.append(userData)
        file.add("after", number: 3, from: 5, to: 6)
        #expect(file.blocks.count == 5)
        let result = try Self.read(file)
        #expect(result.track.cues.map(\.text) == [long, "after"])
        #expect(result.diagnostics.map(\.code) == [.stlComment])
    }

    @Test func teletextColoursBecomeClassesWithRulesBeforeTheFirstCue() throws {
        var file = STLFile()
        // Double height, start box twice, yellow, text; a new row is white again.
        file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, 0), timeOut: (0, 0, 2, 0), text: [0x0D, 0x0B, 0x0B, 0x03] + Array("Yellow &".utf8) + [0x0A, 0x0A, 0x8A, 0x8A, 0x0D, 0x0B, 0x0B] + Array("white".utf8)))
        let bytes = file.bytes
        var reader = EBUSTLReader(prescan: EBUSTLReader.prescan(bytes: bytes))
        let result = try reader.read(bytes)
        #expect(result.track.cues.map(\.text) == ["<c.yellow>Yellow &amp;</c>\nwhite"])
        #expect(result.track.stylesheets.flatMap(\.cueRules) == [CueStyleRule(.classes(["yellow"]), [.init("color", "#ffff00")])])
        #expect(result.diagnostics.map(\.code) == [.stlUnsupported, .stlUnsupported])
    }

    @Test func openSubtitleItalicsAndUnderline() throws {
        var file = STLFile()
        file.displayStandard = UInt8(ascii: "0")
        file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, 0), timeOut: (0, 0, 2, 0), text: [0x80] + Array("it".utf8) + [0x81, 0x20, 0x82] + Array("under".utf8) + [0x83, 0x8A] + Array("next".utf8)))
        #expect(try Self.read(file).track.cues.first?.text == "<i>it</i> <u>under</u>\nnext")
    }

    @Test func iso6937DiacriticsComposeAndOtherTablesDecode() throws {
        var file = STLFile()
        // "Ça déjà" with prefix diacritics, then ß and the spacing acute.
        file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, 0), timeOut: (0, 0, 2, 0), text: [0xCB, 0x43, 0x61, 0x20, 0x64, 0xC2, 0x65, 0x6A, 0xC1, 0x61, 0x20, 0xFB, 0xC2, 0x20]))
        #expect(try Self.read(file).track.cues.first?.text == "Ça déjà ß´")
        for (table, byte, expected) in [("01", UInt8(0xB0), "А"), ("02", 0xC7, "ا"), ("03", 0xC1, "Α"), ("04", 0xE0, "א")] {
            var other = STLFile()
            other.characterTable = table
            other.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, 0), timeOut: (0, 0, 2, 0), text: [byte]))
            #expect(try Self.read(other).track.cues.first?.text == expected, "table \(table)")
        }
    }

    @Test func readingIsChunkIndependent() throws {
        var file = STLFile()
        file.add("one", number: 1, from: 1, to: 2)
        file.add(STLFile.Subtitle(number: 2, timeIn: (0, 0, 3, 0), timeOut: (0, 0, 4, 0), text: [0x01] + Array(String(repeating: "red ", count: 40).utf8)))
        file.add("three", number: 3, from: 5, to: 6)
        let outcome = try ChunkingVerifier.verify(file.bytes) { EBUSTLReader() }
        #expect(try outcome.get().count { if case .cue = $0 { true } else { false } } == 3)
    }
}
