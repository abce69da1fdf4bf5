import CueKit
import CueKitSubRip
import CueKitSynthetic
import CueKitTTML
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// ttconv 1.2.3, an independent TTML reader, reads every document ``TTMLWriter`` writes: over the
/// WebVTT conformance inputs, the SubRip fixtures and generated tracks, the text it shows at every
/// instant is the text the source shows (``ShownText``; an inner timestamp's text shown from that
/// time, as the writer's timed spans say; ruby as `base(text)` in the profiles without ruby, and
/// left out in IMSC 1.1, where ttconv reads it as ruby and its WebVTT writer drops it). Every
/// document is also well-formed (CueKit's own reader finds no error in it, and xmllint none when
/// installed), and meets its profile's constraints (``TTMLProfileCheck``, against the profile it
/// declares).
@Suite(.enabled(if: PythonPeers.hasTTConv, "ttconv is not installed: run .ci/setup (it installs ttconv 1.2.3 into .venv)"), .tags(.peers), .skippableByTag)
struct TTMLWriterTTConvTests {
    /// A source track and its name.
    struct Source {
        var name: String
        var track: Track
    }

    static func sources() throws -> [Source] {
        var sources: [Source] = []
        let webVTT = TestPaths.files(in: TestPaths.conformance + "/webvtt", suffixes: [".vtt"])
            + TestPaths.files(in: TestPaths.fixtures + "/webvtt", suffixes: [".vtt"])
        for path in webVTT {
            // Files the reader refuses (no signature) have no track to write.
            guard let read = try? WebVTTReader.read(fileAtPath: path) else { continue }
            sources.append(Source(name: path, track: read.track))
        }
        for path in TestPaths.files(in: TestPaths.fixtures + "/subrip", suffixes: [".srt"]) {
            guard let read = try? SubRipReader.read(fileAtPath: path) else { continue }
            sources.append(Source(name: path, track: read.track))
        }
        for seed in 1...3 {
            var generator = TrackGenerator(options: .init(cues: 400, seed: UInt64(seed), format: .webVTT))
            var sink = MemorySink()
            try generator.write(to: &sink)
            sources.append(Source(name: "generated WebVTT, seed \(seed)", track: try WebVTTReader.read(bytes: sink.bytes).track))
        }
        return sources
    }

    /// Every profile, inner timestamps left out (the default), and IMSC 1.1 with paint-on timestamps.
    static let cases: [(TTMLProfile, TTMLWriterOptions.InnerTimestamps)] =
        TTMLProfile.allCases.map { ($0, .wholeCue) } + [(.imsc11, .paintOn)]

    @Test(arguments: cases)
    func ttconvShowsTheSourceTextAtEveryInstant(_ profile: TTMLProfile, _ timestamps: TTMLWriterOptions.InnerTimestamps) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let sources = try Self.sources()
        #expect(sources.count > 300)
        var arguments: [String] = []
        for (index, source) in sources.enumerated() {
            var writer = TTMLWriter(to: MemorySink(), options: TTMLWriterOptions(profile: profile, innerTimestamps: timestamps))
            try writer.write(source.track)
            let bytes = writer.sink.bytes
            let read = try TTMLReader.read(bytes: bytes)
            let errors = read.diagnostics.filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(source.name): CueKit's reader finds errors in the TTML written: \(errors.prefix(3))")
            var violations: [Diagnostic] = []
            let declared = TTMLProfileCheck.check(bytes: bytes) { violations.append($0) }
            #expect(declared == profile && violations.isEmpty, "\(source.name): \(profile) check: \(violations.prefix(3))")
            ExternalProcess.writeBytes(bytes, to: directory.file("\(index).ttml"))
            arguments += [directory.file("\(index).ttml"), directory.file("\(index).vtt")]
        }
        if ExternalProcess.isInstalled("xmllint") {
            let check = ExternalProcess.run("xmllint", ["--noout"] + stride(from: 0, to: arguments.count, by: 2).map { arguments[$0] })
            #expect(check.status == 0, "xmllint: \(check.error.prefix(2000))")
        }
        let run = ExternalProcess.run(PythonPeers.python, [PythonPeers.script("ttconv_to_webvtt.py")] + arguments)
        try #require(run.status == 0, "ttconv_to_webvtt.py: \(run.error)")

        var failures: [String] = []
        for (index, source) in sources.enumerated() {
            let output = directory.read("\(index).vtt") ?? "ERROR: no output"
            guard !output.hasPrefix("ERROR") else {
                failures.append("\(source.name): ttconv cannot read it: \(output)")
                continue
            }
            let ttconvCues = try WebVTTReader.read(output).track.cues
            // IMSC 1.1 writes ruby, which ttconv reads (TTMLWriterRubyTTConvTests) but its WebVTT
            // writer drops; the other profiles write `base(text)`.
            let ruby: ShownText.RubyShown = profile == .imsc11 ? .leftOut : .inParentheses
            let expected =
                timestamps == .paintOn
                ? ShownText.shownProgressively(source.track.cues, ruby: ruby)
                : ShownText.shownWhole(source.track.cues, ruby: ruby)
            let horizon = (source.track.cues.map(\.end) + ttconvCues.map(\.end)).max().map { $0 + 1 } ?? 1
            let differences = ShownText.differences(expected: expected, actual: ShownText.shown(ttconvCues), horizon: horizon)
            if !differences.isEmpty {
                failures.append("\(source.name):\n" + differences.prefix(3).map { "    \($0)" }.joined(separator: "\n"))
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(sources.count) tracks differ in ttconv:\n\(failures.prefix(10).joined(separator: "\n"))")
    }
}
