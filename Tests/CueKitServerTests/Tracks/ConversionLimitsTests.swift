import CueKitTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CueKitServer

/// Conversions on request within their limits: threads of their own, waiting places, and a cache
/// folder bounded in bytes and entries.
@Suite(.tags(.network), .skippableByTag) struct ConversionLimitsTests {
    /// A WebVTT track of `cues` cues, long enough that converting it takes a while.
    static func longTrack(cues: Int) -> String {
        var text = "WEBVTT\n\n"
        text.reserveCapacity(cues * 90)
        for index in 0..<cues {
            let start = index * 1000
            text += "\(WebVTTTime(start)) --> \(WebVTTTime(start + 900))\nCue number \(index), with <b>some</b> words to write.\n\n"
        }
        return text
    }

    static func WebVTTTime(_ milliseconds: Int) -> String {
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let seconds = milliseconds / 1000 % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let thousandths = milliseconds % 1000
        return "\(two(hours)):\(two(minutes)):\(two(seconds)).\(String(repeating: "0", count: 3 - String(thousandths).count))\(thousandths)"
    }

    static func style(_ scale: Int) -> String {
        TrackConversionTests.query(#"{"fontScale":1.\#(scale)}"#)
    }

    /// The converted tracks in the cache folder.
    static func cachedFiles(_ server: TrackServer) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: server.conversions.cacheFolder)) ?? []
        return names.filter { $0.hasSuffix(".vtt") }.sorted()
    }

    @Test func filesAreAnsweredWhileLongConversionsRun() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write(Self.longTrack(cues: 120_000), to: "long.vtt")
        try await withServer(folder) { client, _ in
            let port = try #require(client.port)
            let start = ContinuousClock.now
            // As many conversions as NIO's shared pool has threads: they used to take them all.
            let count = max(2, System.coreCount)
            async let conversions = withThrowingTaskGroup(of: (HTTPResponse.Status, Duration).self) { group in
                for index in 0..<count {
                    group.addTask {
                        let response = try await fetch("/tracks/long.vtt?style=\(Self.style(index))", port: port)
                        return (response.head.status, start.duration(to: .now))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            try await Task.sleep(for: .milliseconds(300))
            let file = try await fetch("/english.vtt", port: port)
            let fileAnswered = start.duration(to: .now)
            let converted = try await conversions
            #expect(file.head.status == .ok)
            #expect(converted.allSatisfy { $0.0 == .ok })
            let firstConversion = try #require(converted.map(\.1).min())
            #expect(fileAnswered < firstConversion, "the file took \(fileAnswered), the first conversion \(firstConversion)")
        }
    }

    @Test func conversionsPastTheWaitingPlacesAreRefusedWithRetryAfter() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        folder.write(Self.longTrack(cues: 60_000), to: "long.vtt")
        try await withServer(
            folder,
            configure: {
                $0.conversions.threads = 1; $0.conversions.maximumWaiting = 0
            }
        ) { client, _ in
            let port = try #require(client.port)
            let responses = try await withThrowingTaskGroup(of: TestClient.Response.self) { group in
                for index in 0..<3 {
                    group.addTask {
                        try await fetch("/tracks/long.vtt?style=\(Self.style(index))", port: port, headers: [.origin: "http://127.0.0.1:1"])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let refused = responses.filter { $0.head.status == .serviceUnavailable }
            #expect(responses.contains { $0.head.status == .ok })
            #expect(!refused.isEmpty)
            for response in refused {
                #expect(response.headers[.retryAfter] == "1")
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                #expect(response.text.contains("--conversion-threads"))
            }
        }
    }

    @Test func theCacheKeepsItsEntriesTheLeastRecentlyUsedOut() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder, configure: { $0.conversions.maximumEntries = 2 }) { client, server in
            let conversions = server.conversions
            for scale in [1, 2, 1, 3] {
                try await client.execute(uri: "/tracks/english.vtt?style=\(Self.style(scale))", method: .get) { #expect($0.status == .ok) }
            }
            // 1 was used after 2: 2 went out when 3 came in.
            #expect(await conversions.conversionsRun == 3)
            #expect(await eventually { Self.cachedFiles(server).count == 2 }, "\(Self.cachedFiles(server))")
            try await client.execute(uri: "/tracks/english.vtt?style=\(Self.style(1))", method: .get) { #expect($0.status == .ok) }
            #expect(await conversions.conversionsRun == 3)
            try await client.execute(uri: "/tracks/english.vtt?style=\(Self.style(2))", method: .get) { #expect($0.status == .ok) }
            #expect(await conversions.conversionsRun == 4)
            #expect(await eventually { Self.cachedFiles(server).count == 2 })
        }
    }

    @Test func theCacheKeepsItsBytes() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        // One conversion of the English track and its key (some 500 bytes) fit; two do not.
        try await withServer(folder, configure: { $0.conversions.maximumBytes = 800 }) { client, server in
            for scale in 1...5 {
                try await client.execute(uri: "/tracks/english.vtt?style=\(Self.style(scale))", method: .get) { #expect($0.status == .ok) }
            }
            #expect(await eventually { Self.cachedFiles(server).count == 1 }, "\(Self.cachedFiles(server))")
            let usage = await server.conversions.usage
            #expect(usage.entries == 1 && usage.bytes <= 800, "\(usage)")
        }
    }

    @Test func aChangedSourceLeavesNoEarlierConversion() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, server in
            for scale in [1, 2] {
                try await client.execute(uri: "/tracks/english.vtt?style=\(Self.style(scale))", method: .get) { #expect($0.status == .ok) }
            }
            #expect(Self.cachedFiles(server).count == 2)
            try await Task.sleep(for: .milliseconds(20))
            folder.write(ServedFolder.english.replacingOccurrences(of: "Hello", with: "Howdy"), to: "english.vtt")
            try await client.execute(uri: "/tracks/english.vtt?style=\(Self.style(1))", method: .get) { response in
                #expect(response.text.contains("Howdy"))
            }
            // Both conversions of the earlier version are gone.
            #expect(await eventually { Self.cachedFiles(server).count == 1 }, "\(Self.cachedFiles(server))")
        }
    }

    @Test func aConversionThatCannotBeKeptIsAnsweredWithCORSAndTheReason() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder) { client, server in
            // The cache folder goes away (a full or vanished temporary folder): the write fails.
            try FileManager.default.removeItem(atPath: server.conversions.cacheFolder)
            try await client.execute(
                uri: "/tracks/english.vtt?style=\(Self.style(1))", method: .get, headers: [.origin: "http://127.0.0.1:1"]
            ) { response in
                #expect(response.status == .internalServerError)
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                #expect(response.text.contains("the converted track cannot be kept: No such file or directory"), "\(response.text)")
            }
        }
    }
}
