import CueKit
import CueKitSCC
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// CueKit against pycaption 2.3.14 on the pop-on files of `Fixtures/conformance/scc`: the same
/// captions, in the same order, each with the same lines. Times are compared with ttconv
/// (`TTConvSCCComparisonTests`): pycaption times a caption from a frame or two before its EOC and
/// ends the last one four seconds on, and draws no roll-up or paint-on text as a decoder does.
@Suite(.tags(.peers), .skippableByTag, .enabled(if: PythonPeers.hasPycaption, "pycaption is not installed: run .ci/setup"))
struct PycaptionSCCComparisonTests {
    static let popOnFiles = [
        "sandflow/pop-on.scc", "pycaption/pop-on.scc", "pycaption/example.scc", "pycaption/tab-offset.scc",
        "pycaption/with-extended-characters.scc", "pycaption/duplicate-special-characters.scc",
    ]

    /// Files where CueKit shows other text on purpose, and the test of `TTConvSCCComparisonTests`
    /// that says why (pycaption agrees with ttconv there).
    static let deliberateDifferences = [
        "sandflow/pop-on.scc": "textPastTheLastColumnIsDropped",
        "pycaption/duplicate-special-characters.scc": "theCursorStaysWhereTheLastCodeLeftIt",
    ]

    @Test("CueKit shows pycaption's text at every instant", arguments: popOnFiles)
    func popOnFilesShowPycaptionText(_ name: String) throws {
        let path = TestPaths.conformance + "/scc/" + name
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let run = ExternalProcess.run(PythonPeers.python, [PythonPeers.script("pycaption_scc_to_webvtt.py"), path, folder.file("out.vtt")])
        #expect(run.status == 0, "\(run.error)")
        let bytes = try TestPaths.bytes(folder.file("out.vtt"))
        #expect(!bytes.starts(with: Array("ERROR:".utf8)), "\(String(decoding: bytes, as: UTF8.self))")
        let expected = Self.captions(try WebVTTReader.read(bytes: bytes).track.cues)
        let actual = Self.captions(try SCCReader.read(fileAtPath: path).track.cues)
        let differences = expected == actual ? [] : [(expected: expected, actual: actual)]
        if let test = Self.deliberateDifferences[name] {
            #expect(!differences.isEmpty, "\(name) now matches pycaption: remove it from the deliberate differences (see \(test))")
        } else {
            #expect(differences.isEmpty, "\(name): pycaption \(expected)\nCueKit \(actual)")
        }
    }

    /// Each cue's lines, white space collapsed (pycaption indents with spaces), sorted (pycaption
    /// orders a caption's rows its own way); a caption repeated by the next cue counted once.
    static func captions(_ cues: [Cue]) -> [[String]] {
        var captions: [[String]] = []
        for cue in cues {
            let lines = ShownText.lines(of: cue).map { line in
                line.split(whereSeparator: { $0 == " " || $0 == "\u{A0}" }).joined(separator: " ")
            }.filter { !$0.isEmpty }.sorted()
            if !lines.isEmpty, captions.last != lines { captions.append(lines) }
        }
        return captions
    }
}
