import CueKit
import CueKitSCC
import CueKitTestSupport
import Testing

@Suite struct SCCReaderTests {
    static func read(_ file: SCCFile, options: SCCReader.Options = .init()) throws -> ReadResult {
        try SCCReader.read(bytes: file.bytes, options: options)
    }

    /// The milliseconds of a 29.97 frame.
    static func ms(_ frame: Int) -> Int { Int((Double(frame) * 1001 / 30).rounded(.toNearestOrEven)) }

    @Test func popOnCaptionAppearsAtItsEndOfCaptionFrameAndGoesAtEraseDisplayedMemory() throws {
        var file = SCCFile()
        // RCL RCL PAC PAC "Hello" (3 pairs) EOC EOC: EOC is the 8th pair, frame 30 + 7.
        file.add("00:00:01:00", SCCFile.rcl + SCCFile.pac(row: 15) + SCCFile.text("Hello") + SCCFile.eoc)
        file.add("00:00:03:00", SCCFile.edm)
        let result = try Self.read(file)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.track.cues.map(\.text) == ["Hello"])
        #expect(result.track.cues.map(\.start) == [Self.ms(37)])
        #expect(result.track.cues.map(\.end) == [Self.ms(90)])
        // Row 15 of the 80% safe area, aligned by its top: 10 + 14 × 80/15.
        #expect(result.track.cues[0].settings.line == .percentage(84.67))
        #expect(result.track.cues[0].settings.position == .percentage(10))
        #expect(result.track.cues[0].settings.positionAlignment == .lineLeft)
    }

    @Test func dropFrameTimecodesSkipTwoLabelsAMinuteButEveryTenth() throws {
        for (timecode, frame) in [("00:01:00;02", 1800), ("00:10:00;00", 17982), ("01:00:00;00", 107_892), ("00:01:00:02", 1802)] {
            var file = SCCFile()
            file.add(timecode, SCCFile.rcl + SCCFile.text("x") + SCCFile.eoc)
            file.add("02:00:00;00", SCCFile.edm)
            #expect(try Self.read(file).track.cues.first?.start == Self.ms(frame + 3), "\(timecode)")
        }
    }

    @Test func frameRateOverrideCountsThirtyFramesASecond() throws {
        var file = SCCFile()
        file.add("00:00:10:15", SCCFile.rcl + SCCFile.text("x") + SCCFile.eoc)
        file.add("00:00:20:00", SCCFile.edm)
        let cues = try Self.read(file, options: .init(frameRate: .thirty)).track.cues
        #expect(cues.map(\.start) == [10_600])
        #expect(cues.map(\.end) == [20_000])
    }

    @Test func rollUpShowsEachPairAsItArrivesAndCarriageReturnRollsTheRowsUp() throws {
        var file = SCCFile()
        file.add("00:00:00:00", SCCFile.ru2 + SCCFile.cr + SCCFile.pac(row: 15) + SCCFile.text("ONE"))
        file.add("00:00:01:00", SCCFile.cr + SCCFile.text("TW"))
        file.add("00:00:02:00", SCCFile.cr)
        file.add("00:00:03:00", SCCFile.edm)
        let result = try Self.read(file)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let shown = result.track.cues.map { ShownText.lines(of: $0) }
        // CR moves ONE up a row: a change of place, a cue of its own.
        #expect(shown == [["ON"], ["ONE"], ["ONE"], ["ONE", "TW"], ["TW"]])
        #expect(result.track.cues.map(\.start) == [6, 7, 30, 32, 60].map(Self.ms))
        #expect(result.track.cues.last?.end == Self.ms(90))
        // The two rows of the window: rows 14 and 15.
        #expect(result.track.cues.map(\.settings.line) == [84.67, 84.67, 79.33, 79.33, 79.33].map { .percentage($0) })
    }

    @Test func rollUpWindowMovesToThePreambleRow() throws {
        var file = SCCFile()
        file.add(
            "00:00:00:00", SCCFile.ru3 + SCCFile.pac(row: 15) + SCCFile.text("A") + SCCFile.cr + SCCFile.pac(row: 5) + SCCFile.text("B"))
        file.add("00:00:02:00", SCCFile.edm)
        let cues = try Self.read(file).track.cues
        #expect(cues.last.map { ShownText.lines(of: $0) } == ["A", "B"])
        // Row 4 (A rolled up above the base row 5): 10 + 3 × 80/15.
        #expect(cues.last?.settings.line == .percentage(26))
    }

    @Test func paintOnShowsTextAtTheFrameOfEachPair() throws {
        var file = SCCFile()
        file.add("00:00:00:00", SCCFile.rdc + SCCFile.pac(row: 1, indent: 8) + SCCFile.text("PAINT"))
        file.add("00:00:02:00", SCCFile.edm)
        let cues = try Self.read(file).track.cues
        #expect(cues.map(\.text) == ["PA", "PAIN", "PAINT"])
        #expect(cues.map(\.start) == [4, 5, 6].map(Self.ms))
        #expect(cues[0].settings.line == .percentage(10))
        #expect(cues[0].settings.position == .percentage(30))
    }

    @Test func editingCodesBackspaceDeleteToEndOfRowAndTabOffsets() throws {
        var file = SCCFile()
        file.add(
            "00:00:00:00",
            SCCFile.rcl + SCCFile.pac(row: 2) + SCCFile.text("ABCD") + SCCFile.bs + SCCFile.text("X") + SCCFile.to2 + SCCFile.text("Y")
                + SCCFile.pac(row: 3) + SCCFile.text("KEEPGONE") + SCCFile.pac(row: 3, indent: 4) + SCCFile.der + SCCFile.eoc)
        file.add("00:00:02:00", SCCFile.edm)
        let cues = try Self.read(file).track.cues
        #expect(cues.map(\.text) == ["ABCX  Y\nKEEP"])
    }

    @Test func preambleAndMidRowCodesStyleTheText() throws {
        var file = SCCFile()
        file.add(
            "00:00:00:00",
            SCCFile.rcl + SCCFile.pac(row: 14, color: 5) + SCCFile.text("gold") + SCCFile.midRow(7) + SCCFile.text("lean")
                + SCCFile.midRow(0, underline: true)
                + SCCFile.text("under") + SCCFile.pac(row: 15, color: 7, underline: true) + SCCFile.text("both") + SCCFile.eoc)
        file.add("00:00:02:00", SCCFile.edm)
        let result = try Self.read(file)
        #expect(result.track.cues.map(\.text) == ["<c.yellow>gold </c><c.yellow><i>lean </i></c><u>under</u>\n<i><u>both</u></i>"])
        let rules = result.track.stylesheets.flatMap { $0.rules ?? [] }
        #expect(rules.map(\.selector) == [.classes(["yellow"])])
        #expect(rules.first?.value(of: "color") == "#ffff00")
    }

    @Test func specialAndExtendedCharactersTheLatterReplacingTheirFallback() throws {
        var file = SCCFile()
        file.add(
            "00:00:00:00",
            SCCFile.rcl + SCCFile.text("*") + SCCFile.special(0x37) + SCCFile.text(" caf") + SCCFile.extended(0x12, 0x21, fallback: "E")
                + SCCFile.extended(0x13, 0x32, fallback: "O") + SCCFile.text("\u{5C}\u{7E}") + SCCFile.eoc)
        file.add("00:00:02:00", SCCFile.edm)
        let cues = try Self.read(file).track.cues
        #expect(cues.map(\.text) == ["á♪ cafÉÖéñ"])
    }

    @Test func doubledControlCodesAreIgnoredOnceNotTwice() throws {
        var file = SCCFile()
        file.add("00:00:00:00", SCCFile.rcl + SCCFile.text("first") + SCCFile.eoc)
        // Four EOCs: two swaps, the first caption shown again.
        file.add("00:00:01:00", SCCFile.rcl + SCCFile.text("second") + SCCFile.eoc + SCCFile.eoc)
        file.add("00:00:02:00", SCCFile.edm)
        let cues = try Self.read(file).track.cues
        #expect(cues.map(\.text) == ["first", "second", "first"])
    }

    @Test func otherChannelsAndExtendedDataServicesAreSkipped() throws {
        var file = SCCFile()
        file.add(
            "00:00:00:00",
            SCCFile.rcl + SCCFile.text("one") + SCCFile.code(0x14, 0x20, channel: 2) + SCCFile.text("two")
                + SCCFile.code(0x14, 0x2F, channel: 2)
                + SCCFile.code(0x14, 0x20) + [SCCFile.pair(0x01, 0x03)] + SCCFile.text("xds") + [SCCFile.pair(0x0F, 0x1D)] + SCCFile.eoc)
        file.add("00:00:02:00", SCCFile.edm + SCCFile.code(0x14, 0x2C, channel: 2))
        let one = try Self.read(file)
        #expect(one.track.cues.map(\.text) == ["one"])
        #expect(one.diagnostics.map(\.code) == [.sccChannels])
        #expect(one.diagnostics.first?.message.contains("CC1, CC2") == true)
        let two = try Self.read(file, options: .init(channel: .cc2))
        #expect(two.track.cues.map(\.text) == ["two"])
    }

    @Test func theSameEventsWhateverTheChunks() throws {
        var file = SCCFile()
        file.add("00:00:00;00", SCCFile.ru2 + SCCFile.pac(row: 15) + SCCFile.text("roll") + SCCFile.midRow(3) + SCCFile.text("up"))
        file.add("00:00:01;00", SCCFile.rcl + SCCFile.text("pop") + SCCFile.eoc + [0x1234])
        file.add("00:00:02;00", SCCFile.edm)
        let outcome = try ChunkingVerifier.verify(file.bytes) { SCCReader() }
        let events = try outcome.get()
        #expect(events.contains { if case .cue = $0 { true } else { false } })
    }
}
