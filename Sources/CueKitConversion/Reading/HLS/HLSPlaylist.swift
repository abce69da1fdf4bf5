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

    /// True when `bytes` start like a playlist: `#EXTM3U`, after an optional byte order mark.
    public static func startsLikePlaylist(_ bytes: some Collection<UInt8>) -> Bool {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        return rest.starts(with: "#EXTM3U".utf8)
    }

    /// Reads a playlist. Throws a `ReadError` located at its line when it is not one (no
    /// `#EXTM3U` first), when a segment has no URI or a duration that is not a number, or past
    /// ``maximumSegments``.
    public static func parse(_ text: String) throws -> HLSPlaylist {
        var lineNumber = 0
        var media = HLSMediaPlaylist()
        var listing = HLSMultivariantListing()
        var pendingDuration: (milliseconds: Int, line: Int)?
        var pendingByteRange: (length: Int, offset: Int?, line: Int)?
        var pendingVariant: (group: String?, line: Int)?
        var sawVariant = false
        // Lines end in LF or CR LF (RFC 8216, section 4.1): split at each LF byte (a `String` holds
        // CR LF as one character, which a split at "\n" passes over), the CR dropped.
        let bytes = Array(text.utf8)
        var nextLine = 0
        while nextLine <= bytes.count {
            let lineEnd = bytes[nextLine...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let contentEnd = lineEnd > nextLine && bytes[lineEnd - 1] == UInt8(ascii: "\r") ? lineEnd - 1 : lineEnd
            let line = Substring(String(decoding: bytes[nextLine..<contentEnd], as: UTF8.self))
            nextLine = lineEnd + 1
            lineNumber += 1
            if lineNumber == 1 {
                let first = line.hasPrefix("\u{FEFF}") ? line.dropFirst() : line
                guard first.hasPrefix("#EXTM3U") else {
                    throw ReadError(.hlsPlaylistMalformed, at: .start, "an HLS playlist starts with #EXTM3U")
                }
                continue
            }
            if line.utf8.first == UInt8(ascii: "#") {
                guard Self.value(of: "#EXT", in: line) != nil else { continue }  // A comment.
                let location = SourceLocation(line: lineNumber, column: 1)
                if let value = Self.value(of: "#EXTINF:", in: line) {
                    let number = value.prefix { $0 != "," }
                    guard let seconds = Double(number), seconds >= 0, seconds.isFinite else {
                        throw ReadError(.hlsPlaylistMalformed, at: SourceLocation(line: lineNumber, column: 9), "EXTINF's duration '\(number)' is not a number of seconds")
                    }
                    pendingDuration = (Int((seconds * 1000).rounded()), lineNumber)
                } else if let value = Self.value(of: "#EXT-X-BYTERANGE:", in: line) {
                    pendingByteRange = try Self.byteRange(value, line: lineNumber)
                    media.usesByteRanges = true
                } else if let value = Self.value(of: "#EXT-X-VERSION:", in: line) {
                    media.version = Int(value)
                } else if let value = Self.value(of: "#EXT-X-TARGETDURATION:", in: line) {
                    media.targetDuration = Int(value)
                    media.targetDurationLine = lineNumber
                } else if let value = Self.value(of: "#EXT-X-MEDIA-SEQUENCE:", in: line) {
                    media.mediaSequence = Int(value) ?? 0
                } else if let value = Self.value(of: "#EXT-X-PLAYLIST-TYPE:", in: line) {
                    media.playlistType = String(value)
                } else if let value = Self.value(of: "#EXT-X-MAP:", in: line) {
                    media.initializationSegment = HLSAttributeList(value).string("URI")
                } else if Self.value(of: "#EXT-X-ENDLIST", in: line) != nil {
                    media.hasEndList = true
                } else if let value = Self.value(of: "#EXT-X-MEDIA:", in: line) {
                    let attributes = HLSAttributeList(value)
                    guard attributes["TYPE"] == "SUBTITLES" else { continue }
                    listing.subtitles.append(
                        HLSMultivariantListing.Rendition(
                            groupID: attributes.string("GROUP-ID") ?? "", name: attributes.string("NAME") ?? "",
                            language: attributes.string("LANGUAGE"), uri: attributes.string("URI"),
                            isDefault: attributes["DEFAULT"] == "YES", line: location.line))
                } else if let value = Self.value(of: "#EXT-X-STREAM-INF:", in: line) {
                    sawVariant = true
                    pendingVariant = (HLSAttributeList(value).string("SUBTITLES"), lineNumber)
                }
                continue
            }
            guard !line.utf8.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { continue }
            let uri = String(line)
            if let variant = pendingVariant {
                listing.variants.append(.init(subtitlesGroup: variant.group, uri: uri, line: variant.line))
                pendingVariant = nil
            } else if let duration = pendingDuration {
                guard media.segments.count < maximumSegments else {
                    throw ReadError(.hlsPlaylistMalformed, at: SourceLocation(line: lineNumber, column: 1), "the playlist lists more than \(maximumSegments) segments")
                }
                var segment = HLSMediaPlaylist.Segment(uri: uri, duration: duration.milliseconds, line: lineNumber, durationLine: duration.line)
                if let range = pendingByteRange {
                    segment.byteRange = try Self.place(range, of: uri, after: media.segments.last)
                    pendingByteRange = nil
                }
                media.segments.append(segment)
                pendingDuration = nil
            }
        }
        if let duration = pendingDuration {
            throw ReadError(.hlsPlaylistMalformed, at: SourceLocation(line: duration.line, column: 1), "the last EXTINF has no segment URI after it")
        }
        return sawVariant || !listing.subtitles.isEmpty ? .multivariant(listing) : .media(media)
    }

    /// `EXT-X-BYTERANGE:<n>[@<o>]` (RFC 8216, section 4.3.2.2): a length and an optional offset,
    /// both decimal integers.
    private static func byteRange(_ value: Substring, line: Int) throws -> (length: Int, offset: Int?, line: Int) {
        let utf8 = value.utf8
        let parts = utf8.firstIndex(of: UInt8(ascii: "@")).map { [utf8[..<$0], utf8[utf8.index(after: $0)...]] } ?? [utf8[...]]
        func number(_ text: Substring.UTF8View.SubSequence) -> Int? {
            guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            return text.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        guard let length = number(parts[0]), parts.count == 1 || number(parts[1]) != nil else {
            throw ReadError(
                .hlsPlaylistMalformed, at: SourceLocation(line: line, column: 18),
                "EXT-X-BYTERANGE '\(value)' is not a length in bytes, with an optional @offset")
        }
        return (length, parts.count == 2 ? number(parts[1]) : nil, line)
    }

    /// The bytes a segment's `EXT-X-BYTERANGE` names: from its offset, or, without one, from the
    /// end of the previous segment's range, which must be of the same resource.
    private static func place(
        _ range: (length: Int, offset: Int?, line: Int), of uri: String, after previous: HLSMediaPlaylist.Segment?
    ) throws -> Range<Int> {
        let start: Int
        if let offset = range.offset {
            start = offset
        } else if let previous, previous.uri == uri, let previousRange = previous.byteRange {
            start = previousRange.upperBound
        } else {
            throw ReadError(
                .hlsPlaylistMalformed, at: SourceLocation(line: range.line, column: 18),
                "EXT-X-BYTERANGE without an @offset continues the previous segment's range, but the previous segment is not a range of \(uri)")
        }
        let (end, overflow) = start.addingReportingOverflow(range.length)
        guard !overflow else {
            throw ReadError(.hlsPlaylistMalformed, at: SourceLocation(line: range.line, column: 18), "EXT-X-BYTERANGE ends past any file")
        }
        return start..<end
    }

    /// What follows `tag` on `line`, when the line is that tag. Compared as bytes: a playlist has
    /// a few lines for each of up to ``maximumSegments`` segments, each tried against every tag.
    private static func value(of tag: StaticString, in line: Substring) -> Substring? {
        let bytes = line.utf8
        let matches = tag.withUTF8Buffer { tag in bytes.count >= tag.count && bytes.starts(with: tag) }
        return matches ? Substring(bytes.dropFirst(tag.utf8CodeUnitCount)) : nil
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

    /// What is wrong with the playlist itself (RFC 8216, section 4.3.3 and 4.3.3.4): no
    /// `EXT-X-TARGETDURATION`, an `EXTINF` that rounds above it, a VOD playlist without
    /// `EXT-X-ENDLIST`.
    public var problems: [Diagnostic] {
        var found: [Diagnostic] = []
        if let targetDuration {
            for segment in segments where (segment.duration + 500) / 1000 > targetDuration {
                found.append(
                    Diagnostic(
                        .error, .hlsExtinfOverTarget, at: SourceLocation(line: segment.durationLine, column: 9),
                        "EXTINF \(Double(segment.duration) / 1000) s rounds above EXT-X-TARGETDURATION \(targetDuration) s"))
                if found.count >= 100 { break }
            }
        } else if !segments.isEmpty {
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
