import CueKit
import CueKitTTML
import CueKitTestSupport
import Testing

/// CueKit against ttconv 1.2.3 on every document of the corpus that ttconv converts: the text shown
/// at every instant must be the same (see ``ShownText``), except where ttconv is wrong, and CueKit
/// differs on purpose; each such case has a named test below that cites the spec.
@Suite
struct TTConvComparisonTests {
    /// Documents ttconv turns into empty WebVTT that CueKit refuses with a clear error: image
    /// captions (IMSC Image Profile, SMPTE-TT images), which CueKit does not convert.
    static let refusedOnPurpose: [String: DiagnosticCode] = [
        "androidx-media/bitmap_percentage_region.xml": .ttmlImageCaptions,
        "synthetic/imsc1-image-profile.ttml": .ttmlImageCaptions,
        "synthetic/smpte-tt-image.xml": .ttmlImageCaptions,
        "w3c-imsc-tests/imsc1_1/image/image001.ttml": .ttmlImageCaptions,
    ]

    /// Documents where CueKit shows different text on purpose, and the named test that says why.
    static let deliberateDifferences: [String: String] = [
        "androidx-media/inherit_begin_from_div.xml": "paragraphAloneInNestedDivsIsPresented",
        "synthetic/nested-div-single-p.ttml": "paragraphAloneInNestedDivsIsPresented",
        "malformed/text-outside-p.ttml": "spanDirectlyInDivDoesNotDiscardTheDiv",
        "w3c-imsc-tests/imsc1_1/ruby/ruby001.ttml": "rubyIsWebVTTRuby",
        "synthetic/framerate-implies-tickrate.ttml": "tickRateDefaultsToFrameRateTimesSubFrameRate",
        "synthetic/time-expressions-offsets.ttml": "subFramesCount",
        "malformed/bad-time-expressions.ttml": "invalidTimeExpressionsAreNotPresented",
        "synthetic/entities-cdata-charrefs.ttml": "markupCharactersAreEscaped",
        "synthetic/nested-time-offsets.ttml": "clockTimeOffsetsAreRelativeToTheParent",
        "w3c-ttml1/Animation/BasicTiming004.xml": "setIsTimedFromItsParent",
        "w3c-ttml2-tests/presentation/valid/ttml2-prstn-time-wall-clock.xml": "wallclockTimesAreNotPlacedOnTheMediaTimeline",
        "androidx-media/vertical_text.xml": "contentWithoutRegionIsNotPresentedWhenRegionsExist",
    ]

    static var documents: [String] { TTMLCorpus.convertedByTTConv }

    @Test("CueKit shows ttconv's text at every instant", arguments: documents)
    func showsTTConvText(_ document: String) throws {
        if let code = Self.refusedOnPurpose[document] {
            #expect(throws: ReadError.self) { try TTMLCorpus.read(document) }
            do {
                _ = try TTMLCorpus.read(document)
            } catch let error as ReadError {
                #expect(error.diagnostic.code == code)
            }
            return
        }
        let differences = try TTMLCorpus.differences(document)
        if let test = Self.deliberateDifferences[document] {
            #expect(!differences.isEmpty, "\(document) now matches ttconv: remove it from the deliberate differences (see \(test))")
        } else {
            #expect(differences.isEmpty, "\(document):\n\(differences.prefix(5).map { "  \($0)" }.joined(separator: "\n"))")
        }
    }

    /// The counts the README reports.
    @Test func comparisonCounts() throws {
        var matching = 0
        var different = 0
        for document in Self.documents where Self.refusedOnPurpose[document] == nil {
            if try TTMLCorpus.differences(document).isEmpty { matching += 1 } else { different += 1 }
        }
        let deliberate = Set(Self.deliberateDifferences.keys).intersection(Self.documents).count
        #expect(Self.documents.count == 136)
        #expect(different == deliberate)
        #expect(matching + deliberate + Self.refusedOnPurpose.count == Self.documents.count)
        ConformanceReport.note("TTML conformance: \(Self.documents.count) documents compared, \(matching) matching, \(deliberate) deliberate differences, \(Self.refusedOnPurpose.count) refused on purpose")
    }

