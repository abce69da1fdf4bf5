import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

/// web-platform-tests' WebVTT file parsing suite (`webvtt/parsing/file-parsing`): every assertion
/// of every test, evaluated against what ``WebVTTReader`` reads.
@Suite
struct FileParsingConformanceTests {
    struct Tally {
        var tests = 0, testsPassed = 0, testsWithoutInput = 0
        var assertions = 0, assertionsPassed = 0
        var failures: [String] = []
    }

    @Test func everyFileParsingTestPasses() throws {
        let folder = Conformance.webvtt + "/file-parsing"
        var tally = Tally()
        for path in TestPaths.files(in: folder, suffixes: [".json"]) where !path.hasSuffix("/index.json") {
            try run(path, folder: folder, tally: &tally)
        }
        ConformanceReport.note(
            "WebVTT file parsing: \(tally.testsPassed)/\(tally.tests) tests, \(tally.assertionsPassed)/\(tally.assertions) assertions passed"
                + " (\(tally.testsWithoutInput) tests have no retrievable input)"
        )
        #expect(tally.failures.isEmpty, "\(tally.failures.count) failures:\n\(tally.failures.joined(separator: "\n"))")
        #expect(tally.tests >= 49)
        #expect(tally.assertions >= 499)
    }

    private func run(_ path: String, folder: String, tally: inout Tally) throws {
        guard let test = try loadJSON(path) as? [String: Any], let name = test["name"] as? String else {
            tally.failures.append("\(path): not a test description")
            return
        }
        guard let input = test["input"] as? String else {
            tally.testsWithoutInput += 1
            return
        }
        tally.tests += 1
        let failuresBefore = tally.failures.count
        let bytes = try TestPaths.bytes(folder + "/" + input)
        let outcome = Result { try WebVTTReader.read(bytes: bytes) }
        let assertions = test["assertions"] as? [[String: Any]] ?? []

        if test["expectError"] as? Bool == true {
            for assertion in assertions {
                tally.assertions += 1
                if case .failure(let error as ReadError) = outcome, error.diagnostic.code == .vttNoSignature {
                    tally.assertionsPassed += 1
                } else {
                    tally.failures.append("\(name): \(assertion["target"] ?? "") must fail to load, but it read")
                }
            }
        } else {
            let result: ReadResult
            switch outcome {
            case .success(let read): result = read
            case .failure(let error):
                tally.assertions += assertions.count + (test["cueCount"] is Int ? 1 : 0)
                tally.failures.append("\(name): failed to read: \(error)")
                return
            }
            let view = BrowserView(track: result.track)
            if let cueCount = test["cueCount"] as? Int {
                tally.assertions += 1
                if result.track.cues.count == cueCount {
                    tally.assertionsPassed += 1
                } else {
                    tally.failures.append("\(name): cues.length is \(result.track.cues.count), expected \(cueCount)")
                }
            }
            for assertion in assertions {
                tally.assertions += 1
                if let problem = evaluate(assertion, in: view) {
                    tally.failures.append("\(name): \(problem)")
                } else {
                    tally.assertionsPassed += 1
                }
            }
            checkRegionConstraints(test, view: view, name: name, tally: &tally)
        }
        if tally.failures.count == failuresBefore { tally.testsPassed += 1 }
    }

    /// Nil when the assertion holds; otherwise what went wrong.
    private func evaluate(_ assertion: [String: Any], in view: BrowserView) -> String? {
        let target = assertion["target"] as? String ?? ""
        let operation = assertion["op"] as? String ?? ""
        // A STYLE block must not add a style sheet to the page; CueKit has no page to add one to.
        if target == "document.styleSheets.length" { return nil }
        guard let actual = view.value(at: target) else { return "\(target) does not exist" }
        switch operation {
        case "equals":
            return view.sameValue(actual, assertion["expected"])
                ? nil : "\(target) is \(actual), expected \(assertion["expected"] ?? "null")"
        case "notEquals":
            return view.sameValue(actual, assertion["expected"]) ? "\(target) is \(actual), expected something else" : nil
        case "truthy":
            if case .null = actual { return "\(target) is null, expected an object" }
            return nil
        default:
            return "\(target): unknown operation \(operation)"
        }
    }

    private func checkRegionConstraints(_ test: [String: Any], view: BrowserView, name: String, tally: inout Tally) {
        guard let constraints = test["regionConstraints"] as? [String: Any] else { return }
        func regionID(_ cue: Int) -> String? {
            if case .region(let region)? = view.value(at: "cues[\(cue)].region") { return region.id }
            return nil
        }
        for group in constraints["sameObject"] as? [[Int]] ?? [] {
            let ids = group.map(regionID)
            if ids.contains(where: { $0 == nil }) || Set(ids.compactMap { $0 }).count != 1 {
                tally.failures.append("\(name): cues \(group) must share one region, have \(ids)")
            }
        }
        for pair in constraints["differentObject"] as? [[Int]] ?? [] where pair.count == 2 {
            if regionID(pair[0]) == regionID(pair[1]) {
                tally.failures.append("\(name): cues \(pair) must have different regions")
            }
        }
    }
}
