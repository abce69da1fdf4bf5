import CueKitTestSupport
import Testing

@Suite struct CastMediaCommandTests {
    let movie = TestPaths.fixture("cast/movie.en.vtt")

    @Test func buildsALoadMessageFromCaptionFiles() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("WEBVTT\nKind: captions\nLanguage: fr-CA\nLabel: Français (CC)\n\n00:00.000 --> 00:01.000\nallô\n", to: "film.vtt")
        let run = try CommandLineRun.cuekit([
            "cast", "media", movie, directory.file("film.vtt"), "--content-id", "https://cdn.example.com/movie.mp4",
            "--base-url", "https://cdn.example.com/subs", "--active", "2", "--request-id", "7", "--title", "Movie", "--edge-type",
            "outline",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.standardError == "")
        #expect(
            run.standardOutput == """
                {
                  "type": "LOAD",
                  "requestId": 7,
                  "media": {
                    "contentId": "https://cdn.example.com/movie.mp4",
                    "contentType": "video/mp4",
                    "streamType": "BUFFERED",
                    "metadata": {
                      "metadataType": 0,
                      "title": "Movie"
                    },
                    "tracks": [
                      {
                        "trackId": 1,
                        "type": "TEXT",
                        "subtype": "SUBTITLES",
                        "trackContentId": "https://cdn.example.com/subs/movie.en.vtt",
                        "trackContentType": "text/vtt",
                        "name": "en",
                        "language": "en"
                      },
                      {
                        "trackId": 2,
                        "type": "TEXT",
                        "subtype": "CAPTIONS",
                        "trackContentId": "https://cdn.example.com/subs/film.vtt",
                        "trackContentType": "text/vtt",
                        "name": "Français (CC)",
                        "language": "fr-CA"
                      }
                    ],
                    "textTrackStyle": {
                      "edgeType": "OUTLINE"
                    }
                  },
                  "activeTrackIds": [
                    2
                  ]
                }

                """
        )
    }

    @Test func flagsNameTracksInOrderAndMediaOnlyPrintsTheMedia() throws {
        let run = try CommandLineRun.cuekit([
            "cast", "media", movie, "--content-id", "https://cdn.example.com/live.m3u8", "--stream-type", "live", "--language", "en-GB",
            "--name", "English", "--subtype", "captions", "--first-id", "10", "--base-url", "https://cdn.example.com/", "--media-only",
            "--compact",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.standardOutput
                == #"{"contentId":"https://cdn.example.com/live.m3u8","contentType":"application/x-mpegurl","streamType":"LIVE","tracks":[{"trackId":10,"type":"TEXT","subtype":"CAPTIONS","trackContentId":"https://cdn.example.com/movie.en.vtt","trackContentType":"text/vtt","name":"English","language":"en-GB"}]}"#
                + "\n"
        )
    }

    @Test func aMessageAReceiverWouldRefuseExitsOneButIsPrinted() throws {
        let run = try CommandLineRun.cuekit([
            "cast", "media", movie, "--content-id", "https://cdn.example.com/movie.mp4", "--language", "en_GB", "--active", "1,4",
        ])
        #expect(run.status == 1, "\(run)")
        #expect(run.standardOutput.hasPrefix("{\n  \"type\": \"LOAD\""))
        #expect(
            run.standardError == """
                <stdout>: error: $.media.tracks[0].language: 'en_GB' is not a BCP 47 language tag (RFC 5646); write 'en-GB' [cast-bad-language]
                <stdout>: warning: $.media.tracks[0].trackContentId: '\(movie)' is not an absolute URL: the receiver resolves trackContentId against its own page, not the sender's [cast-relative-url]
                <stdout>: error: $.activeTrackIds[1]: no track has id 4; the media's tracks are 1 [cast-unknown-active-track]
                cuekit: error: the message has 2 errors; a receiver would refuse it

                """
        )
    }

    @Test func writesToAFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let run = try CommandLineRun.cuekit(["cast", "media", "--content-id", "https://cdn.example.com/a.mp4", "-o", directory.file("load.json")])
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput == "")
        let check = try CommandLineRun.cuekit(["cast", "check", directory.file("load.json")])
        #expect(check.status == 0, "\(check)")
    }

    @Test(arguments: [
        (["--content-id", "x", "--language", "en", "--language", "fr"], "--language is given 2 times for 1 tracks"),
        (["--content-id", "x", "--media-only", "--active", "1"], "--active and --request-id belong to the LOAD message"),
        (["--content-id", "x", "--stream-type", "vod"], "'vod' is not a StreamType"),
        (["--language", "en"], "Missing expected argument '--content-id <id>'"),
    ])
    func badCommandLinesAreUsageErrors(flags: [String], message: String) throws {
        let run = try CommandLineRun.cuekit(["cast", "media", movie] + flags)
        #expect(run.status == 2, "\(run)")
        #expect(run.standardError.contains(message), "\(run)")
    }

    @Test func aMissingTrackFileIsAnIOError() throws {
        let run = try CommandLineRun.cuekit(["cast", "media", "missing.en.vtt", "--content-id", "x"])
        #expect(run.status == 2, "\(run)")
        #expect(run.standardError == "cuekit: error: cannot read 'missing.en.vtt': No such file or directory\n")
    }
}

