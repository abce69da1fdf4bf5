import CueKit
import CueKitQC
import Foundation
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

extension QCTrackCheckTests {
    /// Text the reader proved free of markup is counted on a faster path: the findings are the
    /// same as for the same cue taken whole.
    @Test func markupFreeBytesAndWholeCuesAgree() throws {
        let profile = try QCProfile.builtIn(named: "netflix")
        for text in ["été\nsmörgåsbord quand crème brûlée København et mañana", "字幕字幕字幕字幕字幕字幕字幕字幕字幕字幕字幕字幕字幕字幕字幕字幕", "a\nb\nc", ""] {
            var fromBytes = QCTrackCheck(profile: profile, language: "fr")
            var fromCue = QCTrackCheck(profile: profile, language: "fr")
            var bytesFound: [String] = []
            var cueFound: [String] = []
            try Array(text.utf8).withUnsafeBytes { bytes in
                try fromBytes.take(text: bytes, textHasMarkup: false, start: 0, end: 900, timingLine: 1) { bytesFound.append($0.message) }
            }
            try fromCue.take(.cue(Cue(start: 0, end: 900, text: text))) { cueFound.append($0.message) }
            #expect(bytesFound == cueFound.map { $0.replacingOccurrences(of: " (cue 1 at 00:00:00.000)", with: "") }, "\(text)")
            #expect(!bytesFound.isEmpty || text.isEmpty)
        }
    }
}
