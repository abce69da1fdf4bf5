/// The lines of a WebVTT media playlist (RFC 8216, section 4.3), written as the segments are:
/// the header before the first segment, one `EXTINF` and URI per segment, `EXT-X-ENDLIST` last.
///
/// ```
/// #EXTM3U
/// #EXT-X-VERSION:3
/// #EXT-X-TARGETDURATION:6
/// #EXT-X-MEDIA-SEQUENCE:0
/// #EXT-X-PLAYLIST-TYPE:VOD
/// #EXTINF:6.000,
/// subs0.vtt
/// #EXT-X-ENDLIST
/// ```
///
/// Version 3 is the lowest that allows the decimal `EXTINF` durations written here (section 7);
/// segments that are byte ranges of one file (`EXT-X-BYTERANGE`) need version 4. The target duration is the segment duration rounded to the
/// nearest integer (halves up), at least 1: every segment lasts at most that long, so each
/// `EXTINF` rounded is at most the target, as section 4.3.3.1 requires.
public enum HLSMediaPlaylistText {
    /// The protocol version the playlist declares.
    public static let version = 3
    /// The version declared when segments are byte ranges.
    public static let byteRangeVersion = 4

    /// `EXT-X-TARGETDURATION` for segments of `segmentDuration` milliseconds.
    public static func targetDuration(segmentDuration: Int) -> Int {
        max(1, (segmentDuration + 500) / 1000)
    }

    /// The lines before the first segment.
    public static func header(segmentDuration: Int, mediaSequence: Int = 0, usesByteRanges: Bool = false) -> String {
        """
        #EXTM3U
        #EXT-X-VERSION:\(usesByteRanges ? byteRangeVersion : version)
        #EXT-X-TARGETDURATION:\(targetDuration(segmentDuration: segmentDuration))
        #EXT-X-MEDIA-SEQUENCE:\(mediaSequence)
        #EXT-X-PLAYLIST-TYPE:VOD

        """
    }

    /// One segment: its duration in seconds with milliseconds, and its URI.
    public static func segment(duration: Int, uri: String) -> String {
        var lines: [UInt8] = []
        appendSegment(duration: duration, byteRange: nil, uri: uri, to: &lines)
        return String(decoding: lines, as: UTF8.self)
    }

    /// One segment that is the bytes `byteRange` of the file at `uri`.
    public static func segment(duration: Int, byteRange: Range<Int>, uri: String) -> String {
        var lines: [UInt8] = []
        appendSegment(duration: duration, byteRange: byteRange, uri: uri, to: &lines)
        return String(decoding: lines, as: UTF8.self)
    }

    /// Appends a segment's lines to `lines`: `EXTINF`, `EXT-X-BYTERANGE` with its offset when
    /// there is a range, and the URI. Built as bytes, into a buffer the caller reuses: a rendition
    /// has a few lines for each of up to hundreds of thousands of segments. The lines are written
    /// on the stack first and appended in one piece.
    public static func appendSegment(duration: Int, byteRange: Range<Int>?, uri: String, to lines: inout [UInt8]) {
        appendSegment(duration: duration, byteRange: byteRange, uri: Array(uri.utf8), to: &lines)
    }

