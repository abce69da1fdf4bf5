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
        var room: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &room) { room in
            let start = room.baseAddress!.assumingMemoryBound(to: UInt8.self)
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: write(milliseconds, hours: style, separator: separator, to: start)))
        }
    }

    /// The most bytes ``write(_:hours:separator:to:)`` writes.
    package static var maximumLength: Int { 32 }

    /// Writes the timestamp's ASCII bytes at `start`, which has room for ``maximumLength``; returns
    /// how many it wrote. For writers with a buffer of their own: not generic, no closure.
    package static func write(_ milliseconds: Int, hours style: HoursStyle = .always, separator: UInt8 = UInt8(ascii: "."), to start: UnsafeMutablePointer<UInt8>) -> Int {
        let value = max(0, milliseconds)
        let millis = value % 1000
        let totalSeconds = value / 1000
        let seconds = totalSeconds % 60
        let minutes = (totalSeconds / 60) % 60
        var hours = totalSeconds / 3600
        if hours < 100, style == .always {
            // The common case at fixed places: hh:mm:ss.ttt, each pair of digits one load from
            // ``digitPairs`` and one store.
            let pair = UnsafeMutableRawPointer(start)
            pair.storeBytes(of: digitPair(hours), toByteOffset: 0, as: UInt16.self)
            start[2] = UInt8(ascii: ":")
            pair.storeBytes(of: digitPair(minutes), toByteOffset: 3, as: UInt16.self)
            start[5] = UInt8(ascii: ":")
            pair.storeBytes(of: digitPair(seconds), toByteOffset: 6, as: UInt16.self)
            start[8] = separator
            start[9] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: millis / 100)
            pair.storeBytes(of: digitPair(millis % 100), toByteOffset: 10, as: UInt16.self)
            return 12
        }
        var at = 0
        func put(_ byte: UInt8) {
            start[at] = byte
            at += 1
        }
        if style == .always || hours > 0 {
            // Hours take as many digits as they need (at most 13), at least two: written backwards
            // at the end of the room, then moved forwards.
            var hourDigits = 0
            repeat {
                start[maximumLength - 1 - hourDigits] = UInt8(ascii: "0") + UInt8(hours % 10)
                hours /= 10
                hourDigits += 1
            } while hours > 0
            if hourDigits == 1 { put(UInt8(ascii: "0")) }
            for index in (maximumLength - hourDigits)..<maximumLength { put(start[index]) }
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

    /// The two ASCII digits of `value` (0 to 99), as they lie in memory.
    @inline(__always)
    static func digitPair(_ value: Int) -> UInt16 {
        UnsafeRawPointer(digitPairs.utf8Start).loadUnaligned(fromByteOffset: value &* 2, as: UInt16.self)
    }

    /// "00" to "99", one after the other.
    private static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }
}
