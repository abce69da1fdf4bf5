import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// Each fixture of `Fixtures/webvtt/` that breaks the authoring rules, with every diagnostic the
/// reader must report for it: code, line and column, in the order found.
@Suite struct WebVTTDiagnosticsTests {
    struct Expectation: CustomTestStringConvertible, Sendable {
        let fixture: String
        let diagnostics: [String]
        var testDescription: String { fixture }
    }

    static let expectations: [Expectation] = [
        Expectation(fixture: "valid.vtt", diagnostics: []),
        Expectation(fixture: "line-endings-lf.vtt", diagnostics: []),
        Expectation(fixture: "line-endings-crlf.vtt", diagnostics: []),
        Expectation(fixture: "line-endings-cr.vtt", diagnostics: []),
        Expectation(
            fixture: "interview.vtt",
            diagnostics: [
                "18:9 error vtt-bad-timestamp", "22:31 error vtt-bad-setting-value", "23:34 warning vtt-unterminated-character-reference",
                "23:49 error vtt-unmatched-end-tag", "23:39 warning vtt-unclosed-tag",
            ]
        ),
        Expectation(fixture: "header-text.vtt", diagnostics: ["2:1 warning vtt-header-text"]),
        // An HLS segment's X-TIMESTAMP-MAP (RFC 8216, 3.5) is what the lines under WEBVTT are for.
        Expectation(fixture: "hls-timestamp-map.vtt", diagnostics: []),
        Expectation(fixture: "hls-timestamp-map-malformed.vtt", diagnostics: ["2:43 error vtt-timestamp-map", "3:1 warning vtt-header-text"]),
        // Each REGION without an id is reported once, and not again as a duplicate of the other.
        Expectation(
            fixture: "regions-without-identifier.vtt",
            diagnostics: ["3:1 warning vtt-region-without-identifier", "6:1 warning vtt-region-without-identifier"]
        ),
        Expectation(fixture: "invalid-utf8.vtt", diagnostics: ["4:4 error vtt-invalid-utf8"]),
        Expectation(fixture: "null-character.vtt", diagnostics: ["4:3 error vtt-null-character"]),
        Expectation(fixture: "missing-blank-line.vtt", diagnostics: ["5:1 warning vtt-missing-blank-line"]),
        Expectation(
            fixture: "bad-timestamps.vtt",
            diagnostics: ["4:9 error vtt-bad-timestamp", "8:24 error vtt-bad-timestamp", "11:1 error vtt-unknown-block"]
        ),
        Expectation(
            fixture: "timing-whitespace.vtt",
            diagnostics: [
                "3:1 warning vtt-timing-whitespace", "3:15 warning vtt-timing-whitespace", "3:30 warning vtt-timing-whitespace",
                "6:1 warning vtt-timestamp-hours", "6:17 warning vtt-timestamp-hours",
            ]
        ),
        Expectation(
            fixture: "cue-order.vtt",
            diagnostics: [
                "4:1 error vtt-end-not-after-start", "8:1 error vtt-end-not-after-start",
                "11:1 warning vtt-duplicate-cue-identifier", "12:1 warning vtt-start-before-previous",
            ]
        ),
        Expectation(
            fixture: "arrows.vtt",
            diagnostics: [
                "4:10 error vtt-arrow-in-payload", "7:1 error vtt-arrow-in-identifier", "12:6 error vtt-arrow-in-block",
                "14:6 error vtt-arrow-in-block",
            ]
        ),
        Expectation(
            fixture: "settings-errors.vtt",
            diagnostics: [
                "3:25 error vtt-bad-setting-value", "3:38 error vtt-bad-setting-value", "3:48 error vtt-bad-setting-value",
                "3:60 error vtt-bad-setting-value", "3:69 error vtt-bad-setting-value",
                "6:25 error vtt-unknown-setting", "6:35 error vtt-bad-setting", "6:43 error vtt-bad-setting", "6:46 error vtt-bad-setting",
                "6:60 error vtt-duplicate-setting",
                "9:30 warning vtt-line-not-integer", "9:34 warning vtt-auto-position-with-size",
            ]
        ),
        Expectation(
            fixture: "region-errors.vtt",
            diagnostics: [
                "3:1 warning vtt-region-without-identifier",
                "7:7 error vtt-bad-region-setting", "7:18 error vtt-bad-region-setting", "7:26 error vtt-bad-region-setting",
                "7:38 error vtt-unknown-region-setting", "7:48 error vtt-bad-region-setting",
                "10:13 warning vtt-number-out-of-range", "10:25 error vtt-duplicate-setting",
                "9:1 error vtt-duplicate-region-identifier",
                "12:25 warning vtt-region-ignored", "15:32 error vtt-unknown-region",
            ]
        ),
        Expectation(
            fixture: "blocks-after-cue.vtt",
            diagnostics: [
                "6:1 error vtt-style-after-cue", "9:1 error vtt-region-after-cue", "12:1 error vtt-unknown-block",
                "14:1 warning vtt-missing-blank-line",
            ]
        ),
        Expectation(
            fixture: "cue-text-errors.vtt",
            diagnostics: [
                "4:1 error vtt-unknown-tag", "4:19 error vtt-unescaped-less-than", "4:30 warning vtt-unknown-character-reference",
                "4:36 warning vtt-unterminated-character-reference", "4:41 error vtt-bad-character-reference",
                "4:48 warning vtt-unescaped-ampersand", "4:51 warning vtt-unterminated-tag", "4:51 warning vtt-unclosed-tag",
                "7:1 error vtt-unexpected-annotation", "7:15 warning vtt-missing-annotation", "7:47 warning vtt-empty-class",
                "7:59 error vtt-misplaced-ruby-text", "7:64 error vtt-unmatched-end-tag", "7:70 warning vtt-ruby-without-text",
                "10:1 warning vtt-timestamp-tag-order", "10:38 warning vtt-timestamp-tag-order", "10:57 warning vtt-timestamp-tag-order",
                "10:76 error vtt-bad-timestamp",
                "14:14 error vtt-unmatched-end-tag", "14:1 warning vtt-unclosed-tag", "13:4 warning vtt-unclosed-tag",
            ]
        ),
    ]

