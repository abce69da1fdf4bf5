import CueKit
import CueKitEBUSTL
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// CueKit against ttconv 1.2.3 on the STL files of `Fixtures/conformance/stl` and on files made
/// here for every control code: the text shown at every instant must be the same (see
/// ``ShownText``), except where a named test below says who is right and why.
@Suite(.tags(.peers), .skippableByTag, .enabled(if: PythonPeers.hasTTConv, "ttconv is not installed: run .ci/setup"))
struct TTConvSTLComparisonTests {
    static let corpus = TestPaths.files(in: TestPaths.conformance + "/stl", suffixes: [".stl"]).map {
        String($0.dropFirst(TestPaths.conformance.count + "/stl/".count))
    }

    /// Files where CueKit shows other text on purpose, and the named test that says why.
    static let deliberateDifferences: [String: String] = {
        var differences: [String: String] = [:]
        for name in ["0062-002_modified", "0074-001", "0077-001", "0077-002", "0086-001", "0087-001"] + (1...9).map({ "0091-00\($0)" }) {
            differences["irt/requirement-\(name).stl"] = "spacingAttributesAndSpacesSeparateWords"
        }
        for name in ["contained_tti", "overlapping_tti", "two_contained_tti"] {
            differences["sandflow/\(name).stl"] = "aSubtitleReplacesTheOneOnScreen"
        }
        return differences
    }()

    @Test("CueKit shows ttconv's text at every instant", arguments: corpus)
    func corpusShowsTTConvText(_ name: String) throws {
        let differences = try TTConvSTL.differences(path: TestPaths.conformance + "/stl/" + name)
        if let test = Self.deliberateDifferences[name] {
            #expect(!differences.isEmpty, "\(name) now matches ttconv: remove it from the deliberate differences (see \(test))")
        } else {
            #expect(differences.isEmpty, "\(name):\n\(differences.prefix(5).map { "  \($0)" }.joined(separator: "\n"))")
        }
    }

