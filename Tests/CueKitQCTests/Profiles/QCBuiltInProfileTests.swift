import CueKit
@testable import CueKitQC
import Testing

/// Each built-in profile's numbers against the values its guide publishes, as the DocC article
/// `QCProfiles` cites them (the source of each row is named with it).
@Suite struct QCBuiltInProfileTests {
    struct Published: Sendable, CustomTestStringConvertible {
        var profile: String
        var language: String?
        var audience: QCProfile.Audience = .adult
        var charactersPerSecond: Double?
        var wordsPerMinute: Double?
        var charactersPerLine: Int?
        var lines: Int?
        var minimumMilliseconds: Int?
        var maximumMilliseconds: Int?
        var gapFrames: Int?
        var characterSet: QCCharacterSet?
        var source: String

        var testDescription: String { "\(profile) \(language ?? "general") \(audience.rawValue): \(source)" }
    }

    static let netflixGeneral =
        "Netflix Timed Text Style Guide: General Requirements, 1. Duration and 4. Line Treatment; Subtitle Timing Guidelines (2-frame gap)"
    static let table: [Published] = [
        Published(
            profile: "netflix", charactersPerSecond: 17, charactersPerLine: 42, lines: 2, minimumMilliseconds: 833,
            maximumMilliseconds: 7000,
            gapFrames: 2, source: netflixGeneral + "; English Template, 2. Reading Speed and 5. Character Limitation"),
        Published(profile: "netflix", audience: .children, charactersPerSecond: 13, source: "Netflix English Template, 2. Reading Speed"),
        Published(
            profile: "netflix", language: "en", charactersPerSecond: 20, charactersPerLine: 42, lines: 2, minimumMilliseconds: 833,
            maximumMilliseconds: 7000, gapFrames: 2, source: "Netflix English (USA) Timed Text Style Guide"),
        Published(
            profile: "netflix", language: "en", audience: .children, charactersPerSecond: 17,
            source: "Netflix English (USA) Timed Text Style Guide"),
        Published(
            profile: "netflix", language: "fr", charactersPerSecond: 17, charactersPerLine: 42,
            source: "Netflix French Timed Text Style Guide"),
        Published(
            profile: "netflix", language: "fr", audience: .children, charactersPerSecond: 15,
            source: "Netflix French Timed Text Style Guide"),
        Published(
            profile: "netflix", language: "de", charactersPerSecond: 17, charactersPerLine: 42,
            source: "Netflix German Timed Text Style Guide"),
        Published(
            profile: "netflix", language: "de", audience: .children, charactersPerSecond: 13,
            source: "Netflix German Timed Text Style Guide"),
        Published(
            profile: "netflix", language: "es", charactersPerSecond: 17, charactersPerLine: 42,
            source: "Netflix Castilian & Latin American Spanish Timed Text Style Guide"),
        Published(
            profile: "netflix", language: "es-419", audience: .children, charactersPerSecond: 15,
            source: "Netflix Castilian & Latin American Spanish Timed Text Style Guide"),
        Published(
            profile: "netflix", language: "ja", charactersPerSecond: 4, charactersPerLine: 13, lines: 2,
            source: "Netflix Japanese Timed Text Style Guide"),
        Published(
            profile: "netflix", language: "ja", audience: .children, charactersPerSecond: 4,
            source: "Netflix Japanese Timed Text Style Guide"),
        Published(
            profile: "netflix", language: "ko", charactersPerSecond: 12, charactersPerLine: 16,
            source: "Netflix Korean Timed Text Style Guide"),
        Published(
            profile: "netflix", language: "ko", audience: .children, charactersPerSecond: 9, source: "Netflix Korean Timed Text Style Guide"
        ),
        Published(
            profile: "bbc", wordsPerMinute: 180, charactersPerLine: 37, lines: 2,
            source: "BBC Subtitle Guidelines, 3.1 Line length, 3.3 Avoid 3 lines or more, 4.1 Target minimum timing"),
        Published(
            profile: "dcmp", wordsPerMinute: 160, charactersPerLine: 32, lines: 2, minimumMilliseconds: 2000,
            source: "Captioning Guidelines for the DCMP, I.A.1(b), I.B.2, I.B.4; DCMP Captioning Key, Caption Placement"),
        Published(profile: "dcmp", audience: .children, wordsPerMinute: 130, source: "Captioning Guidelines for the DCMP, I.B.1"),
        Published(
            profile: "fcc-608", charactersPerLine: 32, lines: 4, characterSet: .cea608,
            source: "47 CFR 79.101(d) screen format; roll-up rows and the character set of 79.101 and CTA-608-E"),
    ]

