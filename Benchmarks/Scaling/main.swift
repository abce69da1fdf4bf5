// The scaling check: each reader on generated inputs of n and 10n units, timed (best of three,
// each repeated to last at least 50 ms), and the ratio of the two times printed. A reader that is linear (or n log n) in its input gives
// a ratio near 10; one that is quadratic, near 100. The run fails when any ratio reaches 15.
//
//     swift run --package-path Benchmarks -c release CueKitScaling
//
// Inputs are made in memory by this program; only the conversion rows write them to a temporary
// file first (the engine reads a file, and spills late cues to sorted runs on disk).

import CueKit
import CueKitCast
import CueKitConversion
import CueKitHLS
import CueKitQC
import CueKitSCC
import CueKitSubRip
import CueKitTTML
import CueKitWebVTT
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct ScalingCase {
    let name: String
    let unit: String
    let small: Int
    let make: @Sendable (Int) -> [UInt8]
    let read: @Sendable ([UInt8]) -> Void
}

func repeated(_ prefix: String, _ unit: (Int) -> String, _ count: Int, _ suffix: String) -> [UInt8] {
    var bytes = Array(prefix.utf8)
    bytes.reserveCapacity(count * 40)
    for index in 0..<count { bytes += unit(index).utf8 }
    bytes += suffix.utf8
    return bytes
}

func vttTime(_ milliseconds: Int) -> String { CueTimestamp.format(milliseconds) }

/// `#rrggbb` for a number below 2^24: a colour of its own for each.
func hexColor(_ number: Int) -> String {
    let digits = String(number, radix: 16)
    return "#" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
}

let tt = #"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling">"#
let roomyTTML = TTMLReader.Options(
    limits: .init(maximumNodesPerParagraph: .max, maximumStyles: .max, maximumRegions: .max, maximumStyleReferencesPerElement: .max))

func readWebVTT(_ bytes: [UInt8]) { _ = try? WebVTTReader.read(bytes: bytes) }
func readSubRip(_ bytes: [UInt8]) {
    var reader = SubRipReader(options: .init(limits: .init(maximumColors: .max)))
    _ = try? reader.read(bytes)
}
func readSCC(_ bytes: [UInt8]) { _ = try? SCCReader.read(bytes: bytes) }

/// An SCC line at `frame` (non-drop, 30 to the second): its timecode, a tab, then `words`.
func sccLine(frame: Int, _ words: String) -> String {
    let seconds = frame / 30
    let fields = [seconds / 3600 % 100, seconds / 60 % 60, seconds % 60, frame % 30]
    return fields.map { ($0 < 10 ? "0" : "") + String($0) }.joined(separator: ":") + "\t" + words + "\n\n"
}

func readTTML(_ bytes: [UInt8]) { _ = try? TTMLReader.read(bytes: bytes, options: roomyTTML) }

/// The whole conversion (``TrackConversion``, as `cuekit convert` runs it) of the bytes, from a
/// temporary file to WebVTT in memory.
func convertToWebVTT(_ bytes: [UInt8]) {
    let path = TemporaryFiles.folder + "/cuekit-scaling-input.vtt"
    guard let file = try? AtomicFileSink(path: path) else { return }
    defer { unlink(path) }
    guard (try? file.write(bytes)) != nil, (try? file.commit()) != nil, let source = try? TrackSource(path: path) else { return }
    var sink = MemorySink()
    _ = try? TrackConversion(source: source).write(to: &sink)
}

/// HLS segmenting (``HLSSegmenter``, fed by the conversion engine as `cuekit segment` runs it) of
/// the bytes, from a temporary file into segments that are made and dropped: what grows with the
/// track is timed, not the file system.
func segmentForHLS(_ bytes: [UInt8]) {
    struct Dropping: HLSSegmentDestination {
        var bytes = 0
        mutating func writeSegment(named name: String, _ segment: [UInt8]) throws { bytes += segment.count }
        mutating func appendSegment(_ segment: [UInt8], toFileNamed name: String) throws { bytes += segment.count }
        mutating func appendToPlaylist(_ text: [UInt8]) throws { bytes += text.count }
    }
    let path = TemporaryFiles.folder + "/cuekit-scaling-segment.vtt"
    guard let file = try? AtomicFileSink(path: path) else { return }
    defer { unlink(path) }
    guard (try? file.write(bytes)) != nil, (try? file.commit()) != nil, let source = try? TrackSource(path: path) else { return }
    var segmenter = HLSSegmenter(options: HLSSegmentOptions(segmentDuration: 6_000), to: Dropping())
    _ = try? TrackConversion(source: source).stream(convertedInto: &segmenter)
    _ = try? segmenter.finish()
}

