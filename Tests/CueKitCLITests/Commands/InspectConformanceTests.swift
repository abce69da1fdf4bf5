import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

/// `cuekit inspect --json` over every WebVTT conformance input: the schema, and the values the
/// library reads.
@Suite(
    .enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests")
)
struct InspectConformanceTests {
    static var inputs: [String] {
        let root = TestPaths.conformance + "/webvtt"
        return TestPaths.files(in: root + "/file-parsing", suffixes: [".vtt"])
            + TestPaths.files(in: root + "/historical", suffixes: [".vtt"])
            + TestPaths.files(in: root + "/mozilla-vtt.js", suffixes: [".vtt"])
    }

    @Test(.tags(.slow), .skippableByTag) func printsTheSchemaForEveryConformanceInput() throws {
        let inputs = Self.inputs
        #expect(inputs.count >= 280)
        for path in inputs {
            try check(TestPaths.bytes(path), named: path)
        }
        var cueTextInputs = 0
        for path in TestPaths.files(in: TestPaths.conformance + "/webvtt/cue-text-parsing", suffixes: [".json"])
        where !path.hasSuffix("index.json") {
            let file = try JSONSerialization.jsonObject(with: Data(TestPaths.bytes(path))) as? [String: Any]
            for test in file?["tests"] as? [[String: Any]] ?? [] {
                guard let vtt = test["vtt"] as? String else { continue }
                try check(Array(vtt.utf8), named: "\(path) \(test["name"] ?? "")")
                cueTextInputs += 1
            }
        }
        #expect(cueTextInputs >= 78)
    }

    private func check(_ bytes: [UInt8], named name: String) throws {
        // WebVTT's own test inputs: read as WebVTT even where a missing signature makes one look like SubRip.
        let run = try CommandLineRun.cuekit(["inspect", "--json", "--from", "vtt", "-"], input: bytes)
        let expected: ReadResult
        do {
            expected = try WebVTTReader.read(bytes: bytes)
        } catch {
            #expect(run.status == 1, "\(name)")
            #expect(run.standardOutput.isEmpty, "\(name)")
            #expect(run.standardError.hasPrefix("<stdin>:1:"), "\(name): \(run.standardError)")
            return
        }
        #expect(run.status == 0, "\(name): \(run.standardError)")
        guard let object = try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any] else {
            Issue.record("\(name): not JSON: \(run.standardOutput.prefix(200))")
            return
        }
        #expect(Set(object.keys) == ["styles", "regions", "cues", "diagnostics"], "\(name)")
        let track = expected.track
        #expect((object["styles"] as? [String]) == track.stylesheets.map(\.text), "\(name)")
        let regions = object["regions"] as? [[String: Any]] ?? []
        #expect(regions.map { $0["id"] as? String } == track.regions.map(\.id), "\(name)")
        for region in regions { #expect(Set(region.keys) == InspectCommandTests.regionKeys, "\(name)") }
        let cues = object["cues"] as? [[String: Any]] ?? []
        #expect(cues.count == track.cues.count, "\(name)")
        for (json, cue) in zip(cues, track.cues) {
            #expect(Set(json.keys) == InspectCommandTests.cueKeys, "\(name)")
            #expect(json["id"] as? String == cue.id && json["text"] as? String == cue.text, "\(name)")
            #expect(
                sameNumber(json["startTime"], CueTimestamp.seconds(cue.start)) && sameNumber(json["endTime"], CueTimestamp.seconds(cue.end)),
                "\(name)")
            #expect(sameNumber(json["size"], cue.settings.size), "\(name)")
            switch cue.settings.line {
            case .auto: #expect(json["line"] as? String == "auto", "\(name)")
            case .number(let value), .percentage(let value): #expect(sameNumber(json["line"], value), "\(name)")
            }
            switch cue.settings.position {
            case .auto: #expect(json["position"] as? String == "auto", "\(name)")
            case .percentage(let value): #expect(sameNumber(json["position"], value), "\(name)")
            }
            #expect(((json["region"] as? [String: Any])?["id"] as? String) == track.region(for: cue)?.id, "\(name)")
            #expect(shape(json["nodes"]) == shape(cue.nodes()), "\(name)")
        }
        #expect((object["diagnostics"] as? [Any])?.count == expected.diagnostics.count, "\(name)")
    }

    private func sameNumber(_ json: Any?, _ value: Double) -> Bool {
        guard let number = json as? NSNumber, String(cString: number.objCType) != "c" else { return false }
        return number.doubleValue == value
    }

    /// The node types of a tree, depth first, for comparing JSON trees with cue trees.
    private func shape(_ json: Any?) -> [String] {
        (json as? [[String: Any]] ?? []).flatMap { node -> [String] in
            [node["type"] as? String ?? "?"] + shape(node["children"]) + ["/"]
        }
    }

    private func shape(_ nodes: [CueNode]) -> [String] {
        nodes.flatMap { node -> [String] in
            switch node {
            case .text: ["text", "/"]
            case .timestamp: ["timestamp", "/"]
            case .span(let span): [span.kind.tagName] + shape(span.children) + ["/"]
            }
        }
    }
}
