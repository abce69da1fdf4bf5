import CueKit
import CueKitCast
import CueKitConversion

/// How an HLS stream's segments are packed, read from its playlists, for the two fields a Cast
/// LOAD of HLS media carries (`hlsSegmentFormat`, `hlsVideoSegmentFormat`): a receiver's player
/// that is not told may take fragmented MP4 for a transport stream and play nothing.
///
/// A multivariant playlist is followed to its first variant's media playlist; the media playlist's
/// `EXT-X-MAP` (an initialization segment: fragmented MP4) or its first segment's extension
/// (`.ts`, `.m4s`/`.mp4`, `.aac`) tells the packing.
public enum HLSMediaPackaging {
    /// The formats of the stream whose playlist is at `path` (a local file); nil for a format the
    /// segments do not show. Throws a `ReadError` when a playlist cannot be read.
    public static func segmentFormats(
        ofPlaylistAt path: String
    ) throws -> (segment: MediaInformation.HLSSegmentFormat?, video: MediaInformation.HLSVideoSegmentFormat?) {
        var playlistPath = path
        for _ in 0..<2 {
            let text = String(decoding: try FileByteSource(path: playlistPath).readAll(), as: UTF8.self)
            let playlist: HLSPlaylist
            do {
                playlist = try HLSPlaylist.parse(text)
            } catch let error as ReadError {
                throw error.inFile(playlistPath)
            }
            switch playlist {
            case .multivariant(let listing):
                guard let variant = listing.variants.first else { return (nil, nil) }
                do {
                    playlistPath = try HLSPlaylistReader.path(ofURI: variant.uri, inPlaylistAt: playlistPath, line: variant.line)
                } catch let error as ReadError {
                    throw error.inFile(playlistPath)
                }
            case .media(let media):
                if media.initializationSegment != nil { return (.fmp4, .fmp4) }
                guard let first = media.segments.first else { return (nil, nil) }
                let name = first.uri.prefix { $0 != "?" && $0 != "#" }
                switch name.split(separator: ".").last?.lowercased() {
                case "ts": return (.ts, .mpeg2TS)
                case "m4s", "mp4", "cmfv", "m4v": return (.fmp4, .fmp4)
                case "aac": return (.aac, nil)
                case "ac3": return (.ac3, nil)
                case "ec3": return (.eAC3, nil)
                case "mp3": return (.mp3, nil)
                default: return (nil, nil)
                }
            }
        }
        return (nil, nil)
    }
}
