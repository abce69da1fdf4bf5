import CueKit
import CueKitCast
import CueKitTestSupport
import CueKitTTML
import CueKitWebVTT
import Foundation
import Testing

/// Small WebVTT tracks drawn twice by renderers CueKit did not write: the WebVTT by Chromium's own
/// `<video>` and `<track>` (what a Cast receiver shows), and the TTML ``TTMLWriter`` makes of it,
/// in IMSC 1.1 and in EBU-TT-D, by imscJS 1.1.5, the IMSC reference renderer (vendored in
/// `Fixtures/conformance/imscJS/`), in the same Chromium, in a box of the video's size over the
/// video's grey. The text lands in the same place (its centroid and each edge of its bounding box
/// within 5% of the frame), in the same colour, on the same dark backdrop, with the same edge, for
/// cues placed by `position`, `line` (percentages, `100%`, line numbers) and `align`, in WebVTT's
/// default look, with a `::cue` colour and a Cast edge; imscJS reports nothing about any
/// document. With `CUEKIT_WRITE_PICTURES=1` the screenshot (one row per case: WebVTT, IMSC 1.1,
/// EBU-TT-D) is written to `Fixtures/ttml/webvtt-and-imscjs.png`.
@Suite(.enabled(if: ChromiumCaptionRenderer.isAvailable, "chromium or ffmpeg is not installed"), .tags(.chromium), .skippableByTag)
struct TTMLWriterIMSCTests {
    /// One track to draw, and what its text looks like.
    struct Case {
        var name: String
        var webVTT: String
        var isText: @Sendable (Image.Pixel) -> Bool
        /// The text's colour is not this one (white for coloured text, coloured for white text).
        var isOtherText: @Sendable (Image.Pixel) -> Bool
        /// An edge drawn round the text, in this colour.
        var isEdge: (@Sendable (Image.Pixel) -> Bool)?
    }

    static let profiles: [TTMLProfile] = [.imsc11, .ebuTTD]

    static func isWhite(_ p: Image.Pixel) -> Bool { p.red > 200 && p.green > 200 && p.blue > 200 }
    static func isYellow(_ p: Image.Pixel) -> Bool { p.red > 200 && p.green > 200 && p.blue < 90 }
    static func isBluish(_ p: Image.Pixel) -> Bool { p.blue > p.red + 60 && p.blue > p.green + 60 }
    /// WebVTT's backdrop, 80% black, over the grey video (0x40): about 0x0d.
    static func isBackdrop(_ p: Image.Pixel) -> Bool { max(p.red, p.green, p.blue) < 30 }

    static func cue(_ settings: String, _ text: String = "Where were you last night?") -> String {
        "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\(settings.isEmpty ? "" : " " + settings)\n\(text)\n"
    }

    /// A Cast OUTLINE edge in blue, at twice the size, baked into a one-cue track as the Cast
    /// sender bakes it: the `::cue` rule's `text-shadow`.
    static func castOutline() throws -> String {
        var track = try WebVTTReader.read(cue("")).track
        TextTrackStyle(edgeType: .outline, edgeColor: CastColor(red: 0, green: 0, blue: 255), fontScale: 2).apply(to: &track)
        var writer = WebVTTWriter(to: MemorySink())
        try writer.write(track)
        return writer.sink.string
    }

    static func cases() throws -> [Case] {
        let white: @Sendable (Image.Pixel) -> Bool = { isWhite($0) }
        let yellow: @Sendable (Image.Pixel) -> Bool = { isYellow($0) }
        return [
            Case(name: "a plain cue at the bottom (WebVTT's look)", webVTT: cue(""), isText: white, isOtherText: yellow),
            Case(name: "position:37% line:74%", webVTT: cue("position:37% line:74%"), isText: white, isOtherText: yellow),
            Case(name: "line:100%", webVTT: cue("line:100%"), isText: white, isOtherText: yellow),
            Case(name: "line:0%", webVTT: cue("line:0%"), isText: white, isOtherText: yellow),
            Case(
                name: "a yellow ::cue", webVTT: "WEBVTT\n\nSTYLE\n::cue { color: #ffff00 }\n\n" + cue("").dropFirst("WEBVTT\n\n".count),
                isText: yellow, isOtherText: white),
            Case(name: "a Cast OUTLINE edge", webVTT: try castOutline(), isText: white, isOtherText: yellow, isEdge: { isBluish($0) }),
            Case(name: "two lines at line:50%", webVTT: cue("line:50%", "Where were you\nlast night?"), isText: white, isOtherText: yellow),
            Case(name: "two lines at the bottom", webVTT: cue("", "Where were you\nlast night?"), isText: white, isOtherText: yellow),
            Case(name: "line 3 from the top", webVTT: cue("line:3"), isText: white, isOtherText: yellow),
            Case(name: "line -3 from the bottom", webVTT: cue("line:-3"), isText: white, isOtherText: yellow),
            Case(name: "align:start at position:10%", webVTT: cue("align:start position:10% size:50%"), isText: white, isOtherText: yellow),
        ]
    }

