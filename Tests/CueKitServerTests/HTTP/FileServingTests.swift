import CompressNIO
import CueKitTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CueKitServer

@Suite(.tags(.network), .skippableByTag) struct FileServingTests {
    @Test func aTrackIsServedWithItsTypeAndTheCORSACastReceiverNeeds() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, _ in
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.origin: "http://127.0.0.1:1"]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/vtt; charset=utf-8")
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                let exposed = response.headers[.accessControlExposeHeaders] ?? ""
                for name in ["Content-Length", "Content-Range", "Accept-Ranges"] { #expect(exposed.contains(name)) }
                #expect(response.text == ServedFolder.english)
            }
        }
    }

    @Test func aPreflightIsAnswered204AllowingRangeAcceptEncodingAndContentType() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, _ in
            let headers: HTTPFields = [
                .origin: "http://127.0.0.1:1", .accessControlRequestMethod: "GET",
                .accessControlRequestHeaders: "range, accept-encoding, content-type",
            ]
            try await client.execute(uri: "/english.vtt", method: .options, headers: headers) { response in
                #expect(response.status == .noContent)
                let allowed = (response.headers[.accessControlAllowHeaders] ?? "").lowercased()
                for name in ["content-type", "accept-encoding", "range"] { #expect(allowed.contains(name)) }
                #expect(response.headers[.accessControlAllowMethods] == "GET, HEAD, OPTIONS")
                #expect(response.headers[.accessControlAllowOrigin] == "*")
            }
        }
    }

    @Test func aListOfOriginsEchoesTheMatchingOneWithVaryAndRefusesOthers() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder, configure: { $0.allowedOrigins = .only(["https://a.example", "https://b.example"]) }) { client, _ in
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.origin: "https://b.example"]) { response in
                #expect(response.headers[.accessControlAllowOrigin] == "https://b.example")
                #expect(response.headers[values: .vary].contains("Origin"))
            }
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.origin: "https://evil.example"]) { response in
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
        }
    }

    @Test func withCORSOffNoHeaderIsSent() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder, configure: { $0.allowedOrigins = .none }) { client, _ in
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.origin: "http://127.0.0.1:1"]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
        }
    }

    @Test func rangesAreServedAsRFC9110Says() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        let bytes = Array(ServedFolder.english.utf8)
        try await withServer(folder) { client, _ in
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.range: "bytes=0-5"]) { response in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes 0-5/\(bytes.count)")
                #expect(response.text == "WEBVTT")
            }
            // The last 9 bytes, not the first 10.
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.range: "bytes=-9"]) { response in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes \(bytes.count - 9)-\(bytes.count - 1)/\(bytes.count)")
                #expect(Array(response.body.readableBytesView) == Array(bytes.suffix(9)))
            }
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.range: "bytes=\(bytes.count)-"]) { response in
                #expect(response.status == .rangeNotSatisfiable)
                #expect(response.headers[.contentRange] == "bytes */\(bytes.count)")
            }
            // Several ranges: the whole file, which RFC 9110 allows.
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.range: "bytes=0-1,4-5"]) { response in
                #expect(response.status == .ok)
                #expect(response.text == ServedFolder.english)
            }
        }
    }

    @Test func headSendsTheHeadersWithoutTheBody() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, _ in
            try await client.execute(uri: "/english.vtt", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == String(ServedFolder.english.utf8.count))
                #expect(response.headers[.eTag] != nil)
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    @Test func conditionalRequestsAreAnswered304() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, _ in
            let (tag, modified) = try await client.execute(uri: "/english.vtt", method: .get) { response in
                (response.headers[.eTag]!, response.headers[.lastModified]!)
            }
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.ifNoneMatch: tag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.ifModifiedSince: modified]) { response in
                #expect(response.status == .notModified)
            }
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.ifNoneMatch: "\"something-else\""]) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func textIsGzippedWhenAskedWithItsOwnTagAndRangesAreNot() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, _ in
            let plainTag = try await client.execute(uri: "/english.vtt", method: .get) { $0.headers[.eTag]! }
            let gzipTag = try await client.execute(uri: "/english.vtt", method: .get, headers: [.acceptEncoding: "gzip, deflate"]) {
                response in
                #expect(response.headers[.contentEncoding] == "gzip")
                #expect(response.headers[values: .vary].contains("Accept-Encoding"))
                var body = response.body
                let inflated = try body.decompress(with: .gzip())
                #expect(String(buffer: inflated) == ServedFolder.english)
                #expect(response.body.readableBytes < ServedFolder.english.utf8.count)
                return response.headers[.eTag]!
            }
            #expect(gzipTag != plainTag)
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: gzipTag]) {
                response in
                #expect(response.status == .notModified)
                #expect(response.headers[.eTag] == gzipTag)
            }
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.acceptEncoding: "gzip;q=0"]) { response in
                #expect(response.headers[.contentEncoding] == nil)
            }
            try await client.execute(uri: "/english.vtt", method: .get, headers: [.acceptEncoding: "gzip", .range: "bytes=0-5"]) {
                response in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentEncoding] == nil)
                #expect(response.text == "WEBVTT")
            }
        }
    }

    @Test func aCompressedTrackIsKeptAndMadeAgainWhenTheFileChanges() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, _ in
            func fetch() async throws -> (String, String?) {
                try await client.execute(uri: "/english.vtt", method: .get, headers: [.acceptEncoding: "gzip"]) { response in
                    #expect(response.headers[.contentEncoding] == "gzip")
                    #expect(response.headers[.contentLength] == String(response.body.readableBytes))
                    var body = response.body
                    return (String(buffer: try body.decompress(with: .gzip())), response.headers[.eTag])
                }
            }
            let (first, firstTag) = try await fetch()
            let (second, secondTag) = try await fetch()
            #expect(first == ServedFolder.english)
            #expect(second == first)
            #expect(secondTag == firstTag)
            folder.write(ServedFolder.english + "\n00:10.000 --> 00:11.000\nA third cue.\n", to: "english.vtt")
            let (changed, changedTag) = try await fetch()
            #expect(changed.hasSuffix("A third cue.\n"))
            #expect(changedTag != firstTag)
        }
    }

    @Test func noPathLeavesTheFolder() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        let outside = TemporaryDirectory()
        defer { outside.remove() }
        outside.write("secret", to: "secret.txt")
        try FileManager.default.createSymbolicLink(atPath: folder.directory.file("link.txt"), withDestinationPath: outside.file("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: folder.directory.file("linked-folder"), withDestinationPath: outside.path)
        try FileManager.default.createDirectory(atPath: folder.directory.file(".git"), withIntermediateDirectories: true)
        folder.write("hidden", to: ".git/config")
        folder.write("inside", to: "inside.txt")
        try FileManager.default.createSymbolicLink(atPath: folder.directory.file("alias.txt"), withDestinationPath: "inside.txt")
        let escapes = [
            "/../\(URL(fileURLWithPath: outside.path).lastPathComponent)/secret.txt", "/%2e%2e/%2e%2e/etc/passwd", "/..%2F..%2Fetc%2Fpasswd",
            "/link.txt", "/linked-folder/secret.txt", "/.git/config", "/tracks/link.txt", "/tracks/..%2F..%2Fetc%2Fpasswd",
        ]
        try await withServer(folder) { client, _ in
            for path in escapes {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .notFound || response.status == .badRequest, "\(path) answered \(response.status)")
                    #expect(!response.text.contains("secret") && !response.text.contains("root:"), "\(path) leaked")
                }
            }
            // A link that stays inside is followed.
            try await client.execute(uri: "/alias.txt", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text == "inside")
            }
        }
    }

    /// Lines of the access log, collected.
    final class LogLines: @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test func eachRequestIsLoggedInTheCommonLogFormat() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        let log = LogLines()
        try await withServer(folder, configure: { $0.accessLog = AccessLog { log.append($0) } }) { client, _ in
            try await client.execute(uri: "/english.vtt", method: .get) { _ in }
            try await client.execute(uri: "/missing.vtt", method: .head) { _ in }
        }
        let lines = log.all
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("127.0.0.1 - - [") == true)
        #expect(lines.first?.contains("] \"GET /english.vtt HTTP/1.1\" 200 \(ServedFolder.english.utf8.count) ") == true)
        #expect(lines.last?.contains("\"HEAD /missing.vtt HTTP/1.1\" 404") == true)
        #expect(lines.allSatisfy { $0.hasSuffix("ms") })
    }
}