/// The folder of the playlist of `count` segments.
func hlsFolder(segments count: Int) -> String { TemporaryFiles.folder + "/cuekit-scaling-hls-\(count)-\(getpid())" }

/// Writes a media playlist of `count` segments into a folder of its own (once per size), each
/// segment with a cue of its own and the previous segment's cue repeated, as a segmenter repeats
/// a cue that spans two segments; returns the playlist's path as bytes.
func hlsPlaylist(segments count: Int) -> [UInt8] {
    let folder = hlsFolder(segments: count)
    mkdir(folder, 0o700)
    var playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    for index in 0..<count {
        var text = "WEBVTT\n\n"
        if index > 0 { text += "\(vttTime(index * 6000 - 1000)) --> \(vttTime(index * 6000 + 1000))\ncue \(index - 1)\n\n" }
        text += "\(vttTime(index * 6000 + 5000)) --> \(vttTime(index * 6000 + 7000))\ncue \(index)\n"
        guard let file = try? AtomicFileSink(path: folder + "/\(index).vtt"), (try? file.write(text)) != nil, (try? file.commit()) != nil else {
            return []
        }
        playlist += "#EXTINF:6,\n\(index).vtt\n"
    }
    playlist += "#EXT-X-ENDLIST\n"
    let path = folder + "/subs.m3u8"
    guard let file = try? AtomicFileSink(path: path), (try? file.write(playlist)) != nil, (try? file.commit()) != nil else { return [] }
    return Array(path.utf8)
}

/// Writes a media playlist of `count` segments that are byte ranges of one file (`cuekit segment
/// --single-file`), shaped as ``hlsPlaylist(segments:)``'s; returns the playlist's path as bytes.
func hlsByteRangePlaylist(segments count: Int) -> [UInt8] {
    let folder = hlsFolder(segments: count) + "-ranges"
    mkdir(folder, 0o700)
    var playlist = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    var segments: [UInt8] = []
    for index in 0..<count {
        var text = "WEBVTT\n\n"
        if index > 0 { text += "\(vttTime(index * 6000 - 1000)) --> \(vttTime(index * 6000 + 1000))\ncue \(index - 1)\n\n" }
        text += "\(vttTime(index * 6000 + 5000)) --> \(vttTime(index * 6000 + 7000))\ncue \(index)\n"
        playlist += "#EXTINF:6,\n#EXT-X-BYTERANGE:\(text.utf8.count)@\(segments.count)\nsubs.vtt\n"
        segments += text.utf8
    }
    playlist += "#EXT-X-ENDLIST\n"
    let path = folder + "/subs.m3u8"
    guard let file = try? AtomicFileSink(path: folder + "/subs.vtt"), (try? file.write(segments)) != nil, (try? file.commit()) != nil,
        let list = try? AtomicFileSink(path: path), (try? list.write(playlist)) != nil, (try? list.commit()) != nil
    else { return [] }
    return Array(path.utf8)
}

/// Reads the playlist whose path `bytes` hold as one track (``HLSPlaylistReader``, through
/// ``TrackSource``), converting it to WebVTT in memory.
func readHLSPlaylist(_ bytes: [UInt8]) {
    guard let source = try? TrackSource(path: String(decoding: bytes, as: UTF8.self)) else { return }
    var sink = MemorySink()
    _ = try? TrackConversion(source: source).write(to: &sink)
}

/// ``convertToWebVTT(_:)``, writing TTML (IMSC 1.1): its head is held until the last cue.
func convertToTTML(_ bytes: [UInt8]) {
    let path = TemporaryFiles.folder + "/cuekit-scaling-input.vtt"
    guard let file = try? AtomicFileSink(path: path) else { return }
    defer { unlink(path) }
    guard (try? file.write(bytes)) != nil, (try? file.commit()) != nil, let source = try? TrackSource(path: path) else { return }
    var sink = MemorySink()
    _ = try? TrackConversion(source: source, options: .init(format: .ttml)).write(to: &sink)
}

