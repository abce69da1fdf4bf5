import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

@testable import CueKitCLI

@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"))
struct InspectCommandTests {
    @Test func summarizesAFile() throws {
        let run = try CommandLineRun.cuekit(["inspect", "Fixtures/webvtt/cue-order.vtt"])
        #expect(run.status == 0)
        #expect(run.standardError == "")
        #expect(
            run.standardOutput == """
                Fixtures/webvtt/cue-order.vtt: WebVTT, 3 cues from 00:00:01.000 to 00:00:05.000

                1  00:00:05.000 --> 00:00:05.000  #"a"
                   zero length
                2  00:00:06.000 --> 00:00:04.000  #"b"
                   backwards
                3  00:00:01.000 --> 00:00:02.000  #"a"
                   earlier start, same identifier

                2 errors, 2 warnings:
                Fixtures/webvtt/cue-order.vtt:4:1: error: the cue ends when it starts, so it is never shown [vtt-end-not-after-start]
                Fixtures/webvtt/cue-order.vtt:8:1: error: the cue ends before it starts, so it is never shown [vtt-end-not-after-start]
                Fixtures/webvtt/cue-order.vtt:11:1: warning: cue identifier 'a' is used by an earlier cue; identifiers must be unique [vtt-duplicate-cue-identifier]
                Fixtures/webvtt/cue-order.vtt:12:1: warning: this cue starts before the cue before it; cues must be in order of start time [vtt-start-before-previous]

                """
        )
    }

    @Test func summarizesRegionsStylesAndComments() throws {
        let run = try CommandLineRun.cuekit(["inspect", "Fixtures/webvtt/valid.vtt"])
        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines.first
                == "Fixtures/webvtt/valid.vtt: WebVTT, 4 cues from 00:00:00.000 to 01:00:08.500, 2 regions, 2 style sheets, 3 comments")
        #expect(lines.contains("header: \"- Interview, take 2\""))
        #expect(lines.contains("region \"fred\": width 40%, 3 lines, region anchor 0%,100% at 10%,90% of the video, scroll up"))
        #expect(lines.contains("2  00:00:02.000 --> 00:00:04.000  position:10%,line-left size:50% align:start  #\"2\""))
        #expect(lines.contains("3  00:00:04.000 --> 00:00:06.000  vertical:rl line:-1,end  #\"3\""))
        #expect(lines.last == "" && lines.dropLast().last == "no problems found")
    }

    @Test func readsStandardInput() throws {
        let run = try CommandLineRun.cuekit(["inspect", "-"], input: Array("WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n".utf8))
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("<stdin>: WebVTT, 1 cue from 00:00:01.000 to 00:00:02.000\n"))
    }

    @Test func printsTheTrackAsJSON() throws {
        let run = try CommandLineRun.cuekit(["inspect", "--json", "Fixtures/webvtt/valid.vtt"])
        #expect(run.status == 0)
        #expect(run.standardError == "")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["styles", "regions", "cues", "diagnostics"])
        #expect(
            object["styles"] as? [String] == [
                "::cue(v[voice=\"Esme\"]) { color: cyan }\n::cue(.loud) { font-weight: bold }", "::cue-region(#fred) { background: black }",
            ])
        let regions = try #require(object["regions"] as? [[String: Any]])
        #expect(regions.count == 2)
        #expect(Set(regions[0].keys) == Self.regionKeys)
        #expect(regions[0]["id"] as? String == "fred" && regions[0]["scroll"] as? String == "up")
        let cues = try #require(object["cues"] as? [[String: Any]])
        #expect(cues.count == 4)
        for cue in cues { #expect(Set(cue.keys) == Self.cueKeys) }
        #expect(cues[0]["region"] as? [String: Any] != nil)
        #expect(cues[1]["region"] is NSNull)
        #expect(cues[2]["line"] as? Double == -1 && cues[2]["lineAlign"] as? String == "end" && cues[2]["vertical"] as? String == "rl")
        #expect(cues[3]["startTime"] as? Double == 3606 && cues[3]["endTime"] as? Double == 3608.5)
        #expect(cues[3]["line"] as? Double == 90 && cues[3]["snapToLines"] as? Bool == false)
        let nodes = try #require(cues[0]["nodes"] as? [[String: Any]])
        #expect(nodes.count == 1)
        #expect(nodes[0]["type"] as? String == "v")
        #expect(nodes[0]["classes"] as? [String] == ["first", "loud"])
        #expect(nodes[0]["annotation"] as? String == "Esme")
        #expect((nodes[0]["children"] as? [[String: Any]])?.first?["value"] as? String == "It's a blue apple tree!")
        let karaoke = try #require(cues[3]["nodes"] as? [[String: Any]])
        #expect(karaoke.map { $0["type"] as? String } == ["text", "timestamp", "text", "timestamp", "text"])
        #expect(karaoke[1]["value"] as? Double == 3606.5)
        #expect((object["diagnostics"] as? [Any])?.isEmpty == true)
    }

    @Test func listsDiagnosticsInJSON() throws {
        let run = try CommandLineRun.cuekit(["inspect", "--json", "Fixtures/webvtt/cue-order.vtt"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 4)
        #expect(Set(diagnostics[0].keys) == ["severity", "code", "line", "column", "message"])
        #expect(diagnostics[0]["severity"] as? String == "error")
        #expect(diagnostics[0]["code"] as? String == "vtt-end-not-after-start")
        #expect(diagnostics[0]["line"] as? Int == 4 && diagnostics[0]["column"] as? Int == 1)
    }

    @Test(arguments: [
        ["inspect", "Fixtures/webvtt/signature-missing.vtt"], ["inspect", "--json", "Fixtures/webvtt/signature-missing.vtt"],
    ])
    func exitsOneForAFileThatIsNotWebVTT(_ arguments: [String]) throws {
        let run = try CommandLineRun.cuekit(arguments)
        #expect(run.status == 1)
        #expect(run.standardOutput == "")
        #expect(
            run.standardError
                == "Fixtures/webvtt/signature-missing.vtt:1:1: error: a WebVTT file starts with the line 'WEBVTT'; this is not a WebVTT file [vtt-no-signature]\n"
        )
    }

    @Test func exitsTwoForUsageAndInputOutputErrors() throws {
        let missing = try CommandLineRun.cuekit(["inspect", "no-such-file.vtt"])
        #expect(missing.status == 2)
        #expect(missing.standardOutput == "")
        #expect(missing.standardError == "cuekit: error: cannot read 'no-such-file.vtt': No such file or directory\n")

        let directory = try CommandLineRun.cuekit(["inspect", "Fixtures"])
        #expect(directory.status == 2)
        #expect(directory.standardError == "cuekit: error: cannot read 'Fixtures': Is a directory\n")

        let noFile = try CommandLineRun.cuekit(["inspect"])
        #expect(noFile.status == 2)
        #expect(noFile.standardError.contains("Missing expected argument '<file>'"))

        let badFlag = try CommandLineRun.cuekit(["inspect", "--jsn", "x.vtt"])
        #expect(badFlag.status == 2)
        #expect(badFlag.standardError.contains("--jsn"))
    }

    @Test func closesTheJSONWhenALimitStopsReading() throws {
        var input = Array("WEBVTT\n\n00:00.000 --> 00:01.000\nfirst\n\n00:01.000 --> 00:02.000\n".utf8)
        input += Array(repeating: UInt8(ascii: "x"), count: 17 << 20)
        let run = try CommandLineRun.cuekit(["inspect", "--json", "-"], input: input)
        #expect(run.status == 1)
        #expect(run.standardError.contains("[vtt-line-too-long]"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect((object["cues"] as? [Any])?.count == 1)
        #expect(((object["diagnostics"] as? [[String: Any]])?.last?["code"] as? String) == "vtt-line-too-long")
    }

    static let cueKeys: Set<String> = [
        "id", "startTime", "endTime", "text", "vertical", "snapToLines", "line", "lineAlign", "position", "positionAlign", "size", "align",
        "region", "nodes",
    ]
    static let regionKeys: Set<String> = [
        "id", "width", "lines", "regionAnchorX", "regionAnchorY", "viewportAnchorX", "viewportAnchorY", "scroll",
    ]
}
