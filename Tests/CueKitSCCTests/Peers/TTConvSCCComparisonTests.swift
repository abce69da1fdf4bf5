import CueKit
import CueKitSCC
import CueKitTestSupport
import Testing

/// CueKit against ttconv 1.2.3 on the SCC files of `Fixtures/conformance/scc` and on files made
/// here for every control code: the text shown at every instant must be the same (see
/// ``ShownText``), except where a named test below says who is right and why.
@Suite(.tags(.peers), .skippableByTag, .enabled(if: PythonPeers.hasTTConv, "ttconv is not installed: run .ci/setup"))
struct TTConvSCCComparisonTests {
    static let corpus = TestPaths.files(in: TestPaths.conformance + "/scc", suffixes: [".scc"]).map {
        String($0.dropFirst(TestPaths.conformance.count + "/scc/".count))
    }

    /// Files where CueKit shows other text on purpose, and the named test that says why.
    static let deliberateDifferences: [String: String] = [
        "sandflow/mix-rows-roll-up.scc": "textAppearsAsEachPairIsReceived",
        "pycaption/multiple-formats.scc": "textAppearsAsEachPairIsReceived",
        "pycaption/paint-on-edm.scc": "textAppearsAsEachPairIsReceived",
        "sandflow/paint-on.scc": "parityIsChecked",
        "sandflow/pop-on.scc": "textPastTheLastColumnIsDropped",
        "pycaption/with-line-too-long.scc": "textPastTheLastColumnIsDropped",
        "pycaption/duplicate-special-characters.scc": "theCursorStaysWhereTheLastCodeLeftIt",
        "pycaption/not-explicitly-switching-italics-off.scc": "theCursorStaysWhereTheLastCodeLeftIt",
        "pycaption/multiple-positioning.scc": "aPreambleInRollUpMovesTheWindow",
        "pycaption/roll-up-ru2.scc": "aMalformedWordIsSkippedNotTheFile",
        "pycaption/roll-up-ru3.scc": "aMalformedWordIsSkippedNotTheFile",
    ]

    @Test("CueKit shows ttconv's text at every instant", arguments: corpus)
    func corpusShowsTTConvText(_ name: String) throws {
        let differences: [ShownText.Difference]
        do {
            differences = try TTConvSCC.differences(path: TestPaths.conformance + "/scc/" + name)
        } catch let failure as TTConvSCC.PeerFailure where Self.deliberateDifferences[name] == "aMalformedWordIsSkippedNotTheFile" {
            #expect(failure.message.contains("hexadecimal word"))
            return
        }
        if let test = Self.deliberateDifferences[name] {
            #expect(!differences.isEmpty, "\(name) now matches ttconv: remove it from the deliberate differences (see \(test))")
        } else {
            #expect(differences.isEmpty, "\(name):\n\(differences.prefix(8).map { "  \($0)" }.joined(separator: "\n"))")
        }
    }

    /// Every control code the reader decodes, in pop-on captions ttconv and CueKit read alike.
    @Test func everyControlCodeShowsTTConvText() throws {
        var file = SCCFile()
        file.add(
            "00:00:01:00",
            SCCFile.rcl + SCCFile.pac(row: 2, color: 1) + SCCFile.text("green") + SCCFile.midRow(4) + SCCFile.text("red") + SCCFile.eoc)
        file.add("00:00:03:00", SCCFile.edm)
        file.add(
            "00:00:04:00",
            SCCFile.rcl + SCCFile.pac(row: 13, indent: 8) + SCCFile.to3 + SCCFile.text("ABCD") + SCCFile.bs + SCCFile.text("E")
                + SCCFile.eoc)
        file.add("00:00:06:00", SCCFile.edm)
        file.add(
            "00:00:07:00",
            SCCFile.rcl + SCCFile.pac(row: 15, color: 7, underline: true) + SCCFile.text("it") + SCCFile.special(0x37)
                + SCCFile.special(0x30)
                + SCCFile.extended(0x12, 0x27, fallback: "!") + SCCFile.extended(0x13, 0x34, fallback: "s") + SCCFile.eoc)
        file.add(
            "00:00:09:00", SCCFile.enm + SCCFile.rcl + SCCFile.pac(row: 1, indent: 4) + SCCFile.to2 + SCCFile.text("KEPT") + SCCFile.eoc)
        file.add("00:00:11:00", SCCFile.edm)
        let differences = try TTConvSCC.differences(file)
        #expect(differences.isEmpty, "\(differences.prefix(5).map { "  \($0)" }.joined(separator: "\n"))")
    }

