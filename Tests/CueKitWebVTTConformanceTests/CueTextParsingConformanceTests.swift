import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

/// web-platform-tests' WebVTT cue text parsing suite (`webvtt/parsing/cue-text-parsing`): each
/// test's file is read whole, and the first cue's tree must be the expected DOM fragment.
@Suite
struct CueTextParsingConformanceTests {
    @Test func everyCueTextTestPasses() throws {
        let folder = Conformance.webvtt + "/cue-text-parsing"
        var total = 0, passed = 0
        var failures: [String] = []
        for path in TestPaths.files(in: folder, suffixes: [".json"]) where !path.hasSuffix("/index.json") {
            guard let file = try loadJSON(path) as? [String: Any], let tests = file["tests"] as? [[String: Any]] else {
                failures.append("\(path): not a test file")
                continue
            }
            for test in tests {
                total += 1
                let name =
                    "\(file["file"] ?? "?") \(test["name"] ?? "?") \((test["input"] as? String).map { "\($0.debugDescription)" } ?? "")"
                guard let vtt = test["vtt"] as? String, let expected = test["tree"] as? [[String: Any]] else {
                    failures.append("\(name): no input or tree")
                    continue
                }
                do {
                    let result = try WebVTTReader.read(vtt)
                    guard let cue = result.track.cues.first else {
                        failures.append("\(name): no cue read")
                        continue
                    }
                    let actual = cue.nodes().map(DOMNode.init)
                    let wanted = expected.map(DOMNode.init(json:))
                    if actual == wanted {
                        passed += 1
                    } else {
                        failures.append("\(name):\n    got      \(actual)\n    expected \(wanted)")
                    }
                } catch {
                    failures.append("\(name): \(error)")
                }
            }
        }
        ConformanceReport.note("WebVTT cue text parsing: \(passed)/\(total) tests passed")
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.joined(separator: "\n"))")
        #expect(total >= 78)
    }
}

/// A node of the DOM fragment `getCueAsHTML()` returns (W3C WebVTT, section 6.5).
indirect enum DOMNode: Equatable, CustomStringConvertible {
    case text(String)
    case timestamp(value: String, seconds: Double)
    case element(name: String, vttNode: String, attributes: [String: String], children: [DOMNode])

    /// The DOM construction rules applied to a cue node.
    init(_ node: CueNode) {
        switch node {
        case .text(let text):
            self = .text(text)
        case .timestamp(let milliseconds):
            self = .timestamp(value: CueTimestamp.format(milliseconds, hours: .always), seconds: CueTimestamp.seconds(milliseconds))
        case .span(let span):
            var attributes: [String: String] = [:]
            if !span.classes.isEmpty { attributes["class"] = span.classes.joined(separator: " ") }
            let name: String
            switch span.kind {
            case .class: name = "span"
            case .voice(let voice):
                name = "span"
                attributes["title"] = voice
            case .language(let language):
                name = "span"
                attributes["lang"] = language
            default: name = span.kind.tagName
            }
            self = .element(name: name, vttNode: span.kind.tagName, attributes: attributes, children: span.children.map(DOMNode.init))
        }
    }

    /// A node of the suite's JSON trees.
    init(json: [String: Any]) {
        switch json["type"] as? String {
        case "text":
            self = .text(json["data"] as? String ?? "")
        case "timestamp":
            self = .timestamp(value: json["value"] as? String ?? "", seconds: (json["seconds"] as? NSNumber)?.doubleValue ?? .nan)
        default:
            let children = (json["children"] as? [[String: Any]] ?? []).map(DOMNode.init(json:))
            self = .element(
                name: json["name"] as? String ?? "",
                vttNode: json["vttNode"] as? String ?? "",
                attributes: json["attributes"] as? [String: String] ?? [:],
                children: children
            )
        }
    }

    var description: String {
        switch self {
        case .text(let text): text.debugDescription
        case .timestamp(let value, _): "<?timestamp \(value)>"
        case .element(let name, let vttNode, let attributes, let children):
            "<\(name)[\(vttNode)]\(attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value.debugDescription)" }.joined())>\(children)"
        }
    }
}
