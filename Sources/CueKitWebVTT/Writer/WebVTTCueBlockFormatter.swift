import CueKit

/// Formats cues one at a time as the blocks ``WebVTTWriter`` writes for them, apart from any file:
/// for a writer of many files that repeat a cue (HLS segments hold a cue in every segment it
/// spans), which then formats each cue once and copies its bytes into each file
/// (``WebVTTWriter/writeFormattedCueBlocks(_:count:)``).
///
/// A cue's block is what a writer with the same options writes for it in any file whose regions
/// include the cue's: the line end before it, its identifier, timing line and text. No block is
/// made for a cue the writer would report something about (the report names the cue by its place
/// in the file) or whose region is not among the regions given: such a cue is written by each
/// file's own writer.
package struct WebVTTCueBlockFormatter {
    private var formatter: WebVTTBlockFormatter

    /// A formatter writing as a writer with `options` does, once it has written `regions`.
    package init(options: WebVTTWriterOptions, regions: [CueRegion]) {
        formatter = WebVTTBlockFormatter(options: options)
        formatter.write(.header(""))
        for region in regions { formatter.write(.region(region)) }
        formatter.finish()
        formatter.buffer.removeAll(keepingCapacity: true)
        formatter.forgetDiagnostics()
    }

    /// Appends the block of `cue` to `bytes` and returns true; or returns false, `bytes` as they
    /// were, when the cue has no block of its own (see the type's summary).
    package mutating func appendBlock(of cue: Cue, to bytes: inout [UInt8]) -> Bool {
        if let region = cue.settings.region, !formatter.definesRegion(region) { return false }
        let before = bytes.count
        // The formatter appends to its buffer: lent `bytes`, it appends to them.
        swap(&formatter.buffer, &bytes)
        formatter.write(.cue(cue))
        swap(&formatter.buffer, &bytes)
        guard formatter.diagnostics.isEmpty else {
            formatter.forgetDiagnostics()
            bytes.removeSubrange(before...)
            return false
        }
        return true
    }
}
