import CueKit
import CueKitSCC
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// ffmpeg 5.1 reads the SCC CueKit writes: the same captions, with the same text, in the same
/// order. Where it shows them is ffmpeg's own: see the test below.
@Suite(.enabled(if: ExternalProcess.isInstalled("ffmpeg"), "ffmpeg not installed"), .tags(.peers), .skippableByTag)
struct FFmpegSCCComparisonTests {
    /// ffmpeg's WebVTT of the SCC `bytes`, its `\h` (ASS hard spaces it writes into WebVTT) read
    /// as the indent they stand for and dropped.
    static func ffmpegCues(of bytes: [UInt8]) throws -> [Cue] {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        ExternalProcess.writeBytes(bytes, to: folder.file("in.scc"))
        let run = ExternalProcess.run("ffmpeg", ["-v", "error", "-i", folder.file("in.scc"), "-f", "webvtt", folder.file("out.vtt")])
        #expect(run.status == 0, "\(run.error)")
        let text = String(decoding: try TestPaths.bytes(folder.file("out.vtt")), as: UTF8.self)
        return try WebVTTReader.read(text.replacingOccurrences(of: "\\h", with: "")).track.cues
    }

    /// The time of each caption line's timecode in CueKit's SCC: when its bytes start to arrive.
    static func lineTimes(_ bytes: [UInt8]) -> [Int] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line -> Int? in
            guard line.first?.isNumber == true, line.contains("942f") else { return nil }
            let fields = line.prefix(11).split(whereSeparator: { $0 == ":" || $0 == ";" }).compactMap { Int($0) }
            guard fields.count == 4 else { return nil }
            // Drop-frame at 29.97: frames counted, two labels skipped each minute but every tenth.
            let minutes = fields[0] * 60 + fields[1]
            let frame = (minutes * 60 + fields[2]) * 30 + fields[3] - 2 * (minutes - minutes / 10)
            return SCCFrameRate.ntsc.milliseconds(ofFrame: frame)
        }
    }

    /// CEA-608-E, pop-on captioning: a caption is loaded into non-displayed memory and appears at
    /// the End Of Caption command, the last pair of its line, which CueKit's writer places on the
    /// cue's start. ffmpeg 5.1's 608 decoder shows a pop-on caption from the time its line's first
    /// pair arrives, before the caption is complete, and ends it when the next one starts
    /// loading: CueKit is right, ffmpeg shows each caption up to a second early.
    @Test func ffmpegShowsTheSameCaptionsFromWhenTheyStartLoading() throws {
        var writer = SCCWriter(to: MemorySink())
        var track = Track()
        track.cues = SCCWriterTests.cues
        try writer.write(track)
        let bytes = writer.sink.bytes
        let ours = try SCCReader.read(bytes: bytes).track.cues
        let theirs = try Self.ffmpegCues(of: bytes)
        let words = { (cue: Cue) in ShownText.lines(of: cue).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
        // Two characters differ. CEA-608-E's extended set has the opening quotation mark ‘ at
        // 12 26, which ffmpeg draws as an acute accent; its basic set has the apostrophe at 27,
        // which ffmpeg draws as a closing quotation mark. CueKit draws what the table says.
        let ffmpegSpelling = { (text: String) in text.replacingOccurrences(of: "‘", with: "´").replacingOccurrences(of: "'", with: "’") }
        #expect(theirs.map(words) == ours.map(words).map(ffmpegSpelling))
        #expect(ours.map(words)[2].contains("‘quoted'"))
        let loads = Self.lineTimes(bytes)
        #expect(loads.count == ours.count)
        for (index, (cue, load)) in zip(theirs, loads).enumerated() {
            // ffmpeg's start: the line's timecode (within two frames of its own rounding).
            #expect(abs(cue.start - load) <= 67, "caption \(index): ffmpeg starts at \(cue.start), the line at \(load)")
            #expect(ours[index].start - cue.start >= 300, "caption \(index): ffmpeg \(cue.start), CueKit \(ours[index].start)")
        }
    }
}
