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
        for (index, pair) in pairs.enumerated() {
            let (before, after) = (boxes[2 * index], boxes[2 * index + 1])
            guard before.count == 1, after.count == 1 else {
                failures.append("\(pair.label): drawn as \(before.count) boxes before, \(after.count) after")
                continue
            }
            compared += 1
            let distance = before[0].distance(to: after[0])
            if distance > Self.tolerance {
                func timing(_ file: String) -> String { file.split(separator: "\n").last { $0.contains("-->") }.map(String.init) ?? "" }
                failures.append("\(pair.label): \(before[0]) before, \(after[0]) after\n  \(timing(pair.before))\n  \(timing(pair.after))")
            }
        }
        #expect(compared > 300, "\(compared) cues compared")
        // `vertical:rl line:1 size:0%` cannot come back: its region (origin 0% 100%, extent 94.18%
        // 0%, before) is also that of `vertical:rl line:94.18% size:0%`, and TTML has no line
        // numbers, so it comes back as that percentage. Chromium draws the two apart: a cue placed
        // by a line number wraps in its box (at size 0 each letter takes a column: x 80.5-96.7%),
        // one placed by a percentage gets `white-space: pre` and never wraps (one column: x
        // 94.3-97.5%). Both boxes are below the video (y from 100%): nothing visible moves.
        let (known, unknown) = (
            failures.filter { $0.contains("settings-multiple.vtt") }, failures.filter { !$0.contains("settings-multiple.vtt") }
        )
        #expect(unknown.isEmpty, "\(unknown.count) of \(pairs.count) cues moved:\n\(unknown.prefix(200).joined(separator: "\n"))")
        withKnownIssue("vertical:rl line:1 size:0% wraps each letter into a column; line:94.18%, its region read back, does not") {
            #expect(known.isEmpty, "\(known.joined(separator: "\n"))")
        }
    }
}