    @Test(arguments: expectations)
    func reportsEveryDiagnostic(_ expectation: Expectation) throws {
        let result = try WebVTTReader.read(fileAtPath: TestPaths.fixture("webvtt/" + expectation.fixture))
        let found = result.diagnostics.map { diagnostic in
            "\(diagnostic.location.map { "\($0.line):\($0.column)" } ?? "-") \(diagnostic.severity.rawValue) \(diagnostic.code.rawValue)"
        }
        #expect(found == expectation.diagnostics, "\(result.diagnostics.map(\.description).joined(separator: "\n"))")
        for diagnostic in result.diagnostics {
            #expect(diagnostic.code.rawValue.hasPrefix("vtt-"))
            #expect(diagnostic.message.count > 20, "a message a person understands: \(diagnostic.message)")
        }
    }

    @Test(arguments: [
        ("signature-missing.vtt", 1, 1),
        ("signature-bad-separator.vtt", 1, 7),
    ])
    func throwsWithoutSignature(_ fixture: String, line: Int, column: Int) throws {
        let error = try #require(throws: ReadError.self) {
            try WebVTTReader.read(fileAtPath: TestPaths.fixture("webvtt/" + fixture))
        }
        #expect(error.diagnostic.code == .vttNoSignature)
        #expect(error.diagnostic.location == SourceLocation(line: line, column: column))
        #expect(error.path?.hasSuffix(fixture) == true)
    }

    @Test func signatureErrorsPointAtTheFirstWrongCharacter() throws {
        let cases: [(String, Int)] = [
            ("", 1), ("WEBVT", 6), ("WEBVTTX", 7), ("webvtt", 1), ("\u{FEFF}\u{FEFF}WEBVTT", 1), ("WEB VTT", 4), ("WEBVTT\u{0C}", 7),
        ]
        for (text, column) in cases {
            let error = try #require(throws: ReadError.self, "\(text.debugDescription)") { try WebVTTReader.read(text) }
            #expect(error.diagnostic.code == .vttNoSignature)
            #expect(error.diagnostic.location == SourceLocation(line: 1, column: column), "\(text.debugDescription)")
        }
        for text in ["WEBVTT", "WEBVTT\n", "WEBVTT\r", "WEBVTT \u{0}", "\u{FEFF}WEBVTT\tTitle"] {
            #expect(throws: Never.self, "\(text.debugDescription)") { try WebVTTReader.read(text) }
        }
    }

    @Test func diagnosticsOptionLimitsTheChecks() throws {
        let path = TestPaths.fixture("webvtt/cue-text-errors.vtt")
        let all = try WebVTTReader.read(fileAtPath: path)
        let structure = try WebVTTReader.read(fileAtPath: path, options: .init(diagnostics: .structure))
        let none = try WebVTTReader.read(fileAtPath: path, options: .init(diagnostics: .none))
        #expect(!all.diagnostics.isEmpty)
        #expect(structure.diagnostics.isEmpty)
        #expect(none.diagnostics.isEmpty)
        #expect(all.track == structure.track && structure.track == none.track)

        let settings = TestPaths.fixture("webvtt/settings-errors.vtt")
        #expect(try WebVTTReader.read(fileAtPath: settings, options: .init(diagnostics: .structure)).diagnostics.count == 12)
        #expect(try WebVTTReader.read(fileAtPath: settings, options: .init(diagnostics: .none)).diagnostics.isEmpty)
    }

    @Test func cueTextLocationsFollowLinesAndScalars() throws {
        let result = try WebVTTReader.read("WEBVTT\n\n00:00.000 --> 00:01.000\nété 字 <x>\nsecond <y>")
        let locations = result.diagnostics.map(\.location)
        #expect(locations == [SourceLocation(line: 4, column: 7), SourceLocation(line: 5, column: 8)])
    }
}
