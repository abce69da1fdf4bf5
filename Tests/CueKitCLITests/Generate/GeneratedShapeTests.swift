import CueKit
import CueKitASS
import CueKitEBUSTL
import CueKitSCC
import CueKitSubRip
import CueKitSynthetic
import CueKitTTML
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// `cuekit generate --shape`: each shape is what its name says, in every format it is written in,
/// and every reader reads it.
@Suite struct GeneratedShapeTests {
    static func generate(_ shape: TrackGenerator.Shape, _ format: TrackGenerator.Format, cues: Int = 1_000) throws -> [UInt8] {
        var generator = TrackGenerator(options: .init(cues: cues, seed: 7, format: format, shape: shape))
        var sink = MemorySink()
        try generator.write(to: &sink)
        return sink.bytes
    }

    static func read(_ bytes: [UInt8], _ format: TrackGenerator.Format) throws -> ReadResult {
        switch format {
        case .webVTT: return try WebVTTReader.read(bytes: bytes)
        case .subRip:
            var reader = SubRipReader()
            return try reader.read(bytes)
        case .ttml: return try TTMLReader.read(bytes: bytes)
        case .ass: return try ASSReader.read(bytes: bytes)
        case .ebuSTL: return try EBUSTLReader.read(bytes: bytes)
        case .scc: return try SCCReader.read(bytes: bytes)
        }
    }

    /// Every shape in every format it supports: the cues all come back, and only the diagnostics
    /// shape has problems (beside TTML's note on its body background).
    @Test(arguments: TrackGenerator.Shape.allCases)
    func everyShapeReadsBackWithAllItsCues(shape: TrackGenerator.Shape) throws {
        for format in TrackGenerator.Format.allCases where shape.supports(format) {
            let result = try Self.read(try Self.generate(shape, format), format)
            #expect(result.track.cues.count == 1_000, "\(shape) \(format)")
            let problems = result.diagnostics.filter { $0.severity != .note }
            if shape == .diagnostics {
                #expect(!problems.isEmpty, "\(format)")
            } else {
                #expect(problems.isEmpty, "\(shape) \(format): \(problems.prefix(3))")
            }
        }
    }

    @Test func eachShapeHasItsTrait() throws {
        let plain = try Self.read(try Self.generate(.plain, .webVTT), .webVTT).track
        #expect(plain.cues.allSatisfy { !$0.text.contains("<") && $0.settings.isDefault && $0.id.isEmpty })

        let markup = try Self.read(try Self.generate(.markupHeavy, .webVTT), .webVTT).track
        let wrapped = markup.cues.filter { $0.text.contains("<c.") }.count
        #expect(wrapped > 300, "a third of cues and more carry classes: \(wrapped)")
        #expect(markup.cues.contains { $0.text.contains("<v.") } && markup.cues.contains { $0.text.contains("<ruby>") })

        let settings = try Self.read(try Self.generate(.settingsHeavy, .webVTT), .webVTT).track
        #expect(settings.cues.allSatisfy { $0.settings.position != .auto && $0.settings.size < 100.5 })

        let shortTimes = String(decoding: try Self.generate(.shortTimes, .webVTT), as: UTF8.self)
        // Hours are written only from the first hour on.
        let starts = shortTimes.split(separator: "\n").filter { $0.contains("-->") }.map { $0.split(separator: " ")[0] }
        #expect(starts.count == 1_000 && starts.allSatisfy { $0.split(separator: ":").count == 2 || $0.hasPrefix("01:") })
        #expect(starts.prefix(500).allSatisfy { $0.split(separator: ":").count == 2 })

        for format in TrackGenerator.Format.allCases where TrackGenerator.Shape.crlf.supports(format) {
            let crlf = try Self.generate(.crlf, format)
            let lineFeeds = crlf.indices.filter { crlf[$0] == 0x0A }
            #expect(!lineFeeds.isEmpty && lineFeeds.allSatisfy { $0 > 0 && crlf[$0 - 1] == 0x0D }, "\(format)")
        }

        let nonLatin = try Self.read(try Self.generate(.nonLatin, .subRip), .subRip).track
        #expect(nonLatin.cues.allSatisfy { cue in !cue.nodes().plainText.unicodeScalars.contains { $0.properties.isAlphabetic && $0.isASCII } })

        let timed = try Self.read(try Self.generate(.timedDivs, .ttml), .ttml).track
        let styled = try Self.read(try Self.generate(.styled, .ttml), .ttml).track
        let mixed = try Self.read(try Self.generate(.mixed, .ttml), .ttml).track
        // Relative times in timed divs come out as the same absolute times.
        #expect(timed.cues.map(\.start).sorted() == mixed.cues.map(\.start).sorted())
        #expect(styled.stylesheets.flatMap { $0.text.split(separator: "\n") }.count > mixed.stylesheets.flatMap { $0.text.split(separator: "\n") }.count)
    }

    @Test func aShapeAFormatCannotHoldIsAUsageError() throws {
        let run = try CommandLineRun.cuekit(["generate", "--cues", "5", "--shape", "timed-divs", "--format", "vtt"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("The timed-divs shape cannot be written as vtt."), "\(run.standardError)")
    }
}

extension GeneratedShapeTests {
    /// The style-guide shape is a track caption QC finds nothing in, with Netflix's English rules,
    /// in WebVTT and SubRip; its cues are timed in order with gaps.
    @Test func theStyleGuideShapeMeetsNetflixsEnglishRules() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        for format in ["vtt", "srt"] {
            let path = folder.file("guide.\(format)")
            let generated = try CommandLineRun.cuekit(["generate", "--shape", "style-guide", "--cues", "5000", "--format", format, "-o", path])
            #expect(generated.status == 0, "\(generated)")
            let checked = try CommandLineRun.cuekit(["validate", "--qc", "netflix", "--language", "en", path])
            #expect(checked.status == 0, "\(checked)")
            #expect(checked.standardOutput == "1 file: 1 valid (0 errors, 0 warnings)\n", "\(format): \(checked.standardOutput.prefix(600))")
        }
        let cues = try Self.read(try Self.generate(.styleGuide, .webVTT), .webVTT).track.cues
        #expect(zip(cues, cues.dropFirst()).allSatisfy { $1.start - $0.end >= 100 })
        #expect(cues.allSatisfy { $0.end - $0.start >= 1_200 && $0.end - $0.start <= 7_000 && !$0.text.contains("<") })
    }
}
