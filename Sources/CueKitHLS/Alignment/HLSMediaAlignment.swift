import CueKit
import CueKitConversion

/// The MPEG-2 time a subtitle rendition aligns to: the first PTS of the video it plays with, read
/// from a transport stream segment, from self-initializing fragmented MP4, or from the first
/// segment a media playlist lists (the first variant's, for a multivariant playlist), fMP4
/// segments timed by the playlist's `EXT-X-MAP` (``FragmentedMP4Timing``).
public enum HLSMediaAlignment {
    /// The first PTS (90 kHz ticks) of the media at `path`: a `.ts` file, an `.mp4` holding its
    /// own initialization (`moov`) and fragments, or an `.m3u8` playlist whose first segment is
    /// TS or fMP4. Throws a `ReadError` naming the file (and, in a playlist, the
    /// line) that says why no time could be read.
    public static func mpegTimestamp(alignedTo path: String) throws -> UInt64 {
        try mpegTimestamp(alignedTo: path, depth: 0)
    }

    private static func mpegTimestamp(alignedTo path: String, depth: Int) throws -> UInt64 {
        guard isPlaylist(path) else {
            let lower = path.lowercased()
            if lower.hasSuffix(".mp4") || lower.hasSuffix(".m4s") || lower.hasSuffix(".m4v") || lower.hasSuffix(".cmfv") {
                return try FragmentedMP4Timing.firstPresentationTime(initializationAtPath: path, segmentAtPath: path)
            }
            return try MPEGTransportStreamTiming.firstPresentationTime(fileAtPath: path)
        }
        guard depth < 2 else {
            throw ReadError(
                .hlsPlaylistNoMedia, at: nil, "a multivariant playlist names another multivariant playlist; no media segment to align to",
                path: path)
        }
        let bytes = try FileByteSource(path: path).readAll()
        var isMultivariant = false
        var initialization: String?
        // Lines end at LF or CRLF (RFC 8216, section 4.1); a "\r\n" is one Character, so bytes are split.
        for (index, rawLine) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let line = String(decoding: rawLine.last == 0x0D ? rawLine.dropLast() : rawLine, as: UTF8.self)
            if line.hasPrefix("#EXT-X-STREAM-INF") { isMultivariant = true }
            if line.hasPrefix("#EXT-X-MAP:"), let uri = HLSAttributeList(line.dropFirst(11)).string("URI") {
                initialization = uri.hasPrefix("/") ? uri : folder(of: path) + "/" + uri
            }
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let location = SourceLocation(line: index + 1, column: 1)
            let uri = line.trimmingSpaces
            if uri.contains("://") {
                throw ReadError(
                    .hlsPlaylistNoMedia, at: location,
                    "'\(uri)' is not a local file; alignment reads media from files next to the playlist",
                    path: path)
            }
            let resolved = uri.hasPrefix("/") ? uri : folder(of: path) + "/" + uri
            if isMultivariant { return try mpegTimestamp(alignedTo: resolved, depth: depth + 1) }
            do {
                if let initialization {
                    return try FragmentedMP4Timing.firstPresentationTime(initializationAtPath: initialization, segmentAtPath: resolved)
                }
                guard resolved.lowercased().hasSuffix(".ts") else {
                    throw ReadError(
                        .hlsPlaylistNoMedia, at: location,
                        "the first segment '\(uri)' is neither an MPEG-2 transport stream (.ts) nor fMP4 with an EXT-X-MAP before it",
                        path: path)
                }
                return try MPEGTransportStreamTiming.firstPresentationTime(fileAtPath: resolved)
            } catch let error as ReadError where error.diagnostic.code == IOFailure.readCode {
                throw ReadError(.hlsPlaylistNoMedia, at: location, "the first segment: \(error.diagnostic.message)", path: path)
            }
        }
        throw ReadError(.hlsPlaylistNoMedia, at: nil, "the playlist lists no segment; there is no media to align to", path: path)
    }

    /// True when the name says an HLS playlist (`.m3u8`, `.m3u`).
    static func isPlaylist(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".m3u8") || lower.hasSuffix(".m3u")
    }

    /// The folder a path is in (`.` for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

extension DiagnosticCode {
    /// A playlist given to align to that leads to no transport stream segment.
    public static let hlsPlaylistNoMedia: DiagnosticCode = "hls-playlist-no-media"
}

extension String {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
