import CueKit

/// The cue settings as writers spell them, read in one pass over the line's bytes: the reader's
/// hot path for tracks whose every cue is placed, where the general algorithm
/// (``CueTimingParser/parseSettingsByAlgorithm(from:regions:into:)``) cost some 2,500
/// instructions a cue.
extension CueTimingParser {
    /// Reads the settings in `line[start...]` when each is in one of the forms below and nothing
    /// about them is to be reported, and writes them into `settings` (at their defaults); returns
    /// false, leaving `settings` as it was, for anything else, which the general algorithm then
    /// reads and explains.
    ///
    /// The forms: settings apart by white space, each named once; `vertical:rl|lr`; `line:` an
    /// integer or a percentage, then maybe `,start|center|end`; `position:` a percentage, then
    /// maybe `,line-left|center|line-right`; `size:` a percentage; `align:` one of its five
    /// keywords; `region:` a region defined, not followed by `vertical`, `line` or a size other
    /// than 100% (which take a cue out of its region). A percentage is `digits[.digits]%` from 0
    /// to 100, an integer `[-]digits`, each of at most 15 digits: read as the general algorithm
    /// reads them, exactly. A size other than 100% with `align:start` or `align:end` and no
    /// position (which the general algorithm warns of) is left to it too.
    @inline(__always)
    func readCommonSettings(from start: Int, regions: RegionTable, into settings: inout CueSettings) -> Bool {
        guard let base = line.baseAddress else { return false }
        var scanner = CommonSettingsScanner(base: base, count: line.count, offset: start)
        var vertical = CueSettings.Vertical.horizontal
        var lineValue = CueSettings.Line.auto
        var lineAlignment = CueSettings.LineAlignment.start
        var position = CueSettings.Position.auto
        var positionAlignment = CueSettings.PositionAlignment.auto
        var size = 100.0
        var alignment = CueSettings.TextAlignment.center
        var region: String?
        var seen: UInt8 = 0
        while true {
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else { break }
            let bit: UInt8
            switch scanner.settingName() {
            case .line:
                bit = 1
                guard region == nil, let value = scanner.lineValue() else { return false }
                lineValue = value
                if scanner.skipComma() {
                    switch scanner.keyword() {
                    case CommonKeyword.start: lineAlignment = .start
                    case CommonKeyword.center: lineAlignment = .center
                    case CommonKeyword.end: lineAlignment = .end
                    default: return false
                    }
                }
            case .position:
                bit = 2
                guard let value = scanner.percentage() else { return false }
                position = .percentage(value)
                if scanner.skipComma() {
                    switch scanner.keyword() {
                    case CommonKeyword.center: positionAlignment = .center
                    case CommonKeyword.lineLeft: positionAlignment = .lineLeft
                    case CommonKeyword.lineRight: positionAlignment = .lineRight
                    default: return false
                    }
                }
            case .size:
                bit = 4
                guard let value = scanner.percentage(), region == nil || value == 100 else { return false }
                size = value
            case .align:
                bit = 8
                switch scanner.keyword() {
                case CommonKeyword.start: alignment = .start
                case CommonKeyword.center: alignment = .center
                case CommonKeyword.end: alignment = .end
                case CommonKeyword.left: alignment = .left
                case CommonKeyword.right: alignment = .right
                default: return false
                }
            case .vertical:
                bit = 16
                switch scanner.keyword() {
                case CommonKeyword.rightToLeft: vertical = .growingLeft
                case CommonKeyword.leftToRight: vertical = .growingRight
                default: return false
                }
                guard region == nil else { return false }
            case .region:
                bit = 32
                let identifier = scanner.token()
                guard !identifier.isEmpty, let defined = regions.lookUp(identifier) else { return false }
                region = defined
            case nil:
                return false
            }
            guard scanner.isAtTokenEnd, seen & bit == 0 else { return false }
            seen |= bit
        }
        if size != 100, case .auto = position, alignment == .start || alignment == .end { return false }
        settings.vertical = vertical
        settings.line = lineValue
        settings.lineAlignment = lineAlignment
        settings.position = position
        settings.positionAlignment = positionAlignment
        settings.size = size
        settings.alignment = alignment
        if region != nil { settings.region = region }
        return true
    }
}

/// The setting names ``CommonSettingsScanner`` knows.
private enum CommonSettingName {
    case line, position, size, align, vertical, region
}

