import CueKit
import CueKitConversion
import CueKitTestSupport
import Testing

/// From WebVTT to WebVTT with nothing asked (``TrackConversion/Options/keepsValidInputUnchanged``):
/// every valid file of the fixtures and the vendored conformance suites is written byte for byte,
/// NOTE, STYLE and REGION blocks and settings as written; a file with an error or a warning is
/// written in the canonical form, and so is every file when the canonical form is asked for.
struct UnchangedInputTests {
    static let files = TestPaths.files(in: TestPaths.fixtures, suffixes: [".vtt"])

    /// The output of `path` with `options`, and the diagnostics of the input.
    static func convert(_ path: String, _ options: TrackConversion.Options) throws -> (bytes: [UInt8], found: [ConversionDiagnostic]) {
        var sink = MemorySink()
        var found: [ConversionDiagnostic] = []
        try TrackConversion(source: try TrackSource(path: path, format: .webVTT), options: options).write(to: &sink) { found.append($0) }
        return (sink.bytes, found)
    }

    @Test func aValidFileIsWrittenAsItsOwnBytesAndAnInvalidOneInTheCanonicalForm() throws {
        var unchanged = 0, canonical = 0, rewrittenWhenAsked = 0
        for path in Self.files {
            let input = try TestPaths.bytes(path)
            guard let (bytes, found) = try? Self.convert(path, TrackConversion.Options()) else { continue }
            var normalizing = TrackConversion.Options()
            normalizing.keepsValidInputUnchanged = false
            let normalized = try Self.convert(path, normalizing).bytes
            let valid = !found.contains { $0.diagnostic.severity >= .warning }
            if valid {
                #expect(bytes == input, "\(path) is valid and was rewritten")
                unchanged += 1
                if normalized != input { rewrittenWhenAsked += 1 }
            } else {
                #expect(bytes == normalized, "\(path) has problems and was not written in the canonical form")
                canonical += 1
            }
        }
        // Both kinds are present in the fixtures, and the canonical form differs for some valid files.
        #expect(unchanged > 100 && canonical > 50 && rewrittenWhenAsked > 10, "\(unchanged) unchanged, \(canonical) canonical, \(rewrittenWhenAsked) rewritten when asked")
    }

    @Test func anyEditOrStyleWritesTheCanonicalForm() throws {
        let path = TestPaths.fixture("webvtt/valid.vtt")
        let input = try TestPaths.bytes(path)
        #expect(try Self.convert(path, TrackConversion.Options()).bytes == input)
        var shifted = TrackConversion.Options()
        shifted.timing = TimingEdit(numerator: 2, denominator: 2, shift: 0)
        var crlf = TrackConversion.Options()
        crlf.webVTT.lineEnding = .crlf
        let styled = TrackConversion.Options(format: .webVTT, style: TextTrackStyle(foregroundColor: CastColor(red: 255, green: 255, blue: 0)))
        for options in [crlf, styled] {
            #expect(try Self.convert(path, options).bytes != input)
        }
        // An edit that changes nothing is no edit.
        #expect(try Self.convert(path, shifted).bytes == input)
    }
}
