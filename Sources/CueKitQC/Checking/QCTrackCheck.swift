import CueKit

/// A whole track checked against a profile, event by event as a reader streams it: the language
/// comes from the caller, else the track's own header (a WebVTT `Language:` line), else a fallback
/// the caller found elsewhere (the file's name), and each cue is checked as it arrives, as a
/// ``Cue`` or as the bytes the WebVTT reader read it from.
public struct QCTrackCheck: Sendable {
    /// The profile.
    public let profile: QCProfile
    /// The audience whose rules apply.
    public let audience: QCProfile.Audience
    /// The rate the frame-based rules count at.
    public let frameRate: FrameRate
    /// The language whose rules apply: the one given, else the track's, once its header is read,
    /// else ``fallbackLanguage`` once the first cue is checked.
    public private(set) var language: String?
    /// The language taken when neither the caller nor the track's header names one.
    public let fallbackLanguage: String?
    /// True when every cue's reading speed is counted for a histogram (``QCSummary/readingSpeeds``).
    public let recordsReadingSpeeds: Bool
    private let shotChanges: [Int]
    /// The checker of the rules that apply, made at the first cue (``prepareChecker()``): until
    /// then one with no rule on. Not an optional: a cue would then unwrap it.
    private var checker = QCChecker()
    private var hasChecker = false

    /// A check of one track; `language` nil takes the track's own language if it says one, else
    /// `fallbackLanguage`.
    public init(
        profile: QCProfile, language: String?, fallbackLanguage: String? = nil, audience: QCProfile.Audience = .adult,
        frameRate: FrameRate = .film, shotChanges: [Int] = [], recordsReadingSpeeds: Bool = false
    ) {
        self.profile = profile
        self.language = language
        self.fallbackLanguage = fallbackLanguage
        self.audience = audience
        self.frameRate = frameRate
        self.shotChanges = shotChanges
        self.recordsReadingSpeeds = recordsReadingSpeeds
    }

    /// What was found so far.
    public var summary: QCSummary { hasChecker ? checker.summary : QCSummary() }

    /// True when a cue's text lines follow its location line by line (see
    /// ``QCChecker/textLinesFollowLocation``): false for TTML.
    public var textLinesFollowLocation = true

    /// Takes one event of the track: the header may name its language; a cue is checked at the
    /// location its reader gave it (``Cue/location``), or named by its number and time when it has
    /// none.
    public mutating func take(_ event: TrackEvent, report: (Diagnostic) throws -> Void) throws {
        try take(event, reportingFindings: { try report($0.diagnostic) })
    }

    /// Takes one event of the track, handing each finding with its measured value to `report`.
    public mutating func take(_ event: TrackEvent, reportingFindings report: (QCFinding) throws -> Void) throws {
        switch event {
        case .header(let header):
            if language == nil { language = Self.language(inWebVTTHeader: header) }
        case .cue(let cue):
            if !hasChecker { try prepareChecker() }
            try checker.check(cue, at: cue.location, reportingFindings: report)
        default:
            break
        }
    }

    /// Checks one cue given as its WebVTT text bytes, located at its timing line.
    public mutating func take(
        text: UnsafeRawBufferPointer, textHasMarkup: Bool, start: Int, end: Int, timingLine: Int, report: (Diagnostic) throws -> Void
    ) throws {
        try take(
            text: text, textHasMarkup: textHasMarkup, start: start, end: end, timingLine: timingLine,
            reportingFindings: { try report($0.diagnostic) })
    }

    /// Checks one cue given as its WebVTT text bytes, located at its timing line, handing each
    /// finding with its measured value to `report`.
    public mutating func take(
        text: UnsafeRawBufferPointer, textHasMarkup: Bool, start: Int, end: Int, timingLine: Int,
        reportingFindings report: (QCFinding) throws -> Void
    ) throws {
        if !hasChecker { try prepareChecker() }
        try checker.check(
            text: text, textHasMarkup: textHasMarkup, start: start, end: end, at: SourceLocation(line: timingLine, column: 1),
            reportingFindings: report)
    }

    /// Makes the checker at the first cue, once the header has said the language.
    private mutating func prepareChecker() throws {
        if !hasChecker {
            if language == nil { language = fallbackLanguage }
            checker = try QCChecker(
                rules: profile.rules(language: language, audience: audience), frameRate: frameRate, shotChanges: shotChanges,
                recordsReadingSpeeds: recordsReadingSpeeds)
            checker.textLinesFollowLocation = textLinesFollowLocation
            hasChecker = true
        }
    }

    /// The value of a `Language:` line in a WebVTT header (the metadata lines after `WEBVTT`), if any.
    public static func language(inWebVTTHeader header: String) -> String? {
        for line in header.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].trimmingWhitespace.lowercased() == "language" else { continue }
            let value = line[line.index(after: colon)...].trimmingWhitespace
            if !value.isEmpty { return String(value) }
        }
        return nil
    }
}
