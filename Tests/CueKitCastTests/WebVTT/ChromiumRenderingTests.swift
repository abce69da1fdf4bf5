import CueKit
import CueKitCast
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

/// A styled file, played in Chromium (what Cast receivers are built on), draws its captions with the
/// style's colours, edge and size. Each check compares pixels of the screenshot: colours by class
/// (red text, yellow box, blue edge), sizes by the height of the caption box, and edge directions
/// by where the edge colour lies against the text.
@Suite(.serialized, .enabled(if: ChromiumCaptionRenderer.isAvailable, "chromium or ffmpeg not installed"), .tags(.chromium), .skippableByTag)
struct ChromiumRenderingTests {
    static let red = CastColor(red: 255, green: 0, blue: 0)
    static let yellow = CastColor(red: 255, green: 255, blue: 0)
    static let blue = CastColor(red: 0, green: 0, blue: 255)

    static func isRed(_ p: Image.Pixel) -> Bool { p.red > 200 && p.green < 70 && p.blue < 70 }
    static func isYellow(_ p: Image.Pixel) -> Bool { p.red > 200 && p.green > 200 && p.blue < 70 }
    static func isBlue(_ p: Image.Pixel) -> Bool { p.blue > 180 && p.red < 70 && p.green < 70 }
    static func isBluish(_ p: Image.Pixel) -> Bool { p.blue > p.red + 60 && p.blue > p.green + 60 }
    static func isCyan(_ p: Image.Pixel) -> Bool { p.green > 200 && p.blue > 200 && p.red < 70 }
    static func isLime(_ p: Image.Pixel) -> Bool { p.green > 200 && p.red < 70 && p.blue < 70 }
    static func isWhite(_ p: Image.Pixel) -> Bool { p.red > 220 && p.green > 220 && p.blue > 220 }
    static func isOrange(_ p: Image.Pixel) -> Bool { p.red > 220 && (100...160).contains(p.green) && p.blue < 50 }

    /// A WebVTT file: its own style sheet (if any), the Cast style applied, one cue showing at 0.5 s.
    static func file(ownCSS: String?, style: TextTrackStyle?, text: String = "HELLO WORLD") throws -> String {
        var track = Track(
            stylesheets: ownCSS.map { [CueStylesheet($0)] } ?? [],
            cues: [Cue(start: 0, end: 10_000, text: text)]
        )
        if let style { style.apply(to: &track) }
        var writer = WebVTTWriter(to: MemorySink())
        try writer.write(track)
        return writer.sink.string
    }

    static func styled(_ edge: TextTrackStyle.EdgeType, scale: Double = 3) -> TextTrackStyle {
        TextTrackStyle(foregroundColor: red, backgroundColor: yellow, edgeType: edge, edgeColor: blue, fontScale: scale)
    }

    @Test func drawsTheStylesColoursEdgesAndSizes() async throws {
        let renderer = try #require(try ChromiumCaptionRenderer.make())
        let files = [
            // 0: no style: Chromium's own white text on translucent black.
            try Self.file(ownCSS: "::cue { font-size: 300%; }", style: nil),
            // 1: the style's ::cue rule beats the file's ::cue rule; the file's class rule still styles its span.
            try Self.file(
                ownCSS: "::cue { color: lime; font-size: 50%; }\n::cue(.name) { color: cyan; }", style: Self.styled(.none),
                text: "HELLO <c.name>WORLD</c>"),
            try Self.file(ownCSS: nil, style: Self.styled(.dropShadow)),
            try Self.file(ownCSS: nil, style: Self.styled(.raised)),
            try Self.file(ownCSS: nil, style: Self.styled(.depressed)),
            try Self.file(ownCSS: nil, style: Self.styled(.outline)),
            // 6: half the scale of case 1.
            try Self.file(ownCSS: nil, style: Self.styled(.none, scale: 1.5)),
            // 7: a half-transparent red over the yellow box.
            try Self.file(
                ownCSS: nil,
                style: TextTrackStyle(
                    foregroundColor: CastColor(red: 255, green: 0, blue: 0, alpha: 128), backgroundColor: Self.yellow, fontScale: 3)
            ),
        ]
        let images = try await renderer.render(files)
        let keep = ProcessInfo.processInfo.environment["CUEKIT_KEEP_RENDERINGS"] != nil
        defer { if !keep { renderer.removeFiles() } }
        let where_ = keep ? "screenshot: \(renderer.screenshotPath)" : "set CUEKIT_KEEP_RENDERINGS=1 to keep the screenshot"

        // 0: the control. Nothing of the style's colours is drawn without it.
        #expect(images[0].region(where: Self.isWhite).count > 200, "\(where_)")
        #expect(images[0].region(where: Self.isRed).count == 0, "\(where_)")
        #expect(images[0].region(where: Self.isYellow).count == 0, "\(where_)")

        // 1: red text on a yellow box; the file's lime ::cue rule lost, its .name rule kept cyan.
        let box = images[1].region(where: Self.isYellow)
        #expect(box.count > 2_000, "\(where_)")
        #expect(images[1].region(where: Self.isRed).count > 200, "\(where_)")
        #expect(images[1].region(where: Self.isCyan).count > 200, "\(where_)")
        #expect(images[1].region(where: Self.isLime).count == 0, "\(where_)")
        #expect(images[1].region(where: Self.isBlue).count == 0, "no edge with edge type NONE; \(where_)")

        // 2...5: each edge type draws in the edge colour, on the side the mapping says: light from
        // the top left, so DROP_SHADOW and RAISED fall down-right, DEPRESSED up-left, OUTLINE all round.
        for (index, name) in [(2, "DROP_SHADOW"), (3, "RAISED"), (4, "DEPRESSED"), (5, "OUTLINE")] {
            let text = images[index].region(where: Self.isRed)
            let edge = images[index].region(where: Self.isBluish)
            #expect(text.count > 200, "\(name): \(where_)")
            #expect(edge.count > 100, "\(name) draws no edge: \(where_)")
            let (downRight, upLeft) = images[index].edgeDirections(text: Self.isRed, edge: Self.isBluish)
            let message = "\(name): \(downRight) edge pixels down-right of the text, \(upLeft) up-left; \(where_)"
            switch name {
            case "DROP_SHADOW", "RAISED":
                #expect(downRight > 4 * upLeft, "\(message)")
            case "DEPRESSED":
                #expect(upLeft > 4 * downRight, "\(message)")
            default:
                #expect(downRight > 50 && upLeft > 50, "\(message)")
                #expect(
                    edge.minX < text.minX && edge.maxX > text.maxX && edge.minY < text.minY && edge.maxY > text.maxY,
                    "OUTLINE surrounds the text; \(where_)"
                )
            }
        }

        // 6: font scale 1.5 draws a box about half as tall as font scale 3.
        let smallBox = images[6].region(where: Self.isYellow)
        let ratio = Double(box.height) / Double(max(smallBox.height, 1))
        #expect((1.7...2.3).contains(ratio), "box heights \(box.height) and \(smallBox.height); \(where_)")

        // 7: alpha is honoured: 50% red over yellow is orange, and no pure red is drawn.
        #expect(images[7].region(where: Self.isOrange).count > 200, "\(where_)")
        #expect(images[7].region(where: Self.isRed).count == 0, "\(where_)")
    }
}
