import CueKit
import CueKitConversion
import CueKitEBUSTL
import CueKitTestSupport
import Testing

/// An EBU-STL file through the conversion engine every door uses: told from its disk format code
/// whatever its name, read in two passes (every colour rule before the first cue), its cues in
/// start-time order.
@Suite struct EBUSTLConversionTests {
    @Test func anSTLFileConvertsToWebVTT() throws {
        var file = STLFile()
        file.add("second", number: 2, from: 5, to: 6)
        file.add(STLFile.Subtitle(number: 1, timeIn: (0, 0, 1, 0), timeOut: (0, 0, 2, 0), text: [0x06] + Array("cyan".utf8), verticalPosition: 1))
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        ExternalProcess.writeBytes(file.bytes, to: folder.file("programme.bin"))
        let source = try TrackSource(path: folder.file("programme.bin"))
        #expect(source.format == .ebuSTL)
        var sink = MemorySink()
        var reported: [ConversionDiagnostic] = []
        try TrackConversion(source: source).write(to: &sink) { reported.append($0) }
        #expect(reported.map(\.diagnostic.code) == ["cue-order"])
        #expect(
            sink.string == """
                WEBVTT

                STYLE
                ::cue(.cyan) { color: #00ffff; }

                00:00:01.000 --> 00:00:02.000 line:10%
                <c.cyan>cyan</c>

                00:00:05.000 --> 00:00:06.000 line:83.04%
                second

                """)
    }

    @Test func formatIsToldByTheDiskFormatCode() {
        for code in ["STL25.01", "STL30.01", "STL50.01"] {
            var file = STLFile()
            file.diskFormatCode = code
            #expect(TrackFormat.detect(content: file.gsi) == .ebuSTL, "\(code)")
        }
        var other = STLFile()
        other.diskFormatCode = "STL99.99"
        #expect(TrackFormat.detect(content: other.gsi) == nil)
        #expect(TrackFormat(path: "a.STL") == .ebuSTL)
        #expect(TrackFormat(name: "ebu-stl") == .ebuSTL)
        #expect(TrackFormat.ebuSTL.isBinary)
    }
}
