import CueKit
import CueKitTestSupport
import Testing

/// `TrackFormat` tells every SubRip fixture by its content, except a file that starts with stray
/// text, which its extension tells.
@Suite struct SubRipFormatDetectionTests {
    @Test func detectsEveryFixtureAsSubRip() throws {
        let paths = TestPaths.files(in: TestPaths.fixtures + "/subrip", suffixes: [".srt"])
        #expect(paths.count >= 20)
        for path in paths {
            let bytes = try TestPaths.bytes(path)
            let byContent = TrackFormat.detect(content: bytes)
            if path.hasSuffix("/stray-text.srt") {
                #expect(byContent == nil)
            } else {
                #expect(byContent == .subRip, "\(path)")
            }
            #expect(TrackFormat.detect(content: bytes, path: path) == .subRip, "\(path)")
        }
    }
}
