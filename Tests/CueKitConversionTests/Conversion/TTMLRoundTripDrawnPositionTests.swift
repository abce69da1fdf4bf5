import CueKitConversion
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

/// WebVTT → TTML → WebVTT through the one engine (``TrackConversion``, as `cuekit convert` runs
/// it, in its default profile, IMSC 1.1) keeps where Chromium draws every cue of the WebVTT
/// conformance files and the project's WebVTT fixtures. Each cue is taken alone, with its file's
/// style sheets and regions, shown for an hour; it is converted there and back, both files are
/// drawn, and the cue's text box (the `::cue` backdrop round all its lines) moves by at most
/// ``tolerance`` percent of the video on every edge.
///
/// Alone, because a file that shows more than four regions at once is written with some cues
/// stacked into shown regions on purpose (IMSC 1.1 and EBU-TT-D show at most four:
/// ``TTMLShownRegionsIMSCTests``), and the conformance files show dozens of cues together. Cues in
/// a `REGION` are left out: stock Chromium has regions switched off and draws them as if they had
/// none, where the TTML places them in their region. Chromium also draws a `line` percentage as
/// the top of the box whatever its line alignment: a cue aligned `end` or `center` is drawn
/// before the round trip as WebVTT places it (section 7.2), by the top its lines have then, at
/// Chromium's line height. And a line number whose product with the line height is no finite
/// number (`line:1.8e308`) is left out: Chromium's arithmetic draws it at the top.
///
/// A cue whose text box lies wholly outside the video both before and after is drawn nowhere: the
/// video clips it. Its layout box is not compared, as the layout off the picture may differ;
/// instead both files are drawn and must paint no pixel of it, beside a control cue that must.
@Suite(.enabled(if: ChromiumCaptionRenderer.isAvailable, "chromium or ffmpeg is not installed"), .tags(.chromium), .skippableByTag)
struct TTMLRoundTripDrawnPositionTests {
    /// How far an edge of a cue's text box may move, in percent of the video's width or height.
    static let tolerance = 2.0

    static var files: [String] {
        TestPaths.files(in: TestPaths.conformance + "/webvtt", suffixes: [".vtt"])
            + TestPaths.files(in: TestPaths.fixtures + "/webvtt", suffixes: [".vtt"])
    }

    /// `path` converted to `format` by the engine, written to `output`.
    static func convert(_ path: String, to format: TrackFormat, at output: String) throws {
        _ = try TrackConversion(source: try TrackSource(path: path), options: .init(format: format)).write(toFileAt: output)
    }

    /// The height of a line Chromium draws: 5vh sans-serif (DejaVu Sans here) at CSS's normal
    /// line height, 1.164 em.
    static let lineHeight = 5 * 1.164

    /// A file of `track`'s header, style sheets and regions, and `cue` alone, shown for an hour;
    /// a horizontal cue's `line` percentage aligned `end` or `center` becomes the top of its lines.
    static func alone(_ cue: Cue, of track: Track, placedByTop: Bool = false) throws -> String {
        var single = track
        var shown = cue
        (shown.start, shown.end) = (0, 3_600_000)
        if placedByTop, shown.settings.vertical == .horizontal, shown.settings.lineAlignment != .start,
            case .percentage(let line) = shown.settings.line
        {
            let extent = Double(ShownText.lines(of: cue).count) * Self.lineHeight
            let top = shown.settings.lineAlignment == .end ? line - extent : line - extent / 2
            shown.settings.line = .percentage(min(100, max(0, top)))
            shown.settings.lineAlignment = .start
        }
        single.cues = [shown]
        single.notes = []
        var writer = WebVTTWriter(to: MemorySink())
        try writer.write(single)
        return writer.sink.string
    }

    static func isShown(_ cue: Cue) -> Bool { cue.end > cue.start && !ShownText.lines(of: cue).isEmpty }

