import CueKit
import CueKitTTML
import Testing

/// TTML2 section 12.4 applied by the reader: sync bases, clipping, implicit durations, `par` and
/// `seq`, and cues cut where the text shown changes.
struct TimingSemanticsTests {
    @Test func offsetsAreRelativeToTheParentAndClippedByIt() throws {
        let result = try TTMLDocument.read(
            TTMLDocument.make(
                body: """
                    <div begin="10s" end="20s">
                      <p begin="1s" end="3s">eleven to thirteen</p>
                      <p begin="8s" dur="5s">clipped at twenty</p>
                      <p begin="12s" end="14s">never</p>
                    </div>
                    """))
        #expect(
            TTMLDocument.cueLines(result) == [
                "00:00:11.000-00:00:13.000 eleven to thirteen", "00:00:18.000-00:00:20.000 clipped at twenty",
            ])
    }

    /// In a `seq` container each child begins where the previous one ended; an untimed child of a
    /// `seq` lasts until its parent ends (its anonymous spans are in its own `par`), so the next
    /// never starts.
    @Test func sequentialContainers() throws {
        let result = try TTMLDocument.read(
            TTMLDocument.make(
                body: """
                    <div timeContainer="seq" begin="1s">
                      <p dur="2s">one to three</p>
                      <p begin="1s" dur="1s">four to five</p>
                      <p timeContainer="seq"><span dur="1s">five to six</span><span dur="2s">six to eight</span></p>
                    </div>
                    """))
        #expect(
            TTMLDocument.cueLines(result) == [
                "00:00:01.000-00:00:03.000 one to three", "00:00:04.000-00:00:05.000 four to five",
                "00:00:05.000-00:00:06.000 five to six", "00:00:06.000-00:00:08.000 six to eight",
            ])
    }

    /// Spans with their own timing cut the paragraph into cues: the text at every instant is the
    /// document's.
    @Test func timedSpansSplitTheCue() throws {
        let result = try TTMLDocument.read(
            TTMLDocument.make(
                body: """
                    <div><p begin="1s" end="5s">Always <span begin="1s" end="2s">briefly </span><span begin="3s">later</span></p></div>
                    """))
        #expect(
            TTMLDocument.cueLines(result) == [
                "00:00:01.000-00:00:02.000 Always", "00:00:02.000-00:00:03.000 Always briefly",
                "00:00:03.000-00:00:04.000 Always", "00:00:04.000-00:00:05.000 Always later",
            ])
    }

    @Test func endAndDurTheEarlierWins() throws {
        let result = try TTMLDocument.read(TTMLDocument.make(body: #"<div><p begin="1s" end="5s" dur="2s">x</p></div>"#))
        #expect(TTMLDocument.cueLines(result) == ["00:00:01.000-00:00:03.000 x"])
    }

    /// Content nothing ends shows until the end of the media: the configured end, with a note.
    @Test func unboundedContentEndsAtTheConfiguredTime() throws {
        let document = TTMLDocument.make(body: #"<div><p begin="2s">forever</p></div>"#)
        let result = try TTMLDocument.read(document)
        #expect(TTMLDocument.cueLines(result) == ["00:00:02.000-99:59:59.999 forever"])
        #expect(result.diagnostics.map(\.code) == [.ttmlUnboundedEnd])
        let shorter = try TTMLDocument.read(document, options: TTMLReader.Options(unboundedEnd: 60_000))
        #expect(shorter.track.cues.map(\.end) == [60_000])
    }

    /// A `br` that is not yet active is pruned from the intermediate synchronic document (TTML2
    /// 11.3.1.3), so before it begins "one" and "two" are adjacent: no space was written between them.
    @Test func timedLineBreaks() throws {
        let result = try TTMLDocument.read(
            TTMLDocument.make(body: #"<div><p begin="0s" end="2s">one<br begin="1s"/>two</p></div>"#))
        #expect(TTMLDocument.cueLines(result) == ["00:00:00.000-00:00:01.000 onetwo", "00:00:01.000-00:00:02.000 one\ntwo"])
    }

    @Test func frameAndTickParameters() throws {
        let result = try TTMLDocument.read(
            TTMLDocument.make(
                body: #"<div><p begin="00:00:01:12" end="48f">frames</p><p begin="10000000t" end="15000000t">ticks</p></div>"#,
                parameters: #"ttp:frameRate="24" ttp:frameRateMultiplier="1000 1001" ttp:tickRate="10000000""#))
        // 1 s + 12 frames × 1001/24000 = 1.5005 s: a tie, to the even 1500 ms.
        #expect(TTMLDocument.cueLines(result) == ["00:00:01.500-00:00:02.002 frames", "00:00:01.000-00:00:01.500 ticks"])
    }

    @Test func smpteTimeBaseWithDropFrame() throws {
        let result = try TTMLDocument.read(
            TTMLDocument.make(
                body: #"<div><p begin="01:00:00:00" end="01:00:01:00">one hour</p></div>"#,
                parameters: #"ttp:timeBase="smpte" ttp:frameRate="30" ttp:frameRateMultiplier="1000 1001" ttp:dropMode="dropNTSC""#))
        // Drop-frame time code keeps up with the clock: 01:00:00;00 is 3600 s of media (± a frame).
        #expect(TTMLDocument.cueLines(result) == ["00:59:59.996-01:00:00.997 one hour"])
    }

    /// `timeBase="clock"`: times of day, placed on the media timeline from `clockTimeOrigin`.
    @Test func clockTimeBaseUsesTheOrigin() throws {
        let document = TTMLDocument.make(
            body: #"<div><p begin="13:00:00" end="13:00:02.5">news</p></div>"#, parameters: #"ttp:timeBase="clock""#)
        let result = try TTMLDocument.read(document, options: TTMLReader.Options(clockTimeOrigin: 13 * 3_600_000))
        #expect(TTMLDocument.cueLines(result) == ["00:00:00.000-00:00:02.500 news"])
        #expect(result.diagnostics.map(\.code) == [.ttmlTimeBase])
    }

    /// A region's own timing limits what it shows (IMSC region-timing).
    @Test func regionTimingLimitsItsContent() throws {
        let result = try TTMLDocument.read(
            TTMLDocument.make(
                head: #"<layout><region xml:id="r" begin="2s" end="4s"/></layout>"#,
                body: #"<div region="r"><p begin="0s" end="10s">region on from two to four</p></div>"#))
        #expect(result.track.cues.map(\.start) == [2000])
        #expect(result.track.cues.map(\.end) == [4000])
    }

    /// `set` changes a style for a while (TTML2 section 13.1.2): the cue is cut where it changes.
    @Test func setAnimatesStyles() throws {
        let result = try TTMLDocument.read(
            TTMLDocument.make(
                body: #"<div><p begin="0s" end="3s">Red <span>here<set begin="1s" end="2s" tts:color="red"/></span></p></div>"#))
        #expect(
            TTMLDocument.cueLines(result) == [
                "00:00:00.000-00:00:01.000 Red here", "00:00:01.000-00:00:02.000 Red <c.t1>here</c>",
                "00:00:02.000-00:00:03.000 Red here",
            ])
        #expect(result.track.stylesheets.first?.text.contains("::cue(.t1) { color: #ff0000; }") == true)
    }

    @Test func invalidTimeIsReportedWithItsPlace() throws {
        let result = try TTMLDocument.read(TTMLDocument.make(body: "<div>\n<p begin=\"soon\" end=\"2s\">x</p></div>"))
        #expect(result.track.cues.isEmpty)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.code == .ttmlBadTime)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.location?.line == 5)
        #expect(diagnostic.message.hasPrefix("begin 'soon' on p is not a TTML time expression"))
    }
}
