import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// The streaming contract: every fixture reads the same whole, byte by byte and in random chunks.
@Suite struct WebVTTChunkingTests {
    static let fixtures = TestPaths.projectFixtures(suffixes: [".vtt"])

    @Test func thereAreFixtures() {
        #expect(Self.fixtures.count >= 18)
    }

    @Test(arguments: fixtures)
    func fixtureReadsTheSameHoweverChunked(_ path: String) throws {
        let bytes = try TestPaths.bytes(path)
        let outcome = try ChunkingVerifier.verify(bytes, randomRuns: 8) { WebVTTReader() }
        if case .success(let events) = outcome {
            #expect(events.first.map { if case .header = $0 { true } else { false } } == true, "the header comes first")
        }
        // Every chunk size a file reader might use gives the same result too.
        var reference = WebVTTReader()
        let expected = Result { try reference.read(bytes) }
        for chunkSize in [1, 2, 3, 5, 64, 4096] {
            var reader = WebVTTReader()
            let actual = Result { try reader.read(fileAtPath: path, chunkSize: chunkSize) }
            switch (expected, actual) {
            case (.success(let a), .success(let b)): #expect(a == b, "chunk size \(chunkSize)")
            case (.failure(let a as ReadError), .failure(let b as ReadError)):
                #expect(a.diagnostic == b.diagnostic, "chunk size \(chunkSize)")
            default: Issue.record("chunk size \(chunkSize): \(expected) vs \(actual)")
            }
        }
    }
}