    // MARK: Where ttconv is wrong

    /// TTML2 section 8.1.4: a `div` may hold `div`s, and a `p` in them is presented like any other.
    /// ttconv's WebVTT writer walks only `body > div > p` and drops a `p` that stands alone in a
    /// nested `div` (its SRT writer keeps it).
    @Test func paragraphAloneInNestedDivsIsPresented() throws {
        let nested = try TTMLCorpus.read("synthetic/nested-div-single-p.ttml").track.cues
        #expect(nested.contains { $0.start == 1000 && $0.end == 2000 && $0.text.contains("nested alone") })
        let inherited = try TTMLCorpus.read("androidx-media/inherit_begin_from_div.xml").track.cues
        #expect(inherited.map { ShownText.lines(of: $0) } == [["Lara."], ["Stil."]])
        #expect(inherited.map(\.start) == [69583, 72000])
    }

    /// TTML2 section 8.1.4 allows only `div` and `p` (and metadata) in a `div`: a `span` there is
    /// not allowed and is ignored, but the rest of the `div` stays. ttconv discards the whole
    /// `div`, its valid `p` included.
    @Test func spanDirectlyInDivDoesNotDiscardTheDiv() throws {
        let result = try TTMLCorpus.read("malformed/text-outside-p.ttml")
        #expect(result.track.cues.map { ShownText.lines(of: $0) } == [["the only valid paragraph"]])
        #expect(result.diagnostics.contains { $0.code == .ttmlMisplacedContent })
    }

    /// TTML2 section 10.2.35 (`tts:ruby`): ruby containers, bases and texts are WebVTT's `<ruby>`
    /// and `<rt>` (WebVTT section 4.2.2). ttconv drops ruby, base text included.
    @Test func rubyIsWebVTTRuby() throws {
        let cues = try TTMLCorpus.read("w3c-imsc-tests/imsc1_1/ruby/ruby001.ttml").track.cues
        #expect(cues.count == 1)
        #expect(cues.first?.text == "<c.r1><ruby>利用許諾<rt>ライセンス</rt></ruby></c>")
    }

    /// TTML1 section 6.2.11 and TTML2 section 7.2.10: without `ttp:tickRate`, a document with a
    /// frame rate has a tick rate of frame rate × sub-frame rate (here 25 × 4 = 100), so `250t` is
    /// 2.5 s. ttconv uses a tick rate of 1.
    @Test func tickRateDefaultsToFrameRateTimesSubFrameRate() throws {
        let cues = try TTMLCorpus.read("synthetic/framerate-implies-tickrate.ttml").track.cues
        #expect(cues.map(\.start) == [2500, 5000])
        #expect(cues.map(\.end) == [4000, 6000])
    }

    /// TTML2 section 12.3.1: `frames "." sub-frames` counts sub-frames at `ttp:subFrameRate`:
    /// `00:00:19:05.1` with 24.975 frames/s and 2 sub-frames per frame is 19 + 5.5 / 24.975 s.
    /// ttconv rejects sub-frames and shows the text for its parent's whole interval.
    @Test func subFramesCount() throws {
        let cues = try TTMLCorpus.read("synthetic/time-expressions-offsets.ttml").track.cues
        let subFrames = try #require(cues.first { $0.text.hasPrefix("clock frames.subframes") })
        // 19 + 5.5 × 1001/25000 = 19.22022 s.
        #expect(subFrames.start == 19220)
        #expect(subFrames.end == 20000)
        let fractionalFrames = try #require(cues.first { $0.text.hasPrefix("fractional frames") })
        #expect(fractionalFrames.start == 541)  // 13.5 × 1001/25000 = 0.540540 s
        #expect(fractionalFrames.end == 561)  // 14 × 1001/25000 = 0.56056 s
    }

