import CueKit

/// A whole track checked against a profile, event by event as a reader streams it: the language
/// comes from the caller or the track's own header (a WebVTT `Language:` line), and each cue is
/// checked as it arrives, as a ``Cue`` or as the bytes the WebVTT reader read it from.
public struct QCTrackCheck: Sendable {
    /// The profile.
    public let profile: QCProfile
    /// The audience whose rules apply.
    public let audience: QCProfile.Audience
    /// The rate the frame-based rules count at.
    public let frameRate: FrameRate
    /// The language whose rules apply: the one given, else the track's, once its header is read.
    public private(set) var language: String?
    private let shotChanges: [Int]
    private var checker: QCChecker?

    /// A check of one track; `language` nil takes the track's own language, if it says one.
    public init(
        profile: QCProfile, language: String?, audience: QCProfile.Audience = .adult, frameRate: FrameRate = .film, shotChanges: [Int] = []
    ) {
        self.profile = profile
        self.language = language
        self.audience = audience
        self.frameRate = frameRate
        self.shotChanges = shotChanges
    }

    /// What was found so far.
    public var summary: QCSummary { checker?.summary ?? QCSummary() }

    /// Takes one event of the track: the header may name its language; a cue is checked (with no
    /// location: a format whose reader gives cues without their lines).
    public mutating func take(_ event: TrackEvent, report: (Diagnostic) throws -> Void) throws {
        switch event {
        case .header(let header):
            if language == nil { language = Self.language(inWebVTTHeader: header) }
        case .cue(let cue):
            try prepareChecker()
            try checker!.check(cue, at: nil, report: report)
        default:
            break
        }
    }

    /// Checks one cue given as its WebVTT text bytes, located at its timing line.
    public mutating func take(
        text: UnsafeRawBufferPointer, textHasMarkup: Bool, start: Int, end: Int, timingLine: Int, report: (Diagnostic) throws -> Void
    ) throws {
        try prepareChecker()
        try checker!.check(
            text: text, textHasMarkup: textHasMarkup, start: start, end: end, at: SourceLocation(line: timingLine, column: 1),
            report: report)
    }

    /// Makes the checker at the first cue, once the header has said the language.
    private mutating func prepareChecker() throws {
        if checker == nil {
            checker = try QCChecker(
                rules: profile.rules(language: language, audience: audience), frameRate: frameRate, shotChanges: shotChanges)
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
