import CueKit

/// The bytes of a cue's timing line as ``WebVTTWriter`` writes it (W3C WebVTT, section 4.3): the
/// two times and the arrow, then the settings that differ from their defaults in a fixed order,
/// `vertical line position size align region`, numbers in their shortest form.
///
/// Pure functions, shared by the writer and by the reader's offer of whole cue blocks
/// (``WebVTTCueBlockTaker``), which re-writes a block's timing line in the writer's form: what
/// cannot be written as it is is told as an ``Issue``, which the writer reports and the reader
/// takes as a reason not to offer the block.
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
            var count = CueTimestamp.write(start, hours: hours, to: base)
            let arrow: StaticString = " --> "
            (base + count).initialize(from: arrow.utf8Start, count: arrow.utf8CodeUnitCount)
            count += arrow.utf8CodeUnitCount
            count += CueTimestamp.write(end, hours: hours, to: base + count)
            buffer.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        }
    }

    /// The settings that differ from their defaults, each after a space. `writesRegion` says
    /// whether a region identifier can be named (the output defines it before its first cue).
    static func appendSettings(
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
        if settings.vertical != .horizontal {
            buffer += " vertical:".utf8
            buffer += settings.vertical.rawValue.utf8
        }
        var lineWritten = false
        switch settings.line {
        case .auto:
            break
        case .number(let number):
            if number.isFinite {
                buffer += " line:".utf8
                WebVTTNumberFormat.append(number, to: &buffer)
                lineWritten = true
            } else {
                issue(.lineNotANumber(number))
            }
        case .percentage(let value):
            if let value = percentage(value, named: "line") {
                buffer += " line:".utf8
                appendPercentage(value)
                lineWritten = true
            }
        }
        if settings.lineAlignment != .start {
            if lineWritten {
                buffer.append(UInt8(ascii: ","))
                buffer += settings.lineAlignment.rawValue.utf8
            } else {
                issue(.lineAlignmentWithoutLine(settings.lineAlignment))
            }
        }
        var positionWritten = false
        if case .percentage(let value) = settings.position, let value = percentage(value, named: "position") {
            buffer += " position:".utf8
            appendPercentage(value)
            positionWritten = true
        }
        if settings.positionAlignment != .auto {
            if positionWritten {
                buffer.append(UInt8(ascii: ","))
                buffer += settings.positionAlignment.rawValue.utf8
            } else {
                issue(.positionAlignmentWithoutPosition(settings.positionAlignment))
            }
        }
        if settings.size != 100, let size = percentage(settings.size, named: "size"), size != 100 {
            buffer += " size:".utf8
            appendPercentage(size)
        }
        if settings.alignment != .center {
            buffer += " align:".utf8
            buffer += settings.alignment.rawValue.utf8
        }
        if let region = settings.region {
            // An empty identifier cannot be named (`region:` is no setting), even if a region lacks one.
            if writesRegion(region) {
                buffer += " region:".utf8
                buffer += region.utf8
            } else {
                issue(.undefinedRegion(region))
            }
        }
    }
}
