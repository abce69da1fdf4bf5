import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// No input may crash the reader: thousands of seeded random inputs and mutated fixtures per run,
/// each read whole and chunked, every cue's tree built and written back.
@Suite struct WebVTTRobustnessTests {
    /// Pieces random inputs are made of: WebVTT's own syntax, so that they reach deep into the
    /// parser, and arbitrary bytes.
    static let pieces: [[UInt8]] = [
        "WEBVTT", "WEBVTT ", "\n", "\n\n", "\r", "\r\n", " ", "\t", "\u{0C}", "-->", " --> ", "-", ">", "<", "</", "&", ";", ".", ":",
        "00:00:01.000", "00:01.500", "99:59:59.999", "1:00:00.000", "00:00:60.000", "000000000000000000000:00:00.000",
        "NOTE", "STYLE", "REGION", "id:", "width:", "lines:", "regionanchor:", "viewportanchor:", "scroll:up", "10%", "50%,50%",
        "region:", "vertical:rl", "line:", "-1", "1.5", "position:", ",line-left", "size:", "align:", "start", "end",
        "<c.a.b>", "<i>", "</i>", "<b>", "</b>", "<u>", "<ruby>", "<rt>", "</rt>", "</ruby>", "<v Bob>", "</v>", "<lang en>",
        "<00:00:00.500>", "&amp;", "&lt", "&#x1F600;", "&#0;", "&notit;", "&foo;", "\u{0}", "é", "字", "😀", "\u{FEFF}",
    ].map { Array($0.utf8) }

    static func randomInput(_ random: inout SeededRandom) -> [UInt8] {
        var bytes: [UInt8] = Int.random(in: 0..<10, using: &random) == 0 ? [] : Array("WEBVTT\n\n".utf8)
        for _ in 0..<Int.random(in: 0..<120, using: &random) {
            if Int.random(in: 0..<8, using: &random) == 0 {
                bytes.append(UInt8.random(in: 0...255, using: &random))
            } else {
                bytes += pieces[Int.random(in: 0..<pieces.count, using: &random)]
            }
        }
        return bytes
    }

    static func mutate(_ input: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 1:
                bytes.insert(contentsOf: pieces[Int.random(in: 0..<pieces.count, using: &random)], at: position)
            case 2 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...32, using: &random))
                bytes.removeSubrange(position..<end)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...64, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &random))
            default:
                bytes.insert(contentsOf: Array("\n".utf8), at: position)
            }
        }
        return bytes
    }

    /// Reads an input every way and uses everything read; records what went wrong.
    static func exercise(_ bytes: [UInt8], randomRuns: Int, seed: UInt64) {
        do {
            let outcome = try ChunkingVerifier.verify(bytes, randomRuns: randomRuns, seed: seed) { WebVTTReader() }
            guard case .success(let events) = outcome else { return }
            var lines = 1
            for byte in bytes where byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { lines += 1 }
            for event in events {
                switch event {
                case .cue(let cue):
                    let nodes = cue.nodes()
                    var diagnostics: [Diagnostic] = []
                    let checked = CueText.nodes(from: cue.text, context: CueText.Context(), diagnostics: &diagnostics)
                    #expect(checked == nodes)
                    // Written back, the tree reads the same, unless the writer says what it changed.
                    var issues: [CueText.MarkupIssue] = []
                    let markup = CueText.markup(for: nodes, issues: &issues)
                    #expect(!issues.isEmpty || CueText.nodes(from: markup).plainText == nodes.plainText)
                case .diagnostic(let diagnostic):
                    if let location = diagnostic.location {
                        #expect(location.line >= 1 && location.line <= lines && location.column >= 1, "\(diagnostic)")
                    }
                default:
                    break
                }
            }
        } catch {
            Issue.record("seed \(seed): \(error)")
        }
    }

    @Test func randomInputsNeverTrap() {
        var random = SeededRandom(seed: 0xC0FFEE)
        for run in 0..<3_000 {
            Self.exercise(Self.randomInput(&random), randomRuns: 1, seed: UInt64(run))
        }
    }

    @Test func mutatedFixturesNeverTrap() throws {
        let inputs = try TestPaths.projectFixtures(suffixes: [".vtt"]).map(TestPaths.bytes)
        var random = SeededRandom(seed: 0xBADF00D)
        for run in 0..<3_000 {
            let input = inputs[run % inputs.count]
            Self.exercise(Self.mutate(input, &random), randomRuns: 1, seed: UInt64(run))
        }
    }

    @Test(.tags(.slow), .skippableByTag) func tagsNestedAMillionDeepDoNotOverflowTheStack() throws {
        let depth = 1_000_000
        var text = "WEBVTT\n\n00:00.000 --> 00:01.000\n"
        text += String(repeating: "<b>", count: depth) + "deep" + String(repeating: "</b>", count: depth)
        let result = try WebVTTReader.read(text)
        let expectedCodes: [DiagnosticCode] =
            [.vttNestingTooDeep] + Array(repeating: .vttUnmatchedEndTag, count: CueText.maximumDiagnosticsPerCue - 1) + [.vttMoreProblems]
        #expect(result.diagnostics.map(\.code) == expectedCodes)
        let cue = try #require(result.track.cues.first)
        let nodes = cue.nodes()
        var depthBuilt = 0
        var level = nodes
        while case .span(let span)? = level.first {
            depthBuilt += 1
            level = span.children
        }
        #expect(depthBuilt == CueText.maximumNestingDepth)
        #expect(nodes.plainText == "deep")
        // Comparing, hashing and freeing the tree recurse only as deep as it is.
        #expect(nodes == cue.nodes())
        #expect(Set([nodes, cue.nodes()]).count == 1)
    }
}