    /// One file with every control code, in teletext and in open subtitling.
    @Test(arguments: [UInt8(ascii: "1"), UInt8(ascii: "0")])
    func everyControlCodeShowsTTConvText(_ displayStandard: UInt8) throws {
        var file = STLFile()
        file.displayStandard = displayStandard
        var text: [UInt8] = []
        // Each code between two words: ttconv keeps a control code's cell only there (see
        // spacingAttributesAndSpacesSeparateWords).
        // (The codes ttconv does not know as control codes are in spacingAttributesAndSpacesSeparateWords.)
        for code: UInt8 in [0, 1, 2, 3, 4, 5, 6, 7, 0x0C, 0x0D, 0x1C, 0x1D] { text += Array("c\(code)".utf8) + [code] }
        file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, 0), timeOut: (0, 0, 4, 0), text: text))
        file.add(STLFile.Subtitle(number: 2, timeIn: (0, 0, 5, 0), timeOut: (0, 0, 7, 0), text: [0x80] + Array("italic".utf8) + [0x81] + Array("plain".utf8) + [0x82] + Array("under".utf8) + [0x83, 0x8A, 0x8A, 0x84] + Array("boxed".utf8) + [0x85]))
        file.add(STLFile.Subtitle(number: 3, timeIn: (0, 0, 8, 0), timeOut: (0, 0, 9, 0), text: [0xCB, 0x43, 0x61, 0x20, 0x64, 0xC2, 0x65, 0x6A, 0xC1, 0x61, 0xA9, 0xD5, 0xE9, 0xFB]))
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        ExternalProcess.writeBytes(file.bytes, to: folder.file("codes.stl"))
        let differences = try TTConvSTL.differences(path: folder.file("codes.stl"))
        #expect(differences.isEmpty, "\(differences.prefix(5).map { "  \($0)" }.joined(separator: "\n"))")
    }

    // MARK: Where ttconv is wrong

    /// In teletext every control code is a spacing attribute: it takes a character cell, shown as
    /// a space (ETS 300 706 section 12.2; Tech 3264 Appendix 2 gives the teletext codes 0x00-0x1F),
    /// and a space (0x20) is a space. ttconv keeps a space or a control code's cell only when both
    /// of its neighbours are printable, so "text", thirteen control codes and "Some" run together,
    /// and two spaces between "§" and "%" vanish.
    @Test func spacingAttributesAndSpacesSeparateWords() throws {
        let attributes = try TTConvSTL.differences(path: TestPaths.conformance + "/stl/irt/requirement-0062-002_modified.stl")
        #expect(attributes.map(\.expected) == [["Some textSome text"]])
        #expect(attributes.map(\.actual) == [["Some text Some text"]])
        let spaces = try TTConvSTL.differences(path: TestPaths.conformance + "/stl/irt/requirement-0074-001.stl")
        #expect(spaces.flatMap(\.actual).contains("^ ! \" § % & / ( ) = ? * '"))
        #expect(spaces.flatMap(\.expected).contains("^ ! \" §% & / ( ) = ?* '"))
        // Flash, steady, double width and size, mosaics, conceal and hold take a cell as well;
        // ttconv leaves them out without one.
        var file = STLFile()
        var text: [UInt8] = []
        for code: UInt8 in [0x08, 0x09, 0x0E, 0x0F, 0x10, 0x18, 0x19, 0x1A, 0x1B, 0x1E, 0x1F] { text += Array("c\(code)".utf8) + [code] }
        file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, 0), timeOut: (0, 0, 4, 0), text: text + Array("end".utf8)))
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        ExternalProcess.writeBytes(file.bytes, to: folder.file("cells.stl"))
        let cells = try TTConvSTL.differences(path: folder.file("cells.stl"))
        #expect(cells.map(\.expected) == [["c8c9c14c15c16c24c25c26c27c30c31end"]])
        #expect(cells.map(\.actual) == [["c8 c9 c14 c15 c16 c24 c25 c26 c27 c30 c31 end"]])
    }

    /// Tech 3264 section 4.3, CF: a block with the comment flag set holds "comments, not intended
    /// for transmission". ttconv never looks at the flag and shows them; CueKit skips them (noted once).
    @Test func commentBlocksAreNotShown() throws {
        var file = STLFile()
        file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, 0), timeOut: (0, 0, 2, 0), text: Array("translator's note".utf8), comment: 1))
        file.add("shown", number: 2, from: 3, to: 4)
        let differences = try TTConvSTL.differences(bytes: file.bytes)
        #expect(differences.map(\.expected) == [["translator's note"]])
        #expect(differences.map(\.actual) == [[]])
    }

    /// Tech 3264 section 3.2, DFC: `STL30.01` is 30 frames a second, and a timecode counts frames
    /// of that rate: 00:00:10:15 is 10.5 s. ttconv reads `STL30.01` as 30000/1001 frames a second,
    /// which puts the same frame 10 ms later (and 3.6 s later an hour in).
    @Test func thirtyFrameTimecodesCountThirtyFramesASecond() throws {
        var file = STLFile()
        file.diskFormatCode = "STL30.01"
        file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 10, 15), timeOut: (0, 0, 12, 0), text: Array("thirty".utf8)))
        #expect(try EBUSTLReader.read(bytes: file.bytes).track.cues.map(\.start) == [10_500])
        let differences = try TTConvSTL.differences(bytes: file.bytes)
        #expect(differences.first?.start == 10_500)
        #expect(differences.first?.end == 10_510)
        #expect(differences.first?.expected == [])
        #expect(differences.first?.actual == ["thirty"])
    }

    /// A teletext subtitle is a page: the next one (CS 0, or the first of a cumulative set) replaces
    /// it on screen when it starts (Tech 3264 section 4.3, TCI: "the time at which the subtitle is
    /// to be displayed"; ETS 300 706 section 9.3.1.3, the erase page bit of a subtitle page). ttconv
    /// keeps the earlier subtitle to its TCO and delays the later one until then (or drops it, when
    /// it ends first). CueKit shows each from its own TCI, the earlier ending there.
    @Test func aSubtitleReplacesTheOneOnScreen() throws {
        let path = TestPaths.conformance + "/stl/sandflow/overlapping_tti.stl"
        let differences = try TTConvSTL.differences(path: path)
        #expect(differences.map(\.expected) == [["Subtitle One"]])
        let cues = try EBUSTLReader.read(fileAtPath: path).track.cues
        #expect(cues.count == 2)
        #expect(cues[0].end == cues[1].start)
        #expect(cues.map { ShownText.lines(of: $0) } == [["Subtitle One"], ["Subtitle Two"]])
    }
}

/// ttconv in `.venv`, through `Tests/Peers/ttconv_stl_to_webvtt.py`.
enum TTConvSTL {
    /// What ttconv shows of the STL file at `path`, the start of programme subtracted.
    static func shown(path: String) throws -> [ShownText.Shown] {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let run = ExternalProcess.run(PythonPeers.python, [PythonPeers.script("ttconv_stl_to_webvtt.py"), path, folder.file("out.vtt")])
        guard run.status == 0 else { throw PeerFailure(message: run.error) }
        let bytes = try TestPaths.bytes(folder.file("out.vtt"))
        if bytes.starts(with: Array("ERROR:".utf8)) { throw PeerFailure(message: String(decoding: bytes, as: UTF8.self)) }
        return ShownText.shown(try WebVTTReader.read(bytes: bytes).track.cues)
    }

    /// Where ttconv (expected) and CueKit (actual) show different text.
    static func differences(path: String) throws -> [ShownText.Difference] {
        let expected = try shown(path: path)
        let actual = ShownText.shown(try EBUSTLReader.read(fileAtPath: path).track.cues)
        let horizon = (expected + actual).map(\.end).max().map { $0 + 1 } ?? 0
        return ShownText.differences(expected: expected, actual: actual, horizon: horizon)
    }

    /// ``differences(path:)`` of a file the test made.
    static func differences(bytes: [UInt8]) throws -> [ShownText.Difference] {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        ExternalProcess.writeBytes(bytes, to: folder.file("made.stl"))
        return try differences(path: folder.file("made.stl"))
    }

    struct PeerFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { "ttconv: " + message }
    }
}
