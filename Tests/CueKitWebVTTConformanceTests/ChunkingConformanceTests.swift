import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

/// Every conformance input, fed whole, one byte at a time and in random chunks, must give the same
/// events (or the same error).
@Suite
struct ChunkingConformanceTests {
    @Test func everyFileParsingInputReadsTheSameHoweverChunked() throws {
        let inputs =
            TestPaths.files(in: Conformance.webvtt + "/file-parsing", suffixes: [".vtt"])
            + TestPaths.files(in: Conformance.webvtt + "/historical", suffixes: [".vtt"])
        #expect(inputs.count >= 49)
        for path in inputs {
            try verify(TestPaths.bytes(path), named: path)
        }
    }

    @Test func everyCueTextInputReadsTheSameHoweverChunked() throws {
        var count = 0
        for path in TestPaths.files(in: Conformance.webvtt + "/cue-text-parsing", suffixes: [".json"]) where !path.hasSuffix("/index.json")
        {
            let tests = (try loadJSON(path) as? [String: Any])?["tests"] as? [[String: Any]] ?? []
            for test in tests {
                guard let vtt = test["vtt"] as? String else { continue }
                try verify(Array(vtt.utf8), named: "\(path) \(test["name"] ?? "")")
                count += 1
            }
        }
        #expect(count >= 78)
    }

    @Test func everyMozillaInputReadsTheSameHoweverChunked() throws {
        let inputs = TestPaths.files(in: Conformance.webvtt + "/mozilla-vtt.js", suffixes: [".vtt"])
        #expect(inputs.count >= 200)
        for path in inputs {
            try verify(TestPaths.bytes(path), named: path)
        }
    }

    private func verify(_ bytes: [UInt8], named name: String) throws {
        do {
            let outcome = try ChunkingVerifier.verify(bytes) { WebVTTReader() }
            // Every cue's tree can be built, and builds the same from its markup.
            if case .success(let events) = outcome {
                for case .cue(let cue) in events {
                    let nodes = cue.nodes()
                    var issues: [CueText.MarkupIssue] = []
                    let markup = CueText.markup(for: nodes, issues: &issues)
                    #expect(!issues.isEmpty || CueText.nodes(from: markup).plainText == nodes.plainText, "\(name)")
                }
            }
        } catch {
            Issue.record("\(name): \(error)")
        }
    }
}
