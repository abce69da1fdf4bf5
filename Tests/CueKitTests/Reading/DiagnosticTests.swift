import CueKit
import Testing

@Suite struct DiagnosticTests {
    @Test func printsLikeACompiler() {
        let diagnostic = Diagnostic(.error, "vtt-bad-timestamp", at: SourceLocation(line: 12, column: 5), "bad timestamp")
        #expect(diagnostic.formatted(file: "a.vtt") == "a.vtt:12:5: error: bad timestamp [vtt-bad-timestamp]")
        #expect(diagnostic.description == "12:5: error: bad timestamp [vtt-bad-timestamp]")
        let whole = Diagnostic(.warning, "io-x", at: nil, "whole file")
        #expect(whole.formatted(file: "a.vtt") == "a.vtt: warning: whole file [io-x]")
        #expect(whole.description == "warning: whole file [io-x]")
    }

    @Test func severitiesAreOrdered() {
        #expect(Diagnostic.Severity.note < .warning)
        #expect(Diagnostic.Severity.warning < .error)
        #expect(Diagnostic.Severity.allCases.max() == .error)
    }
}

extension DiagnosticTests {
    /// C0, DEL and C1 controls are escaped; other text, non-ASCII included, is kept as it is.
    @Test func controlCharactersAreEscapedAndNothingElse() {
        #expect("a\tb\nc\u{7F}d\u{85}e\u{1B}".escapingControlCharacters == "a\\tb\\nc\\u{7F}d\\u{85}e\\u{1B}")
        #expect("¡Olé! ½ 字幕 \u{A0}".escapingControlCharacters == "¡Olé! ½ 字幕 \u{A0}")
    }
}
