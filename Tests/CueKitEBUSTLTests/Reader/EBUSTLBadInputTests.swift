import CueKit
import CueKitEBUSTL
import CueKitTestSupport
import Testing

@Suite struct EBUSTLBadInputTests {
    @Test func aTruncatedGSIBlockIsNotRead() {
        let file = STLFile()
        #expect(throws: ReadError.self) { try EBUSTLReader.read(bytes: Array(file.gsi.prefix(600))) }
        do {
            _ = try EBUSTLReader.read(bytes: Array(file.gsi.prefix(600)))
        } catch let error as ReadError {
            #expect(error.diagnostic.code == .stlNotSTL)
            #expect(error.diagnostic.location == SourceLocation(line: 0, column: 1))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func anotherDiskFormatCodeIsNotSTL() {
        var file = STLFile()
        file.diskFormatCode = "XYZ25.01"
        #expect(throws: ReadError.self) { try EBUSTLReader.read(bytes: file.bytes) }
    }

    @Test func aTruncatedTTIBlockIsReportedAndEverythingBeforeItKept() throws {
        var file = STLFile()
        file.add("kept", number: 1, from: 1, to: 2)
        file.add("cut", number: 2, from: 3, to: 4)
        let result = try EBUSTLReader.read(bytes: Array(file.bytes.dropLast(28)))
        #expect(result.track.cues.map(\.text) == ["kept"])
        #expect(result.diagnostics.map(\.code) == [.stlTruncatedBlock])
        #expect(result.diagnostics.first?.location == SourceLocation(line: 2, column: 1))
    }

    @Test func moreBlocksThanDeclaredAreReadToTheEndWithOneWarning() throws {
        var file = STLFile()
        file.declaredBlocks = 2
        for index in 0..<5 { file.add("s\(index)", number: index + 1, from: index * 2, to: index * 2 + 1) }
        let result = try EBUSTLReader.read(bytes: file.bytes)
        #expect(result.track.cues.count == 5)
        #expect(result.diagnostics.map(\.code) == [.stlMoreBlocksThanDeclared])
        #expect(result.diagnostics.first?.location?.line == 3)
    }

    @Test func badTimecodesAndBackwardsSubtitlesAreSkippedWithLocations() throws {
        var file = STLFile()
        file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, 25), timeOut: (0, 0, 2, 0), text: Array("frame 25 of 25".utf8)))
        file.add(STLFile.Subtitle(number: 2, timeIn: (0, 0, 3, 0), timeOut: (0, 0, 2, 0), text: Array("backwards".utf8)))
        file.add("good", number: 3, from: 5, to: 6)
        let result = try EBUSTLReader.read(bytes: file.bytes)
        #expect(result.track.cues.map(\.text) == ["good"])
        #expect(result.diagnostics.map(\.code) == [.stlBadTimecode, .stlEndBeforeStart])
        #expect(result.diagnostics.map(\.location) == [SourceLocation(line: 1, column: 6), SourceLocation(line: 2, column: 10)])
    }

    @Test func extensionBlocksBeyondTheLimitAreCut() throws {
        var file = STLFile()
        file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, 0), timeOut: (0, 0, 2, 0), text: Array(String(repeating: "x", count: 112 * 4).utf8)))
        let result = try EBUSTLReader.read(bytes: file.bytes, options: .init(limits: .init(maximumExtensionBlocks: 2)))
        #expect(result.track.cues.first?.text.count == 224)
        #expect(result.diagnostics.map(\.code) == [.stlExtension])
    }

    @Test func unknownCharactersAreReplacedAndReported() throws {
        var file = STLFile()
        file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, 0), timeOut: (0, 0, 2, 0), text: Array("ab".utf8) + [0xC0, 0x7F]))
        let result = try EBUSTLReader.read(bytes: file.bytes)
        #expect(result.track.cues.first?.text == "ab\u{FFFD}\u{FFFD}")
        #expect(result.diagnostics.map(\.code) == [.stlUnknownCharacter])
        #expect(result.diagnostics.first?.location == SourceLocation(line: 1, column: 19))
    }

    /// A million TTI blocks, more than the GSI's five digits declare and subtitle numbers wrapping
    /// at 65,536: every subtitle is read, with one warning, and the reader holds one block.
    @Test(.tags(.slow), .skippableByTag) func aMillionBlocksAreReadToTheEnd() throws {
        var file = STLFile()
        file.declaredBlocks = 99_999
        file.add("first", number: 0, from: 0, to: 1)
        var reader = EBUSTLReader()
        var cues = 0
        var diagnostics: [Diagnostic] = []
        var lastText = ""
        let handler: (TrackEvent) -> Void = { event in
            switch event {
            case .cue(let cue):
                cues += 1
                lastText = cue.text
            case .diagnostic(let diagnostic): diagnostics.append(diagnostic)
            default: break
            }
        }
        try reader.feed(file.gsi, to: handler)
        var template = file.blocks[0]
        var chunk: [UInt8] = []
        for index in 0..<1_000_000 {
            template[1] = UInt8(index & 0xFF)
            template[2] = UInt8((index >> 8) & 0xFF)
            let seconds = index % 3600
            template[5] = UInt8(index / 3600 % 24)
            template[6] = UInt8(seconds / 60)
            template[7] = UInt8(seconds % 60)
            template[9] = template[5]
            template[10] = template[6]
            template[11] = template[7]
            template[12] = 20
            chunk += template
            if chunk.count >= 1 << 16 {
                try reader.feed(chunk, to: handler)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try reader.feed(chunk, to: handler)
        try reader.finish(to: handler)
        #expect(cues == 1_000_000)
        #expect(lastText == "first")
        #expect(diagnostics.map(\.code) == [.stlMoreBlocksThanDeclared])
        #expect(diagnostics.first?.location?.line == 100_000)
    }
}
