import CueKitTestSupport
import Testing

@Suite struct StyleCommandTests {
    let movie = TestPaths.fixture("cast/movie.en.vtt")

    @Test func bakesTheStyleAfterTheFilesOwnSheets() throws {
        let run = try CommandLineRun.cuekit(["style", movie, "-o", "-", "--style", TestPaths.fixture("cast/style-high-contrast.json")])
        #expect(run.status == 0, "\(run)")
        #expect(run.standardError == "")
        let expected = try String(decoding: TestPaths.bytes(TestPaths.fixture("cast/movie.en.styled.vtt")), as: UTF8.self)
        #expect(run.standardOutput == expected)
    }

    @Test func flagsOverrideTheStyleFile() throws {
        let run = try CommandLineRun.cuekit([
            "style", movie, "-o", "-", "--style", TestPaths.fixture("cast/style-high-contrast.json"), "--foreground", "#FF000080",
            "--edge-type", "raised", "--font-scale", "0.75", "--font-style", "bold", "--font-family", "Tiresias",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.standardOutput.contains(
                """
                STYLE
                /* Cast TextTrackStyle */
                ::cue {
                  color: rgba(255, 0, 0, 0.502);
                  background-color: rgba(0, 0, 0, 0.4);
                  font-size: 75%;
                  font-family: "Tiresias", Roboto, "Helvetica Neue", Arial, sans-serif;
                  font-weight: bold;
                  font-style: normal;
                  text-shadow: rgba(0, 0, 0, 1) 0.03em 0.03em 0, rgba(0, 0, 0, 1) 0.06em 0.06em 0;
                }

                1
                """
            ),
            "\(run)"
        )
    }

    @Test func writesTheFileAtomicallyAndRestylingReplacesTheStyle() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.file("styled.vtt")
        #expect(try CommandLineRun.cuekit(["style", movie, "-o", output, "--foreground", "#FFFFFF"]).status == 0)
        let again = try CommandLineRun.cuekit(["style", output, "-o", output, "--background", "#000000"])
        #expect(again.status == 0, "\(again)")
        let text = try #require(directory.read("styled.vtt"))
        #expect(text.split(separator: "/* Cast TextTrackStyle */", omittingEmptySubsequences: false).count == 2)
        #expect(text.contains("  background-color: rgba(0, 0, 0, 1);\n"))
        #expect(!text.contains("  color: rgba(255, 255, 255, 1);\n"))
        #expect(text.contains("::cue { color: lime; }"))
        #expect(directory.names == ["styled.vtt"], "no temporary file is left behind")
    }

