import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

@testable import CueKitTTML

/// What ``TTMLWriter`` writes for each part of the model, in each profile.
@Suite struct TTMLWriterTests {
    /// Writes `webVTT` as TTML; without WebVTT's default look unless `options` ask for it, so that
    /// each test sees only what it is about.
    static func write(_ webVTT: String, _ options: TTMLWriterOptions = TTMLWriterOptions(look: .ttml)) throws -> (text: String, diagnostics: [Diagnostic]) {
        let track = try WebVTTReader.read(webVTT).track
        var writer = TTMLWriter(to: MemorySink(), options: options)
        try writer.write(track)
        return (writer.sink.string, writer.diagnostics)
    }

    /// The document's paragraphs, one a line.
    static func paragraphs(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("<p ") }.map(String.init)
    }

    @Test func imscDocumentDeclaresItsProfileTimeBaseAndLanguage() throws {
        let (text, diagnostics) = try Self.write("WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello\n", TTMLWriterOptions(language: "en-GB"))
        #expect(text.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(text.contains(#"ttp:contentProfiles="http://www.w3.org/ns/ttml/profile/imsc1.1/text""#))
        #expect(text.contains(#"ttp:timeBase="media""#))
        #expect(text.contains(#"xml:lang="en-GB""#))
        #expect(Self.paragraphs(text) == [#"<p begin="00:00:01.000" end="00:00:02.500" region="_r1" style="_s1"><span style="_s2">Hello</span></p>"#])
        #expect(text.contains(##"<style xml:id="_s2" tts:color="#ffffffff" tts:backgroundColor="#000000cc" tts:fontFamily="sansSerif"/>"##))
        #expect(text.contains(#"<region xml:id="_r1" tts:origin="0% 0%" tts:extent="100% 100%" tts:displayAlign="after"/>"#))
        #expect(text.contains(#"<style xml:id="_s1" tts:textAlign="center"/>"#))
        #expect(diagnostics.isEmpty)
    }

    @Test func ebuTTDDeclaresItsStandardAndHasNoFramesAgentsOrRuby() throws {
        let source = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Ann>Hi</v> <ruby>漢<rt>kan</rt></ruby>\n"
        let rate = try #require(TTMLWriterOptions.FrameRate("25"))
        let (text, diagnostics) = try Self.write(source, TTMLWriterOptions(profile: .ebuTTD, frameRate: rate))
        #expect(text.contains("<ebuttm:conformsToStandard>urn:ebu:tt:distribution:2014-01</ebuttm:conformsToStandard>"))
        #expect(!text.contains("ttp:frameRate"))
        #expect(!text.contains("ttm:agent"))
        #expect(Self.paragraphs(text).first?.contains(#"begin="00:00:01.000""#) == true)
        #expect(Self.paragraphs(text).first?.contains("Hi 漢(kan)") == true)
        let codes = diagnostics.map(\.code)
        #expect(codes == [.ttmlWriteAdjusted, .ttmlWriteNotCarried, .ttmlWriteAdjusted], "\(diagnostics)")
        #expect(diagnostics.map(\.message).contains { $0.contains("frame-based") })
    }

    @Test func ttml1DeclaresDFXPPresentation() throws {
        let (text, _) = try Self.write("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi\n", TTMLWriterOptions(profile: .ttml1))
        #expect(text.contains(#"ttp:profile="http://www.w3.org/ns/ttml/profile/dfxp-presentation""#))
        #expect(!text.contains("contentProfiles"))
    }

    @Test func framesAtWholeAndNTSCRates() throws {
        let source = "WEBVTT\n\n00:00:01.020 --> 01:02:03.980\nHi\n"
        let pal = try #require(TTMLWriterOptions.FrameRate("25"))
        let (text, _) = try Self.write(source, TTMLWriterOptions(frameRate: pal))
        #expect(text.contains(#"ttp:frameRate="25""#))
        #expect(Self.paragraphs(text).first?.contains(#"begin="00:00:01:01" end="01:02:04:00""#) == true)
        let ntsc = try #require(TTMLWriterOptions.FrameRate("29.97"))
        #expect(ntsc == TTMLWriterOptions.FrameRate("30000/1001"))
        let (ntscText, _) = try Self.write(source, TTMLWriterOptions(frameRate: ntsc))
        #expect(ntscText.contains(#"ttp:frameRate="30" ttp:frameRateMultiplier="1000 1001""#))
        #expect(TTMLWriterOptions.FrameRate("24.5") == nil)
        #expect(TTMLWriterOptions.FrameRate("0") == nil)
    }

    @Test func framesReadBackWithinHalfAFrame() throws {
        let source = "WEBVTT\n\n00:00:01.020 --> 00:00:02.517\nHi\n\n00:10:00.999 --> 00:10:01.480\nThere\n"
        let rate = try #require(TTMLWriterOptions.FrameRate("23.976"))
        let (text, _) = try Self.write(source, TTMLWriterOptions(frameRate: rate))
        let cues = try TTMLReader.read(text).track.cues
        let original = try WebVTTReader.read(source).track.cues
        #expect(cues.count == 2)
        for (read, written) in zip(cues, original) {
            #expect(abs(read.start - written.start) <= 21 && abs(read.end - written.end) <= 21, "\(read) against \(written)")
        }
    }

    @Test func textIsEscapedExactly() throws {
        let source = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nTom &amp; Jerry &lt;3 &gt; \"quotes\" 'single'\nline two\n"
        let (text, _) = try Self.write(source)
        #expect(Self.paragraphs(text).first?.contains(#">Tom &amp; Jerry &lt;3 &gt; "quotes" 'single'<br/>line two</p>"#) == true)
        let cue = try #require(try TTMLReader.read(text).track.cues.first)
        #expect(cue.nodes().plainText == "Tom & Jerry <3 > \"quotes\" 'single'\nline two")
    }

    @Test func charactersXMLCannotHoldAreReplacedAndCounted() throws {
        let track = Track(cues: [Cue(start: 0, end: 1000, text: "a\u{01}b"), Cue(start: 1000, end: 2000, text: "c\u{1B}d")])
        var writer = TTMLWriter(to: MemorySink())
        try writer.write(track)
        #expect(writer.sink.string.contains("a\u{FFFD}b"))
        #expect(writer.diagnostics.map(\.message) == ["control characters XML 1.0 cannot hold are written as U+FFFD (2 times, first in cue 1)"])
        #expect(try TTMLReader.read(bytes: writer.sink.bytes).diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test func cueSettingsBecomeRegionsSharedByPlacement() throws {
        let source = """
            WEBVTT

            00:00:01.000 --> 00:00:02.000 line:10% align:left
            top left

            00:00:02.000 --> 00:00:03.000 line:10% align:left
            again

            00:00:03.000 --> 00:00:04.000 position:20% size:50% line:0
            first row

            00:00:04.000 --> 00:00:05.000 vertical:lr
            vertical
            """
        let (text, _) = try Self.write(source)
        #expect(text.contains(#"<region xml:id="_r1" tts:origin="0% 10%" tts:extent="100% 90%" tts:displayAlign="before"/>"#))
        // Centred at 20%, a box is at most 40% wide (WebVTT's maximum size), not the 50% asked.
        #expect(text.contains(#"<region xml:id="_r2" tts:origin="0% 0%" tts:extent="40% 100%" tts:displayAlign="before"/>"#))
        #expect(text.contains(#"<region xml:id="_r3" tts:origin="0% 0%" tts:extent="100% 100%" tts:displayAlign="after" tts:writingMode="tblr"/>"#))
        let regions = Self.paragraphs(text).map { $0.contains(#"region="_r1""#) }
        #expect(regions == [true, true, false, false])
        #expect(text.contains(#"tts:textAlign="left""#))
    }

    /// WebVTT section 7.2: a box is no wider than its position point allows, so a cue centred at
    /// 37% is drawn centred there, whatever its size; and a box placed by a percentage holds the
    /// cue's lines inside the video.
    @Test func placementFollowsWebVTTsMaximumSizeAndKeepsTheLinesInTheVideo() throws {
        func region(_ settings: String, _ text: String = "Hi") throws -> String {
            let (document, _) = try Self.write("WEBVTT\n\n00:00:01.000 --> 00:00:02.000 \(settings)\n\(text)\n")
            let line = try #require(document.split(separator: "\n").first { $0.hasPrefix("<region") })
            return String(line.drop { $0 != " " }.dropFirst().drop { $0 != " " }.dropFirst().dropLast(2))
        }
        #expect(try region("position:37% line:74%") == #"tts:origin="0% 74%" tts:extent="74% 26%" tts:displayAlign="before""#)
        #expect(try region("position:80%,line-left") == #"tts:origin="80% 0%" tts:extent="20% 100%" tts:displayAlign="after""#)
        #expect(try region("position:30%,line-right size:50%") == #"tts:origin="0% 0%" tts:extent="30% 100%" tts:displayAlign="after""#)
        // line:100% starts the box at the bottom edge: it moves up to hold the cue's lines.
        #expect(try region("line:100%") == #"tts:origin="0% 93.33%" tts:extent="100% 6.67%" tts:displayAlign="before""#)
        #expect(try region("line:100%", "two\nlines") == #"tts:origin="0% 86.67%" tts:extent="100% 13.33%" tts:displayAlign="before""#)
        #expect(try region("line:0%,end") == #"tts:origin="0% 0%" tts:extent="100% 6.67%" tts:displayAlign="after""#)
        #expect(try region("line:2%,center", "a\nb\nc") == #"tts:origin="0% 0%" tts:extent="100% 20%" tts:displayAlign="center""#)
    }

    @Test func webVTTRegionsBecomeRegionsAndScrollIsReported() throws {
        let source = """
            WEBVTT

            REGION
            id:fred
            width:40%
            lines:3
            regionanchor:0%,100%
            viewportanchor:10%,90%
            scroll:up

            00:00:01.000 --> 00:00:02.000 region:fred
            in fred
            """
        let (text, diagnostics) = try Self.write(source)
        #expect(text.contains(#"<region xml:id="_r1" tts:origin="10% 70%" tts:extent="40% 20%" tts:displayAlign="after"/>"#))
        #expect(Self.paragraphs(text).first?.contains(#"region="_r1""#) == true)
        #expect(diagnostics.map(\.message) == ["a region's scroll:up has no TTML counterpart: the region is written without it (once)"])
    }

    @Test func cueRulesBecomeStylesAndWhatTTMLCannotSayIsReportedOnce() throws {
        let source = """
            WEBVTT

            STYLE
            ::cue { color: rgba(255, 255, 0, 0.5); background: #000c; font-family: "Open Sans", sans-serif; font-size: 5vh }
            ::cue(.loud) { font-weight: 700; text-shadow: black 0.05em 0.05em 0; cursor: pointer }
            ::cue(.loud.red) { color: red }
            ::cue(#id) { color: blue }

            00:00:01.000 --> 00:00:02.000
            <c.loud>LOUD</c> <c.loud.red>RED</c> <c.quiet>quiet</c>

            00:00:02.000 --> 00:00:03.000
            <c.loud>again</c>
            """
        let (text, diagnostics) = try Self.write(source)
        #expect(text.contains(##"tts:color="#ffff0080" tts:backgroundColor="#000000cc" tts:fontFamily="&quot;Open Sans&quot;, sansSerif" tts:fontSize="0.75c""##))
        #expect(text.contains(#"tts:fontWeight="bold" tts:textShadow="0.05em 0.05em 0em #000000ff""#))
        #expect(text.contains(##"tts:fontWeight="bold" tts:textShadow="0.05em 0.05em 0em #000000ff" tts:color="#ff0000ff""##))
        let first = try #require(Self.paragraphs(text).first)
        #expect(first.contains(#"<span style="_s3">LOUD</span> <span style="_s4">RED</span> quiet"#), "\(first)")
        #expect(
            diagnostics.map(\.message) == [
                "style rule ::cue(#id) is not a ::cue or ::cue(.class) rule: TTML styles cannot select it; left out (once)",
                "'cursor: pointer' has no IMSC 1.1 Text style attribute: left out (once)",
            ])
    }

    /// WebVTT draws cue text white, in sans-serif, on 80% black; a TTML player draws none of that
    /// unless told. The look is the first style of every paragraph's content, and the track's
    /// `::cue` rule is written over it.
    @Test func webVTTsLookIsWrittenUnderTheTracksOwnCueRule() throws {
        let plain = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi\n"
        for profile in TTMLProfile.allCases {
            let (text, diagnostics) = try Self.write(plain, TTMLWriterOptions(profile: profile))
            #expect(text.contains(##"<style xml:id="_s2" tts:color="#ffffffff" tts:backgroundColor="#000000cc" tts:fontFamily="sansSerif"/>"##), "\(profile)")
            #expect(Self.paragraphs(text).first?.hasSuffix(#"<span style="_s2">Hi</span></p>"#) == true, "\(profile)")
            #expect(try TTMLReader.read(text).diagnostics.filter { $0.severity != .note }.isEmpty)
            #expect(diagnostics.isEmpty)
        }
        let styled = "WEBVTT\n\nSTYLE\n::cue { background: transparent; color: yellow }\n\n00:00:01.000 --> 00:00:02.000\nHi\n"
        let (text, _) = try Self.write(styled, TTMLWriterOptions())
        #expect(text.contains(##"<style xml:id="_s2" tts:fontFamily="sansSerif" tts:backgroundColor="#00000000" tts:color="#ffff00ff"/>"##), "\(text)")
        let (bare, _) = try Self.write(plain, TTMLWriterOptions(look: .ttml))
        #expect(!bare.contains("backgroundColor") && Self.paragraphs(bare).first?.hasSuffix(#"style="_s1">Hi</p>"#) == true, "\(bare)")
    }

    /// WebVTT's cue text is 5% of the video's height (section 7.4, `font: 5vh sans-serif`); TTML's
    /// default size is one cell, a fifteenth of it. With WebVTT's look the cell is 5vh (20 rows),
    /// so that a `::cue` percentage is of 5vh as in WebVTT, and a `vh` size counts those cells.
    @Test func webVTTsLookMakesTheCellWebVTTsFontSize() throws {
        let sized = "WEBVTT\n\nSTYLE\n::cue { font-size: 200% }\n::cue(.small) { font-size: 2.5vh }\n\n00:00:01.000 --> 00:00:02.000\n<c.small>Hi</c>\n"
        for profile in TTMLProfile.allCases {
            let (text, _) = try Self.write(sized, TTMLWriterOptions(profile: profile))
            #expect(text.contains(#" ttp:cellResolution="32 20""#), "\(profile)")
            #expect(text.contains(#"tts:fontSize="200%""#), "\(profile)")
            #expect(text.contains(profile == .ebuTTD ? #"tts:fontSize="50%""# : #"tts:fontSize="0.5c""#), "\(profile): \(text)")
            let (bare, _) = try Self.write(sized, TTMLWriterOptions(profile: profile, look: .ttml))
            #expect(bare.contains(#" ttp:cellResolution="32 15""#) == (profile == .ebuTTD), "\(profile)")
            #expect(bare.contains(profile == .ebuTTD ? #"tts:fontSize="37.5%""# : #"tts:fontSize="0.375c""#), "\(profile): \(bare)")
        }
    }

    @Test func shadowsAreLeftOutWhereTheProfileHasNone() throws {
        let source = "WEBVTT\n\nSTYLE\n::cue { text-shadow: black 0.05em 0.05em 0 }\n\n00:00:01.000 --> 00:00:02.000\nHi\n"
        let (text, diagnostics) = try Self.write(source, TTMLWriterOptions(profile: .ttml1))
        #expect(!text.contains("textShadow"))
        #expect(diagnostics.first?.message.contains("has no TTML1 style attribute") == true)
    }

    @Test func tagsVoicesLanguagesRubyAndTimestamps() throws {
        let source = """
            WEBVTT

            00:00:01.000 --> 00:00:04.000
            <v Bob>Hi <i>you</i></v> <b>bold</b> <u>under</u> <lang fr>oui</lang> <ruby>漢<rt>kan</rt></ruby> one <00:00:02.000>two <00:00:05.000>late
            """
        let (text, diagnostics) = try Self.write(source, TTMLWriterOptions(innerTimestamps: .paintOn, look: .ttml))
        #expect(text.contains(#"<ttm:agent xml:id="_a1" type="person"><ttm:name type="full">Bob</ttm:name></ttm:agent>"#))
        let paragraph = try #require(Self.paragraphs(text).first)
        #expect(paragraph.contains(#"<span ttm:agent="_a1">Hi <span style="_s2">you</span></span>"#), "\(paragraph)")
        #expect(paragraph.contains(#"<span xml:lang="fr">oui</span>"#))
        #expect(paragraph.contains(#"<span tts:ruby="container"><span tts:ruby="base">漢</span><span tts:ruby="text">kan</span></span>"#))
        #expect(paragraph.contains(#" one <span begin="00:00:01.000">two </span><span begin="00:00:01.000">late</span>"#), "\(paragraph)")
        #expect(diagnostics.map(\.code) == [.ttmlWriteAdjusted])
    }

    /// `tts:ruby` is written on the spans themselves (TTML2 section 10.2.35 allows a referenced
    /// style too, but ttconv reads a span's ruby role only from its own attributes); the classes of
    /// the `rt` stay a referenced style, on a span inside the ruby text. CueKit's reader reads it
    /// back as WebVTT ruby.
    @Test func rubyIsWrittenInlineOnTheSpans() throws {
        let source = "WEBVTT\n\nSTYLE\n::cue(.reading) { color: red }\n\n"
            + "00:00:01.000 --> 00:00:02.000\n<ruby>漢<rt.reading>kan</rt></ruby>\n"
        let (text, diagnostics) = try Self.write(source)
        let paragraph = try #require(Self.paragraphs(text).first)
        let annotation = #"<span tts:ruby="text"><span style="_s2">kan</span></span>"#
        let ruby = #"<span tts:ruby="container"><span tts:ruby="base">漢</span>\#(annotation)</span>"#
        #expect(paragraph.hasSuffix(#"style="_s1">\#(ruby)</p>"#), "\(paragraph)")
        #expect(text.contains(##"<style xml:id="_s2" tts:color="#ff0000ff"/>"##), "\(text)")
        #expect(!text.contains("tts:ruby=\"container\"/>"), "\(text)")
        #expect(diagnostics.isEmpty)
        let read = try TTMLReader.read(bytes: Array(text.utf8))
        #expect(read.track.cues.map(\.text) == ["<ruby>漢<rt><c._s2>kan</c></rt></ruby>"])
    }

    /// A ruby container is a child of the paragraph (ttconv holds ruby nowhere else): the spans
    /// around the ruby (here the WebVTT look's and a `<b>`) are closed before it and opened again
    /// in its base, in its text and after it.
    @Test func rubyIsWrittenInTheParagraphWithTheSpansAroundItInside() throws {
        let source = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<b>a <ruby>漢<rt>kan</rt></ruby> b</b>\n"
        let (text, diagnostics) = try Self.write(source, TTMLWriterOptions())
        let paragraph = try #require(Self.paragraphs(text).first)
        let (look, bold) = (#"<span style="_s2">"#, #"<span style="_s3">"#)
        let base = #"<span tts:ruby="base">\#(look)\#(bold)漢</span></span></span>"#
        let ruby = #"<span tts:ruby="container">\#(base)<span tts:ruby="text">\#(look)\#(bold)kan</span></span></span></span>"#
        let before = #"style="_s1">\#(look)\#(bold)a </span></span>"#
        #expect(paragraph.hasSuffix(before + ruby + #"\#(look)\#(bold) b</span></span></p>"#), "\(paragraph)")
        #expect(diagnostics.isEmpty)
    }

    /// A WebVTT player shows the whole cue for its whole time (an inner timestamp only switches
    /// `:past` and `:future` styles), and so does the TTML by default: no timed span.
    @Test func innerTimestampsShowTheWholeCueUnlessPaintOnIsAsked() throws {
        let source = "WEBVTT\n\n00:00:12.000 --> 00:00:14.000\nSome text <00:00:13.000>and <b>some</b> later <00:00:15.000>text\n"
        let (whole, wholeDiagnostics) = try Self.write(source)
        let paragraph = try #require(Self.paragraphs(whole).first)
        #expect(paragraph.hasSuffix(#">Some text and <span style="_s2">some</span> later text</p>"#), "\(paragraph)")
        #expect(!whole.contains("<span begin="))
        #expect(wholeDiagnostics.isEmpty, "nothing is lost: \(wholeDiagnostics)")
        let (paintOn, paintOnDiagnostics) = try Self.write(source, TTMLWriterOptions(innerTimestamps: .paintOn, look: .ttml))
        #expect(paintOn.contains(#"Some text <span begin="00:00:01.000">and </span>"#), "\(paintOn)")
        #expect(paintOnDiagnostics.map(\.code) == [.ttmlWriteAdjusted], "the timestamp past the cue's end is reported")
    }

    @Test func identifiersNotesAndHeader() throws {
        let source = "WEBVTT - Pilot episode\n\nNOTE has -- dashes-\n\nintro\n00:00:01.000 --> 00:00:02.000\nA\n\nintro\n00:00:02.000 --> 00:00:03.000\nB\n\n1 2\n00:00:03.000 --> 00:00:04.000\nC\n"
        let (text, diagnostics) = try Self.write(source)
        #expect(text.contains("<ttm:title>Pilot episode</ttm:title>"))
        #expect(text.contains("<!-- has - - dashes- -->"))
        let paragraphs = Self.paragraphs(text)
        #expect(paragraphs[0].hasPrefix(#"<p xml:id="intro" "#))
        #expect(!paragraphs[1].contains("xml:id"))
        #expect(!paragraphs[2].contains("xml:id"))
        #expect(diagnostics.map(\.message) == ["2 cue identifiers are not XML names, or repeat others: not written as xml:id, first in cue 2"])
        #expect(try TTMLReader.read(text).track.cues.map(\.id) == ["intro", "", ""])
    }

    @Test(arguments: ["a\u{FFFF}", "a\u{FFFE}", "a→b", "a\u{3000}b", "\u{E000}", "a\u{F8FF}", "\u{301}a", "\u{0903}a", "a\u{0378}"])
    func identifiersThatAreNotNCNamesOfXMLCharactersAreNotWritten(id: String) throws {
        var writer = TTMLWriter(to: MemorySink())
        try writer.write(Track(cues: [Cue(id: id, start: 0, end: 1000, text: "x")]))
        #expect(!writer.sink.string.contains("<p xml:id"), "\(writer.sink.string)")
        #expect(writer.diagnostics.map(\.message) == ["a cue identifier is not an XML name, or repeats another: not written as xml:id, first in cue 1"])
        let read = try TTMLReader.read(bytes: writer.sink.bytes)
        #expect(read.track.cues.map { $0.nodes().plainText } == ["x"])
        #expect(read.diagnostics.filter { $0.severity == .error }.isEmpty, "\(read.diagnostics)")
    }

    @Test(arguments: ["é-1", "漢字", "a_x", "a·b", "α\u{301}", "x\u{203F}y", "Ⅻ"])
    func identifiersThatAreNCNamesAreWrittenAndReadBack(id: String) throws {
        var writer = TTMLWriter(to: MemorySink())
        try writer.write(Track(cues: [Cue(id: id, start: 0, end: 1000, text: "x")]))
        #expect(writer.sink.string.contains("<p xml:id=\"\(id)\""), "\(writer.sink.string)")
        #expect(try TTMLReader.read(bytes: writer.sink.bytes).track.cues.map(\.id) == [id])
    }

    @Test func aBodyPastTheMemoryLimitIsSpooledAndWrittenTheSame() throws {
        var track = Track()
        for index in 0..<5000 {
            track.cues.append(Cue(start: index * 1000, end: index * 1000 + 900, settings: CueSettings(line: .percentage(Double(index % 7) * 10)), text: "Cue \(index) <i>x</i>"))
        }
        var inMemory = TTMLWriter(to: MemorySink())
        try inMemory.write(track)
        var spooled = TTMLWriter(to: MemorySink(), options: TTMLWriterOptions(bodyMemoryLimit: 0))
        try spooled.write(track)
        #expect(spooled.sink.bytes.count > 64 * 1024 * 3)
        #expect(spooled.sink.bytes == inMemory.sink.bytes)
        #expect(try TTMLReader.read(bytes: spooled.sink.bytes).track.cues.count == 5000)
    }

    @Test func anEmptyTrackIsAValidDocument() throws {
        var writer = TTMLWriter(to: MemorySink())
        try writer.write(Track())
        let read = try TTMLReader.read(bytes: writer.sink.bytes)
        #expect(read.track.cues.isEmpty)
        #expect(read.diagnostics.filter { $0.severity == .error }.isEmpty)
    }
}

/// The fast path (cue text written from parse events, no tree) and the general path (through the
/// ``CueNode`` tree) write the same bytes, on random markup and on every fixture.
@Suite struct TTMLWriterTextPathTests {
    static let pieces = [
        "<c.a>", "</c>", "<i>", "</i>", "<b.x.y>", "</b>", "<u>", "</u>", "<v Bob>", "<v.loud  Ann\tLee >", "</v>", "<lang fr>",
        "</lang>", "&amp;", "&lt;", "&nbsp;", "&foo;", "<00:00:01.500>", "<00:00:03.000>", "<bad>", "<", ">", "text", " ", "\n", "é",
        "</x>", "&", "<v>", "<c.loud.red>", "\u{1}", "שלום", "<ruby>", "<ruby.a>", "</ruby>", "<rt>", "<rt.loud>", "</rt>",
        "<ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby>",
    ]

    static func write(_ track: Track, throughTheTree: Bool, profile: TTMLProfile = .imsc11) throws -> [UInt8] {
        var writer = TTMLWriter(to: MemorySink(), options: TTMLWriterOptions(profile: profile), throughTheTree: throughTheTree)
        try writer.write(track)
        return writer.sink.bytes
    }

    /// Where two outputs first differ, with some text of each from there; nil when they are equal.
    static func firstDifference(_ first: [UInt8], _ second: [UInt8]) -> String? {
        guard first != second else { return nil }
        let at = zip(first.indices, second.indices).first { first[$0.0] != second[$0.1] }?.0 ?? min(first.count, second.count)
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(0, at - 60)..<min(bytes.count, at + 60)], as: UTF8.self)
        }
        return "byte \(at): \(around(first)) | \(around(second))"
    }

    /// A track of `count` cues of random markup, with style sheets for two of its classes.
    static func randomTrack(seed: UInt64, count: Int) throws -> Track {
        var random = SeededRandom(seed: seed)
        var track = try WebVTTReader.read("WEBVTT\n\nSTYLE\n::cue(.a) { color: lime }\n::cue(.loud) { font-weight: bold }\n\n").track
        for index in 0..<count {
            let text = (0..<Int.random(in: 1...16, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            track.cues.append(Cue(id: "c\(index)", start: index * 4000, end: index * 4000 + 2000 + 1000 * (index % 3), text: text))
        }
        return track
    }

    @Test func randomMarkup() throws {
        let track = try Self.randomTrack(seed: 17, count: 3000)
        // Ruby is written as tts:ruby in IMSC 1.1 and as base(text) in TTML1.
        for profile in [TTMLProfile.imsc11, .ttml1] {
            let fast = try Self.write(track, throughTheTree: false, profile: profile)
            let general = try Self.write(track, throughTheTree: true, profile: profile)
            #expect(Self.firstDifference(fast, general) == nil, "\(profile)")
            #expect(fast.count > 100_000)
        }
        #expect(try String(decoding: Self.write(track, throughTheTree: false), as: UTF8.self).contains(#"tts:ruby="container""#))
    }

    /// Streamed from the WebVTT reader, the writer takes each cue's events from the reader's own
    /// check, shared through a ``CueTextParseCache``, instead of parsing again: the bytes are the same as through
    /// the tree, and the reader's parse is used for every cue with markup.
    @Test func theReadersParseWritesTheSameBytes() throws {
        let track = try Self.randomTrack(seed: 23, count: 2000)
        var webVTT = WebVTTWriter(to: MemorySink())
        try webVTT.write(track)
        let source = webVTT.sink.bytes
        let reread = try WebVTTReader.read(bytes: source).track
        let general = try Self.write(reread, throughTheTree: true)

        let cache = CueTextParseCache()
        var writer = TTMLWriter(to: MemorySink(), sharingCueTextEventsWith: cache)
        let usesBefore = cache.uses
        var reader = WebVTTReader()
        var withMarkup = 0
        func take(_ event: TrackEvent) throws {
            if case .cue(let cue) = event, CueTextEvents.hasMarkup(cue.text) { withMarkup += 1 }
            try writer.write(event)
        }
        let hooks = WebVTTReaderHooks(cueTextParseCache: cache)
        try source.withUnsafeBytes { try reader.feed($0, hooks: hooks, to: take) }
        try reader.finish(hooks: hooks, to: take)
        try writer.finish()
        #expect(Self.firstDifference(writer.sink.bytes, general) == nil)
        #expect(withMarkup > 1000)
        #expect(cache.uses - usesBefore == withMarkup, "every cue with markup was written from the reader's parse")
    }

    @Test func everyFixture() throws {
        for path in TestPaths.files(in: TestPaths.fixtures, suffixes: [".vtt"]) {
            guard let track = try? WebVTTReader.read(fileAtPath: path).track else { continue }
            #expect(try Self.firstDifference(Self.write(track, throughTheTree: false), Self.write(track, throughTheTree: true)) == nil, "\(path)")
        }
    }
}
