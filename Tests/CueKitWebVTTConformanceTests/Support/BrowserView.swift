import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Foundation

/// A read track as a page's script sees it: `VTTCue` and `VTTRegion` properties with the values a
/// browser exposes, so that web-platform-tests' assertions can be evaluated against it.
enum BrowserValue: CustomStringConvertible {
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
    /// A `VTTRegion` object; objects are the same when their identifiers are (a cue finds "the
    /// last region with that identifier", and the reader keeps one region per identifier).
    case region(CueRegion)

    var description: String {
        switch self {
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .bool(let value): "\(value)"
        case .null: "null"
        case .region(let region): "VTTRegion(\(region.id))"
        }
    }
}

struct BrowserView {
    let track: Track

    /// `cues[i].name` or `cues[i].region.name`.
    func value(at target: String) -> BrowserValue? {
        guard target.hasPrefix("cues["), let close = target.firstIndex(of: "]") else { return nil }
        guard let index = Int(target[target.index(target.startIndex, offsetBy: 5)..<close]), track.cues.indices.contains(index) else {
            return nil
        }
        let cue = track.cues[index]
        let path = target[target.index(after: close)...].split(separator: ".").map(String.init)
        guard let first = path.first else { return nil }
        let value = cueProperty(first, of: cue)
        guard path.count > 1 else { return value }
        guard case .region(let region)? = value, path.count == 2 else { return nil }
        return Self.regionProperty(path[1], of: region)
    }

    func cueProperty(_ name: String, of cue: Cue) -> BrowserValue? {
        let settings = cue.settings
        switch name {
        case "id": return .string(cue.id)
        case "startTime": return .number(CueTimestamp.seconds(cue.start))
        case "endTime": return .number(CueTimestamp.seconds(cue.end))
        case "text": return .string(cue.text)
        case "vertical": return .string(settings.vertical.rawValue)
        case "snapToLines": return .bool(settings.line.snapsToLines)
        case "line":
            switch settings.line {
            case .auto: return .string("auto")
            case .number(let value), .percentage(let value): return .number(value)
            }
        case "lineAlign": return .string(settings.lineAlignment.rawValue)
        case "position":
            switch settings.position {
            case .auto: return .string("auto")
            case .percentage(let value): return .number(value)
            }
        case "positionAlign": return .string(settings.positionAlignment.rawValue)
        case "size": return .number(settings.size)
        case "align": return .string(settings.alignment.rawValue)
        case "region":
            if let region = track.region(for: cue) { return .region(region) }
            return .null
        default: return nil
        }
    }

    static func regionProperty(_ name: String, of region: CueRegion) -> BrowserValue? {
        switch name {
        case "id": .string(region.id)
        case "width": .number(region.width)
        case "lines": .number(Double(region.lines))
        case "regionAnchorX": .number(region.regionAnchor.x)
        case "regionAnchorY": .number(region.regionAnchor.y)
        case "viewportAnchorX": .number(region.viewportAnchor.x)
        case "viewportAnchorY": .number(region.viewportAnchor.y)
        case "scroll": .string(region.scroll.rawValue)
        default: nil
        }
    }

    /// JavaScript's SameValue between an actual value and an expectation read from JSON (numbers
    /// as doubles, so `+0` and `-0` differ).
    func sameValue(_ actual: BrowserValue, _ expected: Any?) -> Bool {
        switch actual {
        case .null:
            return expected == nil || expected is NSNull
        case .string(let value):
            return (expected as? String) == value
        case .bool(let value):
            guard let number = expected as? NSNumber, Self.isBoolean(number) else { return false }
            return number.boolValue == value
        case .number(let value):
            guard let expectedValue = Self.number(expected) else { return false }
            if value.isNaN { return expectedValue.isNaN }
            return value == expectedValue && value.sign == expectedValue.sign
        case .region(let region):
            guard let reference = (expected as? [String: Any])?["$ref"] as? String,
                case .region(let other)? = value(at: reference)
            else { return false }
            return region.id == other.id
        }
    }

    /// True for JSON's `true` and `false` (Foundation gives them as NSNumbers of type `c`).
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// A number from JSON, or from the `{"$number": "-0"}` form the conformance data uses for
    /// values JSON cannot write.
    static func number(_ value: Any?) -> Double? {
        if let special = (value as? [String: Any])?["$number"] as? String {
            switch special {
            case "-0": return -0.0
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default: return Double(special)
            }
        }
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        return number.doubleValue
    }
}

/// Reads a JSON file with Foundation.
func loadJSON(_ path: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(TestPaths.bytes(path)))
}

/// The WebVTT conformance suites vendored in `Fixtures/conformance/webvtt`.
enum Conformance {
    static var webvtt: String { TestPaths.conformance + "/webvtt" }
}
