import CueKit
import CueKitTTML
import CueKitTestSupport
import Testing

/// Every document of the corpus, ttconv's failures included: read, or refused with a clear error,
/// and the same however the bytes are cut.
@Suite
struct CorpusReadingTests {
    /// The documents CueKit refuses, and why.
    static let refused: [String: DiagnosticCode] = TTConvComparisonTests.refusedOnPurpose.merging([
        "malformed/empty-file.ttml": .ttmlEmpty,
        "malformed/external-entity-doctype.ttml": .ttmlDocumentType,
        "malformed/invalid-utf8-bytes.ttml": .ttmlNotWellFormed,
        "malformed/no-namespace.ttml": .ttmlNotTTML,
        "malformed/not-well-formed-unclosed-span.ttml": .ttmlNotWellFormed,
        "malformed/truncated.ttml": .ttmlNotWellFormed,
        "malformed/undefined-entity.ttml": .ttmlNotWellFormed,
        "malformed/wrong-root-element.ttml": .ttmlNotTTML,
    ]) { first, _ in first }

    @Test func corpusHasAllItsDocuments() {
        #expect(TTMLCorpus.documents.count == 153)
    }

    @Test("every document is read, or refused with its error", arguments: TTMLCorpus.documents)
    func readsOrRefuses(_ document: String) throws {
        if let code = Self.refused[document] {
            do {
                _ = try TTMLCorpus.read(document)
                Issue.record("\(document) was read; expected \(code)")
            } catch let error as ReadError {
                #expect(error.diagnostic.code == code, "\(error)")
                #expect(error.path == TTMLCorpus.path(document))
            }
        } else {
            let result = try TTMLCorpus.read(document)
            #expect(result.track.cues.allSatisfy { $0.start < $0.end })
        }
    }

    /// The documents ttconv cannot convert that CueKit reads: DFXP's 2006 namespaces, the clock
    /// time base, a namespace declaration libxml2 accepts with an error, invalid parameters and
    /// style values.
    @Test func readsWhatTTConvCannot() throws {
        let dfxp = try TTMLCorpus.read("synthetic/legacy-dfxp-ttaf1-2006-10.xml")
        #expect(dfxp.track.cues.map(\.start) == [1000, 4000, 7100])
        #expect(dfxp.track.cues[1].text.contains("<i>Not today, it doesn't.</i>"))
        #expect(dfxp.diagnostics.contains { $0.code == .ttmlLegacyNamespace })
        let april = try TTMLCorpus.read("w3c-ttml1/old/dfxp/samples/1.2-Body.xml")
        #expect(april.track.cues.count == 11)
        let clock = try TTMLCorpus.read("w3c-ttml1/Parameters/ClockMode001.xml")
        #expect(clock.track.cues.map(\.start) == [13 * 3_600_000])
        let live = try TTMLCorpus.read("ebu-tt-live-toolkit/ebu-tt-live-document.xml")
        #expect(live.track.cues.map(\.start) == [1000])
        #expect(live.track.cues.map(\.end) == [3920])
        let regions = try TTMLCorpus.read("androidx-media/multiple_regions.xml")
        #expect(regions.track.cues.count == 7)
        #expect(regions.diagnostics.contains { $0.code == .ttmlXMLProblem && $0.severity == .error })
        let parameters = try TTMLCorpus.read("malformed/unknown-parameters.ttml")
        #expect(parameters.track.cues.count == 2)
        #expect(parameters.diagnostics.filter { $0.code == .ttmlBadParameter }.count == 5)
    }

    /// Whole, byte by byte and in random chunks, the events (or the error) are the same, in one
    /// pass and in two; and the one pass that holds its events until the end gives exactly the
    /// events of the two.
    @Test("chunking does not change the events", arguments: TTMLCorpus.documents)
    func chunkingIndependent(_ document: String) throws {
        let bytes = try TestPaths.bytes(TTMLCorpus.path(document))
        try ChunkingVerifier.verify(bytes, randomRuns: 3) { TTMLReader() }
        let inlineStyles = TTMLReader.prescan(bytes: bytes)
        let twoPasses = try ChunkingVerifier.verify(bytes, randomRuns: 1) { TTMLReader(prescan: inlineStyles) }
        let held = try ChunkingVerifier.verify(bytes, randomRuns: 1) { TTMLReader(holdingEventsUntilEnd: true) }
        #expect(held == twoPasses)
    }
}
