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
        let value = max(0, milliseconds)
        let millis = value % 1000
        let totalSeconds = value / 1000
        let seconds = totalSeconds % 60
        let minutes = (totalSeconds / 60) % 60
        let hours = totalSeconds / 3600
        if hours < 100 {
            // The common case, formatted on the stack and appended in one copy.
            var digits: (UInt64, UInt64) = (0, 0)
            let count = withUnsafeMutableBytes(of: &digits) { buffer -> Int in
                var at = 0
                func put(_ byte: UInt8) {
                    buffer[at] = byte
                    at += 1
                }
                if style == .always || hours > 0 {
                    put(UInt8(ascii: "0") + UInt8(hours / 10))
                    put(UInt8(ascii: "0") + UInt8(hours % 10))
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
                return at
            }
            withUnsafeBytes(of: &digits) { buffer in
                bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
            }
            return
        }
        if style == .always || hours > 0 {
            if hours < 10 { bytes.append(UInt8(ascii: "0")) }
            appendDecimal(hours, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
        }
        appendTwoDigits(minutes, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendTwoDigits(seconds, to: &bytes)
        bytes.append(separator)
        bytes.append(UInt8(ascii: "0") + UInt8(millis / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(millis / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(millis % 10))
    }

    @inline(__always)
    static func appendTwoDigits(_ value: Int, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
