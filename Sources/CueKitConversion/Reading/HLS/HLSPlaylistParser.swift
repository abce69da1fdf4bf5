import CueKit

/// Reads a playlist one line at a time (RFC 8216, section 4), so that a media playlist's segments
/// can be handed on as they are listed and none of them kept: reading a rendition of any length
/// takes the same memory. ``HLSPlaylist/parse(_:)`` keeps them; ``HLSPlaylistReader`` does not.
struct HLSPlaylistParser {
    /// The media playlist's tags read so far; its ``HLSMediaPlaylist/segments`` stay empty.
    private(set) var media = HLSMediaPlaylist()
    private(set) var listing = HLSMultivariantListing()
    private(set) var lineNumber = 0
    private var pendingDuration: (milliseconds: Int, line: Int)?
    private var pendingByteRange: (length: Int, offset: Int?, line: Int)?
    private var pendingVariant: (group: String?, line: Int)?
    private var sawVariant = false
    /// The segment listed last: where a byte range without an offset continues.
    private var previousSegment: HLSMediaPlaylist.Segment?

    /// Takes the next line, without its line end (LF, or CR LF: the CR is dropped by
    /// ``HLSPlaylistLines``). Returns the segment the line completes (its URI line). Throws a
    /// `ReadError` located at the line when the playlist does not start with `#EXTM3U`, when an
    /// `EXTINF` or `EXT-X-BYTERANGE` is malformed, or past ``HLSPlaylist/maximumSegments``.
    ///
    /// The line is read as bytes: a playlist has a few lines for each of up to a million
    /// segments, and only a URI, or a tag a playlist has once, becomes a `String`.
    mutating func take(_ line: UnsafeRawBufferPointer) throws -> HLSMediaPlaylist.Segment? {
        lineNumber += 1
        if lineNumber == 1 {
            let first = line.starts(with: [0xEF, 0xBB, 0xBF]) ? UnsafeRawBufferPointer(rebasing: line.dropFirst(3)) : line
            guard first.starts(with: "#EXTM3U".utf8) else {
                throw ReadError(.hlsPlaylistMalformed, at: .start, "an HLS playlist starts with #EXTM3U")
            }
            return nil
        }
        if line.first == UInt8(ascii: "#") {
            try takeTag(line)
            return nil
        }
        guard !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return nil }
        let uri = String(decoding: line, as: UTF8.self)
        if let variant = pendingVariant {
            listing.variants.append(.init(subtitlesGroup: variant.group, uri: uri, line: variant.line))
            pendingVariant = nil
            return nil
        }
        guard let duration = pendingDuration else { return nil }
        guard media.segmentTally.count < HLSPlaylist.maximumSegments else {
            throw ReadError(
                .hlsPlaylistMalformed, at: SourceLocation(line: lineNumber, column: 1),
                "the playlist lists more than \(HLSPlaylist.maximumSegments) segments")
        }
        var segment = HLSMediaPlaylist.Segment(uri: uri, duration: duration.milliseconds, line: lineNumber, durationLine: duration.line)
        if let range = pendingByteRange {
            segment.byteRange = try Self.place(range, of: uri, after: previousSegment)
            pendingByteRange = nil
        }
        pendingDuration = nil
        previousSegment = segment
        media.segmentTally.add(segment, target: media.targetDuration)
        return segment
    }

    /// Ends the playlist: a multivariant listing, or the media playlist without its segments.
    /// Throws when the last `EXTINF` has no URI after it.
    func finish() throws -> HLSPlaylist {
        if let duration = pendingDuration {
            throw ReadError(.hlsPlaylistMalformed, at: SourceLocation(line: duration.line, column: 1), "the last EXTINF has no segment URI after it")
        }
        return sawVariant || !listing.subtitles.isEmpty ? .multivariant(listing) : .media(media)
    }

    private mutating func takeTag(_ line: UnsafeRawBufferPointer) throws {
        guard Self.value(of: "#EXT", in: line) != nil else { return }  // A comment.
        if let value = Self.value(of: "#EXTINF:", in: line) {
            let number = UnsafeRawBufferPointer(rebasing: value.prefix { $0 != UInt8(ascii: ",") })
            guard let milliseconds = Self.milliseconds(number) else {
                throw ReadError(
                    .hlsPlaylistMalformed, at: SourceLocation(line: lineNumber, column: 9),
                    "EXTINF's duration '\(String(decoding: number, as: UTF8.self))' is not a number of seconds")
            }
            guard milliseconds <= HLSPlaylist.maximumSegmentDuration else {
                throw ReadError(
                    .hlsPlaylistMalformed, at: SourceLocation(line: lineNumber, column: 9),
                    "EXTINF's duration '\(String(decoding: number, as: UTF8.self))' is over \(HLSPlaylist.maximumSegmentDuration / 1000) seconds")
            }
            pendingDuration = (milliseconds, lineNumber)
        } else if let value = Self.value(of: "#EXT-X-BYTERANGE:", in: line) {
            pendingByteRange = try Self.byteRange(value, line: lineNumber)
            media.usesByteRanges = true
        } else if let value = Self.text(of: "#EXT-X-VERSION:", in: line) {
            media.version = Int(value)
        } else if let value = Self.text(of: "#EXT-X-TARGETDURATION:", in: line) {
            media.targetDuration = Int(value)
            media.targetDurationLine = lineNumber
            media.segmentTally.targetChanged()
        } else if let value = Self.text(of: "#EXT-X-MEDIA-SEQUENCE:", in: line) {
            media.mediaSequence = Int(value) ?? 0
        } else if let value = Self.text(of: "#EXT-X-PLAYLIST-TYPE:", in: line) {
            media.playlistType = String(value)
        } else if let value = Self.text(of: "#EXT-X-MAP:", in: line) {
            media.initializationSegment = HLSAttributeList(value).string("URI")
        } else if Self.value(of: "#EXT-X-ENDLIST", in: line) != nil {
            media.hasEndList = true
        } else if let value = Self.text(of: "#EXT-X-MEDIA:", in: line) {
            let attributes = HLSAttributeList(value)
            guard attributes["TYPE"] == "SUBTITLES" else { return }
            listing.subtitles.append(
                HLSMultivariantListing.Rendition(
                    groupID: attributes.string("GROUP-ID") ?? "", name: attributes.string("NAME") ?? "",
                    language: attributes.string("LANGUAGE"), uri: attributes.string("URI"),
                    isDefault: attributes["DEFAULT"] == "YES", line: lineNumber))
        } else if let value = Self.text(of: "#EXT-X-STREAM-INF:", in: line) {
            sawVariant = true
            pendingVariant = (HLSAttributeList(value).string("SUBTITLES"), lineNumber)
        }
    }

    /// An `EXTINF` duration in seconds as whole milliseconds, rounded. Decimal digits with at
    /// most three after the point are read exactly, in one pass; anything else (an exponent, more
    /// digits, a sign) is read as a `Double`. Nil when it is not a finite number of seconds, 0 or
    /// more.
    static func milliseconds(_ number: UnsafeRawBufferPointer) -> Int? {
        var whole = 0
        var fraction = 0
        // -1 before the point.
        var fractionDigits = -1
        var wholeDigits = 0
        for byte in number {
            if byte == UInt8(ascii: "."), fractionDigits < 0 {
                fractionDigits = 0
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), fractionDigits < 3, wholeDigits < 9 {
                if fractionDigits < 0 {
                    whole = whole * 10 + Int(byte - UInt8(ascii: "0"))
                    wholeDigits += 1
                } else {
                    fraction = fraction * 10 + Int(byte - UInt8(ascii: "0"))
                    fractionDigits += 1
                }
            } else {
                return millisecondsOfDouble(number)
            }
        }
        // "", "." and "5." are left to the `Double` reading, which takes "5." but not the others.
        guard wholeDigits > 0, fractionDigits != 0 else { return millisecondsOfDouble(number) }
        for _ in max(fractionDigits, 0)..<3 { fraction *= 10 }
        return whole * 1000 + fraction
    }

    private static func millisecondsOfDouble(_ number: UnsafeRawBufferPointer) -> Int? {
        guard let seconds = Double(String(decoding: number, as: UTF8.self)), seconds >= 0, seconds.isFinite else { return nil }
        // Past any segment (``HLSPlaylist/maximumSegmentDuration``) and past what `Int` holds.
        return Int(exactly: min((seconds * 1000).rounded(), 1e18))
    }

    /// `EXT-X-BYTERANGE:<n>[@<o>]` (RFC 8216, section 4.3.2.2): a length and an optional offset,
    /// both decimal integers of at most 18 digits.
    private static func byteRange(_ value: UnsafeRawBufferPointer, line: Int) throws -> (length: Int, offset: Int?, line: Int) {
        func number(_ text: Slice<UnsafeRawBufferPointer>) -> Int? {
            guard !text.isEmpty, text.count <= 18 else { return nil }
            var result = 0
            for byte in text {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                result = result * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return result
        }
        let at = value.firstIndex(of: UInt8(ascii: "@"))
        let length = number(value[..<(at ?? value.endIndex)])
        let offset = at.map { number(value[($0 + 1)...]) }
        guard let length, offset.map({ $0 != nil }) ?? true else {
            throw ReadError(
                .hlsPlaylistMalformed, at: SourceLocation(line: line, column: 18),
                "EXT-X-BYTERANGE '\(String(decoding: value, as: UTF8.self))' is not a length in bytes, with an optional @offset")
        }
        return (length, offset ?? nil, line)
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

    /// What follows `tag` on `line`, when the line is that tag.
    private static func value(of tag: StaticString, in line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let count = tag.utf8CodeUnitCount
        guard line.count >= count else { return nil }
        let matches = tag.withUTF8Buffer { tag in
            var index = 0
            while index < count, line[index] == tag[index] { index += 1 }
            return index == count
        }
        return matches ? UnsafeRawBufferPointer(rebasing: line[count...]) : nil
    }

    /// ``value(of:in:)`` as text, for the tags a playlist has once.
    private static func text(of tag: StaticString, in line: UnsafeRawBufferPointer) -> Substring? {
        value(of: tag, in: line).map { Substring(String(decoding: $0, as: UTF8.self)) }
    }
}

/// Splits a playlist's bytes into lines as they arrive in chunks: at each LF, a CR before it
/// dropped (RFC 8216, section 4.1), the last line being what follows the last LF (empty when the
/// playlist ends in one). A line split across chunks is carried over; no line may be longer
/// than ``maximumLineLength``.
struct HLSPlaylistLines {
    /// The longest line read: far past any URI or tag a playlist needs, and a bound on the bytes
    /// carried between chunks.
    static let maximumLineLength = 1 << 20

    private var carried: [UInt8] = []
    private var lineNumber = 0

    /// Calls `body` with each line `chunk` completes, valid during the call.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var start = 0
        while let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if carried.isEmpty {
                try checkLength(newline - start)
                try emit(UnsafeRawBufferPointer(rebasing: chunk[start..<newline]), body)
            } else {
                try checkLength(carried.count + newline - start)
                carried.append(contentsOf: chunk[start..<newline])
                try carried.withUnsafeBytes { try emit($0, body) }
                carried.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        guard start < chunk.count else { return }
        try checkLength(carried.count + chunk.count - start)
        carried.append(contentsOf: chunk[start...])
    }

    private func checkLength(_ length: Int) throws {
        guard length > Self.maximumLineLength else { return }
        throw ReadError(
            .hlsPlaylistMalformed, at: SourceLocation(line: lineNumber + 1, column: 1), "the line is longer than \(Self.maximumLineLength) bytes")
    }

    /// Calls `body` with the last line.
    mutating func finish(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try carried.withUnsafeBytes { try emit($0, body) }
        carried.removeAll()
    }

    private mutating func emit(_ line: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        lineNumber += 1
        try body(line.last == UInt8(ascii: "\r") ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line)
    }
}

/// What a media playlist's problems are judged on, counted as its segments are listed: how many
/// there are, and the first of those whose `EXTINF` rounds above `EXT-X-TARGETDURATION`.
public struct HLSSegmentTally: Sendable, Hashable {
    /// A segment's duration (milliseconds) and the line of its `EXTINF`.
    public struct Duration: Sendable, Hashable {
        public var milliseconds: Int
        public var line: Int
    }

    /// The most segments over the target reported.
    public static let reportedOverTarget = 100

    /// How many segments the playlist lists.
    public private(set) var count = 0
    /// The first ``reportedOverTarget`` segments whose duration rounds above the target duration
    /// known when they were listed.
    public private(set) var overTarget: [Duration] = []
    /// False when `EXT-X-TARGETDURATION` came after a segment, or twice: segments were then
    /// judged against a target that is not the playlist's, and must be judged again
    /// (``judgedAgain(_:target:)``).
    public private(set) var isSettled = true

    mutating func add(_ segment: HLSMediaPlaylist.Segment, target: Int?) {
        count += 1
        guard let target, overTarget.count < Self.reportedOverTarget, Self.roundsAbove(segment.duration, target) else { return }
        overTarget.append(Duration(milliseconds: segment.duration, line: segment.durationLine))
    }

    mutating func targetChanged() {
        if count > 0 || sawTarget { isSettled = false }
        sawTarget = true
    }

    private var sawTarget = false

    /// The tally of `segments` judged against `target`, the playlist's last word.
    static func judgedAgain(_ segments: some Sequence<HLSMediaPlaylist.Segment>, target: Int?) -> HLSSegmentTally {
        var tally = HLSSegmentTally()
        for segment in segments { tally.add(segment, target: target) }
        return tally
    }

    /// RFC 8216, section 4.3.3.1: each `EXTINF`, rounded to the nearest integer, is at most the
    /// target duration.
    static func roundsAbove(_ milliseconds: Int, _ target: Int) -> Bool {
        (milliseconds + 500) / 1000 > target
    }
}
