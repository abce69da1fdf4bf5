import CueKit

/// Writes a cue given as its parts (identifier and text as bytes, times, settings) as the block
/// ``WebVTTWriter`` writes for it with its default options, byte for byte: a conversion from
/// another format to WebVTT hands the block on as bytes, where a ``Cue`` would be built, ordered
/// and formatted.
///
/// No block is made, and the cue is to be written from its event, when the writer would change
/// or report something about it: an end not after the start, a negative time, an identifier or
/// text the writer would have to adjust (a CR, a NUL, an empty line, `-->`), a region (which it
/// names only once it has written its definition), a setting out of range. Tests hold the
/// composer to the writer.
package struct WebVTTCueBlockComposer {
    /// The settings of recent cues as written, as the writer keeps them.
    private var writtenSettings = WrittenSettingsMemo()
    /// The block, reused from cue to cue.
    private var block: [UInt8] = []

    /// The line end after the text.
    private static let lineFeed: [UInt8] = [WebVTTBlockText.lf]
    /// The room for a head (identifier, times, their line ends) made on the stack.
    private static var shortHeadLength: Int { 64 }

    package init() {}

    /// Calls `body` with the bytes the writer writes for the cue (after the empty line before it),
    /// valid only during the call, when it writes them without a change; returns what `body`
    /// returned, or false when no block can be made. `times`: the times as the writer writes them
    /// (`hh:mm:ss.ttt --> hh:mm:ss.ttt`), when the caller has them; nil, they are formatted from
    /// `start` and `end`. `settings`: nil for the defaults. `textIsSafe`: the caller knows the text
    /// holds nothing the writer changes (no CR, NUL, empty line, line break at either end, or
    /// `-->`), and it is not looked at again.
    package mutating func withBlock(
        identifier: UnsafeRawBufferPointer, start: Int, end: Int, times: UnsafeRawBufferPointer? = nil, settings: CueSettings?,
        text: UnsafeRawBufferPointer, textIsSafe: Bool = false, _ body: (WebVTTCueBlockBytes) throws -> Bool
    ) rethrows -> Bool {
        guard start >= 0, end > start, settings?.region == nil,
            WebVTTBlockText.isSafeLine(identifier.assumingMemoryBound(to: UInt8.self)),
            textIsSafe || WebVTTBlockText.isSafeCueText(text.assumingMemoryBound(to: UInt8.self))
        else { return false }
        if let times, case .none = settings, identifier.count <= Self.shortHeadLength - times.count - 2 {
            return try withShortHead(identifier: identifier, times: times, text: text, body)
        }
        block.removeAll(keepingCapacity: true)
        if !identifier.isEmpty {
            block.append(contentsOf: identifier)
            block.append(WebVTTBlockText.lf)
        }
        if let times {
            block.append(contentsOf: times)
        } else {
            WebVTTTimingLineText.appendTimes(start: start, end: end, hours: .always, to: &block)
        }
        if let settings, !settings.isDefault, !writtenSettings.append(settings, to: &block) {
            let settingsStart = block.count
            var writable = true
            WebVTTTimingLineText.appendSettings(settings, to: &block, writesRegion: { _ in false }) { _ in writable = false }
            guard writable else { return false }
            writtenSettings.keep(settings, written: block[settingsStart...])
        }
        block.append(WebVTTBlockText.lf)
        // The text goes as it is, in a piece of its own: it is copied once, where the block waits.
        guard !text.isEmpty else { return try block.withUnsafeBytes { try body(WebVTTCueBlockBytes(head: $0)) } }
        return try block.withUnsafeBytes { head in
            try Self.lineFeed.withUnsafeBytes { lineFeed in try body(WebVTTCueBlockBytes(head: head, middle: text, tail: lineFeed)) }
        }
    }

    /// The block of a cue without settings whose times are given and identifier short (nearly
    /// every cue converted from SubRip): its head, the identifier and the times with their line
    /// ends, made on the stack; its text where it is.
    private func withShortHead(
        identifier: UnsafeRawBufferPointer, times: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer,
        _ body: (WebVTTCueBlockBytes) throws -> Bool
    ) rethrows -> Bool {
        try withUnsafeTemporaryAllocation(byteCount: Self.shortHeadLength, alignment: 1) { room in
            guard let base = room.baseAddress else { return false }
            var count = 0
            if !identifier.isEmpty {
                (base + count).copyMemory(from: identifier.baseAddress!, byteCount: identifier.count)
                count += identifier.count
                base.storeBytes(of: WebVTTBlockText.lf, toByteOffset: count, as: UInt8.self)
                count += 1
            }
            (base + count).copyMemory(from: times.baseAddress!, byteCount: times.count)
            count += times.count
            base.storeBytes(of: WebVTTBlockText.lf, toByteOffset: count, as: UInt8.self)
            count += 1
            let head = UnsafeRawBufferPointer(start: base, count: count)
            guard !text.isEmpty else { return try body(WebVTTCueBlockBytes(head: head)) }
            // The LF after the text, from the head's own.
            let lineFeed = UnsafeRawBufferPointer(start: base + count - 1, count: 1)
            return try body(WebVTTCueBlockBytes(head: head, middle: text, tail: lineFeed))
        }
    }
}
