import CueKitHLS
import CueKitWebVTT

/// What a track is served as: one WebVTT file (`/tracks/NAME?as=vtt`), or an HLS subtitle
/// rendition (`/hls/NAME/subs.m3u8` and its segments). Part of the cache key, so a track's
/// WebVTT and each of its renditions are conversions of their own.
enum ConvertedProduct: Hashable, Sendable, CustomStringConvertible {
    /// The whole track as one WebVTT file.
    case webVTT
    /// A media playlist and WebVTT segments of `segmentDuration` milliseconds, each mapped to the
    /// video's `mpegTimestamp` (90 kHz ticks).
    case hlsRendition(segmentDuration: Int, mpegTimestamp: UInt64)

    var description: String {
        switch self {
        case .webVTT: "vtt"
        case .hlsRendition(let duration, let ticks): "hls \(duration) \(ticks)"
        }
    }

    /// The name of a rendition's media playlist.
    static let playlistName = "subs.m3u8"

    /// The segment options of a rendition, its segment URIs carrying `query` (the parameters that
    /// made it, so each segment is found in the same conversion).
    static func segmentOptions(segmentDuration: Int, mpegTimestamp: UInt64, query: String) -> HLSSegmentOptions {
        var options = HLSSegmentOptions(segmentDuration: segmentDuration, timestampMap: WebVTTTimestampMap(mpegTimestamp: mpegTimestamp))
        options.segmentURIQuery = query.isEmpty ? nil : query
        return options
    }
}
