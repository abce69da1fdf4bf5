import CueKit
import CueKitTTML
import CueKitTestSupport
import CueKitWebVTT
import Testing

/// The TTML ``TTMLWriter`` makes of cues shown five or six at once, read by imscJS 1.1.5 (the
/// IMSC reference renderer): at every moment it shows at most four regions, and every cue's text
/// that WebVTT shows then.
@Suite(.enabled(if: Chromium.isInstalled, "chromium is not installed"), .tags(.chromium), .skippableByTag)
struct TTMLShownRegionsIMSCTests {
    /// Cues at these `line` percentages (with `settings`), shown at once from 1 s to 2 s; the last
    /// two also from 2 s to 3 s, alone.
    static func cues(_ lines: [Int], settings: String = "") -> String {
        var text = "WEBVTT\n"
        for line in lines { text += "\n00:00:01.000 --> 00:00:02.000 line:\(line)%\(settings)\nline \(line)\n" }
        for line in lines.suffix(2) { text += "\n00:00:02.000 --> 00:00:03.000 line:\(line)%\(settings)\nthen \(line)\n" }
        return text
    }

    @Test(arguments: [
        cues([0, 20, 40, 60, 80]), cues([0, 20, 40, 60, 80, 90]), cues([80, 60, 40, 20, 0]), cues([20, 40, 60, 80, 100], settings: ",end"),
        cues([10, 30, 50, 70, 90], settings: ",center"),
    ])
    func imscJSShowsAtMostFourRegionsAndAllTheText(_ webVTT: String) async throws {
        let track = try WebVTTReader.read(webVTT).track
        for profile in [TTMLProfile.imsc11, .ebuTTD] {
            var writer = TTMLWriter(to: MemorySink(), options: TTMLWriterOptions(profile: profile))
            try writer.write(track)
            #expect(writer.diagnostics.isEmpty, "\(profile): \(writer.diagnostics)")
            let presentation = try await IMSCPresentation.read(writer.sink.string)
            #expect(presentation.messages.isEmpty, "\(profile): imscJS says \(presentation.messages)")
            #expect(presentation.moments.count >= 3, "\(profile): \(presentation.moments.map(\.time))")
            for moment in presentation.moments {
                #expect(moment.regions.count <= 4, "\(profile) at \(moment.time) s: \(moment.regions.count) regions shown: \(moment.texts)")
                let shown = moment.texts.joined(separator: " | ")
                let expected = track.cues.filter { Double($0.start) / 1000 <= moment.time && moment.time < Double($0.end) / 1000 }.map(
                    \.text)
                for text in expected {
                    #expect(shown.contains(text), "\(profile) at \(moment.time) s: '\(text)' is not shown; shown: \(shown)")
                }
                #expect(
                    shown.filter(\.isLetter).count == expected.joined().filter(\.isLetter).count, "\(profile) at \(moment.time) s: \(shown)"
                )
            }
        }
        // TTML1 has no limit: the same cues make five regions there, as imscJS counts them.
        var writer = TTMLWriter(to: MemorySink(), options: TTMLWriterOptions(profile: .ttml1))
        try writer.write(track)
        let unlimited = try await IMSCPresentation.read(writer.sink.string)
        #expect((unlimited.moments.map(\.regions.count).max() ?? 0) > 4, "TTML1: \(unlimited.moments.map(\.regions))")
    }
}