/// WebVTT read and checked against the Netflix profile (English), cue by cue: what
/// `cuekit validate --qc netflix` does.
func checkAgainstNetflix(_ bytes: [UInt8]) {
    guard let profile = try? QCProfile.builtIn(named: "netflix") else { return }
    var check = QCTrackCheck(profile: profile, language: "en")
    var findings = 0
    var reader = WebVTTReader()
    _ = try? reader.feed(bytes) { event in try check.take(event, report: { _ in findings += 1 }) }
    _ = try? reader.finish { event in try check.take(event, report: { _ in findings += 1 }) }
    precondition(findings >= 0)
}

let cases: [ScalingCase] = [
    // WebVTT cues are read in a few milliseconds at 20,000, where an input that fits the caches
    // against one that does not decides the ratio: both sizes are taken past the caches. (Cues
    // sharing an identifier stay at 20,000: each is a diagnostic kept in the result, whose
    // memory, not the reading, would be timed.)
    ScalingCase(name: "WebVTT", unit: "cues", small: 100_000, make: { count in
        repeated("WEBVTT\n\n", { "\(vttTime($0 * 1000)) --> \(vttTime($0 * 1000 + 500))\ncue <b>\($0)</b>\n\n" }, count, "")
    }, read: readWebVTT),
    // Every cue breaks three rules (reading speed, duration, gap): the findings are made and counted.
    ScalingCase(name: "QC", unit: "cues checked against netflix", small: 100_000, make: { count in
        repeated("WEBVTT\n\n", { "\(vttTime($0 * 1000)) --> \(vttTime($0 * 1000 + 500))\nToo many words for half a second \($0)\n\n" }, count, "")
    }, read: checkAgainstNetflix),
    ScalingCase(name: "WebVTT", unit: "cues sharing one identifier", small: 20_000, make: { count in
        repeated("WEBVTT\n\n", { "same\n\(vttTime($0 * 1000)) --> \(vttTime($0 * 1000 + 500))\nx\n\n" }, count, "")
    }, read: readWebVTT),
    ScalingCase(name: "WebVTT", unit: "REGION blocks sharing an id", small: 20_000, make: { count in
        repeated("WEBVTT\n\n", { _ in "REGION\nid:r width:40%\n\n" }, count, "00:01.000 --> 00:02.000 region:r\nx\n")
    }, read: readWebVTT),
    ScalingCase(name: "WebVTT", unit: "STYLE blocks", small: 2_000, make: { count in
        repeated("WEBVTT\n\n", { "STYLE\n::cue(.c\($0)) { color: red; }\n\n" }, count, "00:01.000 --> 00:02.000\nx\n")
    }, read: readWebVTT),
    // Cues in reverse order: all but the window's last are late, sorted in runs spilled to disk
    // and merged back (n log n). Both sizes are past the run length (32,768 cues), so both spill:
    // at 20,000 the late cues are sorted in memory alone, which would time another path.
    ScalingCase(name: "Convert", unit: "cues in reverse order", small: 200_000, make: { count in
        repeated("WEBVTT\n\n", { "\(vttTime((count - $0) * 1000)) --> \(vttTime((count - $0) * 1000 + 500))\ncue \($0)\n\n" }, count, "")
    }, read: convertToWebVTT),
    // Cues of 20 s every second: each is in four segments, and a segment holds twenty.
    ScalingCase(name: "Segment", unit: "cues, 6 s HLS segments", small: 20_000, make: { count in
        repeated("WEBVTT\n\n", { "\(vttTime($0 * 1000)) --> \(vttTime($0 * 1000 + 20_000))\ncue <b>\($0)</b>\n\n" }, count, "")
    }, read: segmentForHLS),
    // A playlist's segments, each cue repeated in the segment after it: the reader joins the
    // repeats comparing consecutive segments only. (The folders are removed at the run's end.)
    ScalingCase(name: "HLS", unit: "playlist segments, read", small: 2_000, make: { hlsPlaylist(segments: $0) }, read: readHLSPlaylist),
    // The same segments as byte ranges of one file: each range is read, never the whole file.
    ScalingCase(
        name: "HLS", unit: "byte-range segments of one file, read", small: 2_000, make: { hlsByteRangePlaylist(segments: $0) },
        read: readHLSPlaylist),
    // Each REGION block its own id: the writer holds them until the first cue, replacing a
    // region defined twice, and must find an earlier definition without a search.
    ScalingCase(name: "Convert", unit: "REGION blocks of distinct ids", small: 20_000, make: { count in
        repeated("WEBVTT\n\n", { "REGION\nid:r\($0) width:40%\n\n" }, count, "00:01.000 --> 00:02.000 region:r0\nx\n")
    }, read: convertToWebVTT),
    // Each cue a voice, a placement and a class of its own: the TTML head collects agents,
    // regions and styles (bounded by the writer's limits) until the last cue.
    ScalingCase(name: "Convert", unit: "to TTML: voices, places, classes", small: 20_000, make: { count in
        repeated("WEBVTT\n\nSTYLE\n::cue(.c1) { color: red; }\n\n", {
            "\(vttTime($0 * 1000)) --> \(vttTime($0 * 1000 + 500)) position:\(Double($0 % 100_000) / 1000)%\n<v n\($0)><c.c1.k\($0)>x</c></v>\n\n"
        }, count, "")
    }, read: convertToTTML),
    ScalingCase(name: "SubRip", unit: "cues", small: 20_000, make: { count in
        repeated("", { "\($0 + 1)\n00:00:01,000 --> 00:00:02,000\n<i>cue \($0)</i>\n\n" }, count, "")
    }, read: readSubRip),
    ScalingCase(name: "SubRip", unit: "distinct colours", small: 5_000, make: { count in
        repeated("", { "\($0 + 1)\n00:00:01,000 --> 00:00:02,000\n<font color=\"#\(String($0, radix: 16))\">c</font>\n\n" }, count, "")
    }, read: readSubRip),
    // Pop-on captions ten frames apart (ENM RCL PAC "AB" EOC), each replacing the last.
    ScalingCase(name: "SCC", unit: "pop-on captions", small: 20_000, make: { count in
        repeated("Scenarist_SCC V1.0\n\n", { sccLine(frame: $0 * 10, "94ae 9420 9470 c1c2 942f") }, count, "")
    }, read: readSCC),
    // One roll-up row rewritten pair by pair: a display change, and a cue, for every pair.
    ScalingCase(name: "SCC", unit: "roll-up pairs (backspace, letter) on one line", small: 20_000, make: { count in
        repeated("Scenarist_SCC V1.0\n\n00:00:00:00\t9425 9470 c180", { _ in " 94a1 c280" }, count, "\n")
    }, read: readSCC),
    ScalingCase(name: "TTML", unit: "paragraphs", small: 5_000, make: { count in
        repeated(tt + "<body><div>", { #"<p begin="\#($0)s" end="\#($0).5s">cue <span tts:fontWeight="bold">\#($0)</span></p>"# }, count, "</div></body></tt>")
    }, read: readTTML),
    ScalingCase(name: "TTML", unit: "attributes (on elements of 20)", small: 2_000, make: { count in
        let attributes = (0..<19).map { #" xml:a\#($0)="v""# }.joined()
        return repeated(tt + "<body><div>", { #"<p begin="\#($0)s" end="\#($0).5s"\#(attributes)>x</p>"# }, count / 20, "</div></body></tt>")
    }, read: readTTML),
    ScalingCase(name: "TTML", unit: "spans in one paragraph", small: 500, make: { count in
        repeated(tt + #"<body><div><p begin="0s" end="1s">"#, { "<span>w\($0) </span>" }, count, "</p></div></body></tt>")
    }, read: readTTML),
    ScalingCase(name: "TTML", unit: "timed spans in one paragraph", small: 500, make: { count in
        repeated(tt + #"<body><div><p begin="0s" end="100000s">"#, { #"<span begin="\#($0)s" end="\#($0 + 1)s">w</span>"# }, count, "</p></div></body></tt>")
    }, read: readTTML),
    // One span a paragraph, each span's colour its own: every inline style set is new, where a
    // caption document repeats a few.
    ScalingCase(name: "TTML", unit: "spans of distinct colours", small: 4_000, make: { count in
        repeated(tt + "<body><div>", { "<p begin=\"\($0)s\" end=\"\($0).5s\"><span tts:color=\"\(hexColor($0))\">c</span></p>" }, count, "</div></body></tt>")
    }, read: readTTML),
    ScalingCase(name: "TTML", unit: "head styles", small: 1_000, make: { count in
        repeated(tt + "<head><styling>", { #"<style xml:id="s\#($0)" tts:color="red"/>"# }, count, #"</styling></head><body><div><p begin="1s" end="2s" style="s0">x</p></div></body></tt>"#)
    }, read: readTTML),
    ScalingCase(name: "Cast", unit: "tracks sharing one id", small: 5_000, make: { count in
        repeated(#"{"type":"LOAD","requestId":1,"media":{"contentId":"https://example.com/m.mp4","contentType":"video/mp4","streamType":"BUFFERED","tracks":["#, {
            ($0 == 0 ? "" : ",") + #"{"trackId":1,"type":"TEXT","trackContentId":"https://example.com/t.vtt","trackContentType":"text/vtt","subtype":"SUBTITLES","language":"en"}"#
        }, count, "]}}")
    }, read: { _ = CastMessage.check($0, maximumLength: .max) }),
    ScalingCase(name: "Cast", unit: "tracks and active ids", small: 5_000, make: { count in
        var bytes = repeated(#"{"type":"LOAD","requestId":1,"media":{"contentId":"https://example.com/m.mp4","contentType":"video/mp4","streamType":"BUFFERED","tracks":["#, {
            ($0 == 0 ? "" : ",") + #"{"trackId":\#($0 + 1),"type":"TEXT","trackContentId":"https://example.com/t.vtt","trackContentType":"text/vtt","subtype":"SUBTITLES","language":"en"}"#
        }, count, #"]},"activeTrackIds":["#)
        bytes += (1...count).map(String.init).joined(separator: ",").utf8
        bytes += "]}".utf8
        return bytes
    }, read: { _ = CastMessage.check($0, maximumLength: .max) }),
]

/// The best of three times of `read`, per read: each measurement repeats it often enough to last
/// 50 ms, so that a small input's time is not lost in the clock's and the scheduler's noise.
func bestTime(_ bytes: [UInt8], _ read: ([UInt8]) -> Void) -> Duration {
    let clock = ContinuousClock()
    var repetitions = 1
    while repetitions < 1 << 16 {
        let elapsed = clock.measure { for _ in 0..<repetitions { read(bytes) } }
        if elapsed >= .milliseconds(50) { break }
        repetitions *= 2
    }
    var best = Duration.seconds(1_000_000)
    for _ in 0..<3 {
        let elapsed = clock.measure { for _ in 0..<repetitions { read(bytes) } }
        if elapsed < best { best = elapsed }
    }
    return best / repetitions
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

var failed = false
print("reader  unit                             n        t(n) s   t(10n) s  ratio")
for item in cases {
    let small = item.make(item.small)
    let large = item.make(item.small * 10)
    let t1 = seconds(bestTime(small, item.read))
    let t10 = seconds(bestTime(large, item.read))
    let ratio = t10 / max(t1, 1e-9)
    if ratio >= 15 { failed = true }
    let name = item.name.padded(7)
    let unit = item.unit.padded(32)
    let n = String(item.small).padded(8)
    print("\(name) \(unit) \(n) \(format3(t1).padded(8)) \(format3(t10).padded(9)) \(format3(ratio))\(ratio >= 15 ? "  FAIL" : "")")
}

extension String {
    /// The text, filled with spaces to `width` characters.
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}

func format3(_ value: Double) -> String {
    let scaled = (value * 1000).rounded() / 1000
    return "\(scaled)"
}

for count in [2_000, 20_000] {
    try? FileManager.default.removeItem(atPath: hlsFolder(segments: count))
    try? FileManager.default.removeItem(atPath: hlsFolder(segments: count) + "-ranges")
}

if failed {
    print("some reader grows faster than its input (a ratio of 15 or more)")
    exit(1)
}