@Suite struct CastCheckCommandTests {
    @Test(arguments: ["load-sender-guide.json", "load-sender-guide.canonical.json", "edit-tracks-info.json", "style-high-contrast.json"])
    func acceptsValidMessages(name: String) throws {
        let run = try CommandLineRun.cuekit(["cast", "check", TestPaths.fixture("cast/" + name)])
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput == "1 file: 1 valid (0 errors, 0 warnings)\n")
        #expect(run.standardError == "")
    }

    @Test func checksManyFilesWithOneSummaryAndTheWorstStatus() throws {
        let valid = TestPaths.fixture("cast/edit-tracks-info.json"), invalid = TestPaths.fixture("cast/load-invalid.json")
        let run = try CommandLineRun.cuekit(["cast", "check", valid, invalid, "missing.json"])
        #expect(run.status == 2, "an unreadable file is an I/O error: \(run)")
        #expect(run.standardOutput.hasSuffix("\n3 files: 1 valid, 1 invalid, 1 unreadable (4 errors, 1 warning)\n"), "\(run)")
        #expect(run.standardOutput.split(separator: "\n").filter { $0.hasPrefix(invalid + ":") }.count == 5)
        #expect(run.standardError == "cuekit: error: cannot read 'missing.json': No such file or directory\n")
        let readable = try CommandLineRun.cuekit(["cast", "check", valid, invalid])
        #expect(readable.status == 1, "\(readable)")
        #expect(readable.standardOutput.hasSuffix("\n2 files: 1 valid, 1 invalid (4 errors, 1 warning)\n"))
    }

    @Test func printsEveryProblemWithItsLineAndExitsOne() throws {
        let file = TestPaths.fixture("cast/load-invalid.json")
        let run = try CommandLineRun.cuekit(["cast", "check", file])
        #expect(run.status == 1)
        #expect(
            run.standardOutput == """
                \(file):7:80: warning: $.media.tracks[0].trackContentId: 'subs/en.vtt' is not an absolute URL: the receiver resolves trackContentId against its own page, not the sender's [cast-relative-url]
                \(file):8:7: error: $.media.tracks[1]: a SUBTITLES track needs a language (the receiver and sender menus match subtitles by it) [cast-missing-language]
                \(file):8:19: error: $.media.tracks[1].trackId: track id 1 is already used by $.media.tracks[0]; track ids must be unique [cast-duplicate-track-id]
                \(file):8:134: error: $.media.tracks[1].trackContentType: 'audio/mp4' is not a text format, but the track's type is TEXT [cast-content-type-mismatch]
                \(file):11:22: error: $.activeTrackIds[0]: no track has id 2; the media's tracks are 1 [cast-unknown-active-track]
                1 file: 0 valid, 1 invalid (4 errors, 1 warning)

                """
        )
        #expect(run.standardError == "")
    }

    @Test func warningsFailOnlyWhenAskedTo() throws {
        let input =
            #"{"contentId": "https://cdn.example.com/a.mp4", "contentType": "video/mp4", "contentUrl": "http://cdn.example.com/a.mp4"}"#
        let relaxed = try CommandLineRun.cuekit(["cast", "check", "-"], input: input)
        #expect(relaxed.status == 0, "\(relaxed)")
        #expect(relaxed.standardOutput.contains("<stdin>:1:90: warning: $.contentUrl: 'http://cdn.example.com/a.mp4' is http"))
        #expect(relaxed.standardOutput.hasSuffix("\n1 file: 1 valid (0 errors, 1 warning)\n"))
        let strict = try CommandLineRun.cuekit(["cast", "check", "--warnings-as-errors", "-"], input: input)
        #expect(strict.status == 1, "\(strict)")
        #expect(strict.standardOutput.hasSuffix("\n1 file: 0 valid, 1 invalid (0 errors, 1 warning, warnings are errors)\n"))
    }

    @Test func readsAsTheKindItIsTold() throws {
        let style = try CommandLineRun.cuekit(["cast", "check", "--as", "style", "-"], input: #"{"edgeType": "GLOW"}"#)
        #expect(style.status == 1)
        #expect(style.standardOutput.contains("<stdin>:1:14: error: $.edgeType: 'GLOW' is not a TextTrackEdgeType"))
        let bad = try CommandLineRun.cuekit(["cast", "check", "--as", "queue", "-"], input: "{}")
        #expect(bad.status == 2)
    }

    @Test func aFontScaleOutOfRangeIsRefusedWhereItIs() throws {
        let check = try CommandLineRun.cuekit(["cast", "check", "--as", "style", "-"], input: #"{"fontScale":1e308}"#)
        #expect(check.status == 1, "\(check)")
        #expect(check.standardOutput.hasPrefix("<stdin>:1:14: error: $.fontScale: fontScale must be a positive number at most 100"))
    }

    @Test func syntaxErrorsAndUnknownMessagesAreInvalid() throws {
        let broken = try CommandLineRun.cuekit(["cast", "check", "-"], input: "{\"type\": \"LOAD\", }")
        #expect(broken.status == 1)
        #expect(
            broken.standardOutput
                == "<stdin>:1:18: error: unexpected '}'; expected a member name in double quotes [cast-json-syntax]\n1 file: 0 valid, 1 invalid (1 error, 0 warnings)\n")
        let seek = try CommandLineRun.cuekit(["cast", "check", "-"], input: #"{"type": "SEEK"}"#)
        #expect(seek.status == 1)
        #expect(seek.standardOutput.contains("is not a message type CueKit checks"))
    }

    @Test func anUnreadableFileIsAnIOError() throws {
        let run = try CommandLineRun.cuekit(["cast", "check", "missing.json"])
        #expect(run.status == 2)
        #expect(run.standardError == "cuekit: error: cannot read 'missing.json': No such file or directory\n")
    }
}