    /// ``appendSegment(duration:byteRange:uri:to:)`` with the URI's UTF-8 bytes, made once for
    /// every segment of a file.
    static func appendSegment(duration: Int, byteRange: Range<Int>?, uri: [UInt8], to lines: inout [UInt8]) {
        precondition(duration >= 0 && (byteRange?.lowerBound ?? 0) >= 0, "playlist numbers are not negative")
        // `#EXTINF:` and `#EXT-X-BYTERANGE:`, three numbers of at most 19 digits, the punctuation,
        // the URI and its line end.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128 + uri.count) { buffer in
            let start = buffer.baseAddress!
            var end = put("#EXTINF:", at: start)
            end = putDecimal(duration / 1000, at: end)
            let fraction = duration % 1000
            end[0] = UInt8(ascii: ".")
            end[1] = UInt8(ascii: "0") + UInt8(fraction / 100)
            end[2] = UInt8(ascii: "0") + UInt8(fraction / 10 % 10)
            end[3] = UInt8(ascii: "0") + UInt8(fraction % 10)
            end[4] = UInt8(ascii: ",")
            end[5] = UInt8(ascii: "\n")
            end += 6
            if let byteRange {
                end = put("#EXT-X-BYTERANGE:", at: end)
                end = putDecimal(byteRange.count, at: end)
                end[0] = UInt8(ascii: "@")
                end = putDecimal(byteRange.lowerBound, at: end + 1)
                end[0] = UInt8(ascii: "\n")
                end += 1
            }
            uri.withUnsafeBufferPointer { if let bytes = $0.baseAddress { end.update(from: bytes, count: $0.count) } }
            end += uri.count
            end[0] = UInt8(ascii: "\n")
            end += 1
            lines.append(contentsOf: UnsafeBufferPointer(start: start, count: end - start))
        }
    }

    /// The lines of segments of one duration that are byte ranges of one file: the `EXTINF` line,
    /// the tag of the range and the URI's line made once, so that each segment formats only its
    /// range. A rendition in one file has up to hundreds of thousands of such segments.
    package struct ByteRangeLines {
        /// The duration every segment written with these lines has.
        package let duration: Int
        /// `#EXTINF:…,`, `#EXT-X-BYTERANGE:`; then the URI and its line end.
        private let head: [UInt8]
        private let uriLine: [UInt8]

        package init(duration: Int, uri: [UInt8]) {
            self.duration = duration
            var lines: [UInt8] = []
            HLSMediaPlaylistText.appendSegment(duration: duration, byteRange: 0..<0, uri: [], to: &lines)
            // Up to the range's digits: what ends `#EXT-X-BYTERANGE:`.
            head = Array(lines.prefix(lines.count - "0@0\n\n".utf8.count))
            uriLine = uri + [UInt8(ascii: "\n")]
        }

        /// Appends the lines of the segment that is the bytes `byteRange` of the file.
        package func append(byteRange: Range<Int>, to lines: inout [UInt8]) {
            precondition(byteRange.lowerBound >= 0, "playlist numbers are not negative")
            // The head, two numbers of at most 19 digits, `@`, a line end, the URI's line.
            let capacity = 256
            guard head.count + uriLine.count + 48 <= capacity else {
                return HLSMediaPlaylistText.appendSegment(duration: duration, byteRange: byteRange, uri: Array(uriLine.dropLast()), to: &lines)
            }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
                let start = buffer.baseAddress!
                head.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: $0.count) }
                var end = HLSMediaPlaylistText.putDecimal(byteRange.count, at: start + head.count)
                end[0] = UInt8(ascii: "@")
                end = HLSMediaPlaylistText.putDecimal(byteRange.lowerBound, at: end + 1)
                end[0] = UInt8(ascii: "\n")
                end += 1
                uriLine.withUnsafeBufferPointer { end.update(from: $0.baseAddress!, count: $0.count) }
                end += uriLine.count
                lines.append(contentsOf: UnsafeBufferPointer(start: start, count: end - start))
            }
        }
    }

    /// Writes `text` at `place`; returns where it ends.
    @inline(__always)
    private static func put(_ text: StaticString, at place: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        place.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        return place + text.utf8CodeUnitCount
    }

    /// Writes a whole number of 0 or more in decimal digits at `place`; returns where it ends.
    /// Its length is found by comparisons, and its digits are written two at a time.
    @inline(__always)
    fileprivate static func putDecimal(_ value: Int, at place: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var rest = UInt(bitPattern: value)
        var digits = 1
        var limit: UInt = 10
        while digits < 19, rest >= limit {
            digits &+= 1
            limit &*= 10
        }
        let pairs = digitPairs.utf8Start
        var at = place + digits
        while rest >= 100 {
            let pair = Int(rest % 100) &* 2
            rest /= 100
            at -= 2
            at[0] = pairs[pair]
            at[1] = pairs[pair &+ 1]
        }
        if rest >= 10 {
            at[-2] = pairs[Int(rest) &* 2]
            at[-1] = pairs[Int(rest) &* 2 &+ 1]
        } else {
            at[-1] = UInt8(truncatingIfNeeded: rest) &+ UInt8(ascii: "0")
        }
        return place + digits
    }

    /// `00` to `99`, one after the other.
    private static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// The last line: no segment will be added.
    public static let end = "#EXT-X-ENDLIST\n"

    /// Milliseconds as decimal seconds with three decimals (`6.000`, `0.040`).
    public static func seconds(_ milliseconds: Int) -> String {
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
