import CueKit

extension DiagnosticCode {
    /// Something the track holds that the TTML profile cannot carry: left out, with a count.
    public static let ttmlWriteNotCarried: DiagnosticCode = "ttml-write-not-carried"
    /// Something written differently so that the document is valid: with a count.
    public static let ttmlWriteAdjusted: DiagnosticCode = "ttml-write-adjusted"
    /// Past a limit of the document (styles, regions, agents in the head; a paragraph's depth or
    /// size), what did not fit was flattened or left out, so that the document reads back: with a count.
    public static let ttmlWriteLimit: DiagnosticCode = "ttml-write-limit"
}

/// What ``TTMLWriter`` could not write as it was, counted by kind (and by CSS declaration or
/// selector), so that each is reported once with how often it happened and where first.
struct TTMLWriterLosses {
    enum Kind: Int, Comparable {
        case framesInEBUTTD, regionScroll, selectors, cssProperties, identifiers, identifiersPastTheLimit, voices, ruby, timestampsOutside, invalidCharacters, regionsShownAtOnce
        /// A style, region or agent past the head's limit (the detail says which).
        case headFull
        /// A span or line break past a paragraph's depth or size limit (the detail: line breaks).
        case flattened
        static func < (left: Kind, right: Kind) -> Bool { left.rawValue < right.rawValue }
    }

    private struct Key: Hashable, Comparable {
        var kind: Kind
        var detail: String
        static func < (left: Key, right: Key) -> Bool { (left.kind, left.detail) < (right.kind, right.detail) }
    }

    private var counts: [Key: (count: Int, firstCue: Int)] = [:]
    /// Distinct details per kind are capped, so that hostile style sheets cannot grow this.
    private static let maximumDetailsPerKind = 50
    private var detailsPerKind: [Kind: Int] = [:]

    /// Counts one loss in cue `cue` (0 before the first cue).
    mutating func add(_ kind: Kind, cue: Int, detail: String = "") {
        var key = Key(kind: kind, detail: detail)
        // One look-up for a loss met before (the common case), counted in place.
        if let index = counts.index(forKey: key) {
            counts.values[index].count += 1
            return
        }
        if detailsPerKind[kind, default: 0] >= Self.maximumDetailsPerKind { key.detail = "others" }
        detailsPerKind[kind, default: 0] += 1
        if let index = counts.index(forKey: key) {
            counts.values[index].count += 1
        } else {
            counts[key] = (1, cue)
        }
    }

    func diagnostics(profile: TTMLProfile) -> [Diagnostic] {
        counts.keys.sorted().map { key in
            let (count, firstCue) = counts[key]!
            let times = count == 1 ? "once" : "\(count) times"
            let first = firstCue > 0 ? ", first in cue \(firstCue)" : ""
            let profileName = profile.displayName
            switch key.kind {
            case .framesInEBUTTD:
                return Diagnostic(.warning, .ttmlWriteAdjusted, at: nil, "\(profileName) has no frame-based times: times are written as hh:mm:ss.fff")
            case .regionScroll:
                return Diagnostic(
                    .warning, .ttmlWriteNotCarried, at: nil, "a region's scroll:up has no TTML counterpart: the region is written without it (\(times))")
            case .selectors:
                return Diagnostic(
                    .warning, .ttmlWriteNotCarried, at: nil,
                    "style rule \(key.detail) is not a ::cue or ::cue(.class) rule: TTML styles cannot select it; left out (\(times))")
            case .cssProperties:
                return Diagnostic(
                    .warning, .ttmlWriteNotCarried, at: nil, "'\(key.detail)' has no \(profileName) style attribute: left out (\(times)\(first))")
            case .identifiers:
                return Diagnostic(
                    .note, .ttmlWriteNotCarried, at: nil,
                    (count == 1 ? "a cue identifier is not an XML name, or repeats another" : "\(count) cue identifiers are not XML names, or repeat others")
                        + ": not written as xml:id\(first)")
            case .identifiersPastTheLimit:
                return Diagnostic(
                    .note, .ttmlWriteNotCarried, at: nil,
                    "past \(TTMLWriter<MemorySink>.maximumIdentifiers) identifiers written as xml:id, \(count) more are not, so that none can repeat\(first)")
            case .voices:
                return Diagnostic(
                    .warning, .ttmlWriteNotCarried, at: nil, "\(profileName) has no ttm:agent: voice names are left out, their text kept (\(times)\(first))")
            case .ruby:
                return Diagnostic(
                    .warning, .ttmlWriteAdjusted, at: nil, "\(profileName) has no ruby: written as base(annotation) (\(times)\(first))")
            case .timestampsOutside:
                return Diagnostic(
                    .note, .ttmlWriteAdjusted, at: nil, "inner timestamps at or after their cue's end time: the text after them is shown with the cue (\(times)\(first))")
            case .regionsShownAtOnce:
                return Diagnostic(
                    .warning, .ttmlWriteNotCarried, at: nil,
                    "\(profileName) shows at most \(TTMLShownRegions.limit) regions at once: cues that start while \(TTMLShownRegions.limit) other regions are shown, "
                        + "none with room for them, are written in their own region all the same (\(times)\(first))")
            case .headFull:
                let limits = TTMLDocumentBuilder.self
                let (limit, why, outcome) =
                    switch key.detail {
                    case "regions": (limits.maximumRegions, "the most CueKit's TTML reader reads", "cues placed elsewhere are in the default region")
                    case "agents": (limits.maximumAgents, "the most the writer holds", "the other voices' names are left out, their text kept")
                    default: (limits.maximumStyles, "the most CueKit's TTML reader reads", "the text they would style is written without them")
                    }
                return Diagnostic(
                    .warning, .ttmlWriteLimit, at: nil, "past \(limit) \(key.detail), \(why), no more are written: \(outcome) (\(times)\(first))")
            case .flattened:
                let limits = TTMLDocumentBuilder.self
                let what = key.detail == "line breaks" ? "line breaks past it are written as spaces" : "spans past it are written as their text alone"
                return Diagnostic(
                    .warning, .ttmlWriteLimit, at: nil,
                    "a paragraph nests spans deeper than \(limits.maximumSpanDepth) or holds more than \(limits.maximumNodesPerParagraph) elements and pieces of text, past what CueKit's TTML reader reads: \(what) (\(times)\(first))")
            case .invalidCharacters:
                return Diagnostic(
                    .warning, .ttmlWriteAdjusted, at: nil, "control characters XML 1.0 cannot hold are written as U+FFFD (\(times)\(first))")
            }
        }
    }
}