    @Test func imscJSDrawsTheTTMLWhereChromiumDrawsTheWebVTT() async throws {
        let cases = try Self.cases()
        var panels: [ChromiumCaptionRenderer.Panel] = []
        for item in cases {
            panels.append(.webVTT(item.webVTT))
            let track = try WebVTTReader.read(item.webVTT).track
            for profile in Self.profiles {
                var writer = TTMLWriter(to: MemorySink(), options: TTMLWriterOptions(profile: profile))
                try writer.write(track)
                // Only EBU-TT-D's missing outline is a loss, and it is reported.
                let expected = item.isEdge != nil && profile == .ebuTTD ? 1 : 0
                #expect(writer.diagnostics.count == expected, "\(item.name), \(profile): \(writer.diagnostics)")
                panels.append(.ttml(writer.sink.string))
            }
        }
        let renderer = try #require(try ChromiumCaptionRenderer.make())
        let keep = ProcessInfo.processInfo.environment["CUEKIT_KEEP_RENDERINGS"] != nil
        defer { if !keep { renderer.removeFiles() } }
        let columns = 1 + Self.profiles.count
        let rendering = try await renderer.render(panels, columns: columns)
        if ProcessInfo.processInfo.environment["CUEKIT_WRITE_PICTURES"] == "1" {
            let picture = TestPaths.fixture("ttml/webvtt-and-imscjs.png")
            try? FileManager.default.removeItem(atPath: picture)
            try FileManager.default.copyItem(atPath: renderer.screenshotPath, toPath: picture)
        }
        let where_ = keep ? "see \(renderer.screenshotPath)" : "set CUEKIT_KEEP_RENDERINGS=1 to keep the screenshot and the documents"
        let (width, height) = (Double(ChromiumCaptionRenderer.videoWidth), Double(ChromiumCaptionRenderer.videoHeight))

        for (row, item) in cases.enumerated() {
            let fromWebVTT = rendering.images[row * columns]
            let text = fromWebVTT.region(where: item.isText)
            #expect(text.count > 150, "\(item.name): Chromium draws no text from the WebVTT; \(where_)")
            #expect(fromWebVTT.region(where: item.isOtherText).count * 10 < text.count, "\(item.name): WebVTT text colour; \(where_)")
            let backdrop = fromWebVTT.region(where: Self.isBackdrop)
            #expect(backdrop.count > text.count, "\(item.name): WebVTT draws no backdrop; \(where_)")
            let edge = item.isEdge.map { fromWebVTT.region(where: $0) }
            if let edge { #expect(edge.count > 100, "\(item.name): WebVTT draws no edge; \(where_)") }

            for (column, profile) in Self.profiles.enumerated() {
                let index = row * columns + 1 + column
                let label = "\(item.name), \(profile) (panel \(index))"
                #expect(rendering.imscMessages[index].isEmpty, "\(label): imscJS says \(rendering.imscMessages[index])")
                let fromTTML = rendering.images[index]
                let ttmlText = fromTTML.region(where: item.isText)
                #expect(ttmlText.count > 150, "\(label): imscJS draws no text in the colour the WebVTT has; \(where_)")
                #expect(fromTTML.region(where: item.isOtherText).count * 10 < ttmlText.count, "\(label): text colour; \(where_)")
                let (dx, dy) = (ttmlText.centroid.x - text.centroid.x, ttmlText.centroid.y - text.centroid.y)
                #expect(
                    abs(dx) <= width * 0.05 && abs(dy) <= height * 0.05,
                    "\(label): text centred at \(text.centroid) from WebVTT, \(ttmlText.centroid) from TTML (\(dx), \(dy) px); \(where_)")
                // The text's bounding box, edge by edge, within 5% of the frame.
                let edges = [
                    ("left", text.minX, ttmlText.minX, width), ("right", text.maxX, ttmlText.maxX, width),
                    ("top", text.minY, ttmlText.minY, height), ("bottom", text.maxY, ttmlText.maxY, height),
                ]
                for (edge, fromWebVTT, fromTTML, extent) in edges {
                    #expect(
                        Double(abs(fromTTML - fromWebVTT)) <= extent * 0.05,
                        "\(label): the text's \(edge) edge is at \(fromWebVTT) px from WebVTT, \(fromTTML) px from TTML; \(where_)")
                }
                // WebVTT's look: text of 5% of the video's height in sans-serif (a monospace
                // font, or TTML's default size, makes the line a third wider)...
                let (textWidth, ttmlTextWidth) = (text.maxX - text.minX + 1, ttmlText.maxX - ttmlText.minX + 1)
                #expect(
                    abs(ttmlTextWidth - textWidth) * 10 <= textWidth,
                    "\(label): the text is \(textWidth) px wide from WebVTT, \(ttmlTextWidth) px from TTML; \(where_)")
                // ...on a dark backdrop, in both.
                let ttmlBackdrop = fromTTML.region(where: Self.isBackdrop)
                #expect(ttmlBackdrop.count > ttmlText.count, "\(label): no backdrop drawn behind the text; \(where_)")
                #expect(
                    abs(ttmlBackdrop.centroid.x - backdrop.centroid.x) <= width * 0.05
                        && abs(ttmlBackdrop.centroid.y - backdrop.centroid.y) <= height * 0.05,
                    "\(label): backdrop centred at \(backdrop.centroid) from WebVTT, \(ttmlBackdrop.centroid) from TTML; \(where_)")
                if let isEdge = item.isEdge {
                    let ttmlEdge = fromTTML.region(where: isEdge)
                    if profile == .ebuTTD {
                        #expect(ttmlEdge.count == 0, "\(label): EBU-TT-D has no outline; \(where_)")
                    } else {
                        #expect(ttmlEdge.count > 100, "\(label): imscJS draws no edge; \(where_)")
                        #expect(
                            ttmlEdge.minX < ttmlText.minX && ttmlEdge.maxX > ttmlText.maxX && ttmlEdge.minY < ttmlText.minY
                                && ttmlEdge.maxY > ttmlText.maxY, "\(label): the outline surrounds the text; \(where_)")
                    }
                }
            }
        }
    }
}
