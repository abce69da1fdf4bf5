import CueKit
import CueKitQC
import Testing

@Suite struct QCTrackCheckTests {
    @Test func theHeaderNamesTheLanguage() throws {
        #expect(QCTrackCheck.language(inWebVTTHeader: "\nKind: captions\nLanguage: ja") == "ja")
        #expect(QCTrackCheck.language(inWebVTTHeader: " - a title") == nil)

        let profile = try QCProfile.builtIn(named: "netflix")
        // Five characters in one second: within every language's speed but Japanese's 4.
        let cue = Cue(start: 0, end: 1000, text: "あいうえお")
        for (header, expected) in [("\nLanguage: ja", 1), ("\nLanguage: ko", 0), ("", 0)] {
            var check = QCTrackCheck(profile: profile, language: nil)
            var found: [Diagnostic] = []
            try check.take(.header(header)) { found.append($0) }
            try check.take(.cue(cue)) { found.append($0) }
            #expect(found.filter { $0.code == QCRule.readingSpeed.code }.count == expected, "\(header.debugDescription)")
        }
    }

    @Test func cueBytesAreLocatedAtTheTimingLine() throws {
        let profile = try QCProfile(json: Array(#"{"name":"t","title":"t","rules":{"lineLength":{"maximumCharacters":3}}}"#.utf8))
        var check = QCTrackCheck(profile: profile, language: nil)
        var found: [Diagnostic] = []
        try Array("abc\nabcd".utf8).withUnsafeBytes { bytes in
            try check.take(text: bytes, textHasMarkup: false, start: 0, end: 1000, timingLine: 7) { found.append($0) }
        }
        #expect(found.map(\.location) == [SourceLocation(line: 9, column: 1)])
        #expect(check.summary.cues == 1)
    }
}
