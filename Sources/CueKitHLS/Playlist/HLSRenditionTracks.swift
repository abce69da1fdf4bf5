import CueKit
import CueKitCast
import CueKitConversion

/// The subtitle renditions of a multivariant playlist as Cast text tracks that a receiver page
/// draws.
///
/// Chromium plays HLS video itself but exposes no text track for a subtitle rendition, and a
/// `<track>` reads one WebVTT file, not a playlist. So each rendition is named by the URL at which
/// `cuekit serve` joins it into one WebVTT file: `/tracks/PATH?as=vtt` for a rendition whose
/// playlist is a file of the served folder, `/tracks/NAME?as=vtt` for one the server cuts itself
/// (`/hls/NAME/subs.m3u8`, its style kept). A rendition the server cannot reach (a remote URI, a
/// path out of the folder) is left out, with the reason.
public enum HLSRenditionTracks {
    /// The tracks, the id of the default rendition's track, and what was left out.
    public struct Listing: Sendable, Hashable {
        public var tracks: [MediaTrack] = []
        public var defaultTrackID: Int?
        /// One sentence per rendition left out.
        public var skipped: [String] = []

        /// No track.
        public init() {}
    }

    /// The subtitle renditions of the multivariant playlist at `playlistPath` (read from disk),
    /// served at `servedPath` in the folder (the LOAD's relative content id) from `baseURL`
    /// (nil: URL paths on the server), numbered from `firstID`. Only the group the first variant
    /// names is listed (all renditions when no variant names one). Empty for a media playlist.
    public static func listing(ofPlaylistAt playlistPath: String, servedAs servedPath: String, baseURL: String?, firstID: Int) -> Listing {
        var listing = Listing()
        guard let source = try? TrackSource(path: playlistPath), let playlist = source.hlsMultivariantListing else { return listing }
        let group = playlist.variants.lazy.compactMap(\.subtitlesGroup).first
        for rendition in playlist.subtitles where group == nil || rendition.groupID == group {
            guard let uri = rendition.uri else { continue }
            guard let path = trackPath(ofURI: uri, inPlaylistServedAt: servedPath) else {
                listing.skipped.append("the rendition \(rendition) (\(uri)) is not a file of the served folder: a receiver page cannot draw it")
                continue
            }
            let id = firstID + listing.tracks.count
            listing.tracks.append(
                MediaTrack(
                    trackID: id, type: .text, subtype: .subtitles,
                    trackContentID: baseURL.map { ($0.hasSuffix("/") ? String($0.dropLast()) : $0) + path } ?? path,
                    trackContentType: TrackFormat.webVTT.mediaType, name: rendition.name, language: rendition.language))
            if rendition.isDefault && listing.defaultTrackID == nil { listing.defaultTrackID = id }
        }
        return listing
    }

    /// The server URL path that answers the rendition at `uri` as one WebVTT file, or nil.
    static func trackPath(ofURI uri: String, inPlaylistServedAt servedPath: String) -> String? {
        let path = uri.prefix { $0 != "?" && $0 != "#" }
        if path.hasPrefix("/hls/"), path.hasSuffix("/subs.m3u8") {
            // Cut by the server itself: the track it cuts, with the rendition's style.
            let name = path.dropFirst("/hls/".count).dropLast("/subs.m3u8".count)
            guard !name.isEmpty else { return nil }
            let style = uri.split(separator: "?", maxSplits: 1).dropFirst().first?
                .split(separator: "&").first { $0.hasPrefix("style=") }
            return "/tracks/" + name + "?as=vtt" + (style.map { "&" + $0 } ?? "")
        }
        // A path from the server's root (`/subs/en.m3u8`) is one in the folder too.
        guard let resolved = try? HLSPlaylistReader.path(ofURI: uri, inPlaylistAt: servedPath, line: 0) else { return nil }
        var components: [String] = []
        for component in resolved.split(separator: "/") {
            switch component {
            case ".": continue
            case "..":
                guard !components.isEmpty else { return nil }
                components.removeLast()
            default: components.append(String(component))
            }
        }
        return "/tracks/" + components.map(HLSMultivariantPlaylist.percentEncoded).joined(separator: "/") + "?as=vtt"
    }
}
