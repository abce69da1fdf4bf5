import CueKitTestSupport
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import CueKitServer

@Suite(.tags(.network), .skippableByTag) struct TrackConversionTests {
    static let style = ##"{"foregroundColor":"#FFFF00FF","edgeType":"OUTLINE","edgeColor":"#000000FF","fontFamily":"serif"}"##

    static func query(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test func aSubRipTrackIsAnsweredAsStyledWebVTT() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, _ in
            try await client.execute(uri: "/tracks/german.srt?as=vtt&style=\(Self.query(Self.style))", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/vtt; charset=utf-8")
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                let text = response.text
                #expect(text.hasPrefix("WEBVTT"))
                #expect(text.contains("Hallo aus der deutschen Spur"))
                #expect(text.contains("color: rgba(255, 255, 0, 1);"))
                // A generic family is a CSS keyword, not a quoted font name.
                #expect(text.contains("font-family: serif;"))
                // The file's own colour rule overrides the applied colour on its span: a warning.
                #expect(response.headers[HTTPField.Name("X-CueKit-Conversion")!] == "1 cues, 0 errors, 1 warnings")
                // A page of another origin (a receiver, a sender page) may read it.
                #expect(response.headers[.accessControlExposeHeaders]?.contains("X-CueKit-Conversion") == true)
            }
        }
    }

    @Test func aStyleCanBeAJSONFileInTheFolderAndTTMLIsReadToo() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write(#"{"type":"LOAD","media":{"contentId":"/m.webm","contentType":"video/webm","textTrackStyle":{"fontScale":1.5}}}"#, to: "load.json")
        folder.write(
            """
            <tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">Timed text</p></div></body></tt>
            """, to: "timed.ttml")
        try await withServer(folder) { client, _ in
            try await client.execute(uri: "/tracks/timed.ttml?as=vtt&style=load.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("00:00:01.000 --> 00:00:02.000"))
                #expect(response.text.contains("Timed text"))
                #expect(response.text.contains("font-size: 150%;"))
            }
        }
    }

    @Test func theAnswerIsCachedByTheSourceAndStyleAndRevalidatedWithoutWork() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, _ in
            let uri = "/tracks/english.vtt?style=\(Self.query(Self.style))"
            let tag = try await client.execute(uri: uri, method: .get) { $0.headers[.eTag]! }
            #expect(try await client.execute(uri: uri, method: .get) { $0.headers[.eTag] } == tag)
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: tag]) { response in
                #expect(response.status == .notModified)
            }
            // Another style is another answer.
            let other = try await client.execute(uri: "/tracks/english.vtt?style=\(Self.query(#"{"fontScale":2}"#))", method: .get) {
                $0.headers[.eTag]!
            }
            #expect(other != tag)
            // A changed source is converted again.
            try await Task.sleep(for: .milliseconds(20))
            folder.write(ServedFolder.english.replacingOccurrences(of: "Hello", with: "Howdy"), to: "english.vtt")
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: tag]) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("Howdy"))
                #expect(response.headers[.eTag] != tag)
            }
            // Ranges and gzip apply to converted tracks as to files.
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=0-5"]) { response in
                #expect(response.status == .partialContent)
                #expect(response.text == "WEBVTT")
            }
        }
    }

    @Test func badRequestsAreRefusedWithTheReason() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write("not a track at all\u{0}\u{1}", to: "broken.vtt")
        try await withServer(folder) { client, _ in
            try await client.execute(uri: "/tracks/missing.vtt", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/tracks/english.vtt?as=ttml", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.text.contains("WebVTT only"))
            }
            try await client.execute(uri: "/tracks/english.vtt?style=\(Self.query(#"{"foregroundColor":"yellow"}"#))", method: .get) {
                response in
                #expect(response.status == .badRequest)
                #expect(response.text.contains("foregroundColor"))
                #expect(response.text.contains("style:1:"))
            }
            try await client.execute(uri: "/tracks/broken.vtt", method: .get) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.text.contains("broken.vtt:1:1"))
            }
        }
    }
}
