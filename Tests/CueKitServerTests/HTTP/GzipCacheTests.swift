import CompressNIO
import CueKitTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CueKitServer

/// Compressed bodies: made once per file and version however many ask at once, kept by the file
/// and not by the query string, within a budget that counts the keys.
@Suite struct GzipCacheTests {
    static func key(_ resource: String) -> GzipCache.Key { GzipCache.Key(resource: resource, entityTag: "\"1\"") }

    @Test func requestsForABodyBeingCompressedWaitForItInsteadOfCompressingAgain() async throws {
        let cache = GzipCache()
        let runs = Tally()
        let bodies = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await cache.body(for: Self.key("/track.vtt")) {
                        runs.add()
                        try await Task.sleep(for: .milliseconds(200))
                        return ByteBuffer(string: "compressed")
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.value == 1)
        #expect(bodies.allSatisfy { $0 == ByteBuffer(string: "compressed") })
        #expect(await cache.compressions == 1)
    }

    @Test func pastTheCompressionsAtOnceARequestStreamsItsOwn() async throws {
        var limits = TrackServer.CompressionLimits()
        limits.maximumCompressions = 2
        let cache = GzipCache(limits: limits)
        let results = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            for index in 0..<5 {
                group.addTask {
                    try await cache.body(for: Self.key("/track\(index).vtt")) {
                        try await Task.sleep(for: .milliseconds(300))
                        return ByteBuffer(string: "compressed")
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { $0 != nil }.count == 2)
        #expect(await cache.usage.entries == 2)
    }

    @Test func theBudgetCountsTheKeys() async throws {
        var limits = TrackServer.CompressionLimits()
        limits.maximumBytes = 10_000
        let cache = GzipCache(limits: limits)
        let long = String(repeating: "x", count: 3000)
        for index in 0..<10 {
            _ = try await cache.body(for: Self.key("/\(index)/\(long)")) { ByteBuffer(string: "z") }
        }
        let usage = await cache.usage
        #expect(usage.entries == 3 && usage.bytes <= 10_000, "\(usage)")
    }

    /// A text file of about `bytes` bytes, worth compressing.
    static func text(bytes: Int) -> String {
        var text = "WEBVTT\n\n"
        var index = 0
        while text.utf8.count < bytes {
            text += "00:00:\(index % 50 + 10).000 --> 00:00:\(index % 50 + 10).500\nLine \(index) of the track.\n\n"
            index += 1
        }
        return text
    }

    @Test(.tags(.network), .skippableByTag) func concurrentMissesOfOneFileCompressItOnce() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        let text = Self.text(bytes: 2_000_000)
        folder.write(text, to: "big.vtt")
        try await withServer(folder) { client, server in
            let port = try #require(client.port)
            let bodies = try await withThrowingTaskGroup(of: TestClient.Response.self) { group in
                for index in 0..<40 {
                    group.addTask { try await fetch("/big.vtt?cold=\(index)", port: port, headers: [.acceptEncoding: "gzip"]) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(bodies.allSatisfy { $0.headers[.contentEncoding] == "gzip" })
            #expect(Set(bodies.compactMap(\.body)).count == 1)
            var compressed = try #require(bodies.first?.body)
            #expect(String(buffer: try compressed.decompress(with: .gzip())) == text)
            #expect(await server.compressedBodies.compressions == 1)
        }
    }

    @Test(.tags(.network), .skippableByTag) func distinctQueryStringsAndSpellingsOfAFileShareOneEntry() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, server in
            let query = String(repeating: "q", count: 8000)
            for index in 0..<100 {
                let path = index.isMultiple(of: 2) ? "/english.vtt" : "/english%2Evtt"
                try await client.execute(uri: "\(path)?\(query)\(index)", method: .get, headers: [.acceptEncoding: "gzip"]) { response in
                    #expect(response.headers[.contentEncoding] == "gzip")
                }
            }
            let usage = await server.compressedBodies.usage
            #expect(usage.entries == 1, "\(usage)")
            #expect(usage.bytes < 1000, "\(usage)")
            #expect(await server.compressedBodies.compressions == 1)
        }
    }
}
