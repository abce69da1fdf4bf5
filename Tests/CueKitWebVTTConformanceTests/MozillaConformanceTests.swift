import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

/// mozilla/vtt.js's own parser tests, whose expectations follow an older WebVTT model: cue
/// identifiers, times and text are compared where that model agrees with today's spec; settings
/// and regions are not (see the suite's README).
@Suite
struct MozillaConformanceTests {
    /// Cases where vtt.js's expectation is not what today's algorithm gives, and why.
    static let legacyDifferences: [String: String] = [
        "tests/cue-times/min-top-digits.vtt":
            "`000:00.000` has three digits before its first colon, so they are hours and a seconds part is missing (wpt timings-too-long)",
        "tests/cue-times/minimum-spots-over-sixty.vtt":
            "`120:00.000` has three digits before its first colon, so they are hours and a seconds part is missing (wpt timings-too-long)",
        "tests/file-layout/header-no-new-line.vtt":
            "a timing line right after the WEBVTT line ends the header and is read as a cue (wpt header-timings)",
        "tests/integration/id.vtt":
            "a block `-->` followed by a timing line: the second line is read again as a new cue (wpt arrows)",
    ]

    @Test func identifiersTimesAndTextAgree() throws {
        let folder = Conformance.webvtt + "/mozilla-vtt.js"
        guard let manifest = try loadJSON(folder + "/manifest.json") as? [[String: Any]] else {
            Issue.record("mozilla-vtt.js/manifest.json is not a list")
            return
        }
        var compared = 0, agreed = 0, legacy = 0
        var failures: [String] = []
        for entry in manifest {
            guard let input = entry["input"] as? String, let expectedPath = entry["expected"] as? String else { continue }
            compared += 1
            let expected = try loadJSON(folder + "/" + expectedPath) as? [String: Any] ?? [:]
            let expectedCues = expected["cues"] as? [[String: Any]] ?? []
            let actualCues: [Cue]
            do {
                actualCues = try WebVTTReader.read(bytes: TestPaths.bytes(folder + "/" + input)).track.cues
            } catch {
                actualCues = []
            }
            let problem = difference(actualCues, expectedCues)
            if let reason = Self.legacyDifferences[input] {
                if problem == nil {
                    failures.append("\(input): listed as a legacy difference (\(reason)) but agrees now")
                } else {
                    legacy += 1
                }
            } else if let problem {
                failures.append("\(input): \(problem)")
            } else {
                agreed += 1
            }
        }
        ConformanceReport.note("mozilla/vtt.js: \(agreed)/\(compared) cases agree on identifiers, times and text (\(legacy) legacy differences)")
        #expect(failures.isEmpty, "\(failures.count) differences:\n\(failures.joined(separator: "\n"))")
        #expect(compared >= 239)
    }

    private func difference(_ actual: [Cue], _ expected: [[String: Any]]) -> String? {
        guard actual.count == expected.count else { return "\(actual.count) cues, vtt.js expects \(expected.count)" }
        for (index, (cue, wanted)) in zip(actual, expected).enumerated() {
            if let id = wanted["id"] as? String, id != cue.id {
                return "cue \(index) id \(cue.id.debugDescription), vtt.js expects \(id.debugDescription)"
            }
            if let text = wanted["text"] as? String, text != cue.text {
                return "cue \(index) text \(cue.text.debugDescription), vtt.js expects \(text.debugDescription)"
            }
            for (key, time) in [("startTime", cue.start), ("endTime", cue.end)] {
                if let seconds = BrowserView.number(wanted[key]), seconds != CueTimestamp.seconds(time) {
                    return "cue \(index) \(key) \(CueTimestamp.seconds(time)), vtt.js expects \(seconds)"
                }
            }
        }
        return nil
    }
}
