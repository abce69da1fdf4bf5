import CueKit
import CueKitTTML
import CueKitTestSupport
import CueKitWebVTT

/// The TTML conformance corpus vendored in `Fixtures/conformance/ttml`, and ttconv 1.2.3's output
/// for it.
enum TTMLCorpus {
    static let root = TestPaths.conformance + "/ttml"

    /// Every document of the corpus, as paths relative to ``root``.
    static var documents: [String] {
        TestPaths.files(in: root, suffixes: [".ttml", ".xml", ".dfxp"])
            .map { String($0.dropFirst(root.count + 1)) }
            .filter { !$0.hasPrefix("ttconv-out/") && !$0.hasPrefix("licenses/") }
    }

    /// One line of `results.tsv`: how ttconv fared with a document.
    struct Result {
        var document: String
        var vttExitCode: Int
        var error: String
    }

    /// ttconv's results, by document.
    static var results: [String: Result] {
        guard let bytes = try? TestPaths.bytes(root + "/ttconv-out/results.tsv") else { return [:] }
        var table: [String: Result] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 8 else { continue }
            table[fields[0]] = Result(document: fields[0], vttExitCode: Int(fields[1]) ?? -1, error: fields[7])
        }
        return table
    }

    /// The documents ttconv converts to WebVTT.
    static var convertedByTTConv: [String] {
        results.values.filter { $0.vttExitCode == 0 }.map(\.document).sorted()
    }

    static func path(_ document: String) -> String { root + "/" + document }

    /// ttconv's WebVTT for a document, read with CueKit's WebVTT reader.
    static func ttconvCues(_ document: String) throws -> [Cue] {
        try WebVTTReader.read(fileAtPath: root + "/ttconv-out/" + document + ".vtt").track.cues
    }

    /// CueKit's reading of a document.
    static func read(_ document: String) throws -> ReadResult {
        try TTMLReader.read(fileAtPath: path(document))
    }

    /// Where CueKit's text differs from ttconv's for a document.
    static func differences(_ document: String) throws -> [ShownText.Difference] {
        let expected = ShownText.shown(try ttconvCues(document))
        let actual = ShownText.shown(try read(document).track.cues)
        let unbounded = TTMLReader.Options().unboundedEnd
        let horizon = max(
            expected.map(\.end).max() ?? 0,
            actual.map(\.end).filter { $0 != unbounded }.max() ?? 0)
        return ShownText.differences(expected: expected, actual: actual, horizon: horizon)
    }
}
