import CueKit

/// The bytes of a cue's timing line as ``WebVTTWriter`` writes it (W3C WebVTT, section 4.3): the
/// two times and the arrow, then the settings that differ from their defaults in a fixed order,
/// `vertical line position size align region`, numbers in their shortest form.
///
/// Pure functions, shared by the writer and by its copier of cue blocks read whole
/// (``WebVTTCueBlockCopier``), which re-writes a block's timing line in the writer's form: what
/// cannot be written as it is is told as an ``Issue``, which the writer reports and the copier
/// takes as a reason not to copy the block.
enum WebVTTTimingLineText {
    /// A setting that is not written as it is.
    enum Issue {
        /// A line number that is not finite: left out.
        case lineNotANumber(Double)
        /// A percentage outside 0–100 (written clamped) or not a number (left out).
        case percentage(name: String, value: Double)
        /// A line alignment with no line position to go with: left out.
        case lineAlignmentWithoutLine(CueSettings.LineAlignment)
        /// A position alignment with no position to go with: left out.
        case positionAlignmentWithoutPosition(CueSettings.PositionAlignment)
        /// A region the output does not define before its first cue (or an empty identifier): left out.
        case undefinedRegion(String)
    }

    /// `start --> end`, formatted on the stack and appended in one copy.
    @inline(__always)
    static func appendTimes(start: Int, end: Int, hours: CueTimestamp.HoursStyle, to buffer: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * CueTimestamp.maximumLength + 5) { room in
            let base = room.baseAddress!
            let fullStop = UInt8(ascii: ".")
            var count = CueTimestamp.write(start, hours: hours, separator: fullStop, to: base)
            let arrow: StaticString = " --> "
            (base + count).initialize(from: arrow.utf8Start, count: arrow.utf8CodeUnitCount)
            count += arrow.utf8CodeUnitCount
            count += CueTimestamp.write(end, hours: hours, separator: fullStop, to: base + count)
            buffer.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        }
    }

    /// Appends a literal's bytes in one copy (appending a `String`'s UTF-8 view goes through the
    /// generic sequence path, byte by byte).
    @inline(__always)
    private static func append(_ text: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// The keyword of a position alignment other than `auto`, as a literal.
    private static func name(of alignment: CueSettings.PositionAlignment) -> StaticString {
        switch alignment {
        case .lineLeft: "line-left"
        case .center: "center"
        case .lineRight: "line-right"
        case .auto: "auto"
        }
    }

    /// The keyword of a text alignment, as a literal.
    private static func name(of alignment: CueSettings.TextAlignment) -> StaticString {
        switch alignment {
        case .start: "start"
        case .center: "center"
        case .end: "end"
        case .left: "left"
        case .right: "right"
        }
    }

    /// The settings that differ from their defaults, each after a space. `writesRegion` says
    /// whether a region identifier can be named (the output defines it before its first cue).
    ///
    /// Settings with nothing to tell and whole numbers are written on the stack and appended in
    /// one copy (``appendCommonSettings(_:to:writesRegion:)``); the rest piece by piece.
    static func appendSettings(
        _ settings: CueSettings, to buffer: inout [UInt8], writesRegion: (String) -> Bool, issue: (Issue) -> Void
    ) {
        if appendCommonSettings(settings, to: &buffer, writesRegion: writesRegion) { return }
        appendSettingsPieceByPiece(settings, to: &buffer, writesRegion: writesRegion, issue: issue)
    }

    /// ``appendSettings(_:to:writesRegion:issue:)`` for settings of which nothing is to be told:
    /// percentages from 0 to 100 and line numbers, all whole (and line numbers below 2^53), an
    /// alignment only with its value, a region that is written, and room for all on the stack.
    /// Writes them and returns true; else returns false and writes nothing. Some 1,400
    /// instructions a cue less than appending each piece to the array.
    static func appendCommonSettings(_ settings: CueSettings, to buffer: inout [UInt8], writesRegion: (String) -> Bool) -> Bool {
        withCommonSettingsText(settings, writesRegion: writesRegion) { buffer.append(contentsOf: $0) } != nil
    }

    /// ``appendCommonSettings(_:to:writesRegion:)`` with the text handed to `body`, on the stack
    /// (valid during the call only), rather than appended: nil, `body` not called, for settings
    /// that are not common. For a caller that copies the text once anyway (``WrittenSettingsCache``
    /// when each cue has settings of its own), which an array in between cost some 300
    /// instructions a cue.
    @inline(__always)
    static func withCommonSettingsText<Result>(
        _ settings: CueSettings, writesRegion: (String) -> Bool, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result? {
        /// A whole percentage from 0 to 100, or nil. (Converted and compared back: `rounded`
        /// called the C library on every number.)
        @inline(__always) func wholePercentage(_ value: Double) -> UInt64? {
            guard value >= 0, value <= 100 else { return nil }
            let whole = UInt64(value)
            return Double(whole) == value ? whole : nil
        }
        if settings.isDefault { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.commonSettingsRoom) { room -> Result? in
            var text = StackText(room: room)
            if settings.vertical != .horizontal { text.append(settings.vertical == .growingLeft ? " vertical:rl" : " vertical:lr") }
            switch settings.line {
            case .auto:
                guard settings.lineAlignment == .start else { return nil }
            case .number(let number):
                let magnitude = number.magnitude
                guard magnitude < 9_007_199_254_740_992 else { return nil }
                let whole = UInt64(magnitude)
                guard Double(whole) == magnitude else { return nil }
                text.append(" line:")
                // `-0` is written `0`, as the writer writes a zero.
                if number < 0 { text.append("-") }
                text.appendInteger(whole)
            case .percentage(let value):
                guard let whole = wholePercentage(value) else { return nil }
                text.append(" line:")
                text.appendInteger(whole)
                text.append("%")
            }
            switch settings.lineAlignment {
            case .start: break
            case .center: text.append(",center")
            case .end: text.append(",end")
            }
            switch settings.position {
            case .auto:
                guard settings.positionAlignment == .auto else { return nil }
            case .percentage(let value):
                guard let whole = wholePercentage(value) else { return nil }
                text.append(" position:")
                text.appendInteger(whole)
                text.append("%")
                if settings.positionAlignment != .auto {
                    text.append(",")
                    text.append(name(of: settings.positionAlignment))
                }
            }
            if settings.size != 100 {
                guard let whole = wholePercentage(settings.size) else { return nil }
                text.append(" size:")
                text.appendInteger(whole)
                text.append("%")
            }
            if settings.alignment != .center {
                text.append(" align:")
                text.append(name(of: settings.alignment))
            }
            if let region = settings.region {
                guard writesRegion(region) else { return nil }
                text.append(" region:")
                var region = region
                region.withUTF8 { text.append(UnsafeRawBufferPointer($0)) }
            }
            guard !text.overflowed else { return nil }
            return try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: room[..<text.count])))
        }
    }

    /// The bytes ``appendCommonSettings(_:to:writesRegion:)`` writes on the stack at most: all
    /// the settings but a region take fewer than 100.
    static let commonSettingsRoom = 256

    /// Bytes written into room on the stack, up to its end; past it, ``overflowed``.
    private struct StackText {
        let room: UnsafeMutableBufferPointer<UInt8>
        var count = 0
        var overflowed = false

        init(room: UnsafeMutableBufferPointer<UInt8>) { self.room = room }

        @inline(__always)
        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            guard count + bytes.count <= room.count else { return overflowed = true }
            if let source = bytes.baseAddress {
                (room.baseAddress! + count).initialize(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            }
            count += bytes.count
        }

        /// A literal byte by byte, which the compiler unrolls into a store or two (a copy
        /// through `memcpy` cost some 25 instructions a piece).
        @inline(__always)
        mutating func append(_ literal: StaticString) {
            let length = literal.utf8CodeUnitCount
            guard count + length <= room.count else { return overflowed = true }
            let source = literal.utf8Start
            for index in 0..<length { room[count + index] = source[index] }
            count += length
        }

        /// The decimal digits of `value`: those below 100 (most percentages) without a loop.
        @inline(__always)
        mutating func appendInteger(_ value: UInt64) {
            if value < 100 {
                guard count + 2 <= room.count else { return overflowed = true }
                if value >= 10 {
                    room[count] = UInt8(ascii: "0") + UInt8(value / 10)
                    count += 1
                }
                room[count] = UInt8(ascii: "0") + UInt8(value % 10)
                count += 1
                return
            }
            var digits = 1
            var rest = value
            while rest >= 10 {
                rest /= 10
                digits += 1
            }
            guard count + digits <= room.count else { return overflowed = true }
            rest = value
            for index in stride(from: count + digits - 1, through: count, by: -1) {
                room[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            count += digits
        }
    }

    /// ``appendSettings(_:to:writesRegion:issue:)`` a piece at a time, telling each issue.
    static func appendSettingsPieceByPiece(
        _ settings: CueSettings, to buffer: inout [UInt8], writesRegion: (String) -> Bool, issue: (Issue) -> Void
    ) {
        /// A percentage as it is written: clamped to 0–100, or nil when it is not a number.
        func percentage(_ value: Double, named name: String) -> Double? {
            if value >= 0, value <= 100 { return value }
            issue(.percentage(name: name, value: value))
            return value.isNaN ? nil : min(100, max(0, value))
        }
        func appendPercentage(_ value: Double) {
            WebVTTNumberFormat.append(value, to: &buffer)
            buffer.append(UInt8(ascii: "%"))
        }
        /// `,` and an alignment's keyword after the value it goes with; `fault` when there is none.
        func appendAlignment(_ keyword: StaticString, after valueWritten: Bool, else fault: @autoclosure () -> Issue) {
            guard valueWritten else { return issue(fault()) }
            buffer.append(UInt8(ascii: ","))
            append(keyword, to: &buffer)
        }
        if settings.vertical != .horizontal {
            append(" vertical:", to: &buffer)
            append(settings.vertical == .growingLeft ? "rl" : "lr", to: &buffer)
        }
        var lineWritten = false
        switch settings.line {
        case .auto:
            break
        case .number(let number):
            if number.isFinite {
                append(" line:", to: &buffer)
                WebVTTNumberFormat.append(number, to: &buffer)
                lineWritten = true
            } else {
                issue(.lineNotANumber(number))
            }
        case .percentage(let value):
            if let value = percentage(value, named: "line") {
                append(" line:", to: &buffer)
                appendPercentage(value)
                lineWritten = true
            }
        }
        if settings.lineAlignment != .start {
            appendAlignment(
                settings.lineAlignment == .center ? "center" : "end", after: lineWritten, else: .lineAlignmentWithoutLine(settings.lineAlignment))
        }
        var positionWritten = false
        if case .percentage(let value) = settings.position, let value = percentage(value, named: "position") {
            append(" position:", to: &buffer)
            appendPercentage(value)
            positionWritten = true
        }
        if settings.positionAlignment != .auto {
            appendAlignment(
                name(of: settings.positionAlignment), after: positionWritten, else: .positionAlignmentWithoutPosition(settings.positionAlignment))
        }
        if settings.size != 100, let size = percentage(settings.size, named: "size"), size != 100 {
            append(" size:", to: &buffer)
            appendPercentage(size)
        }
        if settings.alignment != .center {
            append(" align:", to: &buffer)
            append(name(of: settings.alignment), to: &buffer)
        }
        if let region = settings.region {
            // An empty identifier cannot be named (`region:` is no setting), even if a region lacks one.
            if writesRegion(region) {
                append(" region:", to: &buffer)
                buffer += region.utf8
            } else {
                issue(.undefinedRegion(region))
            }
        }
    }
}
