import CueKit
import CueKitSCC
import CueKitTestSupport
import Testing

@Suite struct SCCBadInputTests {
    @Test func aFileWithoutTheHeaderIsNotSCC() throws {
        for text in ["", "WEBVTT\n", "00:00:00:00\t9420 9420\n"] {
            #expect(throws: ReadError.self) { try SCCReader.read(text) }
            do {
                _ = try SCCReader.read(text)
            } catch let error as ReadError {
                #expect(error.diagnostic.code == .sccNotSCC)
            }
        }
    }

    @Test func wrongParityIsReportedByLineAndWordAndTheByteDropped() throws {
        var file = SCCFile()
        // "Hi" with the H's parity bit flipped: the i is kept; an EOC whose second byte is bad is
        // dropped, and the EOC pair after it is not its repetition.
        let badH = SCCFile.pair(0x48, 0x69) ^ 0x8000
        file.add("00:00:00:00", SCCFile.rcl + [badH] + [SCCFile.pair(0x14, 0x2F) ^ 0x0080] + SCCFile.eoc)
        file.add("00:00:02:00", SCCFile.edm)
        let result = try SCCReader.read(bytes: file.bytes)
        #expect(result.track.cues.map(\.text) == ["i"])
        #expect(result.diagnostics.map(\.code) == [.sccParity, .sccParity])
        // Line 3 (the header, a blank line, then the first line of pairs), word 3 from column 13.
        #expect(result.diagnostics.first?.location == SourceLocation(line: 3, column: 23))
        #expect(result.diagnostics.first?.message.contains("word 3") == true)
    }

    @Test func wrongParityEverywhereReadsToTheEndWithBoundedDiagnostics() throws {
        var file = SCCFile()
        for second in 0..<500 {
            let timecode = "00:" + [second / 60, second % 60].map { ($0 < 10 ? "0" : "") + String($0) }.joined(separator: ":") + ":00"
            file.add(timecode, (SCCFile.rcl + SCCFile.text("bad") + SCCFile.eoc).map { $0 ^ 0x8080 })
        }
        let result = try SCCReader.read(bytes: file.bytes, options: .init(limits: .init(maximumDiagnosticsPerCode: 10)))
        #expect(result.track.cues.isEmpty)
        #expect(result.diagnostics.filter { $0.code == .sccParity }.count == 10)
        #expect(result.diagnostics.last?.code == .sccDiagnosticsLimited)
    }

    @Test func unreadableTimecodesSkipTheirLineAndBackwardsTimecodesFollowThePreviousLine() throws {
        var file = SCCFile()
        file.add("00:00:05:00", SCCFile.rcl + SCCFile.text("A") + SCCFile.eoc)
        file.add("00:00:1x:00", SCCFile.edm)
        file.add("00:00:01:00", SCCFile.edm)
        file.add("00:00:09:00", SCCFile.edm)
        let result = try SCCReader.read(bytes: file.bytes)
        #expect(result.diagnostics.map(\.code) == [.sccBadTimecode, .sccTimeBackwards])
        #expect(result.diagnostics.map(\.location) == [SourceLocation(line: 5, column: 1), SourceLocation(line: 7, column: 1)])
        // The backwards EDM is received right after the previous line's pairs: frame 150 + 5.
        #expect(result.track.cues.map(\.end) == [SCCReaderTests.ms(155)])
    }

    @Test func aCaptionNeverFollowedByEndOfCaptionIsReportedAndOneStillShownEndsTenSecondsOn() throws {
        var file = SCCFile()
        file.add("00:00:01:00", SCCFile.rcl + SCCFile.text("shown") + SCCFile.eoc)
        file.add("00:00:02:00", SCCFile.rcl + SCCFile.text("never"))
        let result = try SCCReader.read(bytes: file.bytes)
        #expect(result.track.cues.map(\.text) == ["shown"])
        #expect(result.track.cues.map { $0.end - $0.start } == [10_000])
        #expect(result.diagnostics.map(\.code) == [.sccShownAtEnd, .sccNeverShown])
        #expect(result.diagnostics.last?.location?.line == 5)
    }

    @Test func textPastTheLastColumnIsReportedAndDropped() throws {
        var file = SCCFile()
        file.add("00:00:00:00", SCCFile.rcl + SCCFile.pac(row: 15, indent: 28) + SCCFile.text("abcdef") + SCCFile.eoc)
        file.add("00:00:02:00", SCCFile.edm)
        let result = try SCCReader.read(bytes: file.bytes)
        #expect(result.track.cues.map(\.text) == ["abcd"])
        #expect(result.diagnostics.map(\.code) == [.sccPastLastColumn])
    }

    @Test func badWordsAreSkippedWithoutAFrame() throws {
        let text = "Scenarist_SCC V1.0\n\n00:00:00:00\t9420 94zz 942 c1c1 942f\n\n00:00:01:00\t942c\n"
        let result = try SCCReader.read(text)
        #expect(result.diagnostics.map(\.code) == [.sccBadWord, .sccBadWord])
        #expect(result.track.cues.map(\.text) == ["AA"])
        #expect(result.track.cues.first?.start == SCCReaderTests.ms(2))
    }

    /// A million backspaces on one line, in a stream of chunks: nothing grows, nothing is reported.
    @Test func aMillionBackspacesTakeNoMemory() throws {
        var reader = SCCReader()
        var events: [TrackEvent] = []
        let backspaces = Array(String(repeating: " 94a1", count: 10_000).utf8)
        try reader.feed(Array("Scenarist_SCC V1.0\n\n00:00:00:00\t9420 c1c1".utf8)) { events.append($0) }
        for _ in 0..<100 { try reader.feed(backspaces) { events.append($0) } }
        try reader.feed(Array(" 942f\n".utf8)) { events.append($0) }
        try reader.finish { events.append($0) }
        #expect(events.contains(.header("")))
        // The two A's erased, the caption empty: no cue, and the never-shown check has nothing to say.
        #expect(events.count == 1)
    }
}

extension SCCBadInputTests {
    /// Frames past the rate (pycaption's test files have `00:00:01;45`) are readable: counted on,
    /// with a warning.
    @Test func fieldsPastTheirRangeAreCountedOn() throws {
        var file = SCCFile()
        file.add("00:00:01;45", SCCFile.rcl + SCCFile.text("A") + SCCFile.eoc)
        file.add("00:00:04;00", SCCFile.edm)
        let result = try SCCReader.read(bytes: file.bytes)
        #expect(result.diagnostics.map(\.code) == [.sccBadTimecode])
        #expect(result.diagnostics.first?.severity == .warning)
        #expect(result.track.cues.map(\.start) == [SCCReaderTests.ms(75 + 3)])
    }
}

extension SCCBadInputTests {
    /// A timecode field of many digits (a fuzzer found one of 75) is an unreadable timecode, not
    /// an overflow.
    @Test func aTimecodeFieldOfManyDigitsSkipsItsLine() throws {
        var file = SCCFile()
        file.add("00:00:01:00", SCCFile.rcl + SCCFile.text("A") + SCCFile.eoc)
        file.add("00:00:" + String(repeating: "8", count: 75) + ";17", SCCFile.edm)
        file.add("00:00:03:00", SCCFile.edm)
        let result = try SCCReader.read(bytes: file.bytes)
        #expect(result.diagnostics.map(\.code) == [.sccBadTimecode])
        #expect(result.diagnostics.first?.location == SourceLocation(line: 5, column: 1))
        #expect(result.track.cues.map(\.end) == [SCCReaderTests.ms(90)])
    }
}