    @Test func everyCueIsDrawnWhereItWasAfterTTMLAndBack() async throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        var pairs: [(label: String, before: String, after: String)] = []
        var failures: [String] = []
        for path in Self.files {
            guard let source = try? WebVTTReader.read(fileAtPath: path).track else { continue }
            let regions = Set(source.regions.map(\.id))
            for cue in source.cues where Self.isShown(cue) {
                if let region = cue.settings.region, regions.contains(region) { continue }
                if case .number(let line) = cue.settings.line, !(line * 100).isFinite { continue }
                let label =
                    "\(path.split(separator: "/").suffix(2).joined(separator: "/")) cue at \(CueTimestamp.format(cue.start)) \(ShownText.lines(of: cue))"
                let before = try Self.alone(cue, of: source)
                let number = pairs.count
                let (vtt, ttml, back) = (folder.file("\(number).vtt"), folder.file("\(number).ttml"), folder.file("\(number)-back.vtt"))
                folder.write(before, to: "\(number).vtt")
                try Self.convert(vtt, to: .ttml, at: ttml)
                try Self.convert(ttml, to: .webVTT, at: back)
                let returned = try WebVTTReader.read(fileAtPath: back).track
                guard returned.cues.count == 1 else {
                    failures.append("\(label): \(returned.cues.count) cues read back")
                    continue
                }
                pairs.append((label, try Self.alone(cue, of: source, placedByTop: true), try String(contentsOfFile: back, encoding: .utf8)))
            }
        }
        let boxes = try await ChromiumCueBoxes.boxes(of: pairs.flatMap { [$0.before, $0.after] })
        var compared = 0
        var drawnNowhere: [(label: String, before: String, after: String)] = []
        for (index, pair) in pairs.enumerated() {
            let (before, after) = (boxes[2 * index], boxes[2 * index + 1])
            guard before.count == 1, after.count == 1 else {
                failures.append("\(pair.label): drawn as \(before.count) boxes before, \(after.count) after")
                continue
            }
            compared += 1
            if Self.liesOutsideTheVideo(before[0]), Self.liesOutsideTheVideo(after[0]) {
                drawnNowhere.append(pair)
                continue
            }
            let distance = before[0].distance(to: after[0])
            if distance > Self.tolerance {
                func timing(_ file: String) -> String { file.split(separator: "\n").last { $0.contains("-->") }.map(String.init) ?? "" }
                failures.append("\(pair.label): \(before[0]) before, \(after[0]) after\n  \(timing(pair.before))\n  \(timing(pair.after))")
            }
        }
        #expect(compared > 300, "\(compared) cues compared")
        #expect(failures.isEmpty, "\(failures.count) of \(pairs.count) cues moved:\n\(failures.prefix(200).joined(separator: "\n"))")
        try await Self.expectDrawnNowhere(drawnNowhere)
    }

    /// Whether a text box has no point inside the video.
    static func liesOutsideTheVideo(_ box: ChromiumCueBoxes.Box) -> Bool {
        box.left >= 100 || box.right <= 0 || box.top >= 100 || box.bottom <= 0
    }

    /// Draws each pair's files and expects no pixel of a cue in either; a control file with a cue
    /// of the same text in the default place must show it, so an empty picture means what it says.
    static func expectDrawnNowhere(_ pairs: [(label: String, before: String, after: String)]) async throws {
        guard let first = pairs.first else { return }
        let renderer = try #require(try ChromiumCaptionRenderer.make())
        defer { renderer.removeFiles() }
        let control = first.before.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.contains("-->") ? "00:00:00.000 --> 01:00:00.000" : String(line)
        }.joined(separator: "\n")
        let images = try await renderer.render([control] + pairs.flatMap { [$0.before, $0.after] })
        /// A pixel away from the video's grey, by more than its encoding's noise.
        func isPainted(_ pixel: Image.Pixel) -> Bool {
            let grey = 0x40
            return max(abs(pixel.red - grey), abs(pixel.green - grey), abs(pixel.blue - grey)) > 24
        }
        #expect(images[0].region(where: isPainted).count > 100, "the control cue was not drawn: \(control)")
        for (index, pair) in pairs.enumerated() {
            let (before, after) = (images[1 + 2 * index].region(where: isPainted), images[2 + 2 * index].region(where: isPainted))
            #expect(before.count == 0 && after.count == 0, "\(pair.label): \(before.count) pixels drawn before, \(after.count) after")
        }
    }
}
