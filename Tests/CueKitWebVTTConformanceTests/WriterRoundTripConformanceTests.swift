import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Foundation
import Testing

/// The writer's round trip over every WebVTT input there is: the package's fixtures and every input
/// of the conformance suites (wpt file parsing, the `vtt` of each wpt cue text test, mozilla/vtt.js).
///
/// For each input F read as T = parse(F), with every combination of the writer's options, and
/// written both from the whole track and streamed event by event from the reader:
/// - parse(write(T)) == T: cues, times, identifiers, settings, regions, style sheets, comments and
///   cue text (comments left out when the options drop them);
/// - write(parse(write(T))) is byte for byte write(T);
/// - the writer reports nothing but cues that do not end after they start, and reading its output
///   gives no error but those its content carries: the cue text's own (`<c Mary>` is kept as
///   written, as browsers keep it in `VTTCue.text`) and `vtt-end-not-after-start` for such a cue.
@Suite
struct WriterRoundTripConformanceTests {
    /// Every input: a name and its bytes.
    static func inputs() throws -> [(name: String, bytes: [UInt8])] {
        var inputs: [(String, [UInt8])] = []
        for path in TestPaths.projectFixtures(suffixes: [".vtt"]) {
            inputs.append((path, try TestPaths.bytes(path)))
        }
        for folder in ["file-parsing", "historical", "mozilla-vtt.js"] {
            for path in TestPaths.files(in: Conformance.webvtt + "/" + folder, suffixes: [".vtt"]) {
                inputs.append((path, try TestPaths.bytes(path)))
            }
        }
        for path in TestPaths.files(in: Conformance.webvtt + "/cue-text-parsing", suffixes: [".json"]) where !path.hasSuffix("/index.json")
        {
            let tests = (try loadJSON(path) as? [String: Any])?["tests"] as? [[String: Any]] ?? []
            for test in tests {
                guard let vtt = test["vtt"] as? String else { continue }
                inputs.append(("\(path) \(test["name"] ?? "")", Array(vtt.utf8)))
            }
        }
        return inputs
    }

    static let allOptions: [WebVTTWriterOptions] = WebVTTWriterOptions.LineEnding.allCases.flatMap { lineEnding in
        CueTimestamp.HoursStyle.allCases.flatMap { hours in
            WebVTTWriterOptions.Notes.allCases.map { WebVTTWriterOptions(lineEnding: lineEnding, hours: hours, notes: $0) }
        }
    }

    @Test func everyInputRoundTripsLosslesslyAndIdempotently() throws {
        var files = 0, rejected = 0, writes = 0
        var failures: [String] = []
        for input in try Self.inputs() {
            guard let original = try? WebVTTReader.read(bytes: input.bytes) else {
                rejected += 1  // not a WebVTT file (no signature): nothing to write
                continue
            }
            files += 1
            for options in Self.allOptions {
                var expected = original.track
                if options.notes == .drop { expected.notes = [] }
                let whole = try RoundTrip.write(original.track, options: options)
                let streamed = try RoundTrip.writeStreaming(input.bytes, options: options)
                writes += 2
                for (how, written) in [("whole", whole), ("streamed", streamed)] {
                    let label = "\(input.name) [\(how), \(RoundTrip.label(options))]"
                    failures += RoundTrip.check(written, expected: expected, options: options, label: label)
                }
            }
        }
        ConformanceReport.note("WebVTT writer round trip: \(files) inputs (\(rejected) more rejected as not WebVTT), \(writes) writes checked")
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(20).joined(separator: "\n"))")
        #expect(files >= 340)
    }
}

/// Writing, reading back, and explaining differences.
enum RoundTrip {
    struct Written {
        var bytes: [UInt8]
        var diagnostics: [Diagnostic]
    }

    static func write(_ track: Track, options: WebVTTWriterOptions) throws -> Written {
        var writer = WebVTTWriter(to: MemorySink(), options: options)
        try writer.write(track)
        return Written(bytes: writer.sink.bytes, diagnostics: writer.diagnostics)
    }

    /// Reader events straight into the writer, as `cuekit convert` does.
    static func writeStreaming(_ bytes: [UInt8], options: WebVTTWriterOptions) throws -> Written {
        var reader = WebVTTReader()
        var writer = WebVTTWriter(to: MemorySink(), options: options)
        try reader.feed(bytes) { try writer.write($0) }
        try reader.finish { try writer.write($0) }
        try writer.finish()
        return Written(bytes: writer.sink.bytes, diagnostics: writer.diagnostics)
    }

    /// `lf always keep`.
    static func label(_ options: WebVTTWriterOptions) -> String {
        "\(options.lineEnding) \(options.hours) \(options.notes)"
    }

    /// The errors a reader reports for what the track itself holds, however it is written: an HLS
    /// `X-TIMESTAMP-MAP` header line that cannot be read, each cue text's own errors, and a cue that
    /// does not end after it starts.
    static func contentErrors(of track: Track) -> [DiagnosticCode] {
        var codes: [DiagnosticCode] = []
        let headerLines = track.header.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropFirst()
        for line in headerLines where WebVTTTimestampMap.names(line) && (try? WebVTTTimestampMap.parse(line)) == nil {
            codes.append(.vttTimestampMap)
        }
        for cue in track.cues {
            if cue.end <= cue.start { codes.append(.vttEndNotAfterStart) }
            var text = cue.text
            let diagnostics = text.withUTF8 {
                CueText.diagnostics(forUTF8: UnsafeRawBufferPointer($0), context: CueText.Context(cueStart: cue.start, cueEnd: cue.end))
            }
            codes += diagnostics.filter { $0.severity == .error }.map(\.code)
        }
        return codes.sorted()
    }

    /// Every way `written` falls short of `expected`.
    static func check(_ written: Written, expected: Track, options: WebVTTWriterOptions, label: String) -> [String] {
        var failures: [String] = []
        let reversedCues = expected.cues.filter { $0.end <= $0.start }.count
        let unexpected = written.diagnostics.filter { $0.code != .vttWriteEndNotAfterStart }
        if !unexpected.isEmpty || written.diagnostics.count != reversedCues {
            failures.append("\(label): the writer reported \(written.diagnostics)")
        }
        guard let reread = try? WebVTTReader.read(bytes: written.bytes) else {
            return failures + ["\(label): the output is not read as WebVTT:\n\(String(decoding: written.bytes, as: UTF8.self))"]
        }
        if let difference = reread.track.firstDifference(from: expected) {
            failures.append("\(label): read back differs: \(difference)")
        }
        let errors = reread.diagnostics.filter { $0.severity == .error }
        if errors.map(\.code).sorted() != contentErrors(of: expected) {
            failures.append("\(label): reading the output gives errors its content does not explain: \(errors)")
        }
        if let rewritten = try? write(reread.track, options: options), rewritten.bytes != written.bytes {
            failures.append(
                "\(label): writing again gives other bytes:\n\(String(decoding: written.bytes, as: UTF8.self))\n---\n\(String(decoding: rewritten.bytes, as: UTF8.self))"
            )
        }
        return failures
    }
}