    @Test func eachStyleDiagnosticNamesTheFlagOrTheFileItCameFrom() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("{\"edgeType\": \"OUTLINE\",\n \"windowColor\": \"#FF0000FF\"}", to: "style.json")
        let run = try CommandLineRun.cuekit(["style", movie, "-o", "-", "--style", directory.file("style.json"), "--edge-type", "raised"])
        #expect(run.status == 0, "\(run)")
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 2, "\(run)")
        // The flag overrode the file's edgeType: the note is the flag's; the window is the file's.
        #expect(lines.first?.hasPrefix("--edge-type: note: edgeType RAISED has no edgeColor") == true, "\(run)")
        #expect(lines.last?.hasPrefix(directory.file("style.json") + ":2:17: warning: $.windowColor: ") == true, "\(run)")
    }

    @Test func aStyleFileWhoseScaleCannotBeWrittenIsRefusedWhereItSaysSo() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(#"{"fontScale":1e308}"#, to: "style.json")
        let run = try CommandLineRun.cuekit(["style", movie, "-o", "-", "--style", directory.file("style.json")])
        #expect(run.status != 0, "\(run)")
        #expect(run.standardError.contains(directory.file("style.json") + ":1:14: error: $.fontScale: fontScale must be a positive number at most 100"), "\(run)")
        #expect(!run.standardOutput.contains("null%"), "\(run)")
    }

    @Test func reportsTheWindowAndExitsZero() throws {
        let run = try CommandLineRun.cuekit([
            "style", movie, "-o", "-", "--foreground", "#FFFFFF", "--window-type", "rounded-corners", "--window-corner-radius", "8",
        ])
        #expect(run.status == 0)
        #expect(
            run.standardError
                == "--window-type: warning: windowType, windowRoundedCornerRadius describe the caption window of CEA-608/708, which has no ::cue equivalent in WebVTT: not written into the file (send them in the Cast message's textTrackStyle) [cast-window-not-in-webvtt]\n"
        )
        #expect(!run.standardOutput.contains("window"))
    }

    @Test func anInvalidStyleFileExitsOneNamingItsLines() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let style = TestPaths.fixture("cast/style-bad.json")
        let run = try CommandLineRun.cuekit(["style", movie, "-o", directory.file("out.vtt"), "--style", style])
        #expect(run.status == 1)
        #expect(
            run.standardError == """
                \(style):3:15: error: $.edgeType: 'SHADOW' is not a TextTrackEdgeType; expected one of NONE, OUTLINE, DROP_SHADOW, RAISED, DEPRESSED [cast-unknown-value]
                \(style):4:16: error: $.fontScale: fontScale must be a positive number at most 100 (1 is the receiver's default size), found -1 [cast-bad-font-scale]
                cuekit: error: \(style) is not a valid TextTrackStyle

                """
        )
        #expect(directory.names == [])
    }

    @Test func takesTheStyleOfALoadMessage() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(#"{"type": "LOAD", "media": {"contentId": "x", "textTrackStyle": {"fontScale": 2}}}"#, to: "load.json")
        let run = try CommandLineRun.cuekit(["style", movie, "-o", "-", "--style", directory.file("load.json")])
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.contains("  font-size: 200%;\n"))
    }

    @Test(arguments: [
        (["--foreground", "yellow"], "'yellow' is not a Cast colour"),
        (["--edge-type", "glow"], "'glow' is not a TextTrackEdgeType; expected one of none, outline, drop-shadow, raised, depressed"),
        (["--font-scale=-2"], "'-2' is not a font scale"),
        (["--font-scale=1e308"], "'1e308' is not a font scale; write a positive number at most 100"),
        (["--window-corner-radius=-1"], "'-1' is not a radius"),
        ([], "give a style: --style style.json"),
    ])
    func badFlagsAreUsageErrors(flags: [String], message: String) throws {
        let run = try CommandLineRun.cuekit(["style", movie, "-o", "-"] + flags)
        #expect(run.status == 2, "\(run)")
        #expect(run.standardError.contains(message), "\(run)")
        #expect(run.standardOutput == "")
    }

    @Test func aMissingInputIsAnIOErrorAndLeavesTheOutputAlone() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("keep me", to: "out.vtt")
        let run = try CommandLineRun.cuekit(["style", directory.file("missing.vtt"), "-o", directory.file("out.vtt"), "--foreground", "#FFFFFF"])
        #expect(run.status == 2, "\(run)")
        #expect(run.standardError.hasPrefix("cuekit: error: cannot read '"), "\(run)")
        #expect(directory.read("out.vtt") == "keep me")
        #expect(directory.names == ["out.vtt"])
    }

    @Test func aFileThatIsNotWebVTTIsInvalidInput() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("1\n00:00:01,000 --> 00:00:02,000\nhello\n", to: "movie.srt")
        let run = try CommandLineRun.cuekit(["style", directory.file("movie.srt"), "-o", directory.file("out.vtt"), "--foreground", "#FFFFFF"])
        #expect(run.status == 1, "\(run)")
        #expect(run.standardError.contains("cannot be read as WebVTT; nothing was written"), "\(run)")
        #expect(directory.names == ["movie.srt"])
    }

    @Test func readsStandardInput() throws {
        let run = try CommandLineRun.cuekit(["style", "-", "-o", "-", "--font-scale", "2"], input: "WEBVTT\n\n00:00.000 --> 00:01.000\nhi\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.hasPrefix("WEBVTT\n\nSTYLE\n/* Cast TextTrackStyle */\n::cue {\n  font-size: 200%;\n}\n\n"))
    }
}
