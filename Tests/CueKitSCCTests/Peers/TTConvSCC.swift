import CueKit
import CueKitSCC
import CueKitTestSupport
import CueKitWebVTT

/// ttconv in `.venv`, through `Tests/Peers/ttconv_scc_to_webvtt.py`.
enum TTConvSCC {
    /// What ttconv shows of the SCC file at `path`.
    ///
    /// ttconv reads a line only when a tab follows its timecode, as Scenarist writes it; files
    /// written with spaces there (pycaption's) are given to it with the tab (see
    /// `TTConvSCCComparisonTests.spacesAfterTheTimecodeAreRead`).
    static func shown(path: String, withTabs: Bool = true) throws -> [ShownText.Shown] {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        var input = path
        if withTabs {
            let lines = String(decoding: try TestPaths.bytes(path), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let tabbed = lines.map { line -> String in
                guard line.first?.isNumber == true, let space = line.firstIndex(where: { $0 == " " || $0 == "\t" }), line[space] == " "
                else {
                    return String(line)
                }
                return line[..<space] + "\t" + line[space...].drop(while: { $0 == " " })
            }
            ExternalProcess.writeBytes(Array(tabbed.joined(separator: "\n").utf8), to: folder.file("in.scc"))
            input = folder.file("in.scc")
        }
        let run = ExternalProcess.run(PythonPeers.python, [PythonPeers.script("ttconv_scc_to_webvtt.py"), input, folder.file("out.vtt")])
        guard run.status == 0 else { throw PeerFailure(message: run.error) }
        let bytes = try TestPaths.bytes(folder.file("out.vtt"))
        if bytes.starts(with: Array("ERROR:".utf8)) { throw PeerFailure(message: String(decoding: bytes, as: UTF8.self)) }
        return ShownText.shown(try WebVTTReader.read(bytes: bytes).track.cues)
    }

    /// Where ttconv (expected) and CueKit (actual) show different text, up to the end of CueKit's
    /// last cue (ttconv ends a caption never erased ten seconds after its last change, as CueKit does).
    static func differences(path: String) throws -> [ShownText.Difference] {
        let expected = try shown(path: path)
        let actual = ShownText.shown(try SCCReader.read(fileAtPath: path).track.cues)
        let horizon = (expected + actual).map(\.end).max().map { $0 + 1 } ?? 0
        return ShownText.differences(expected: expected, actual: actual, horizon: horizon)
    }

    /// ``differences(path:)`` of a file the test made.
    static func differences(_ file: SCCFile) throws -> [ShownText.Difference] {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        ExternalProcess.writeBytes(file.bytes, to: folder.file("made.scc"))
        return try differences(path: folder.file("made.scc"))
    }

    struct PeerFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { "ttconv: " + message }
    }
}
