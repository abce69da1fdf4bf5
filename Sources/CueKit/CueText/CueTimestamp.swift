/// WebVTT timestamps as text (WebVTT section 4.2): `mm:ss.ttt` or `hh:mm:ss.ttt`.
public enum CueTimestamp {
    /// Whether a timestamp is written with its hours.
    public enum HoursStyle: Sendable, Hashable, CaseIterable {
        /// Always `hh:mm:ss.ttt`, the form most tools write.
        case always
        /// `mm:ss.ttt` when the hours are zero.
        case whenNeeded
    }

    /// Formats a non-negative time in milliseconds; hours take as many digits as they need (at least
    /// two). A negative time, which no format can carry, is written as zero.
    public static func format(_ milliseconds: Int, hours style: HoursStyle = .always) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(13)
        append(milliseconds, hours: style, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the timestamp's ASCII bytes to a buffer, without building a string; the writers' hot path.
    public static func append(_ milliseconds: Int, hours style: HoursStyle = .always, separator: UInt8 = UInt8(ascii: "."), to bytes: inout [UInt8]) {
        withBytes(milliseconds, hours: style, separator: separator) { bytes.append(contentsOf: $0) }
    }

    /// Calls `body` with the timestamp's ASCII bytes, formatted on the stack: for writers with a
    /// buffer of their own.
    package static func withBytes<Result>(
        _ milliseconds: Int, hours style: HoursStyle = .always, separator: UInt8 = UInt8(ascii: "."),
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let value = max(0, milliseconds)
        let millis = value % 1000
        let totalSeconds = value / 1000
        let seconds = totalSeconds % 60
        let minutes = (totalSeconds / 60) % 60
        var hours = totalSeconds / 3600
        // At most 19 digits of hours and 10 bytes after them.
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return try withUnsafeMutableBytes(of: &digits) { buffer in
            let start = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var at = 0
            func put(_ byte: UInt8) {
                start[at] = byte
                at += 1
            }
            if style == .always || hours > 0 {
                // Hours take as many digits as they need, at least two: written backwards.
                var hourDigits = 0
                repeat {
                    start[31 - hourDigits] = UInt8(ascii: "0") + UInt8(hours % 10)
                    hours /= 10
                    hourDigits += 1
                } while hours > 0
                if hourDigits == 1 { put(UInt8(ascii: "0")) }
                for index in (32 - hourDigits)..<32 { put(start[index]) }
                put(UInt8(ascii: ":"))
            }
            put(UInt8(ascii: "0") + UInt8(minutes / 10))
            put(UInt8(ascii: "0") + UInt8(minutes % 10))
            put(UInt8(ascii: ":"))
            put(UInt8(ascii: "0") + UInt8(seconds / 10))
            put(UInt8(ascii: "0") + UInt8(seconds % 10))
            put(separator)
            put(UInt8(ascii: "0") + UInt8(millis / 100))
            put(UInt8(ascii: "0") + UInt8(millis / 10 % 10))
            put(UInt8(ascii: "0") + UInt8(millis % 10))
            return try body(UnsafeBufferPointer(start: start, count: at))
        }
    }
}
