import CueKit
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// `cueContent: .timingOnly` leaves the identifier and text out of each cue, and nothing else:
/// every fixture (the conformance suites included) gives the same diagnostics, the same other
/// events, and cues with the same times and settings as a full read. `.diagnosticsOnly` leaves
/// out the cue events, and nothing else.
@Suite struct WebVTTCueContentTests {
    static func events(_ bytes: [UInt8], _ content: WebVTTReader.Options.CueContent) -> Result<[TrackEvent], ReadError> {
        var options = WebVTTReader.Options()
        options.cueContent = content
        var reader = WebVTTReader(options: options)
        var events: [TrackEvent] = []
        do {
            try bytes.withUnsafeBytes { try reader.feed($0) { events.append($0) } }
            try reader.finish { events.append($0) }
            return .success(events)
        } catch let error as ReadError {
            return .failure(error)
        } catch {
            Issue.record("unexpected error \(error)")
            return .success([])
        }
    }

    @Test func everyFixtureGivesTheSameEventsWithoutCueStrings() throws {
        let paths = TestPaths.files(in: TestPaths.fixtures, suffixes: [".vtt"])
        #expect(paths.count > 100)
        var cuesWithText = 0
        for path in paths {
            let bytes = try TestPaths.bytes(path)
            switch (Self.events(bytes, .full), Self.events(bytes, .timingOnly)) {
            case (.success(let full), .success(let timing)):
                #expect(full.count == timing.count, "\(path)")
                for (whole, lean) in zip(full, timing) {
                    if case .cue(let cue) = whole {
                        if !cue.text.isEmpty { cuesWithText += 1 }
                        var expected = cue
                        expected.id = ""
                        expected.text = ""
                        #expect(lean == .cue(expected), "\(path)")
                    } else {
                        #expect(lean == whole, "\(path)")
                    }
                }
            case (.failure(let full), .failure(let timing)):
                #expect(full.diagnostic == timing.diagnostic, "\(path)")
            default:
                Issue.record("\(path): one read failed and the other did not")
            }
        }
        #expect(cuesWithText > 500)
    }

    @Test func everyFixtureGivesTheSameEventsButCuesWithDiagnosticsOnly() throws {
        var cuesLeftOut = 0, diagnostics = 0
        for path in TestPaths.files(in: TestPaths.fixtures, suffixes: [".vtt"]) {
            let bytes = try TestPaths.bytes(path)
            switch (Self.events(bytes, .full), Self.events(bytes, .diagnosticsOnly)) {
            case (.success(let full), .success(let lean)):
                let expected = full.filter { if case .cue = $0 { false } else { true } }
                cuesLeftOut += full.count - expected.count
                diagnostics += expected.count { if case .diagnostic = $0 { true } else { false } }
                #expect(lean == expected, "\(path)")
            case (.failure(let full), .failure(let lean)):
                #expect(full.diagnostic == lean.diagnostic, "\(path)")
            default:
                Issue.record("\(path): one read failed and the other did not")
            }
        }
        #expect(cuesLeftOut > 500 && diagnostics > 500)
    }
}