    /// What CueKit writes, ttconv reads as CueKit does: the same text at the same frames.
    @Test func writtenSCCReadByTTConvShowsTheSameText() throws {
        var writer = SCCWriter(to: MemorySink())
        var track = Track()
        track.cues = SCCWriterTests.cues
        try writer.write(track)
        var file = SCCFile()
        file.lines = String(decoding: writer.sink.bytes, as: UTF8.self).split(separator: "\n").dropFirst().map(String.init)
        let differences = try TTConvSCC.differences(file)
        #expect(differences.isEmpty, "\(differences.prefix(5).map { "  \($0)" }.joined(separator: "\n"))")
        #expect(try SCCReader.read(bytes: writer.sink.bytes).track.cues.count == SCCWriterTests.cues.count)
    }

    // MARK: Where ttconv is wrong

    /// CEA-608-E, roll-up and paint-on captioning: a decoder displays each character as it is
    /// received, one byte pair a frame. ttconv shows a roll-up row's whole text from the carriage
    /// return before it (text it has not received yet), and paint-on text a word at a time.
    @Test func textAppearsAsEachPairIsReceived() throws {
        var file = SCCFile()
        file.add("00:00:01:00", SCCFile.ru2 + SCCFile.cr + SCCFile.pac(row: 15) + SCCFile.text("HELLO"))
        file.add("00:00:03:00", SCCFile.edm)
        let differences = try TTConvSCC.differences(file)
        #expect(differences.first?.expected == ["HELLO"])
        #expect(differences.first?.actual == [])
        let cues = try SCCReader.read(bytes: file.bytes).track.cues
        // HE, LL and O\0 are the 7th, 8th and 9th pairs.
        #expect(cues.map(\.text) == ["HE", "HELL", "HELLO"])
        #expect(cues.map(\.start) == [36, 37, 38].map(SCCReaderTests.ms))
    }

    /// CEA-608-E: every byte carries odd parity, and a decoder drops a byte whose parity is wrong.
    /// ttconv's paint-on sample is written without parity bits (`4c6f` for "Lo", whose `o` should
    /// be `ef`); ttconv ignores parity and shows it all, CueKit reports each bad byte and drops it.
    @Test func parityIsChecked() throws {
        let path = TestPaths.conformance + "/scc/sandflow/paint-on.scc"
        let differences = try TTConvSCC.differences(path: path)
        #expect(differences.first?.expected == ["Lorem"])
        let result = try SCCReader.read(fileAtPath: path)
        #expect(result.diagnostics.contains { $0.code == .sccParity && $0.location == SourceLocation(line: 3, column: 33) })
        #expect(result.track.cues.first.map { ShownText.lines(of: $0) } == ["L"])
    }

    /// CEA-608-E: the caption grid has 32 columns, and text past the last is not displayed. ttconv
    /// lays out whatever it receives: a caption indented to column 20 (PAC 947a), tabbed two more,
    /// shows its 16 characters to column 38.
    @Test func textPastTheLastColumnIsDropped() throws {
        let path = TestPaths.conformance + "/scc/sandflow/pop-on.scc"
        let differences = try TTConvSCC.differences(path: path)
        #expect(differences.map(\.expected) == [["( horn honking )"]])
        #expect(differences.map(\.actual) == [["( horn hon"]])
        #expect(try SCCReader.read(fileAtPath: path).diagnostics.contains { $0.code == .sccPastLastColumn })
    }

