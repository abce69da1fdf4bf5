import CueKit
import CueKitCast
import Foundation

/// What the server can tell of a LOAD before any player tries it: the media and tracks it names by
/// a path on this server (`/movie.webm`, `movie.en.vtt`, `/tracks/movie.srt?as=vtt`), which a
/// receiver page resolves against this server, must be files of the served folder, and a track
/// named directly must be WebVTT (a receiver draws nothing from SubRip, TTML or an HLS playlist, and
/// says nothing).
///
/// Absolute URLs are left to the receiver page, which reports what fails to load.
struct LoadPreflight: Sendable {
    let files: ConfinedFileSystem

    /// Why the load cannot play, or nil.
    func problem(with load: CastLoadRequest) -> String? {
        let media = load.media
        if (media.contentUrl ?? media.contentID)?.isEmpty == true { return "the LOAD names no media: its contentId is empty" }
        if let url = media.contentUrl ?? media.contentID, let path = Self.localPath(url) {
            if let problem = missing(path, what: "the media \(url)") { return problem }
        }
        for track in media.tracks ?? [] where track.type == .text {
            guard let url = track.trackContentID, let path = Self.localPath(url) else { continue }
            let what = "track \(track.trackID) (\(url))"
            if path.hasPrefix("tracks/") {
                let name = String(path.dropFirst("tracks/".count))
                if let problem = missing(name, what: what) { return problem }
                if TrackFormat(path: name) == nil && !Self.isPlaylist(name) {
                    return "\(what): \(name) is not a WebVTT, SubRip, TTML, ASS, EBU-STL or SCC file, nor an HLS playlist"
                }
                continue
            }
            if path.hasPrefix("hls/"), path.hasSuffix("/subs.m3u8"), path.count > "hls//subs.m3u8".count {
                // A rendition the server cuts: its track joined is what a receiver draws.
                let name = String(path.dropFirst("hls/".count).dropLast("/subs.m3u8".count))
                if let problem = missing(name, what: what) { return problem }
                return "\(what) is an HLS playlist, which a receiver does not draw: name it as /tracks/\(MediaListing.escaped(name))?as=vtt, which answers WebVTT"
            }
            if let problem = missing(path, what: what) { return problem }
            if Self.isPlaylist(path) {
                let converted = "/tracks/\(MediaListing.escaped(path))?as=vtt"
                return "\(what) is an HLS playlist, which a receiver does not draw: name it as \(converted), which answers its segments joined as WebVTT"
            }
            if let format = TrackFormat(path: path), format != .webVTT {
                let converted = "/tracks/\(MediaListing.escaped(path))?as=vtt"
                return "\(what) is \(format.displayName), which a receiver does not draw: name it as \(converted), which answers WebVTT"
            }
        }
        return nil
    }

    /// True for an HLS playlist's name (`.m3u8`).
    static func isPlaylist(_ path: String) -> Bool { path.lowercased().hasSuffix(".m3u8") }

    private func missing(_ path: String, what: String) -> String? {
        guard let resolved = files.confinedPath(path) else { return "\(what) is not in the served folder" }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return "\(what) is not a file of the served folder" }
        return nil
    }

    /// The path in the folder of a URL relative to this server (no scheme, no host), decoded,
    /// without its query; nil for an absolute URL.
    static func localPath(_ url: String) -> String? {
        guard !url.isEmpty, !url.hasPrefix("//") else { return nil }
        if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/"), !url[..<colon].contains("?") { return nil }
        let path = url.prefix { $0 != "?" && $0 != "#" }
        let decoded = String(path).removingPercentEncoding ?? String(path)
        return String(decoded.drop { $0 == "/" })
    }
}
