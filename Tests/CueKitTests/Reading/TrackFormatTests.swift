import CueKit
import Testing

@Suite struct TrackFormatTests {
    private func detect(_ text: String) -> TrackFormat? { TrackFormat.detect(content: Array(text.utf8)) }

    @Test func detectsTheWebVTTSignature() {
        #expect(detect("WEBVTT") == .webVTT)
        #expect(detect("WEBVTT - Episode 1\n\n00:01.000 --> 00:02.000\nHi") == .webVTT)
        #expect(detect("\u{FEFF}WEBVTT\r\n") == .webVTT)
        #expect(detect("WEBVTTX\n") == nil)
    }

    @Test func detectsTTMLByItsRootOrNamespace() {
        #expect(detect("<?xml version=\"1.0\"?>\n<!-- made by hand -->\n<tt xmlns=\"http://www.w3.org/ns/ttml\">") == .ttml)
        #expect(detect("<tt:tt xmlns:tt=\"http://www.w3.org/ns/ttml\">") == .ttml)
        #expect(detect("<!DOCTYPE tt [<!ENTITY a \"b\">]><tt>") == .ttml)
        #expect(detect("<?xml version=\"1.0\"?><html><body/></html>") == nil)
        // A comment too long to see past: the namespace decides.
        let longComment = "<!--" + String(repeating: "x", count: 5_000) + "-->"
        #expect(detect(longComment + "<tt/>") == nil)
    }

    @Test func detectsTheSubRipShape() {
        #expect(detect("1\r\n00:00:01,000 --> 00:00:02,000\r\nHi") == .subRip)
        #expect(detect("\n\n 12 \n0:00:01.5 --> 0:00:02,000\nHi") == .subRip)
        #expect(detect("00:00:01,000 --> 00:00:02,000\nNo number") == .subRip)
        #expect(detect("1\nHello --> world") == nil)
        #expect(detect("Hello\n00:00:01,000 --> 00:00:02,000") == nil)
        #expect(detect("") == nil)
    }

    @Test func readsUTF16WithAndWithoutAByteOrderMark() {
        let text = "1\n00:00:01,000 --> 00:00:02,000\nUTF-16 é\n"
        let little = Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big = Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(TrackFormat.detect(content: [0xFF, 0xFE] + little) == .subRip)
        #expect(TrackFormat.detect(content: [0xFE, 0xFF] + big) == .subRip)
        #expect(TrackFormat.detect(content: little) == .subRip)
        #expect(TrackFormat.detect(content: big) == .subRip)
        let vtt = Array("WEBVTT\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(TrackFormat.detect(content: [0xFF, 0xFE] + vtt) == .webVTT)
    }

    @Test func fallsBackToTheExtension() {
        #expect(TrackFormat.detect(content: Array("garbage".utf8), path: "/tmp/a.en.SRT") == .subRip)
        #expect(TrackFormat.detect(content: Array("WEBVTT\n".utf8), path: "a.srt") == .webVTT)
        #expect(TrackFormat.detect(content: [UInt8](), path: "noextension") == nil)
        #expect(TrackFormat(path: ".srt") == nil)
        #expect(TrackFormat(path: "dir.vtt/file") == nil)
        #expect(TrackFormat(fileExtension: ".dfxp") == .ttml)
    }

    @Test func namesExtensionsAndMediaTypes() {
        #expect(TrackFormat.allCases.map(\.preferredFileExtension) == ["vtt", "srt", "ttml", "ass", "stl", "scc"])
        #expect(TrackFormat.allCases.map(\.mediaType) == ["text/vtt", "application/x-subrip", "application/ttml+xml", "text/x-ssa", "application/x-ebu-stl", "text/x-scc"])
        #expect(TrackFormat(mediaType: "text/vtt; charset=utf-8") == .webVTT)
        #expect(TrackFormat(mediaType: "Application/TTML+XML") == .ttml)
        #expect(TrackFormat(mediaType: "video/mp4") == nil)
        #expect(TrackFormat(name: "SubRip") == .subRip)
        #expect(TrackFormat(name: "webvtt") == .webVTT)
        #expect(TrackFormat(name: "ssa") == .ass)
        #expect(TrackFormat(name: "SCC") == .scc)
        #expect(TrackFormat.detect(content: Array("Scenarist_SCC V1.0\r\n\r\n00:00:00;00\t9420".utf8), path: "captions.txt") == .scc)
        #expect(TrackFormat(path: "/a/episode.SCC") == .scc)
        #expect(TrackFormat(name: "cea708") == nil)
        #expect(TrackFormat.allCases.map(\.description) == ["WebVTT", "SubRip", "TTML", "ASS", "EBU-STL", "SCC"])
        #expect(TrackFormat.allCases.filter(\.isWritten) == [.webVTT, .subRip, .ttml, .scc])
    }
}
