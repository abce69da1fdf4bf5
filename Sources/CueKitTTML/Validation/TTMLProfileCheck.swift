import CueKit

extension DiagnosticCode {
    /// A document breaks a constraint of the profile it is checked against.
    public static let ttmlProfileViolation: DiagnosticCode = "ttml-profile"
}

/// Checks a TTML document against the constraints of a profile (``TTMLProfile``), beyond what
/// reading it checks: what `cuekit validate` adds for TTML, so that a document about to be
/// delivered as IMSC 1.1 or EBU-TT-D is refused for what its recipient would refuse it for.
///
/// The profile is the one given, or the one the document declares (`ttp:contentProfiles` naming
/// IMSC 1.1 Text, `ebuttm:conformsToStandard` naming EBU-TT-D, `ttp:profile` naming a DFXP profile).
/// A document that declares none and is given none is not checked.
///
/// What is checked, each with the element's line and column:
/// - every profile: `xml:lang` on `tt` (TTML1 section 7.1.1); a `ttp:timeBase` other than `media`
///   for IMSC and EBU-TT-D; frame-based times without `ttp:frameRate` (IMSC 1.1 section 8.2);
/// - IMSC 1.1 Text: at most four shadows in `tts:textShadow`; pixel lengths without `tts:extent`
///   on `tt` (section 8.4, `#length-pixel`); `ttp:contentProfiles` present (a warning: the profile
///   says it should be);
/// - EBU-TT-D (EBU Tech 3380): times as `hh:mm:ss.fff` only; style attributes only on `style` and
///   `region` (never inline on content); every `p` in a region; regions with `tts:origin` and
///   `tts:extent` in percent; no `set` or `animate`; no `tts:ruby` or `tts:textShadow`; the
///   `ebuttm:conformsToStandard` metadata (a warning);
/// - TTML1: no TTML2 style attributes (`tts:ruby`, `tts:textShadow`, `tts:textEmphasis`,
///   `tts:textCombine`, `tts:rubyPosition`, `tts:fontKerning`, `tts:fontVariant`, `tts:shear`,
///   `tts:position`, `tts:backgroundImage`, `tts:lineShear`, `tts:letterSpacing`).
public struct TTMLProfileCheck {
    /// The profile checked against, once known; nil while the document has not declared one.
    public private(set) var profile: TTMLProfile?
    private let parser = XMLPushParser()
    private var report: (Diagnostic) -> Void
    private var stack: [(local: String, inRegion: Bool)] = []
    private var rootLanguage: String?
    private var rootLocation = SourceLocation(line: 1, column: 1)
    private var hasFrameRate = false
    private var hasRootExtent = false
    private var hasContentProfiles = false
    private var conformsToEBUTTD = false
    private var inConformsToStandard = false
    private var conformsText = ""
    /// Violations are many when a document breaks one rule on every paragraph: one per rule is
    /// reported with its first location, then a count.
    private var counts: [String: (count: Int, first: Diagnostic)] = [:]
    private var order: [String] = []

    /// A check against `profile`, or against what the document declares when nil; each finding
    /// goes to `report` once the document ends (with ``finish()``).
    public init(profile: TTMLProfile? = nil, report: @escaping (Diagnostic) -> Void) {
        self.profile = profile
        self.report = report
    }

    /// Checks a whole file; returns the profile checked against, or nil when there was none.
    @discardableResult
    public static func check(fileAtPath path: String, profile: TTMLProfile? = nil, report: @escaping (Diagnostic) -> Void) throws -> TTMLProfile? {
        var check = TTMLProfileCheck(profile: profile, report: report)
        try FileByteSource(path: path).forEachChunk { check.feed($0) }
        return check.finish()
    }

    /// Checks a document in memory.
    @discardableResult
    public static func check(bytes: some Collection<UInt8>, profile: TTMLProfile? = nil, report: @escaping (Diagnostic) -> Void) -> TTMLProfile? {
        var check = TTMLProfileCheck(profile: profile, report: report)
        Array(bytes).withUnsafeBytes { check.feed($0) }
        return check.finish()
    }

