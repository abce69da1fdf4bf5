import CueKit

/// An HLS playlist as read (RFC 8216, section 4): a media playlist lists the segments of one
/// rendition, a multivariant playlist lists the variants and the renditions that go with them.
///
/// Only what reading a subtitle track needs is kept: segment URIs and durations, the subtitle
/// renditions, and which subtitle group each variant names. Each entry keeps its line, so that
/// what is wrong with it can be located.
public enum HLSPlaylist: Sendable, Hashable {
    case media(HLSMediaPlaylist)
    case multivariant(HLSMultivariantListing)

    /// The most segments a media playlist may list: far past any real subtitle rendition (a day
    /// of 1-second segments is 86,400), and a bound on what a hostile playlist costs.
    public static let maximumSegments = 1_000_000

    /// The longest segment a media playlist may list, in milliseconds: a million seconds, some
    /// eleven days, far past a program that is one segment; and a bound that keeps the timeline
    /// of ``maximumSegments`` segments within what an `Int` of milliseconds holds.
    public static let maximumSegmentDuration = 1_000_000_000

    /// True when `bytes` start like a playlist: `#EXTM3U`, after an optional byte order mark.
    public static func startsLikePlaylist(_ bytes: some Collection<UInt8>) -> Bool {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        return rest.starts(with: "#EXTM3U".utf8)
    }

    /// Reads a playlist, its segments kept. Throws a `ReadError` located at its line when it is
    /// not one (no `#EXTM3U` first), when a segment has no URI or a duration that is not a
    /// number, or past ``maximumSegments``. (``HLSPlaylistReader`` reads a rendition's segments as
    /// they are listed, keeping none.)
    public static func parse(_ text: String) throws -> HLSPlaylist {
        var parser = HLSPlaylistParser()
        var lines = HLSPlaylistLines()
        var segments: [HLSMediaPlaylist.Segment] = []
        func take(_ line: UnsafeRawBufferPointer) throws {
            if let segment = try parser.take(line) { segments.append(segment) }
        }
        var bytes = text
        try bytes.withUTF8 { try lines.feed(UnsafeRawBufferPointer($0), take) }
        try lines.finish(take)
        switch try parser.finish() {
        case .multivariant(let listing):
            return .multivariant(listing)
        case .media(var media):
            if !media.segmentTally.isSettled {
                media.segmentTally = .judgedAgain(segments, target: media.targetDuration)
            }
            media.segments = segments
            return .media(media)
        }
    }
}

/// A media playlist: the segments of one rendition, in order.
public struct HLSMediaPlaylist: Sendable, Hashable {
    /// One segment: its URI as written, its `EXTINF` duration, and the lines of both.
    public struct Segment: Sendable, Hashable {
        public var uri: String
        /// Milliseconds.
        public var duration: Int
        public var line: Int
        public var durationLine: Int
        /// The bytes of the resource the segment is (`EXT-X-BYTERANGE`); nil for the whole resource.
        public var byteRange: Range<Int>? = nil
    }

    public var segments: [Segment] = []
    /// `EXT-X-TARGETDURATION`, in seconds.
    public var targetDuration: Int?
    public var targetDurationLine: Int?
    public var mediaSequence = 0
    /// `EXT-X-PLAYLIST-TYPE`: `VOD` or `EVENT`.
    public var playlistType: String?
    /// True when `EXT-X-ENDLIST` is present: no segment will be added.
    public var hasEndList = false
    /// The URI of `EXT-X-MAP`, the initialization segment of fragmented MP4 media.
    public var initializationSegment: String?
    /// `EXT-X-VERSION`.
    public var version: Int?
    /// True when a segment is a byte range (`EXT-X-BYTERANGE`), which needs version 4.
    public var usesByteRanges = false
    /// How many segments the playlist lists, and those over the target duration, counted as it
    /// was read (whether or not ``segments`` keeps them).
    public var segmentTally = HLSSegmentTally()

    /// What is wrong with the playlist itself (RFC 8216, section 4.3.3 and 4.3.3.4): no
    /// `EXT-X-TARGETDURATION`, an `EXTINF` that rounds above it, a VOD playlist without
    /// `EXT-X-ENDLIST`.
    public var problems: [Diagnostic] {
        var found: [Diagnostic] = []
        if let targetDuration {
            for segment in segmentTally.overTarget {
                found.append(
                    Diagnostic(
                        .error, .hlsExtinfOverTarget, at: SourceLocation(line: segment.line, column: 9),
                        "EXTINF \(Double(segment.milliseconds) / 1000) s rounds above EXT-X-TARGETDURATION \(targetDuration) s"))
            }
        } else if segmentTally.count > 0 {
            found.append(Diagnostic(.error, .hlsPlaylistMalformed, at: .start, "a media playlist must have EXT-X-TARGETDURATION"))
        }
        if usesByteRanges, (version ?? 1) < 4 {
            found.append(
                Diagnostic(
                    .warning, .hlsPlaylistMalformed, at: .start,
                    "the playlist uses EXT-X-BYTERANGE, which needs EXT-X-VERSION 4 or higher (RFC 8216, section 7); it declares \(version.map(String.init) ?? "none")"))
        }
        if playlistType == "VOD", !hasEndList {
            found.append(Diagnostic(.warning, .hlsNoEndList, at: .start, "a VOD playlist ends with EXT-X-ENDLIST"))
        } else if !hasEndList {
            found.append(
                Diagnostic(
                    .note, .hlsNoEndList, at: .start, "the playlist has no EXT-X-ENDLIST: it may still grow, and only what it lists now is read"))
        }
        return found
    }
}

