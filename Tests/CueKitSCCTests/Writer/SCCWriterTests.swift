import CueKit
import CueKitSCC
import CueKitTestSupport
import Testing

@Suite struct SCCWriterTests {
    static func write(_ cues: [Cue], options: SCCWriter<MemorySink>.Options = .init()) throws -> (bytes: [UInt8], diagnostics: [Diagnostic])
    {
        var writer = SCCWriter(to: MemorySink(), options: options)
        var track = Track()
        track.cues = cues
        try writer.write(track)
        return (writer.sink.bytes, writer.diagnostics)
    }

    /// The frame a time falls on, at 29.97, as the writer rounds it (the first frame at or after it).
    static func frameTime(_ milliseconds: Int) -> Int {
        SCCFrameRate.ntsc.milliseconds(ofFrame: SCCFrameRate.ntsc.frame(atOrAfter: milliseconds))
    }

    static let cues = [
        Cue(start: 1_000, end: 3_000, text: "Hello, <i>world</i>!"),
        Cue(start: 3_000, end: 4_500, text: "Two rows\nof text"),
        Cue(
            start: 6_000, end: 8_000, settings: CueSettings(line: .percentage(10), alignment: .left),
            text: "Top left ‘quoted’ – café, Ñandú, ½ ♪"),
        Cue(start: 9_000, end: 12_000, text: "A line long enough to be wrapped at the thirty-second column of the grid"),
    ]

    @Test func captionsReadBackShowTheSameTextAtTheSameFrames() throws {
        let (bytes, diagnostics) = try Self.write(Self.cues)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(String(decoding: bytes.prefix(20), as: UTF8.self) == "Scenarist_SCC V1.0\n\n")
        let read = try SCCReader.read(bytes: bytes)
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        // The same times (on frames), and the same text, its lines wrapped at 32 columns; ’ and –
        // as their 608 equivalents.
        #expect(read.track.cues.map(\.start) == Self.cues.map { Self.frameTime($0.start) })
        #expect(read.track.cues.map(\.end) == Self.cues.map { Self.frameTime($0.end) })
        let joined = read.track.cues.map { ShownText.lines(of: $0).joined(separator: " ") }
        #expect(
            joined == [
                "Hello, world!", "Two rows of text", "Top left ‘quoted' - café, Ñandú, ½ ♪",
                "A line long enough to be wrapped at the thirty-second column of the grid",
            ])
        // Wrapped at a space before column 32.
        #expect(
            read.track.cues.last.map { ShownText.lines(of: $0) } == [
                "A line long enough to be wrapped", "at the thirty-second column of", "the grid",
            ])
        // Placed: the top-left cue on row 1 at column 0, the others on the bottom rows, centred.
        #expect(read.track.cues[2].settings.line == .percentage(10))
        #expect(read.track.cues[2].settings.position == .percentage(10))
        #expect(read.track.cues[0].settings.line == .percentage(84.67))
    }

    @Test func dropFrameByDefaultAndNonDropAtThirty() throws {
        let cue = Cue(start: 600_000, end: 601_000, text: "ten minutes")
        let dropFrame = String(decoding: try Self.write([cue]).bytes, as: UTF8.self)
        // 10 minutes and a second is frame 18,012 at 29.97: drop-frame labels it 00:10:01;00.
        #expect(dropFrame.contains("00:10:01;00\t942c 942c"))
        let read = try SCCReader.read(bytes: Array(dropFrame.utf8)).track.cues
        #expect(read.map(\.start) == [Self.frameTime(600_000)])
        let thirty = String(decoding: try Self.write([cue], options: .init(frameRate: .thirty)).bytes, as: UTF8.self)
        #expect(thirty.contains("00:10:01:00\t942c 942c"))
        #expect(try SCCReader.read(bytes: Array(thirty.utf8), options: .init(frameRate: .thirty)).track.cues.map(\.start) == [600_000])
    }

    @Test func aCaptionThatCannotLoadInTimeIsReportedNotMovedSilently() throws {
        let cues = [
            Cue(start: 1_000, end: 1_100, text: "first caption here"), Cue(start: 1_100, end: 3_000, text: "second caption, loaded late"),
        ]
        let (bytes, diagnostics) = try Self.write(cues)
        #expect(diagnostics.map(\.code) == [.sccLateCaption])
        let read = try SCCReader.read(bytes: bytes).track.cues
        #expect(read.map(\.text) == ["first caption here", "second caption, loaded late"])
        #expect(read[1].start > 1_100)
        #expect(diagnostics.first?.message.contains(CueTimestamp.format(read[1].start)) == true)
    }

    @Test func theEarlierCaptionIsErasedWhileTheNextLoads() throws {
        // The second caption's 18 pairs must be sent while the first is shown: its EDM goes among them.
        let cues = [Cue(start: 1_000, end: 2_000, text: "one"), Cue(start: 2_200, end: 3_000, text: "a second caption of some length")]
        let (bytes, diagnostics) = try Self.write(cues)
        #expect(diagnostics.isEmpty)
        let read = try SCCReader.read(bytes: bytes)
        #expect(read.diagnostics.isEmpty)
        #expect(read.track.cues.map(\.start) == [1_000, 2_200].map(Self.frameTime))
        #expect(read.track.cues.map(\.end) == [2_000, 3_000].map(Self.frameTime))
    }

    @Test func charactersWithoutEquivalentAndRowsPastFourAreReported() throws {
        let (bytes, diagnostics) = try Self.write([Cue(start: 1_000, end: 2_000, text: "日本 x\n2\n3\n4\n5")])
        #expect(diagnostics.map(\.code) == [.sccNotWritten, .sccNotWritten, .sccNotWritten])
        #expect(try SCCReader.read(bytes: bytes).track.cues.map(\.text) == ["x\n2\n3\n4"])
    }
}
