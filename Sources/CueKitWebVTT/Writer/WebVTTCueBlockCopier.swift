import CueKit

/// Copies cue blocks as a ``WebVTTReader`` read them (``WebVTTCueBlockAsRead``) where they are,
/// byte for byte, what ``WebVTTWriter`` writes for their cue with its default options: a WebVTT to
/// WebVTT conversion with no edit copies its blocks instead of having a ``Cue`` built and
/// formatted again.
///
/// The copy is the block itself when its timing line is the writer's: both times in full and no
/// settings. Else it is the block with its timing line (or the settings after times in full)
/// written again. No copy is made, and the cue is to be written from its event, when the writer
/// would report something about it (an end not after the start) or would not write its settings
/// as they are (a region the writer does not name, which the caller asks it; a value out of
/// range). Tests hold the copier to the writer.
package struct WebVTTCueBlockCopier {
    /// The settings as the writer writes them, by the text they were read from.
    private var writtenSettings = WrittenSettingsCache()
    /// A timing line written again, reused from cue to cue.
    private var rewrittenTimingLine: [UInt8] = []

    package init() {}

    /// Calls `body` with the bytes the writer writes for the cue of `block`, read with `settings`
    /// (after the empty line before it), valid only during the call, when the block can give
    /// them; returns what `body` returned, or false when no copy can be made. `regionIsNamed`
    /// says whether the writer names the settings' region (``WebVTTWriter/namesRegion(_:)``).
    package mutating func withCopy(
        of block: WebVTTCueBlockAsRead, settings: borrowing CueSettings, regionIsNamed: Bool = false,
        _ body: (WebVTTCueBlockBytes) throws -> Bool
    ) rethrows -> Bool {
        guard block.end > block.start, let base = block.bytes.baseAddress, let line = block.timingLine.baseAddress else { return false }
        if let timesLength = block.fullFormTimesLength, block.timingLine.count == timesLength {
            return try body(WebVTTCueBlockBytes(head: block.bytes))
        }
        let lineEnd = line + block.timingLine.count
        let tail = UnsafeRawBufferPointer(start: lineEnd, count: base + block.bytes.count - lineEnd)
        if let timesLength = block.fullFormTimesLength {
            // The block up to its times, the settings written again, the rest.
            let head = UnsafeRawBufferPointer(start: base, count: line + timesLength - base)
            let copied = try writtenSettings.withText(for: settings, readFrom: block.settingsText, regionIsNamed: regionIsNamed) {
                try body(WebVTTCueBlockBytes(head: head, middle: $0, tail: tail))
            }
            return copied ?? false
        }
        // The block up to its timing line, the line written again, the rest.
        let head = UnsafeRawBufferPointer(start: base, count: line - base)
        rewrittenTimingLine.removeAll(keepingCapacity: true)
        WebVTTTimingLineText.appendTimes(start: block.start, end: block.end, hours: .always, to: &rewrittenTimingLine)
        let written = writtenSettings.withText(for: settings, readFrom: block.settingsText, regionIsNamed: regionIsNamed) { text -> Bool in
            rewrittenTimingLine.append(contentsOf: text)
            return true
        }
        guard written == true else { return false }
        return try rewrittenTimingLine.withUnsafeBytes { try body(WebVTTCueBlockBytes(head: head, middle: $0, tail: tail)) }
    }
}

/// A copied cue block's bytes (``WebVTTCueBlockCopier``) in up to three pieces, to be joined in
/// order: a block copied as it is lies in one; one whose timing line was written again in three,
/// the bytes before that line, the line, and the bytes after it. Borrowed: valid only while handed
/// out.
package struct WebVTTCueBlockBytes {
    package var head: UnsafeRawBufferPointer
    package var middle: UnsafeRawBufferPointer
    package var tail: UnsafeRawBufferPointer

    package init(
        head: UnsafeRawBufferPointer, middle: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
        tail: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)
    ) {
        self.head = head
        self.middle = middle
        self.tail = tail
    }

    /// How many bytes the block has.
    package var count: Int { head.count + middle.count + tail.count }

    /// The pieces joined, as an array.
    package var joined: [UInt8] { Array(head) + Array(middle) + Array(tail) }
}