    @Test(arguments: table) func matchesItsSource(_ published: Published) throws {
        let rules = try QCProfile.builtIn(named: published.profile).rules(language: published.language, audience: published.audience)
        if let value = published.charactersPerSecond { #expect(rules.readingSpeed?.maximumCharactersPerSecond == value) }
        if let value = published.wordsPerMinute { #expect(rules.readingSpeed?.maximumWordsPerMinute == value) }
        if let value = published.charactersPerLine { #expect(rules.lineLength?.maximumCharacters == value) }
        if let value = published.lines { #expect(rules.lineCount?.maximum == value) }
        if let value = published.minimumMilliseconds { #expect(rules.minimumDuration?.milliseconds == value) }
        if let value = published.maximumMilliseconds { #expect(rules.maximumDuration?.milliseconds == value) }
        if let value = published.gapFrames { #expect(rules.gap?.minimumFrames == value) }
        if let value = published.characterSet { #expect(rules.characters?.allowed == value) }
    }

    @Test func everyBuiltInProfileLoadsAndNamesItsSource() throws {
        for name in QCProfile.builtInNames {
            let profile = try QCProfile.builtIn(named: name)
            #expect(profile.name == name)
            #expect(profile.source?.hasPrefix("https://") == true)
        }
        #expect(throws: QCProfileError.self) { try QCProfile.builtIn(named: "acme") }
    }
}

extension QCBuiltInProfileTests {
    /// Netflix's shot-change window is half a second, in frames at the video's rate (Subtitle
    /// Timing Guidelines: 12 frames at 24 fps, 15 at 30): a cue starting 13 frames after a cut is
    /// flagged at 29.97 fps and not at 23.976.
    @Test func theShotChangeWindowIsHalfASecondAtEveryRate() throws {
        let rules = try QCProfile.builtIn(named: "netflix").rules(language: "en", audience: .adult)
        for (rate, expected) in [(FrameRate.film, 0), (FrameRate(numerator: 30000, denominator: 1001)!, 1)] {
            var checker = try QCChecker(rules: rules, frameRate: rate, shotChanges: [10_000])
            var found: [Diagnostic] = []
            let start = rate.start(of: rate.frame(at: 10_000) + 13)
            checker.check(Cue(start: start, end: start + 2000, text: "After the cut"), at: nil) { found.append($0) }
            #expect(found.filter { $0.code == QCRule.shotChange.code }.count == expected, "\(rate)")
        }
    }
}

extension QCBuiltInProfileTests {
    /// A command reads a built-in profile without checking its keys: every one passes the check a
    /// user's profile gets, and reads as the same profile either way.
    @Test(arguments: QCProfile.builtInNames)
    func builtInProfilesPassTheKeyCheckUsersProfilesGet(name: String) throws {
        let json = try #require(QCProfile.builtInJSON(named: name))
        #expect(try QCProfile(json: json) == QCProfile.builtIn(named: name))
        // The check is on where it is asked for: an unknown key in the same JSON is refused.
        var edited = String(decoding: json, as: UTF8.self)
        edited.insert(contentsOf: "\"colour\": 1, ", at: edited.index(after: edited.firstIndex(of: "{")!))
        #expect(throws: QCProfileError.self) { try QCProfile(json: Array(edited.utf8)) }
    }
}
