import CueKit

/// The bytes of the settings of recent cues, by their value: cues in one region with one
/// alignment (a TTML document's) share settings, which a compare or two finds where formatting
/// each number again cost some 1,200 instructions a cue.
struct WrittenSettingsMemo {
    private static let capacity = 8
    /// The settings kept (as ``Key``s), and at the same place what each was written as.
    private var keys: [Key] = []
    private var written: [[UInt8]] = []
    private var next = 0

    /// Every setting but the region, which is not kept: plain values, compared without a copy
    /// or a reference count (comparing ``CueSettings`` copied each one kept, its region string
    /// retained). Tests hold it to every stored property of ``CueSettings`` but `region`.
    struct Key: Equatable {
        var vertical: CueSettings.Vertical
        var line: CueSettings.Line
        var lineAlignment: CueSettings.LineAlignment
        var position: CueSettings.Position
        var positionAlignment: CueSettings.PositionAlignment
        var size: Double
        var alignment: CueSettings.TextAlignment

        init(_ settings: CueSettings) {
            vertical = settings.vertical
            line = settings.line
            lineAlignment = settings.lineAlignment
            position = settings.position
            positionAlignment = settings.positionAlignment
            size = settings.size
            alignment = settings.alignment
        }
    }

    /// Lookups that found nothing, less those that found: past ``giveUpAfter`` (a track whose
    /// cues each have settings of their own), the memo stops looking and keeping.
    private var misses = 0
    private static let giveUpAfter = 256

    /// Appends the bytes settings without a region were written as, when they are known; false
    /// otherwise.
    mutating func append(_ wanted: CueSettings, to buffer: inout [UInt8]) -> Bool {
        guard misses < Self.giveUpAfter else { return false }
        let key = Key(wanted)
        guard let found = keys.firstIndex(of: key) else {
            misses += 1
            return false
        }
        if misses > 0 { misses -= 1 }
        buffer.append(contentsOf: written[found])
        return true
    }

    /// Keeps what settings without a region were written as, in place of the oldest kept (whose
    /// bytes' storage is reused).
    mutating func keep(_ kept: CueSettings, written bytes: ArraySlice<UInt8>) {
        guard misses < Self.giveUpAfter else { return }
        if keys.count < Self.capacity {
            keys.append(Key(kept))
            written.append(Array(bytes))
        } else {
            keys[next] = Key(kept)
            written[next].removeAll(keepingCapacity: true)
            written[next].append(contentsOf: bytes)
            next = (next + 1) % Self.capacity
        }
    }
}
