import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

/// `cuekit convert` and `cuekit inspect` on TTML, run as the built binary: the format is told from
/// the content, whatever the file is called.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"))
struct TTMLInputTests {
    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="en">
          <head><styling><style xml:id="yellow" tts:color="yellow"/></styling></head>
          <body><div>
            <p begin="1s" end="2.5s" style="yellow">Hello <span tts:fontStyle="italic">there</span></p>
            <p begin="00:00:03.000" end="00:00:04.000"><span tts:color="#ff0000">red</span></p>
          </div></body>
        </tt>

        """

    static let expected = """
        WEBVTT

        STYLE
        ::cue { background-color: transparent; }
        ::cue(.yellow) { color: #ffff00; }
        ::cue(.t1) { color: #ff0000; }

        00:00:01.000 --> 00:00:02.500 line:0% align:left
        <c.yellow>Hello <i>there</i></c>

        00:00:03.000 --> 00:00:04.000 line:0% align:left
        <c.t1>red</c>

        """

    static func run(_ arguments: [String], input: String = "") -> ExternalProcess.Result {
        ExternalProcess.run(CommandLineRun.executable.path, arguments, input: Array(input.utf8))
    }

    @Test func convertsAFileToWebVTT() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(Self.document, to: "episode.txt")
        let result = Self.run(["convert", directory.file("episode.txt"), "-o", directory.file("episode.vtt")])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        #expect(directory.read("episode.vtt") == Self.expected)
    }

    /// Standard input is copied to a temporary file and read as a file is, so that the inline style
    /// of the second paragraph still gets its class in the STYLE block.
    @Test func convertsStandardInputWithEveryClassUpFront() {
        let result = Self.run(["convert", "-"], input: Self.document)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == Self.expected)
        #expect(!result.error.contains("ttml-inline-style-late"))
    }

    @Test func inspectPrintsJSON() throws {
        let result = Self.run(["inspect", "--json", "-"], input: Self.document)
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let cues = object?["cues"] as? [[String: Any]] ?? []
        #expect(cues.map { $0["startTime"] as? Double } == [1, 3])
        #expect(cues.map { $0["text"] as? String } == ["<c.yellow>Hello <i>there</i></c>", "<c.t1>red</c>"])
        #expect(cues.map { $0["align"] as? String } == ["left", "left"])
    }

    @Test func inspectNamesTheFormat() {
        let result = Self.run(["inspect", "-"], input: Self.document)
        #expect(result.output.hasPrefix("<stdin>: TTML, 2 cues from 00:00:01.000 to 00:00:04.000, 1 style sheet\n"))
    }

    /// A document type declaration is refused: exit status 1, one line, no output file.
    @Test func refusesADocumentTypeDeclaration() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let fixture = TestPaths.fixture("ttml/billion-laughs.ttml")
        let result = Self.run(["convert", fixture, "-o", directory.file("out.vtt")])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("\(fixture):2:"))
        #expect(result.error.hasSuffix("[ttml-doctype]\n"))
        #expect(directory.names.isEmpty)
    }

    @Test func fromForcesTheFormat() {
        let result = Self.run(["convert", "--from", "vtt", "-"], input: Self.document)
        #expect(result.status == 1)
        #expect(result.error.hasSuffix("[vtt-no-signature]\n"))
    }
}
