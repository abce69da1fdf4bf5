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
    /// has a few lines for each of up to hundreds of thousands of segments. The numbers are
    /// written into a small buffer on the stack first and appended in one piece.
    public static func appendSegment(duration: Int, byteRange: Range<Int>?, uri: String, to lines: inout [UInt8]) {
        // `#EXTINF:` and `#EXT-X-BYTERANGE:`, three numbers of at most 20 digits, the punctuation.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
            var count = 0
            func append(_ text: StaticString) {
                text.withUTF8Buffer { bytes in
                    for byte in bytes {
                        buffer[count] = byte
                        count += 1
                    }
                }
            }
            func append(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            func appendDecimal(_ value: Int) {
                precondition(value >= 0, "playlist numbers are not negative")
                var divisor = 1
                while divisor <= value / 10 { divisor *= 10 }
                var rest = value
                while divisor > 0 {
                    append(UInt8(ascii: "0") + UInt8(rest / divisor))
                    rest %= divisor
                    divisor /= 10
                }
            }
            append("#EXTINF:")
            appendDecimal(duration / 1000)
            let fraction = duration % 1000
            append(UInt8(ascii: "."))
            append(UInt8(ascii: "0") + UInt8(fraction / 100))
            append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
            append(UInt8(ascii: "0") + UInt8(fraction % 10))
            append(UInt8(ascii: ","))
            append(UInt8(ascii: "\n"))
            if let byteRange {
                append("#EXT-X-BYTERANGE:")
                appendDecimal(byteRange.count)
                append(UInt8(ascii: "@"))
                appendDecimal(byteRange.lowerBound)
                append(UInt8(ascii: "\n"))
            }
            lines.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
        lines += uri.utf8
        lines.append(UInt8(ascii: "\n"))
    }

    /// The last line: no segment will be added.
    public static let end = "#EXT-X-ENDLIST\n"

    /// Milliseconds as decimal seconds with three decimals (`6.000`, `0.040`).
    public static func seconds(_ milliseconds: Int) -> String {
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
