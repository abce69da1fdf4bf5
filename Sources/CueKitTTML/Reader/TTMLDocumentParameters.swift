import CueKit

/// The parameters a document's root element sets for everything below it: the `ttp:` timing and
/// layout parameters (TTML2 section 7.2) and the root container's `tts:extent`.
///
/// Read once, from the `tt` element's attributes. A value that cannot be read keeps the default and
/// is reported; an image profile stops reading, since CueKit converts text captions only.
struct TTMLDocumentParameters {
    var timing = TTMLTimingParameters()
    var layout = TTMLLayoutParameters()
    /// What was wrong with the values, in document order.
    var findings: [Diagnostic] = []

    /// Reads the root element's parameters.
    init(root attributes: TTMLElementAttributes, at location: SourceLocation, clockTimeOrigin: Int) throws(ReadError) {
        var clockMode: String?
        for (parameter, value) in attributes.parameters {
            let text = TTMLStyleValues.trimmed(Substring(value))
            switch parameter {
            case "timeBase":
                if let base = TTMLTimingParameters.TimeBase(rawValue: String(text)) {
                    timing.timeBase = base
                } else {
                    bad(parameter, value, "is not media, smpte or clock; media is used", location)
                }
            case "frameRate":
                if let rate = Self.positiveInteger(text) {
                    timing.frameRate = rate
                    timing.frameRateSpecified = true
                } else {
                    bad(parameter, value, "is not a positive integer; 30 is used", location)
                }
            case "frameRateMultiplier":
                let parts = TTMLStyleValues.components(text)
                if parts.count == 2, let numerator = Self.positiveInteger(parts[0]), let denominator = Self.positiveInteger(parts[1]) {
                    timing.frameRateMultiplier = (numerator, denominator)
                } else {
                    bad(parameter, value, "is not two positive integers separated by a space; 1 1 is used", location)
                }
            case "subFrameRate":
                if let rate = Self.positiveInteger(text) {
                    timing.subFrameRate = rate
                } else {
                    bad(parameter, value, "is not a positive integer; 1 is used", location)
                }
            case "tickRate":
                if let rate = Self.positiveInteger(text) {
                    timing.specifiedTickRate = rate
                } else {
                    bad(parameter, value, "is not a positive integer; the default tick rate is used", location)
                }
            case "dropMode":
                if let mode = TTMLTimingParameters.DropMode(rawValue: String(text)) {
                    timing.dropMode = mode
                } else {
                    bad(parameter, value, "is not nonDrop, dropNTSC or dropPAL; nonDrop is used", location)
                }
            case "markerMode":
                if let mode = TTMLTimingParameters.MarkerMode(rawValue: String(text)) {
                    timing.markerMode = mode
                } else {
                    bad(parameter, value, "is not continuous or discontinuous; continuous is used", location)
                }
            case "clockMode":
                clockMode = String(text)
            case "cellResolution":
                let parts = TTMLStyleValues.components(text)
                if parts.count == 2, let columns = Self.positiveInteger(parts[0]), let rows = Self.positiveInteger(parts[1]) {
                    layout.cellColumns = Double(columns)
                    layout.cellRows = Double(rows)
                } else {
                    bad(parameter, value, "is not two positive integers; 32 15 is used", location)
                }
            case "profile", "contentProfiles", "processorProfiles":
                let designators = TTMLStyleValues.components(text).map(String.init)
                if parameter != "processorProfiles", designators.contains(where: { TTML.imageProfiles.contains($0) }) {
                    throw ReadError(
                        .ttmlImageCaptions, at: location,
                        "the document declares an image profile (\(designators.joined(separator: " "))): image captions are not supported")
                }
            default:
                break
            }
        }
        if timing.timeBase == .smpte, timing.dropMode == .dropNTSC, timing.frameRate != 30 {
            findings.append(
                Diagnostic(.warning, .ttmlBadParameter, at: location, "dropNTSC time codes assume a frame rate of 30; this document says \(timing.frameRate)"))
        }
        if timing.timeBase == .clock {
            findings.append(
                Diagnostic(
                    .note, .ttmlTimeBase, at: location,
                    "times are in the clock time base (\(clockMode ?? "utc")): they are read as times of day, \(CueTimestamp.format(clockTimeOrigin)) being the start of the media"
                ))
        }
        if timing.timeBase == .smpte, timing.markerMode == .discontinuous {
            findings.append(
                Diagnostic(
                    .warning, .ttmlTimeBase, at: location,
                    "discontinuous SMPTE time codes are labels, not times; they are read as continuous time codes"))
        }
        if let extent = attributes.styles[.extent] {
            let parts = TTMLStyleValues.components(TTMLStyleValues.trimmed(Substring(extent)))
            if parts.count == 2, let width = TTMLStyleValues.length(parts[0]), let height = TTMLStyleValues.length(parts[1]),
                width.unit == .pixel, height.unit == .pixel, width.value > 0, height.value > 0
            {
                layout.rootExtent = (width.value, height.value)
            } else if extent != "auto" {
                findings.append(
                    Diagnostic(.error, .ttmlBadStyleValue, at: location, "tts:extent on tt must be two pixel lengths; '\(extent)' is ignored"))
            }
        }
    }

    private mutating func bad(_ name: String, _ value: String, _ reason: String, _ location: SourceLocation) {
        findings.append(Diagnostic(.error, .ttmlBadParameter, at: location, "ttp:\(name) value \(quoted(value)) \(reason)"))
    }

    /// A decimal integer from 1 to 999,999,999, as the parameters take (no sign, no white space).
    private static func positiveInteger(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int64(text), value > 0, value < 1_000_000_000 else {
            return nil
        }
        return value
    }
}
