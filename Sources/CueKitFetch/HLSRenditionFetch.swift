import CueKit
import CueKitConversion
import NIOCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Downloads a remote HLS subtitle rendition into a folder, so that it reads as a local one
/// (``HLSPlaylistReader``): the playlist, and every WebVTT segment it lists. For a multivariant
/// playlist, each subtitle rendition's media playlist and segments, in a folder of its own.
///
/// The playlists are kept as they were, line for line, but for the URIs, which name the local
/// copies: a segment named by a plain file name keeps it, any other (a path, a query, an absolute
/// address) becomes `segment-N.vtt`. So a diagnostic about a line of the local copy is about the
/// same line of the remote playlist. Video variants are left as they are, not fetched.
///
/// The folder appears whole or not at all: everything is written into a sibling folder that is
/// renamed to it at the end, and removed when a fetch fails. Each request is bounded in size and
/// time (``Limits``), and a few run at once.
///
/// ```swift
/// let fetched = try await HLSRenditionFetch().fetch("https://example.com/subs/en.m3u8", into: "en")
/// let track = try TrackSource(path: fetched.playlistPath)
/// ```
public struct HLSRenditionFetch: Sendable {
    /// What one fetch may take.
    public struct Limits: Sendable, Hashable {
        /// The largest playlist, in bytes.
        public var playlistBytes = 8 << 20
        /// The largest segment, in bytes.
        public var segmentBytes = 64 << 20
        /// The most segments, all renditions together.
        public var segments = 200_000
        /// How long one request may take, in seconds.
        public var requestSeconds = 60
        /// How many segments are fetched at once.
        public var parallelRequests = 4

        public init() {}
    }

    /// What was fetched.
    public struct Fetched: Sendable, Hashable {
        /// The local copy of the playlist asked for.
        public var playlistPath: String
        /// Media playlists fetched (1 for a media playlist; one a subtitle rendition for a
        /// multivariant one).
        public var renditions: Int
        public var segments: Int
        /// Bytes written, playlists and segments.
        public var bytes: Int
    }

    public var limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Fetches the playlist at `url` (http or https) and what it lists into `folder`, which must
    /// not exist yet. Throws a ``FetchError`` naming the address that failed.
    public func fetch(_ url: String, into folder: String) async throws(FetchError) -> Fetched {
        guard let base = URL(string: url), let scheme = base.scheme?.lowercased(), scheme == "http" || scheme == "https", base.host != nil else {
            throw FetchError(url: url, "is not an http or https address")
        }
        guard !FileManager.default.fileExists(atPath: folder) else {
            throw FetchError(url: url, "is not fetched: the folder '\(folder)' exists already")
        }
        let partial = folder + ".partial-\(UInt32.random(in: 0...UInt32.max))"
        let client = HTTPResourceClient(timeout: .seconds(Int64(limits.requestSeconds)))
        do {
            try Self.makeFolder(partial, for: url)
            var fetched = try await fetchPlaylist(base, into: partial, client: client)
            do {
                try FileManager.default.moveItem(atPath: partial, toPath: folder)
            } catch {
                throw FetchError(url: url, "was fetched, but the folder '\(folder)' cannot be made: \(error)")
            }
            fetched.playlistPath = folder + "/" + fetched.playlistPath
            await client.shutdown()
            return fetched
        } catch {
            await client.shutdown()
            try? FileManager.default.removeItem(atPath: partial)
            throw error as? FetchError ?? FetchError(url: url, "is not fetched: \(error)")
        }
    }

    /// The playlist at `url` into `folder`: its path is relative to `folder`.
    private func fetchPlaylist(_ url: URL, into folder: String, client: HTTPResourceClient) async throws(FetchError) -> Fetched {
        let text = try await playlistText(url, client: client)
        let name = Self.localPlaylistName(url)
        var fetched = Fetched(playlistPath: name, renditions: 0, segments: 0, bytes: 0)
        var copy = PlaylistCopy(text)
        switch try Self.parse(text, url: url) {
        case .media(let media):
            try await fetchSegments(of: media, at: url, into: folder, copy: &copy, fetched: &fetched, client: client)
            fetched.renditions = 1
        case .multivariant(let listing):
            for (index, rendition) in listing.subtitles.enumerated() {
                guard let uri = rendition.uri else { continue }
                let mediaURL = try Self.resolve(uri, against: url)
                let mediaText = try await playlistText(mediaURL, client: client)
                guard case .media(let media) = try Self.parse(mediaText, url: mediaURL) else {
                    throw FetchError(url: mediaURL.absoluteString, "is a multivariant playlist where a subtitle rendition's media playlist belongs")
                }
                let subfolder = "rendition-\(index + 1)"
                try Self.makeFolder(folder + "/" + subfolder, for: mediaURL.absoluteString)
                var mediaCopy = PlaylistCopy(mediaText)
                try await fetchSegments(of: media, at: mediaURL, into: folder + "/" + subfolder, copy: &mediaCopy, fetched: &fetched, client: client)
                let mediaName = subfolder + "/" + Self.localPlaylistName(mediaURL)
                fetched.bytes += try Self.write(mediaCopy.bytes, to: folder + "/" + mediaName, for: mediaURL.absoluteString)
                copy.replaceURIAttribute(onLine: rendition.line, with: mediaName)
                fetched.renditions += 1
            }
        }
        fetched.bytes += try Self.write(copy.bytes, to: folder + "/" + name, for: url.absoluteString)
        return fetched
    }

