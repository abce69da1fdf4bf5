/// A TTML profile: what a document declares it conforms to, and so what it may contain.
/// ``TTMLWriter`` writes one; ``TTMLProfileCheck`` checks a document against one.
public enum TTMLProfile: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// IMSC 1.1 Text Profile (W3C), which streaming platforms ask for: `ttp:contentProfiles`,
    /// styles including `tts:textShadow` and `tts:ruby`.
    case imsc11 = "imsc1.1"
    /// EBU-TT-D (EBU Tech 3380), which European broadcasters ask for: its metadata and
    /// namespaces, one `div`, times as `hh:mm:ss.fff`, every paragraph in a region, styles by
    /// reference only, and no ruby, shadows or agents.
    case ebuTTD = "ebu-tt-d"
    /// Plain TTML1 (DFXP), for old players: no TTML2 features (no ruby, no shadows).
    case ttml1 = "ttml1"

    public var description: String { rawValue }

    /// The name as people write it.
    public var displayName: String {
        switch self {
        case .imsc11: "IMSC 1.1 Text"
        case .ebuTTD: "EBU-TT-D"
        case .ttml1: "TTML1"
        }
    }

    /// True when the profile has `tts:ruby` (TTML2).
    var hasRuby: Bool { self == .imsc11 }
    /// True when the profile has `tts:textShadow` (TTML2).
    var hasTextShadow: Bool { self == .imsc11 }
    /// True when the profile has `tts:textOutline` (TTML1 and IMSC; EBU-TT-D has none).
    var hasTextOutline: Bool { self != .ebuTTD }
    /// True when the profile has `ttm:agent`.
    var hasAgents: Bool { self != .ebuTTD }
    /// True when the profile shows at most four regions at once (IMSC 1.1 Text, EBU-TT-D).
    var limitsShownRegions: Bool { self != .ttml1 }
    /// True when the profile has frame-based times.
    var hasFrames: Bool { self != .ebuTTD }
}
