import CueKit
import CueKitTestSupport
import CueKitTTML
import CueKitWebVTT
import Foundation
import Testing

/// One styled track drawn by Chromium twice, side by side: from its WebVTT, and from the TTML
/// ``TTMLWriter`` makes of it, read back by CueKit's TTML reader. The colours, the weight and the
/// places of the text are the same. With `CUEKIT_WRITE_PICTURES=1` the screenshot is written to
/// `Fixtures/ttml/webvtt-and-ttml.png`, the picture the TTML documentation names.
@Suite(.enabled(if: ChromiumCaptionRenderer.isAvailable, "chromium or ffmpeg is not installed"), .tags(.chromium), .skippableByTag)
struct TTMLWriterChromiumTests {
    @Test func theTTMLDrawsAsTheWebVTTDoes() async throws {
        let source = try String(contentsOfFile: TestPaths.fixture("ttml/styled-source.vtt"), encoding: .utf8)
        let track = try WebVTTReader.read(source).track
        var ttml = TTMLWriter(to: MemorySink())
        try ttml.write(track)
        let back = try TTMLReader.read(bytes: ttml.sink.bytes)
        #expect(back.diagnostics.filter { $0.severity != .note }.isEmpty, "\(back.diagnostics)")
        var webVTT = WebVTTWriter(to: MemorySink())
        try webVTT.write(back.track)

        let renderer = try #require(try ChromiumCaptionRenderer.make())
        defer { renderer.removeFiles() }
        let images = try await renderer.render([source, webVTT.sink.string])
        if ProcessInfo.processInfo.environment["CUEKIT_WRITE_PICTURES"] == "1" {
            try? FileManager.default.removeItem(atPath: TestPaths.fixture("ttml/webvtt-and-ttml.png"))
            try FileManager.default.copyItem(atPath: renderer.screenshotPath, toPath: TestPaths.fixture("ttml/webvtt-and-ttml.png"))
        }
        let isYellow = { (pixel: Image.Pixel) in pixel.red > 200 && pixel.green > 200 && pixel.blue < 80 }
        let isCyan = { (pixel: Image.Pixel) in pixel.red < 80 && pixel.green > 200 && pixel.blue > 200 }
        let (fromWebVTT, fromTTML) = (images[0], images[1])
        for (name, predicate) in [("yellow", isYellow), ("cyan", isCyan)] {
            let left = fromWebVTT.region(where: predicate)
            let right = fromTTML.region(where: predicate)
            #expect(left.count > 100, "\(name) text drawn from WebVTT")
            #expect(abs(left.count - right.count) * 100 <= left.count * 15, "\(name): \(left.count) pixels from WebVTT, \(right.count) from TTML")
            #expect(abs(left.centroid.x - right.centroid.x) <= 8 && abs(left.centroid.y - right.centroid.y) <= 8,
                "\(name) text at \(left.centroid) from WebVTT, \(right.centroid) from TTML; see \(renderer.screenshotPath)")
        }
        // The speaker's line is near the top, the other at the bottom, in both.
        let cyan = fromTTML.region(where: isCyan)
        #expect(cyan.centroid.y < Double(ChromiumCaptionRenderer.videoHeight) / 3)
    }
}
