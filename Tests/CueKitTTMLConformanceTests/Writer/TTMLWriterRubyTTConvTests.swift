import CueKit
import CueKitTTML
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// WebVTT ruby written as IMSC 1.1 is ruby to ttconv 1.2.3: its model (read by
/// `Tests/Peers/ttconv_ruby.py`, since ttconv's writers drop ruby) holds a ruby container
/// (`Ruby`) with the right base (`Rb`) and text (`Rt`) for each WebVTT base and `rt`, in the
/// WebVTT look's colour, or in the colour a class rule on the `rt` gives. TTML2 section 10.2.35
/// lets `tts:ruby` come through a referenced style too, but ttconv reads it only from the span's
/// own attributes, and holds a ruby container only as a child of a paragraph: inside the look's
/// span or a `<b>`, it drops the span with all its text.
@Suite(
    .enabled(if: PythonPeers.hasTTConv, "ttconv is not installed: run .ci/setup (it installs ttconv 1.2.3 into .venv)"), .tags(.peers),
    .skippableByTag)
struct TTMLWriterRubyTTConvTests {
    static let source = """
        WEBVTT

        STYLE
        ::cue(.reading) { color: red }

        00:00:01.000 --> 00:00:02.000
        <ruby>漢<rt>かん</rt>字<rt>じ</rt></ruby>

        00:00:03.000 --> 00:00:04.000
        <ruby.word>東<rt.reading>とう</rt></ruby>京 <b>and <ruby>北<rt>ほく</rt></ruby></b>
        """

    /// What ttconv's model holds for each paragraph of `bytes` (see `ttconv_ruby.py`).
    static func ttconvRuby(_ bytes: [UInt8]) throws -> [String] {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        ExternalProcess.writeBytes(bytes, to: directory.file("ruby.ttml"))
        let run = ExternalProcess.run(
            PythonPeers.python, [PythonPeers.script("ttconv_ruby.py"), directory.file("ruby.ttml"), directory.file("ruby.txt")])
        try #require(run.status == 0, "ttconv_ruby.py: \(run.error)")
        let output = try #require(directory.read("ruby.txt"))
        try #require(!output.hasPrefix("ERROR"), "ttconv cannot read the document: \(output)")
        return output.split(separator: "\n").map(String.init)
    }

    @Test func ttconvReadsEachBaseAndItsTextAsRuby() throws {
        var writer = TTMLWriter(to: MemorySink(), options: TTMLWriterOptions(profile: .imsc11))
        try writer.write(try WebVTTReader.read(Self.source).track)
        #expect(writer.diagnostics.isEmpty, "\(writer.diagnostics)")
        let paragraphs = try Self.ttconvRuby(writer.sink.bytes)
        let white = "color=#ffffffff"
        #expect(
            paragraphs == ["{漢|かん \(white)}{字|じ \(white)}", "{東|とう color=#ff0000ff}京 and {北|ほく \(white)}"], "\(writer.sink.string)")
    }
}