/// The keywords of setting values, each as its bytes (up to eight) read into one little-endian
/// integer; the two longer than eight as their first eight, the rest checked apart.
private enum CommonKeyword {
    static let start: UInt64 = 0x74_7261_7473
    static let center: UInt64 = 0x7265_746E_6563
    static let end: UInt64 = 0x64_6E65
    static let left: UInt64 = 0x7466_656C
    static let right: UInt64 = 0x74_6867_6972
    static let rightToLeft: UInt64 = 0x6C72
    static let leftToRight: UInt64 = 0x726C
    /// `line-left` and `line-right`, longer than eight bytes: ``CommonSettingsScanner/keyword()``
    /// answers them with these, whose lowest byte is zero (a keyword's first byte never is).
    static let lineLeft: UInt64 = 0x100
    static let lineRight: UInt64 = 0x200
    /// The first eight bytes of `line-left` and `line-right`.
    static let lineLeftHead: UInt64 = 0x6665_6C2D_656E_696C
    static let lineRightHead: UInt64 = 0x6769_722D_656E_696C
}

/// A cursor over a timing line's settings for ``CueTimingParser/readCommonSettings(from:regions:into:)``:
/// each method reads one part at the offset and moves past it.
private struct CommonSettingsScanner {
    let base: UnsafeRawPointer
    let count: Int
    var offset: Int

    @inline(__always)
    func byte(_ at: Int) -> UInt8 { base.load(fromByteOffset: at, as: UInt8.self) }

    var isAtEnd: Bool {
        @inline(__always) get { offset >= count }
    }

    /// At the end of the line or at white space: where a setting ends.
    var isAtTokenEnd: Bool {
        @inline(__always) get { offset >= count || isASCIIWhitespace(byte(offset)) }
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while offset < count, isASCIIWhitespace(byte(offset)) { offset += 1 }
    }

    /// `length` (at most eight) bytes at `at`, as a little-endian integer; zeros past the line.
    /// One load: near the end of the line, of the line's last eight bytes, shifted.
    @inline(__always)
    func word(at: Int, length: Int) -> UInt64 {
        let word: UInt64
        if at + 8 <= count {
            word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        } else if at < count, count >= 8 {
            let last = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            word = last &>> UInt64(8 * (8 - (count - at)))
        } else {
            var bytes: UInt64 = 0
            var index = 0
            while index < length, at + index < count {
                bytes |= UInt64(byte(at + index)) &<< UInt64(8 * index)
                index += 1
            }
            return bytes
        }
        return length >= 8 ? word : word & ((1 &<< UInt64(8 * length)) &- 1)
    }

    /// The setting named at the offset, moved past its colon; nil when it is none of WebVTT's.
    @inline(__always)
    mutating func settingName() -> CommonSettingName? {
        let word = word(at: offset, length: 8)
        let name: CommonSettingName
        let length: Int
        // One comparison a name, chosen by its first byte.
        switch UInt8(truncatingIfNeeded: word) {
        case UInt8(ascii: "l") where word & 0xFF_FFFF_FFFF == 0x3A_656E_696C:  // "line:"
            (name, length) = (.line, 5)
        case UInt8(ascii: "p") where word == 0x6E6F_6974_6973_6F70 && offset + 8 < count && byte(offset + 8) == UInt8(ascii: ":"):  // "position"
            (name, length) = (.position, 9)
        case UInt8(ascii: "s") where word & 0xFF_FFFF_FFFF == 0x3A_657A_6973:  // "size:"
            (name, length) = (.size, 5)
        case UInt8(ascii: "a") where word & 0xFFFF_FFFF_FFFF == 0x3A6E_6769_6C61:  // "align:"
            (name, length) = (.align, 6)
        case UInt8(ascii: "r") where word & 0xFF_FFFF_FFFF_FFFF == 0x3A_6E6F_6967_6572:  // "region:"
            (name, length) = (.region, 7)
        case UInt8(ascii: "v") where word == 0x6C61_6369_7472_6576 && offset + 8 < count && byte(offset + 8) == UInt8(ascii: ":"):  // "vertical"
            (name, length) = (.vertical, 9)
        default:
            return nil
        }
        offset += length
        return name
    }

