import CueKitConversion
import CueKitTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import CueKitServer

/// One engine behind every door: the same out-of-order tracks, with and without a Cast style,
/// converted by the library (``TrackConversion``), `cuekit convert`, the ConvertAnything example
/// and `cuekit serve`'s `/tracks/NAME?as=vtt` come out as the same bytes, with their cues in
/// start-time order.
@Suite(.tags(.network), .skippableByTag) struct EveryDoorTests {
    /// Tracks whose cues come out of start-time order, in each format read.
    static let tracks = [
        "order.srt": "1\n00:00:05,000 --> 00:00:06,000\nSecond\n\n2\n00:00:01,000 --> 00:00:02,000\nFirst\n",
        "order.vtt": "WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nLater\n\n00:00:01.000 --> 00:00:02.000\nEarlier\n\nNOTE kept before its cue\n\n00:00:03.000 --> 00:00:04.000\nMiddle\n",
        "order.ttml": """
            <tt xmlns="http://www.w3.org/ns/ttml"><body>
            <div begin="5s"><p begin="0s" end="1s">Later division</p></div>
            <div begin="1s"><p begin="0s" end="1s">Earlier division</p></div>
            </body></tt>
            """,
        // ASS: events in file order, out of start-time order.
        "order.ass": """
            [Script Info]
            ScriptType: v4.00+

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:05.00,0:00:06.00,Default,,0,0,0,,Later event
            Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Earlier event

            """,
        // SCC: two pop-on captions, each shown from its End of Caption to its Erase Displayed Memory.
        "order.scc": """
            Scenarist_SCC V1.0

            00:00:01:00\t9420 9420 94d0 94d0 4561 f2ec e9e5 f220 e361 70f4 e9ef 6e80 942f 942f

            00:00:03:00\t942c 942c

            00:00:05:00\t9420 9420 94d0 94d0 4c61 f4e5 f220 e361 70f4 e9ef 6e80 942f 942f

            00:00:07:00\t942c 942c

            """,
        // An HLS subtitle playlist: a cue repeated in both segments it spans is one cue.
        "order.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\norder0.vtt\n#EXTINF:6,\norder1.vtt\n#EXT-X-ENDLIST\n",
    ]
    /// The segments `order.m3u8` names.
    static let segments = [
        "order0.vtt": "WEBVTT\n\n00:00:05.000 --> 00:00:07.000\nAcross\n\n00:00:01.000 --> 00:00:02.000\nEarlier\n",
        "order1.vtt": "WEBVTT\n\n00:00:05.000 --> 00:00:07.000\nAcross\n\n00:00:06.500 --> 00:00:08.000\nLater\n",
    ]
    static let style = ##"{"foregroundColor":"#FFFF00FF","edgeType":"OUTLINE","edgeColor":"#000000FF"}"##

    @Test(arguments: ["order.srt", "order.vtt", "order.ttml", "order.ass", "order.scc", "order.m3u8"], [false, true])
    func everyDoorWritesTheSameOrderedBytes(name: String, styled: Bool) async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write(Self.tracks[name]!, to: name)
        for (segment, text) in Self.segments { folder.write(text, to: segment) }
        folder.write(Self.style, to: "style.json")
        let input = folder.path + "/" + name
        let styleArguments = styled ? [folder.path + "/style.json"] : []

        // The library.
        let style = try styled ? TextTrackStyle(document: CastJSONDocument(parsing: Array(Self.style.utf8))) : nil
        var library = MemorySink()
        try TrackConversion(source: try TrackSource(path: input), options: .init(format: .webVTT, style: style)).write(to: &library)
        let expected = library.string
        let starts = expected.split(separator: "\n").filter { $0.contains(" --> ") }.map { String($0.prefix(12)) }
        #expect(starts.count == (name == "order.vtt" || name == "order.m3u8" ? 3 : 2), "\(expected)")
        #expect(starts == starts.sorted(), "cues out of order:\n\(expected)")

        // The command line.
        let command = try CommandLineRun.cuekit(["convert", input, "-o", "-", "-q"] + (styled ? ["--style"] + styleArguments : []))
        #expect(command.status == 0, "\(command)")
        #expect(command.standardOutput == expected)

        // The example.
        let example = try CommandLineRun.run(CommandLineRun.product("ConvertAnything"), [input] + styleArguments)
        #expect(example.status == 0, "\(example)")
        #expect(example.standardOutput == expected)

        // The server.
        let served = try await withServer(folder) { client, _ in
            try await client.execute(uri: "/tracks/\(name)?as=vtt" + (styled ? "&style=style.json" : ""), method: .get) { response in
                #expect(response.status == .ok)
                return response.text
            }
        }
        #expect(served == expected)
    }
}
