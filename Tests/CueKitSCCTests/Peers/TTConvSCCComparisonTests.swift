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
    static let deliberateDifferences: [String: String] = [:]

    @Test("CueKit shows ttconv's text at every instant", arguments: corpus)
    func corpusShowsTTConvText(_ name: String) throws {
        let differences = try TTConvSCC.differences(path: TestPaths.conformance + "/scc/" + name)
        if let test = Self.deliberateDifferences[name] {
            #expect(!differences.isEmpty, "\(name) now matches ttconv: remove it from the deliberate differences (see \(test))")
        } else {
            #expect(differences.isEmpty, "\(name):\n\(differences.prefix(8).map { "  \($0)" }.joined(separator: "\n"))")
        }
    }
}