    /// The bytes up to the end of the setting (maybe none), moved past.
    @inline(__always)
    mutating func token() -> UnsafeRawBufferPointer {
        let start = offset
        while offset < count, !isASCIIWhitespace(byte(offset)) { offset += 1 }
        return UnsafeRawBufferPointer(start: base + start, count: offset - start)
    }

    /// The keyword up to the end of the setting, as ``CommonKeyword`` spells it, moved past; 0
    /// (no keyword) for none.
    @inline(__always)
    mutating func keyword() -> UInt64 {
        let start = offset
        // A keyword of fewer than eight bytes from one word: its end is its first byte under
        // 0x21 (the lowest one the arithmetic marks is exact), when that is white space or past
        // the line (the end of a line's last word shifted in is zeros). Else byte by byte.
        let left = count &- start
        if left > 0, count >= 8 {
            let word =
                left >= 8
                ? UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt64.self))
                : UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)) &>> UInt64(8 &* (8 &- left))
            let below = (word &- 0x2121_2121_2121_2121) & ~word & 0x8080_8080_8080_8080
            if below != 0 {
                let length = below.trailingZeroBitCount &>> 3
                if length == left || isASCIIWhitespace(byte(start &+ length)) {
                    offset = start &+ length
                    return length == 0 ? 0 : word & ((1 &<< UInt64(8 &* length)) &- 1)
                }
            }
        }
        while offset < count, !isASCIIWhitespace(byte(offset)) { offset += 1 }
        let length = offset - start
        guard length > 0 else { return 0 }
        if length <= 8 { return word(at: start, length: length) }
        // `line-left` and `line-right`: their first eight bytes, when the rest is theirs.
        let head = word(at: start, length: 8)
        if length == 9, head == CommonKeyword.lineLeftHead, byte(start + 8) == UInt8(ascii: "t") { return CommonKeyword.lineLeft }
        if length == 10, head == CommonKeyword.lineRightHead, byte(start + 8) == UInt8(ascii: "h"), byte(start + 9) == UInt8(ascii: "t") {
            return CommonKeyword.lineRight
        }
        return 0
    }

    /// A `,` at the offset, moved past.
    @inline(__always)
    mutating func skipComma() -> Bool {
        guard offset < count, byte(offset) == UInt8(ascii: ",") else { return false }
        offset += 1
        return true
    }

    /// `digits[.digits]` with at most 15 digits, as a mantissa and its number of fraction digits.
    @inline(__always)
    mutating func decimal() -> (mantissa: UInt64, fractionDigits: Int)? {
        var mantissa: UInt64 = 0
        var digits = 0
        while offset < count {
            let digit = byte(offset) &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            digits &+= 1
            offset &+= 1
        }
        guard digits > 0 else { return nil }
        var fractionDigits = 0
        if offset < count, byte(offset) == UInt8(ascii: ".") {
            offset += 1
            while offset < count {
                let digit = byte(offset) &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                fractionDigits &+= 1
                offset &+= 1
            }
            guard fractionDigits > 0 else { return nil }
        }
        guard digits + fractionDigits <= 15 else { return nil }
        return (mantissa, fractionDigits)
    }

    /// `digits[.digits]%` from 0 to 100 (WebVTT's "parse a percentage string").
    @inline(__always)
    mutating func percentage() -> Double? {
        guard let (mantissa, fractionDigits) = decimal(), offset < count, byte(offset) == UInt8(ascii: "%") else { return nil }
        offset += 1
        let value = DecimalNumber.exact(mantissa: mantissa, fractionDigits: fractionDigits)
        return value <= 100 ? value : nil
    }

    /// The `line` setting's value: a percentage, or an integer (`-0` read as 0, as HTML reads it).
    @inline(__always)
    mutating func lineValue() -> CueSettings.Line? {
        let negative = offset < count && byte(offset) == UInt8(ascii: "-")
        if negative { offset += 1 }
        guard let (mantissa, fractionDigits) = decimal() else { return nil }
        if offset < count, byte(offset) == UInt8(ascii: "%") {
            guard !negative else { return nil }
            offset += 1
            let value = DecimalNumber.exact(mantissa: mantissa, fractionDigits: fractionDigits)
            return value <= 100 ? .percentage(value) : nil
        }
        // A line number with a fraction is reported (it is read as an integer would not be).
        guard fractionDigits == 0 else { return nil }
        let value = Double(mantissa)
        return .number(negative && mantissa != 0 ? -value : value)
    }
}
