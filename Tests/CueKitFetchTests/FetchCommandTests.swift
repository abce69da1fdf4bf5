import CueKitTestSupport
import Foundation
import Testing

/// `cuekit fetch` and `cuekit convert URL --fetch`, through the built `cuekit` and `cuekit-cast`,
/// against a live server on 127.0.0.1.
@Suite(.tags(.network), .skippableByTag)
struct FetchCommandTests {
    /// Runs `cuekit arguments` with its temporary files in `temporary`, on a thread of its own:
    /// waiting for it on the tasks' few threads would starve the server's handlers.
    static func cuekit(_ arguments: [String], temporary: TemporaryDirectory) async throws -> CommandLineRun {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        let settled = environment
        return try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try CommandLineRun.run(CommandLineRun.executable, arguments, environment: settled) }) }.start()
        }
    }

    /// The bytes of the files under `folder`.
    static func byteCount(in folder: String) -> Int {
        let names = FileManager.default.enumerator(atPath: folder)?.allObjects.compactMap { $0 as? String } ?? []
        return names.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.type] as? FileAttributeType) == .typeRegular
                ? (FileManager.default.contents(atPath: folder + "/" + name)?.count ?? 0) : 0)
        }
    }

    @Test func convertFetchesARemotePlaylistReadsItAsTheLocalOneAndLeavesNothing() async throws {
        let site = HLSRenditionFetchTests.site()
        // No EXT-X-TARGETDURATION: a diagnostic about the playlist's line 1.
        site.write("#EXTM3U\n#EXTINF:4.0,\na.vtt\n#EXTINF:4.0,\nb.vtt\n#EXT-X-ENDLIST\n", to: "en/loose.m3u8")
        let work = TemporaryDirectory()
        let temporary = TemporaryDirectory()
        let runs = try await HLSRenditionFetchTests.serving(site) { base in
            (
                base,
                try await Self.cuekit(["convert", base + "/en/subs.m3u8", "-o", work.file("refused.vtt")], temporary: temporary),
                try await Self.cuekit(["convert", base + "/en/subs.m3u8", "--fetch", "-o", work.file("fetched.vtt")], temporary: temporary),
                try await Self.cuekit(["convert", base + "/en/loose.m3u8", "--fetch", "-o", work.file("loose.vtt")], temporary: temporary),
                try await Self.cuekit(["convert", base + "/en/none.m3u8", "--fetch", "-o", work.file("none.vtt")], temporary: temporary),
                try await Self.cuekit(["fetch", base + "/master.m3u8", "-o", work.file("master")], temporary: temporary)
            )
        }
        let (base, refused, fetched, loose, none, fetch) = runs
        #expect(refused.status == 2 && refused.standardError.contains("is remote: add --fetch"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: work.file("refused.vtt")))

        #expect(fetched.status == 0, "\(fetched)")
        let local = try CommandLineRun.cuekit(["convert", site.file("en/subs.m3u8"), "-o", work.file("local.vtt")])
        #expect(local.status == 0, "\(local)")
        #expect(work.read("fetched.vtt") == work.read("local.vtt"))

        // Diagnostics name the address, at the remote playlist's line.
        #expect(loose.status == 0, "\(loose)")
        #expect(loose.standardError.hasPrefix(base + "/en/loose.m3u8:1:1: "), "\(loose)")

        #expect(none.status == 2 && none.standardError.contains(base + "/en/none.m3u8 answered 404 Not Found"), "\(none)")

        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.standardOutput == work.file("master") + "/master.m3u8\n")
        #expect(fetch.standardError == "cuekit: fetched 2 renditions, 5 segments, \(Self.byteCount(in: work.file("master"))) bytes into \(work.file("master"))\n")
        // Every fetch folder was removed.
        #expect(temporary.names.isEmpty, "\(temporary.names)")
    }

    @Test func validateChecksARemotePlaylistAndGoesOnPastOneItCannotFetch() async throws {
        let site = HLSRenditionFetchTests.site()
        site.write("#EXTM3U\n#EXTINF:4.0,\na.vtt\n#EXTINF:4.0,\nb.vtt\n#EXT-X-ENDLIST\n", to: "en/loose.m3u8")
        let temporary = TemporaryDirectory()
        let (base, checked, refused) = try await HLSRenditionFetchTests.serving(site) { base in
            (
                base,
                try await Self.cuekit(["validate", "--fetch", base + "/en/loose.m3u8", base + "/en/none.m3u8", site.file("fr.vtt")], temporary: temporary),
                try await Self.cuekit(["validate", base + "/en/loose.m3u8"], temporary: temporary)
            )
        }
        // The playlist's diagnostic at its line, named by its address; the missing one a failure;
        // the local file checked all the same.
        #expect(checked.status == 2, "\(checked)")
        #expect(checked.standardOutput.hasPrefix(base + "/en/loose.m3u8:1:1: "), "\(checked)")
        #expect(checked.standardError.contains(base + "/en/none.m3u8 answered 404 Not Found"), "\(checked)")
        #expect(checked.standardError.contains("cuekit: error: " + base + "/en/none.m3u8 cannot be fetched"), "\(checked)")
        #expect(checked.standardOutput.contains("3 files"), "\(checked)")
        #expect(refused.status == 2 && refused.standardError.contains(base + "/en/loose.m3u8 is remote: add --fetch"), "\(refused)")
        #expect(temporary.names.isEmpty, "\(temporary.names)")
    }
}