/// A multivariant playlist: its subtitle renditions and its variants.
public struct HLSMultivariantListing: Sendable, Hashable {
    /// An `EXT-X-MEDIA:TYPE=SUBTITLES` line.
    public struct Rendition: Sendable, Hashable, CustomStringConvertible {
        public var groupID: String
        public var name: String
        public var language: String?
        /// The rendition's media playlist; nil when the line names none.
        public var uri: String?
        public var isDefault: Bool
        public var line: Int

        /// `NAME (LANGUAGE), group GROUP-ID`.
        public var description: String {
            "\(name)\(language.map { " (\($0))" } ?? ""), group \(groupID)\(isDefault ? ", default" : "")"
        }
    }

    /// An `EXT-X-STREAM-INF` line and the URI after it.
    public struct Variant: Sendable, Hashable {
        /// The `SUBTITLES` group the variant names.
        public var subtitlesGroup: String?
        public var uri: String
        public var line: Int
    }

    public var subtitles: [Rendition] = []
    public var variants: [Variant] = []

    /// What is wrong with the subtitle renditions and the variants that name them (RFC 8216,
    /// section 4.3.4.1.1 and 4.3.4.2): a `SUBTITLES` group no `EXT-X-MEDIA` declares, variants
    /// that name a group beside others that name none (they play without subtitles), two
    /// defaults in one group.
    public var problems: [Diagnostic] {
        var found: [Diagnostic] = []
        let declared = Set(subtitles.map(\.groupID))
        for variant in variants {
            if let group = variant.subtitlesGroup, !declared.contains(group) {
                found.append(
                    Diagnostic(
                        .error, .hlsRenditionGroup, at: SourceLocation(line: variant.line, column: 1),
                        "the variant names SUBTITLES=\"\(group)\", which no EXT-X-MEDIA:TYPE=SUBTITLES declares"))
            }
        }
        if variants.contains(where: { $0.subtitlesGroup != nil }) {
            for variant in variants where variant.subtitlesGroup == nil {
                found.append(
                    Diagnostic(
                        .warning, .hlsRenditionGroup, at: SourceLocation(line: variant.line, column: 1),
                        "the variant names no SUBTITLES group where others do: played through it, the track has no subtitles"))
            }
        }
        for group in declared.sorted() {
            let defaults = subtitles.filter { $0.groupID == group && $0.isDefault }
            if defaults.count > 1 {
                found.append(
                    Diagnostic(
                        .error, .hlsRenditionGroup, at: SourceLocation(line: defaults[1].line, column: 1),
                        "the group \(group) has more than one DEFAULT=YES rendition"))
            }
        }
        return found
    }

    /// The rendition `wanted` names (its language or its name, in any case), else the default
    /// one, else the only one. Throws a `ReadError` that lists the renditions when none is found.
    public func rendition(named wanted: String?) throws -> Rendition {
        let withURI = subtitles.filter { $0.uri != nil }
        let list = withURI.map { "  \($0)" }.joined(separator: "\n")
        if let wanted {
            let key = wanted.lowercased()
            if let found = withURI.first(where: { $0.language?.lowercased() == key || $0.name.lowercased() == key }) { return found }
            throw ReadError(.hlsNoRendition, at: .start, "no subtitle rendition is named '\(wanted)'; the playlist has:\n\(list)")
        }
        if let found = withURI.first(where: \.isDefault) ?? (withURI.count == 1 ? withURI.first : nil) { return found }
        if withURI.isEmpty { throw ReadError(.hlsNoRendition, at: .start, "the multivariant playlist has no subtitle rendition with a URI") }
        throw ReadError(.hlsNoRendition, at: .start, "the playlist has several subtitle renditions and no default: pick one with --rendition\n\(list)")
    }
}

extension DiagnosticCode {
    /// A playlist that cannot be read: no `#EXTM3U`, an `EXTINF` that is not a number, one without
    /// its URI, or too many segments.
    public static let hlsPlaylistMalformed: DiagnosticCode = "hls-playlist-malformed"
    /// A multivariant playlist without the subtitle rendition asked for (or without a default).
    public static let hlsNoRendition: DiagnosticCode = "hls-no-rendition"
    /// An `EXTINF` whose duration, rounded, is above the target duration.
    public static let hlsExtinfOverTarget: DiagnosticCode = "hls-extinf-over-target"
    /// A playlist without `EXT-X-ENDLIST`.
    public static let hlsNoEndList: DiagnosticCode = "hls-no-endlist"
    /// Subtitle groups that variants and renditions do not agree on.
    public static let hlsRenditionGroup: DiagnosticCode = "hls-rendition-group"
    /// A segment that cannot be read: missing, remote, or itself a playlist.
    public static let hlsSegmentUnreadable: DiagnosticCode = "hls-segment-unreadable"
}
