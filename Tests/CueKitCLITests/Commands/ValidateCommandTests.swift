import CueKitTestSupport
import Foundation
import Testing

@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"))
struct ValidateCommandTests {
    @Test func aValidFileExitsZeroWithASummary() throws {
        let run = try CommandLineRun.cuekit(["validate", "Fixtures/webvtt/valid.vtt"])
        #expect(run.status == 0)
        #expect(run.standardError == "")
        #expect(run.standardOutput == "1 file: 1 valid (0 errors, 0 warnings)\n")
    }

    @Test func anInvalidFilePrintsCompilerStyleLinesAndExitsOne() throws {
        let run = try CommandLineRun.cuekit(["validate", "Fixtures/webvtt/cue-order.vtt"])
        #expect(run.status == 1)
        #expect(
            run.standardOutput == """
                Fixtures/webvtt/cue-order.vtt:4:1: error: the cue ends when it starts, so it is never shown [vtt-end-not-after-start]
                Fixtures/webvtt/cue-order.vtt:8:1: error: the cue ends before it starts, so it is never shown [vtt-end-not-after-start]
                Fixtures/webvtt/cue-order.vtt:11:1: warning: cue identifier 'a' is used by an earlier cue; identifiers must be unique [vtt-duplicate-cue-identifier]
                Fixtures/webvtt/cue-order.vtt:12:1: warning: this cue starts before the cue before it; cues must be in order of start time [vtt-start-before-previous]
                1 file: 0 valid, 1 invalid (2 errors, 2 warnings)

                """)
    }

    /// The duplicate check remembers `--max-identifiers` distinct identifiers (so that its memory
    /// stays flat on any file): past them it says it stopped, and later duplicates go unreported.
    @Test func theIdentifierCheckStopsAtMaxIdentifiersAndSaysSo() throws {
        var track = "WEBVTT\n"
        for (index, id) in ["a", "b", "c", "a"].enumerated() {
            track += "\n\(id)\n00:00:0\(index).000 --> 00:00:0\(index + 1).000\nline\n"
        }
        let unlimited = try CommandLineRun.cuekit(["validate", "--from", "vtt", "-"], input: Array(track.utf8))
        #expect(unlimited.standardOutput.contains("<stdin>:15:1: warning: cue identifier 'a' is used by an earlier cue"), "\(unlimited.standardOutput)")
        #expect(!unlimited.standardOutput.contains("vtt-identifier-check-stopped"))

        let limited = try CommandLineRun.cuekit(["validate", "--max-identifiers", "2", "--from", "vtt", "-"], input: Array(track.utf8))
        #expect(limited.status == 0)
        #expect(
            limited.standardOutput == """
                <stdin>:11:1: note: more than 2 distinct cue identifiers, the most remembered; later duplicates are not reported (the command line raises the limit with --max-identifiers) [vtt-identifier-check-stopped]
                1 file: 1 valid (0 errors, 0 warnings)

                """)
    }

    /// A name that says WebVTT is judged as WebVTT, as Chromium (and so every Cast receiver)
    /// judges it, however much the content looks like SubRip; other names are told by content.
    @Test func aWebVTTNameWithoutTheSignatureIsInvalidAndSaysHowToConvertIt() throws {
        let file = "Fixtures/webvtt/subrip-content-no-signature.vtt"
        let run = try CommandLineRun.cuekit(["validate", file])
        #expect(run.status == 1)
        #expect(
            run.standardOutput == """
                \(file):1:1: error: a WebVTT file starts with the line 'WEBVTT'; this is not a WebVTT file; the content looks like SubRip, which no browser or Cast receiver reads as WebVTT: convert it with 'cuekit convert --from srt \(file) -o Fixtures/webvtt/subrip-content-no-signature.fixed.vtt' [vtt-no-signature]
                1 file: 0 valid, 1 invalid (1 error, 0 warnings)

                """)
        // inspect --json (the browser's VTTCue list) judges the file the same way: no cue list.
        let inspected = try CommandLineRun.cuekit(["inspect", "--json", file])
        #expect(inspected.status == 1)
        #expect(inspected.standardOutput.isEmpty)
        #expect(inspected.standardError.contains("[vtt-no-signature]"))
        let forced = try CommandLineRun.cuekit(["validate", "--from", "vtt", "-"], input: Array("00:00:01.000 --> 00:00:02.000\nHello\n".utf8))
        #expect(forced.status == 1)
        #expect(forced.standardOutput.contains("[vtt-no-signature]"))
        let byContent = try CommandLineRun.cuekit(["validate", "-"], input: Array("00:00:01.000 --> 00:00:02.000\nHello\n".utf8))
        #expect(byContent.status == 0, "standard input says nothing of its format: read as the SubRip it looks like")
        #expect(byContent.standardOutput.contains("[srt-timestamp-separator]"))
    }

    /// TTML whose text selects none of the regions it defines becomes an empty track: invalid, and
    /// the message names the flag that presents it; `convert --unregioned default-region` does.
    @Test func aTTMLTrackEmptiedByRegionsIsInvalidAndConvertCanShowIt() throws {
        let file = "Fixtures/ttml/regions-none-selected.ttml"
        let run = try CommandLineRun.cuekit(["validate", file])
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("\(file):10:29: error: the document defines regions but none of its text selects one"))
        #expect(run.standardOutput.contains("--unregioned default-region"))
        let converted = try CommandLineRun.cuekit(["convert", "--unregioned", "default-region", file])
        #expect(converted.status == 0)
        #expect(converted.standardOutput.contains("¿Dónde estabas?"))
        #expect(converted.standardOutput.contains("Aquí."))
        let hidden = try CommandLineRun.cuekit(["convert", file])
        #expect(hidden.status == 0, "the output was written")
        #expect(!hidden.standardOutput.contains("Aquí."))
        #expect(hidden.standardError.contains("[ttml-all-content-unregioned]"))
    }

    @Test func warningsAloneAreValidUnlessStrict() throws {
        let file = "Fixtures/subrip/tags.srt"
        let relaxed = try CommandLineRun.cuekit(["validate", file])
        #expect(relaxed.status == 0)
        #expect(relaxed.standardOutput.contains(": warning: "))
        #expect(relaxed.standardOutput.hasSuffix("1 file: 1 valid (0 errors, 4 warnings)\n"))
        let strict = try CommandLineRun.cuekit(["validate", "--strict", file])
        #expect(strict.status == 1)
        #expect(strict.standardOutput.hasSuffix("1 file: 0 valid, 1 invalid (0 errors, 4 warnings, warnings are errors)\n"))
    }

    @Test func aMissingFileIsAnIOErrorAndTheOthersAreStillChecked() throws {
        let run = try CommandLineRun.cuekit(["validate", "no-such-file.vtt", "Fixtures/webvtt/valid.vtt", "Fixtures/webvtt/cue-order.vtt"])
        #expect(run.status == 2)
        #expect(run.standardError == "cuekit: error: cannot read 'no-such-file.vtt': No such file or directory\n")
        #expect(run.standardOutput.contains("Fixtures/webvtt/cue-order.vtt:4:1: error:"))
        #expect(run.standardOutput.hasSuffix("3 files: 1 valid, 1 invalid, 1 unreadable (2 errors, 2 warnings)\n"))
    }

    @Test func aFolderCannotBeRead() throws {
        let run = try CommandLineRun.cuekit(["validate", "Fixtures"])
        #expect(run.status == 2)
        #expect(run.standardError == "cuekit: error: cannot read 'Fixtures': Is a directory\n")
    }

    @Test func anUnknownFormatIsAUsageError() throws {
        let run = try CommandLineRun.cuekit(["validate", "--from", "docx", "Fixtures/webvtt/valid.vtt"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("docx"))
        #expect(run.standardOutput == "")
    }

    @Test func contentOfNoKnownFormatIsInvalid() throws {
        let run = try CommandLineRun.cuekit(["validate", "-"], input: Array("Hello, this is not a caption file.\n".utf8))
        #expect(run.status == 1)
        #expect(run.standardOutput.hasPrefix("<stdin>:1:1: error: "))
        #expect(run.standardOutput.contains("[vtt-no-signature]"))
    }

    @Test func invalidUTF8IsReportedWhereItStands() throws {
        let run = try CommandLineRun.cuekit(["validate", "Fixtures/webvtt/invalid-utf8.vtt"])
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("[vtt-invalid-utf8]"))
        let line = try #require(run.standardOutput.split(separator: "\n").first { $0.contains("vtt-invalid-utf8") })
        #expect(line.hasPrefix("Fixtures/webvtt/invalid-utf8.vtt:"))
    }

    @Test func eachFormatByItsOwnRules() throws {
        let run = try CommandLineRun.cuekit([
            "validate", "Fixtures/subrip/wrong-sequence-numbers.srt", "Fixtures/ttml/billion-laughs.ttml", "Fixtures/cast/load-invalid.json",
        ])
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("[srt-sequence-number]"))
        #expect(run.standardOutput.contains("Fixtures/ttml/billion-laughs.ttml:2:14: error: "))
        #expect(run.standardOutput.contains("[ttml-doctype]"))
        #expect(run.standardOutput.contains("Fixtures/cast/load-invalid.json:8:19: error: $.media.tracks[1].trackId: "))
    }

    @Test func castMessagesAreCheckedAsAReceiverWould() throws {
        let good = try CommandLineRun.cuekit(["validate", "Fixtures/cast/load-sender-guide.json", "Fixtures/cast/style-high-contrast.json"])
        #expect(good.status == 0)
        let forced = try CommandLineRun.cuekit(["validate", "--from", "cast", "-"], input: Array(##"{"foregroundColor": "#12"}"##.utf8))
        #expect(forced.status == 1)
        #expect(forced.standardOutput.contains("$.foregroundColor"))
    }

    @Test func jsonHoldsEveryFileAndTheSummary() throws {
        let run = try CommandLineRun.cuekit(["validate", "--format", "json", "Fixtures/webvtt/cue-order.vtt", "missing.vtt"])
        #expect(run.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.count == 2)
        #expect(files[0]["path"] as? String == "Fixtures/webvtt/cue-order.vtt")
        #expect(files[0]["format"] as? String == "WebVTT")
        #expect(files[0]["valid"] as? Bool == false)
        let diagnostics = try #require(files[0]["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == [
            "vtt-end-not-after-start", "vtt-end-not-after-start", "vtt-duplicate-cue-identifier", "vtt-start-before-previous",
        ])
        #expect(diagnostics[0]["line"] as? Int == 4 && diagnostics[0]["column"] as? Int == 1)
        #expect(files[1]["failure"] as? String == "cannot read 'missing.vtt': No such file or directory")
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["files"] as? Int == 2 && summary["invalid"] as? Int == 1 && summary["unreadable"] as? Int == 1)
        #expect(summary["errors"] as? Int == 2 && summary["warnings"] as? Int == 2)
    }

    @Test func sarifIsAValidLogWithRulesForEveryResult() throws {
        let run = try CommandLineRun.cuekit([
            "validate", "--format", "sarif", "Fixtures/webvtt/interview.vtt", "Fixtures/cast/load-invalid.json", "gone dir/x.vtt",
        ])
        #expect(run.status == 2)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs[0]["columnKind"] as? String == "unicodeCodePoints")
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == 10)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "cuekit")
        let rules = Set(((driver["rules"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
        #expect(Set(results.compactMap { $0["ruleId"] as? String }) == rules)
        let first = results[0]
        #expect(first["level"] as? String == "error")
        let location = try #require((first["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "Fixtures/webvtt/interview.vtt")
        #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 18)
        let invocation = try #require((runs[0]["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        let notification = try #require((invocation["toolExecutionNotifications"] as? [[String: Any]])?.first)
        let uri = ((notification["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"]
        #expect((uri as? [String: Any])?["uri"] as? String == "gone%20dir/x.vtt")
    }

    @Test func standardInputCanBeReadOnlyOnce() throws {
        let run = try CommandLineRun.cuekit(["validate", "-", "-"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("Standard input ('-') can be read only once."))
    }
}