    /// CEA-608-E: a decoder has one cursor, moved by PACs, tab offsets, backspace and the
    /// characters written; RCL and EOC do not move it. pycaption's file sends a caption after an
    /// EOC without a PAC: its text goes on from the column the last caption left the cursor at
    /// (past column 32 here, so it is dropped). ttconv starts each caption on a fresh line.
    @Test func theCursorStaysWhereTheLastCodeLeftIt() throws {
        let differences = try TTConvSCC.differences(path: TestPaths.conformance + "/scc/pycaption/duplicate-special-characters.scc")
        #expect(differences.map(\.actual) == [["®°½¿™¢£♪à èâêîôû"]])
        var file = SCCFile()
        file.add("00:00:01:00", SCCFile.rcl + SCCFile.pac(row: 15) + SCCFile.text("ONE") + SCCFile.eoc)
        file.add("00:00:02:00", SCCFile.rcl + SCCFile.enm + SCCFile.text("TWO") + SCCFile.eoc)
        file.add("00:00:03:00", SCCFile.edm)
        let cues = try SCCReader.read(bytes: file.bytes).track.cues
        // TWO starts at column 3, where ONE left the cursor.
        #expect(cues.map(\.text) == ["ONE", "TWO"])
        #expect(cues.map(\.settings.position) == [.percentage(10), .percentage(17.5)])
    }

    /// CEA-608-E, roll-up captioning: a PAC's row is the new base row, and the rows of the window
    /// move there with their text. ttconv keeps writing on the row it was on.
    @Test func aPreambleInRollUpMovesTheWindow() throws {
        let differences = try TTConvSCC.differences(path: TestPaths.conformance + "/scc/pycaption/multiple-positioning.scc")
        #expect(differences.contains { $0.expected == ["opmnmnopqrqr"] && $0.actual == ["mnmn opop qrqr"] })
    }

    /// CEA-608-E: a tab offset moves the cursor one to three columns right, over cells it leaves
    /// as they are; text after it is drawn that many columns on. ttconv joins the text on either
    /// side of the skipped cells.
    @Test func tabOffsetsLeaveCellsBetweenText() throws {
        var file = SCCFile()
        file.add(
            "00:00:01:00",
            SCCFile.rcl + SCCFile.text("AB") + SCCFile.to1 + SCCFile.text("CD") + SCCFile.to3 + SCCFile.text("EF") + SCCFile.eoc)
        file.add("00:00:03:00", SCCFile.edm)
        let differences = try TTConvSCC.differences(file)
        #expect(differences.map(\.expected) == [["ABCDEF"]])
        #expect(differences.map(\.actual) == [["AB CD EF"]])
        #expect(try SCCReader.read(bytes: file.bytes).track.cues.map(\.text) == ["AB CD   EF"])
    }

    /// CEA-608-E: Delete to End of Row erases the cells from the cursor to column 32. ttconv
    /// ignores it.
    @Test func deleteToEndOfRowErases() throws {
        var file = SCCFile()
        file.add(
            "00:00:01:00",
            SCCFile.rcl + SCCFile.pac(row: 1) + SCCFile.text("KEEP GONE") + SCCFile.pac(row: 1, indent: 4) + SCCFile.der + SCCFile.eoc)
        file.add("00:00:03:00", SCCFile.edm)
        let differences = try TTConvSCC.differences(file)
        #expect(differences.map(\.expected) == [["KEEP GONE"]])
        #expect(differences.map(\.actual) == [["KEEP"]])
    }

    /// A word that is not four hexadecimal digits (pycaption's roll-up files have `4c`): CueKit
    /// reports it and reads on; ttconv stops reading the file.
    @Test func aMalformedWordIsSkippedNotTheFile() throws {
        let path = TestPaths.conformance + "/scc/pycaption/roll-up-ru2.scc"
        #expect(throws: TTConvSCC.PeerFailure.self) { try TTConvSCC.shown(path: path) }
        let result = try SCCReader.read(fileAtPath: path)
        #expect(result.diagnostics.map(\.code).contains(.sccBadWord))
        #expect(result.track.cues.count > 100)
    }

    /// Scenarist writes a tab after the timecode; pycaption's files have spaces. ttconv reads no
    /// line without the tab (the corpus comparison gives it one); CueKit, like pycaption and
    /// ffmpeg, takes any white space.
    @Test func spacesAfterTheTimecodeAreRead() throws {
        let path = TestPaths.conformance + "/scc/pycaption/pop-on.scc"
        #expect(try TTConvSCC.shown(path: path, withTabs: false).isEmpty)
        #expect(try TTConvSCC.shown(path: path).count == 7)
        #expect(try SCCReader.read(fileAtPath: path).track.cues.count == 7)
    }
}