    /// Every segment of `media` (at `url`) into `folder`, a few at a time, the copy's URI lines
    /// naming them.
    private func fetchSegments(
        of media: HLSMediaPlaylist, at url: URL, into folder: String, copy: inout PlaylistCopy, fetched: inout Fetched,
        client: HTTPResourceClient
    ) async throws(FetchError) {
        guard fetched.segments + media.segments.count <= limits.segments else {
            throw FetchError(url: url.absoluteString, "lists more segments than the limit of \(limits.segments)")
        }
        var names = Set<String>()
        var jobs: [(url: URL, path: String)] = []
        // Segments that are byte ranges of one resource (EXT-X-BYTERANGE) share it: it is fetched
        // once, and each keeps its range of the copy.
        var namesByURL: [URL: String] = [:]
        for (index, segment) in media.segments.enumerated() {
            let segmentURL = try Self.resolve(segment.uri, against: url)
            if segment.byteRange != nil, let shared = namesByURL[segmentURL] {
                if shared != segment.uri { copy.replaceLine(segment.line, with: shared) }
                continue
            }
            var name = segment.uri
            if !Self.isPlainFileName(name) || names.contains(name) {
                name = "segment-\(index + 1).vtt"
                copy.replaceLine(segment.line, with: name)
            }
            names.insert(name)
            if segment.byteRange != nil { namesByURL[segmentURL] = name }
            jobs.append((segmentURL, folder + "/" + name))
        }
        let limit = limits.segmentBytes, parallel = max(1, limits.parallelRequests)
        do {
            fetched.bytes += try await withThrowingTaskGroup(of: Int.self) { group in
                var next = 0, written = 0
                func start() {
                    let job = jobs[next]
                    next += 1
                    group.addTask {
                        let bytes = try await client.get(job.url.absoluteString, limit: limit)
                        return try Self.write(bytes, to: job.path, for: job.url.absoluteString)
                    }
                }
                while next < jobs.count, next < parallel { start() }
                while let count = try await group.next() {
                    written += count
                    if next < jobs.count { start() }
                }
                return written
            }
        } catch let error as FetchError {
            throw error
        } catch {
            throw FetchError(url: url.absoluteString, "segments cannot be fetched: \(error)")
        }
        fetched.segments += media.segments.count
    }

    private func playlistText(_ url: URL, client: HTTPResourceClient) async throws(FetchError) -> String {
        String(decoding: try await client.get(url.absoluteString, limit: limits.playlistBytes), as: UTF8.self)
    }

    private static func parse(_ text: String, url: URL) throws(FetchError) -> HLSPlaylist {
        do {
            return try HLSPlaylist.parse(text)
        } catch let error as ReadError {
            throw FetchError(url: url.absoluteString, "is not an HLS playlist: \(error.diagnostic)")
        } catch {
            throw FetchError(url: url.absoluteString, "is not an HLS playlist: \(error)")
        }
    }

    /// `uri` as the playlist at `base` names it (RFC 3986 reference resolution).
    private static func resolve(_ uri: String, against base: URL) throws(FetchError) -> URL {
        let trimmed = String(uri.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
        guard let resolved = URL(string: trimmed, relativeTo: base)?.absoluteURL, let scheme = resolved.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else {
            throw FetchError(url: base.absoluteString, "names '\(uri)', which is not an http or https address once resolved")
        }
        return resolved
    }

    /// A name a local copy can keep: letters, digits, `-`, `_` and `.`, not starting with a dot.
    static func isPlainFileName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "."), name.utf8.count <= 200 else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D || byte == 0x5F || byte == 0x2E
        }
    }

    /// The local name of the playlist at `url`: its own when plain and ending in `.m3u8`, else
    /// `playlist.m3u8`.
    static func localPlaylistName(_ url: URL) -> String {
        let last = url.lastPathComponent
        return isPlainFileName(last) && last.lowercased().hasSuffix(".m3u8") ? last : "playlist.m3u8"
    }

    private static func makeFolder(_ path: String, for url: String) throws(FetchError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        } catch {
            throw FetchError(url: url, "is not fetched: the folder '\(path)' cannot be made: \(error)")
        }
    }

    /// Writes `bytes` to `path`; returns how many.
    private static func write(_ bytes: [UInt8], to path: String, for url: String) throws(FetchError) -> Int {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw FetchError(url: url, "was fetched, but '\(path)' cannot be written")
        }
        return bytes.count
    }
}

/// A playlist's bytes kept line for line, with some lines or URI attributes replaced. Lines are
/// split at each LF, a CR before it kept with the line, so that line numbers are the parser's.
struct PlaylistCopy {
    private var lines: [[UInt8]]

    init(_ text: String) {
        lines = Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    }

    /// Line `number` (from 1) replaced by `text`, its CR kept.
    mutating func replaceLine(_ number: Int, with text: String) {
        let carriageReturn: [UInt8] = lines[number - 1].last == UInt8(ascii: "\r") ? [UInt8(ascii: "\r")] : []
        lines[number - 1] = Array(text.utf8) + carriageReturn
    }

    /// The `URI="…"` attribute of line `number` given `uri` as its value.
    mutating func replaceURIAttribute(onLine number: Int, with uri: String) {
        let line = lines[number - 1]
        guard let start = line.firstRange(of: Array("URI=\"".utf8)), let end = line[start.upperBound...].firstIndex(of: UInt8(ascii: "\""))
        else { return }
        lines[number - 1] = Array(line[..<start.upperBound]) + Array(uri.utf8) + Array(line[end...])
    }

    var bytes: [UInt8] { Array(lines.joined(separator: [UInt8(ascii: "\n")])) }
}
