import CueKitTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CueKitServer

/// `Range` headers as RFC 9110 §14 has them: one that does not parse is ignored, a last position
/// past the end is clamped, and a 416 always says the length.
@Suite struct ByteRangeSetTests {
    @Test func parsesWhatRFC9110Allows() {
        #expect(ByteRangeSet("bytes=0-5")?.specs == [.from(first: 0, last: 5)])
        #expect(ByteRangeSet("BYTES=7-")?.specs == [.from(first: 7, last: nil)])
        #expect(ByteRangeSet("bytes=-9")?.specs == [.suffix(length: 9)])
        #expect(ByteRangeSet("bytes=0-1 , 4-5,,")?.specs == [.from(first: 0, last: 1), .from(first: 4, last: 5)])
        #expect(ByteRangeSet("bytes=0-99999999999999999999")?.specs == [.from(first: 0, last: .max)])
    }

    @Test(arguments: [
        "bytes=5-2", "bytes=abc", "bytes=1-2-3", "bytes=", "bytes=-", "bytes=1", "bytes=+1-2", "items=0-1", "bytes = 0-1", "bytes=0-1,x",
    ])
    func refusesWhatItDoesNot(_ header: String) {
        #expect(ByteRangeSet(header) == nil)
    }

    @Test func boundsAreClampedToTheFile() {
        #expect(ByteRangeSet.Spec.from(first: 0, last: .max).bounds(length: 10) == 0...9)
        #expect(ByteRangeSet.Spec.from(first: 10, last: nil).bounds(length: 10) == nil)
        #expect(ByteRangeSet.Spec.suffix(length: 20).bounds(length: 10) == 0...9)
        #expect(ByteRangeSet.Spec.suffix(length: 0).bounds(length: 10) == nil)
        #expect(ByteRangeSet.Spec.suffix(length: 1).bounds(length: 0) == nil)
    }
}

@Suite(.tags(.network), .skippableByTag) struct RangeRequestTests {
    @Test func rangesThatDoNotParseAreIgnoredAndA416SaysTheLength() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        let length = ServedFolder.english.utf8.count
        try await withServer(folder) { client, _ in
            for header in ["bytes=5-2", "bytes=abc", "bytes=1-2-3"] {
                try await client.execute(uri: "/english.vtt", method: .get, headers: [.range: header]) { response in
                    #expect(response.status == .ok, "\(header)")
                    #expect(response.headers[.contentRange] == nil, "\(header)")
                    #expect(response.text == ServedFolder.english, "\(header)")
                }
            }
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.range: "bytes=0-99999999999999999999"]) { response in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes 0-\(length - 1)/\(length)")
                #expect(response.text == ServedFolder.english)
            }
            for header in ["bytes=99999999999999999999-", "bytes=-0", "bytes=\(length)-\(length + 5)", "bytes=\(length)-,\(length + 1)-"] {
                try await client.execute(uri: "/english.vtt", method: .get, headers: [.range: header]) { response in
                    #expect(response.status == .rangeNotSatisfiable, "\(header)")
                    #expect(response.headers[.contentRange] == "bytes */\(length)", "\(header)")
                }
            }
            // A converted track is ranged the same way.
            try await client.execute(uri: "/tracks/english.vtt?as=vtt", method: .get, headers: [.range: "bytes=0-5"]) { response in
                #expect(response.status == .partialContent)
                #expect(response.text == "WEBVTT")
            }
        }
    }

    @Test func aRefusedTrackNamesItsFileRelativeToTheFolder() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write("not a track at all\u{0}\u{1}", to: "broken.vtt")
        let resolved = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path
        try await withServer(folder) { client, _ in
            try await client.execute(uri: "/tracks/broken.vtt", method: .get) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.text.contains("broken.vtt:1:1"), "\(response.text)")
                #expect(!response.text.contains(folder.path) && !response.text.contains(resolved))
            }
        }
    }
}