    /// TTML2 section 12.3.1 defines the syntax of a time expression; a value outside it (a sign, an
    /// exponent, a space before the metric, seconds of 60, frames at or above the frame rate, `;`
    /// separators) has no meaning. CueKit does not present the element (an error says why) rather
    /// than show its text at a time nobody wrote; ttconv ignores the attribute and shows the text
    /// for its parent's whole interval, or clamps the value. White space around an otherwise valid
    /// value is read without it, with a warning.
    @Test func invalidTimeExpressionsAreNotPresented() throws {
        let result = try TTMLCorpus.read("malformed/bad-time-expressions.ttml")
        let shown = result.track.cues.map { ($0.start, $0.end, ShownText.lines(of: $0)) }
        #expect(shown.map(\.0) == [14000, 21000])
        #expect(shown.map(\.1) == [15000, 22000])
        #expect(shown.map(\.2) == [["leading/trailing whitespace in value"], ["both end and dur (min wins)"]])
        #expect(result.diagnostics.filter { $0.code == .ttmlBadTime }.count == 10)
        #expect(result.diagnostics.filter { $0.code == .ttmlTimeWhiteSpace }.count == 2)
    }

    /// XML 1.0 section 4.6: `&amp;`, `&lt;` and `&gt;` are characters of the text, and WebVTT
    /// (section 4.2.2) needs `&`, `<` and `>` escaped in cue text. ttconv writes them unescaped,
    /// so its cues read back without the text between `<` and `>`.
    @Test func markupCharactersAreEscaped() throws {
        let cues = try TTMLCorpus.read("synthetic/entities-cdata-charrefs.ttml").track.cues
        let first = try #require(cues.first)
        #expect(first.text == "Tom &amp; Jerry &lt;3 \"quoted\" 'single' &gt;&gt;")
        #expect(cues.contains { ShownText.lines(of: $0) == ["WebVTT-hostile: a --> b, <i>not markup</i>, and &nbsp;"] })
    }

    /// TTML2 section 12.4: a clock time on a child of a `par` container is an offset from its
    /// parent's begin, like any time expression: body 10 s + div 40 s + p 00:00:01.5 = 51.5 s.
    /// ttconv does not show this paragraph.
    @Test func clockTimeOffsetsAreRelativeToTheParent() throws {
        let cues = try TTMLCorpus.read("synthetic/nested-time-offsets.ttml").track.cues
        let clock = try #require(cues.first { $0.text.hasPrefix("clock-time offsets") })
        #expect(clock.start == 51500)
        #expect(clock.end == 52500)
    }

    /// TTML2 sections 12.4 and 13.1.2: a `set` is timed from its parent, so `begin="4.5s"` in a `p`
    /// that begins at 5 s shows the text (display auto) from 9.5 s, for 5.5 s. ttconv shows it
    /// from 10 s to 20 s.
    @Test func setIsTimedFromItsParent() throws {
        let cues = try TTMLCorpus.read("w3c-ttml1/Animation/BasicTiming004.xml").track.cues
        #expect(cues.map(\.start) == [9500])
        #expect(cues.map(\.end) == [15000])
    }

    /// TTML2 section 12.3.1: a wallclock time names a real-world date and time; relating it to the
    /// media needs an epoch the document does not give. CueKit reports it and does not present the
    /// element; ttconv shows both paragraphs from 0 to 10 s.
    @Test func wallclockTimesAreNotPlacedOnTheMediaTimeline() throws {
        let result = try TTMLCorpus.read("w3c-ttml2-tests/presentation/valid/ttml2-prstn-time-wall-clock.xml")
        #expect(result.track.cues.isEmpty)
        #expect(result.diagnostics.filter { $0.code == .ttmlBadTime }.count == 2)
    }

    /// TTML2 section 11.3.1.3: when a document defines regions, content that selects none (no
    /// `region` on it, its ancestors or descendants) is not presented. The regions here are named
    /// with DFXP's plain `id`, which CueKit reads as `xml:id` (and ttconv ignores, falling back to
    /// the default region that shows everything).
    @Test func contentWithoutRegionIsNotPresentedWhenRegionsExist() throws {
        let result = try TTMLCorpus.read("androidx-media/vertical_text.xml")
        #expect(result.track.cues.count == 2)
        #expect(result.track.cues.map(\.settings.vertical) == [.growingLeft, .growingRight])
        #expect(result.diagnostics.contains { $0.code == .ttmlNoRegion })
    }
}
