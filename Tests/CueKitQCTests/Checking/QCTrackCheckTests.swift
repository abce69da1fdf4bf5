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

extension QCTrackCheckTests {
    /// The fallback language (a file name's) applies when neither the caller nor the header names one.
    @Test func theFallbackLanguageComesLast() throws {
        let profile = try QCProfile.builtIn(named: "netflix")
        let cue = Cue(start: 0, end: 1000, text: "あいうえお")
        for (given, header, expected) in [(nil, "", 1), (nil, "\nLanguage: ko", 0), ("en", "", 0)] as [(String?, String, Int)] {
            var check = QCTrackCheck(profile: profile, language: given, fallbackLanguage: "ja")
            var found: [Diagnostic] = []
            try check.take(.header(header)) { found.append($0) }
            try check.take(.cue(cue)) { found.append($0) }
            #expect(found.filter { $0.code == QCRule.readingSpeed.code }.count == expected, "\(String(describing: given)) \(header)")
        }
    }

    /// A cue read with a location is located there, its text lines after it unless told otherwise.
    @Test func aCuesOwnLocationIsUsed() throws {
        let profile = try QCProfile(json: Array(#"{"name":"t","title":"t","rules":{"lineLength":{"maximumCharacters":3}}}"#.utf8))
        var cue = Cue(start: 0, end: 1000, text: "abc\nabcd")
        cue.location = SourceLocation(line: 10, column: 1)
        for (follow, expected) in [(true, SourceLocation(line: 12, column: 1)), (false, SourceLocation(line: 10, column: 1))] {
            var check = QCTrackCheck(profile: profile, language: nil)
            check.textLinesFollowLocation = follow
            var found: [QCFinding] = []
            try check.take(.cue(cue)) { found.append($0) }
            #expect(found.map(\.diagnostic.location) == [expected])
            #expect(found.map(\.value) == [4] && found.map(\.limit) == [3] && found.map(\.textLine) == [1])
        }
    }

    /// Every cue's reading speed lands in its bin when asked for, the profile's limit beside them.
    @Test func readingSpeedsAreBinned() throws {
        let profile = try QCProfile.builtIn(named: "netflix")
        var check = QCTrackCheck(profile: profile, language: "en", recordsReadingSpeeds: true)
        for (index, text) in ["12345", "1234567890", "x", String(repeating: "y", count: 90)].enumerated() {
            try check.take(.cue(Cue(start: index * 2000, end: index * 2000 + 1000, text: text))) { (_: Diagnostic) in }
        }
        let histogram = check.summary.readingSpeeds
        #expect(histogram.limit == 20)
        #expect(histogram.total == 4)
        #expect(histogram.counts[1] == 1 && histogram.counts[5] == 1 && histogram.counts[10] == 1)
        #expect(histogram.counts[QCReadingSpeedHistogram.binCount - 1] == 1)
    }
}