    /// Checks the next bytes.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        guard parser.refusal == nil else { return }
        parser.feed(chunk)
        drain()
    }

    /// Ends the document and reports what was found; returns the profile checked against.
    public mutating func finish() -> TTMLProfile? {
        parser.finish()
        drain()
        guard let profile else { return nil }
        flushRootChecks(profile: profile)
        if parser.refusal == nil {
            if profile == .imsc11, !hasContentProfiles {
                flag(.warning, "contentProfiles", rootLocation, "IMSC 1.1 documents should declare ttp:contentProfiles (IMSC 1.1 section 6.9)")
            }
            if profile == .ebuTTD, !conformsToEBUTTD {
                flag(.warning, "conformsToStandard", rootLocation, "EBU-TT-D documents declare ebuttm:conformsToStandard urn:ebu:tt:distribution:… in their head's metadata")
            }
        }
        for key in order {
            guard let (count, first) = counts[key] else { continue }
            var diagnostic = first
            if count > 1 { diagnostic.message += " (\(count) times; the first is shown)" }
            report(diagnostic)
        }
        counts = [:]
        order = []
        return profile
    }

    private mutating func drain() {
        parser.events.drain { take($0) }
    }

    private mutating func take(_ event: XMLEvent) {
        switch event {
        case .start(let name, let attributes, let location):
            start(name, attributes, location)
        case .end:
            if stack.last?.local == "conformsToStandard" {
                if conformsText.contains("urn:ebu:tt:distribution") {
                    conformsToEBUTTD = true
                    if profile == nil { profile = .ebuTTD }
                }
                inConformsToStandard = false
            }
            _ = stack.popLast()
        case .text(let text):
            if inConformsToStandard, conformsText.utf8.count < 1024 { conformsText += text.string }
        case .problem:
            break
        }
    }

    private mutating func start(_ name: XMLName, _ attributes: XMLAttributes, _ location: SourceLocation) {
        let namespace = TTMLNamespace(name.namespace)
        func attribute(_ local: String, in wanted: TTMLNamespace) -> String? {
            attributes.first { $0.name.local == local && TTMLNamespace($0.name.namespace) == wanted }?.value
        }
        let parentInRegion = stack.last?.inRegion ?? false
        let inRegion = parentInRegion || attribute("region", in: .none) != nil
        defer { stack.append((name.local, inRegion)) }
        if stack.isEmpty {
            startRoot(attributes, location, attribute: attribute)
            return
        }
        if namespace == .metadata || name.namespace == "urn:ebu:tt:metadata" {
            if name.local == "conformsToStandard" {
                inConformsToStandard = true
                conformsText = ""
            }
            return
        }
        guard case .content = namespace, let profile else { return }
        let local = name.local
        for timing in ["begin", "end", "dur"] {
            guard let value = attribute(timing, in: .none) else { continue }
            checkTime(value, timing, location, profile: profile)
        }
        let styleAttributes = attributes.filter { TTMLNamespace($0.name.namespace) == .styling }
        switch profile {
        case .imsc11:
            if let shadow = attribute("textShadow", in: .styling), Self.commaCount(shadow) >= 4 {
                flag(.error, "shadows", location, "tts:textShadow has more than four shadows; IMSC 1.1 allows at most four (section 8.4)")
            }
            if !hasRootExtent, styleAttributes.contains(where: { $0.value.contains("px") && Self.hasPixelLength($0.value) }) {
                flag(.error, "pixels", location, "a length in px, but tt has no tts:extent to relate pixels to the video (IMSC 1.1 section 8.4, #length-pixel)")
            }
        case .ebuTTD:
            if local != "style" && local != "region" && !styleAttributes.isEmpty {
                flag(
                    .error, "inlineStyle", location,
                    "style attribute tts:\(styleAttributes[0].name.local) on <\(local)>: EBU-TT-D styles content only through style elements it refers to")
            }
            if local == "region" {
                for required in ["origin", "extent"] {
                    guard let value = attribute(required, in: .styling) else {
                        flag(.error, "region-" + required, location, "an EBU-TT-D region has tts:\(required)")
                        continue
                    }
                    if value.split(separator: " ").contains(where: { !$0.hasSuffix("%") }) {
                        flag(.error, "region-percent", location, "tts:\(required) \"\(value)\": EBU-TT-D regions are placed in percent")
                    }
                }
            }
            if local == "p", !inRegion {
                flag(.error, "unregioned", location, "a paragraph in no region: every EBU-TT-D paragraph is shown in a region")
            }
            if local == "set" || local == "animate" {
                flag(.error, "animation", location, "<\(local)>: EBU-TT-D has no animation")
            }
            for prohibited in ["ruby", "textShadow"] where attribute(prohibited, in: .styling) != nil {
                flag(.error, "ttml2-" + prohibited, location, "tts:\(prohibited) is not in EBU-TT-D")
            }
        case .ttml1:
            for attribute in styleAttributes where Self.ttml2StyleAttributes.contains(attribute.name.local) {
                flag(.error, "ttml2-" + attribute.name.local, location, "tts:\(attribute.name.local) is TTML2; TTML1 does not have it")
            }
        }
    }

    private mutating func startRoot(_ attributes: XMLAttributes, _ location: SourceLocation, attribute: (String, TTMLNamespace) -> String?) {
        rootLocation = location
        rootLanguage = attribute("lang", .xml)
        hasFrameRate = attribute("frameRate", .parameter) != nil
        hasRootExtent = attribute("extent", .styling) != nil
        if let profiles = attribute("contentProfiles", .parameter) {
            hasContentProfiles = true
            if profile == nil, profiles.contains("imsc1.1/text") { profile = .imsc11 }
        }
        if profile == nil, let declared = attribute("profile", .parameter), declared.contains("dfxp") { profile = .ttml1 }
        // The EBU-TT-D declaration is in the head: checks of the root wait for it.
        if rootLanguage == nil {
            pendingRootChecks.append(("lang", Diagnostic(.error, .ttmlProfileViolation, at: location, "tt has no xml:lang; every TTML document states its language (TTML1 section 7.1.1)")))
        } else if rootLanguage?.isEmpty == true {
            pendingRootChecks.append(
                ("lang-empty", Diagnostic(.warning, .ttmlProfileViolation, at: location, "tt's xml:lang is empty: the document's language is unknown to players")))
        }
        if let base = attribute("timeBase", .parameter), base != "media" {
            pendingRootChecks.append(
                ("timeBase", Diagnostic(.error, .ttmlProfileViolation, at: location, "ttp:timeBase \"\(base)\": IMSC and EBU-TT-D times are media times")))
        }
    }

    private var pendingRootChecks: [(String, Diagnostic)] = []

    private mutating func checkTime(_ value: String, _ attribute: String, _ location: SourceLocation, profile: TTMLProfile) {
        flushRootChecks(profile: profile)
        let trimmed = value.split(separator: " ").joined()
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        let hasFrames = parts.count == 4 || (parts.count == 1 && trimmed.hasSuffix("f"))
        if hasFrames, !hasFrameRate, profile != .ebuTTD {
            flag(.error, "frames", location, "\(attribute)=\"\(value)\" counts frames, but tt has no ttp:frameRate (IMSC 1.1 section 8.2)")
        }
        if profile == .ebuTTD {
            let isClock = parts.count == 3 && parts[0].count >= 2 && parts[1].count == 2 && parts[2].count >= 2
                && parts.allSatisfy { $0.allSatisfy { $0.isNumber || $0 == "." } }
            if !isClock {
                flag(.error, "time-form", location, "\(attribute)=\"\(value)\": EBU-TT-D times are written hh:mm:ss.fff")
            }
        }
    }

    /// Root checks wait until the profile is known (the EBU-TT-D one comes in the head).
    private mutating func flushRootChecks(profile: TTMLProfile) {
        guard !pendingRootChecks.isEmpty else { return }
        for (key, diagnostic) in pendingRootChecks {
            if key == "timeBase", profile == .ttml1 { continue }
            flag(diagnostic.severity, key, diagnostic.location ?? rootLocation, diagnostic.message)
        }
        pendingRootChecks = []
    }

    private mutating func flag(_ severity: Diagnostic.Severity, _ key: String, _ location: SourceLocation, _ message: String) {
        if let existing = counts[key] {
            counts[key] = (existing.count + 1, existing.first)
        } else {
            counts[key] = (1, Diagnostic(severity, .ttmlProfileViolation, at: location, message))
            order.append(key)
        }
    }

    static let ttml2StyleAttributes: Set<String> = [
        "ruby", "rubyPosition", "rubyAlign", "rubyReserve", "textShadow", "textEmphasis", "textCombine", "fontKerning", "fontVariant",
        "shear", "lineShear", "position", "backgroundImage", "backgroundPosition", "backgroundRepeat", "backgroundClip",
        "backgroundOrigin", "letterSpacing", "border", "bpd", "ipd", "disparity", "luminanceGain",
    ]

    private static func commaCount(_ text: String) -> Int {
        var depth = 0
        var count = 0
        for character in text {
            if character == "(" { depth += 1 } else if character == ")" { depth -= 1 } else if character == ",", depth == 0 { count += 1 }
        }
        return count
    }

    private static func hasPixelLength(_ text: String) -> Bool {
        text.split(whereSeparator: { $0 == " " || $0 == "," }).contains { token in
            token.hasSuffix("px") && Double(token.dropLast(2)) != nil
        }
    }
}
