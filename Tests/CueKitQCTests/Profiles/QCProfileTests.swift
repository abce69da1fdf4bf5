import CueKit
import CueKitQC
import Testing

@Suite struct QCProfileTests {
    static func profile(_ json: String) throws(QCProfileError) -> QCProfile {
        try QCProfile(json: Array(json.utf8))
    }

    @Test func unknownKeysAreErrorsWithTheirPath() {
        #expect(throws: QCProfileError(path: "rules.lineLength.maximumCharacter", "unknown key (known here: maximumCharacters, severity)"))
        {
            try Self.profile(#"{"name":"x","title":"x","rules":{"lineLength":{"maximumCharacter":42}}}"#)
        }
        #expect(throws: QCProfileError.self) { try Self.profile(#"{"name":"x","title":"x","rules":{"readingSped":{}}}"#) }
        #expect(throws: QCProfileError.self) { try Self.profile(#"{"name":"x","title":"x","rules":{},"language":{}}"#) }
        #expect(throws: QCProfileError.self) {
            try Self.profile(#"{"name":"x","title":"x","rules":{},"languages":{"fr":{"rule":{}}}}"#)
        }
    }

    @Test func wrongTypesAndIncompleteRulesAreErrors() {
        #expect(throws: QCProfileError.self) { try Self.profile(#"{"name":"x","title":"x","rules":{"lineCount":{"maximum":"two"}}}"#) }
        #expect(throws: QCProfileError(path: "rules.lineCount.maximum", "is required when the rule is on")) {
            try Self.profile(#"{"name":"x","title":"x","rules":{"lineCount":{}}}"#)
        }
        #expect(throws: QCProfileError(path: "rules.gap.minimumFrames", "must be greater than 0")) {
            try Self.profile(#"{"name":"x","title":"x","rules":{"gap":{"minimumFrames":0}}}"#)
        }
        #expect(throws: QCProfileError.self) { try Self.profile(#"{"name":"x","title":"x","rules":{"overlap":{"severity":"fatal"}}}"#) }
        #expect(throws: QCProfileError.self) { try Self.profile("[]") }
        #expect(throws: QCProfileError.self) { try Self.profile("{") }
    }

    @Test func layersApplyFieldByField() throws {
        let profile = try Self.profile(
            #"""
            {"name":"x","title":"x",
             "rules":{"readingSpeed":{"maximumCharactersPerSecond":17,"severity":"error"},"lineCount":{"maximum":2}},
             "children":{"readingSpeed":{"maximumCharactersPerSecond":13}},
             "languages":{"fr":{"rules":{"readingSpeed":{"maximumCharactersPerSecond":16}},"children":{"readingSpeed":{"maximumCharactersPerSecond":12}}}}}
            """#)
        #expect(profile.rules(language: nil).readingSpeed == .init(maximumCharactersPerSecond: 17, severity: .error))
        #expect(profile.rules(language: nil, audience: .children).readingSpeed?.maximumCharactersPerSecond == 13)
        #expect(profile.rules(language: "fr-CA").readingSpeed == .init(maximumCharactersPerSecond: 16, severity: .error))
        #expect(profile.rules(language: "FR", audience: .children).readingSpeed?.maximumCharactersPerSecond == 12)
        #expect(profile.rules(language: "de", audience: .children).readingSpeed?.maximumCharactersPerSecond == 13)
        #expect(profile.rules(language: "fr").lineCount?.maximum == 2)
    }
}
