import CueKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The settings of a file's timing lines by the text they were read from (everything after the
/// end time): files repeat a handful of settings texts from cue to cue (`line:85%`,
/// `align:start position:10%`), and a text whose parse reported nothing reads as the same settings
/// every time, as long as the regions it may name stay the same (no REGION is defined once cues
/// begin; the cache empties if the regions change all the same).
struct CueSettingsCache {
    private struct Entry {
        var source: [UInt8]
        var settings: CueSettings
    }

    private var entries: [Entry] = []
    private var next = 0
    private var regionDefinitions = 0
    /// Recalls that found nothing, less those that found: past ``giveUpAfter`` (a file whose cues
    /// each have settings of their own, which cost more to keep and look for than to read), the
    /// cache is no longer worth asking.
    private var misses = 0
    static let giveUpAfter = 256

    /// False once the cache has missed far more often than it found.
    var isUseful: Bool { misses < Self.giveUpAfter }
    static let capacity = 16
    /// Settings texts longer than this are parsed each time, not kept (an entry's storage is
    /// made this long, so that reusing it never allocates).
    static let longestSource = 96

    /// Writes into `settings` those kept for the text `source`, and returns true; false when none
    /// are kept.
    @inline(__always)
    mutating func recall(_ source: UnsafeRawBufferPointer, regionDefinitions: Int, into settings: inout CueSettings) -> Bool {
        if regionDefinitions != self.regionDefinitions {
            entries.removeAll()
            next = 0
            self.regionDefinitions = regionDefinitions
            return false
        }
        guard let bytes = source.baseAddress else { return false }
        let count = source.count
        // Entries are looked at in place, by index (a loop over them copied each one).
        let found = entries.withUnsafeBufferPointer { entries in
            for index in entries.indices where entries[index].source.count == count {
                if entries[index].source.withUnsafeBytes({ memcmp($0.baseAddress!, bytes, count) == 0 }) { return index }
            }
            return -1
        }
        guard found >= 0 else {
            misses += 1
            return false
        }
        if misses > 0 { misses -= 1 }
        // Field by field, as ``CueTimingParser/resetToDefaults(_:)`` sets them: assigning the whole
        // value copied it through the runtime's value witnesses and destroyed the old one (some 60
        // instructions a recall), where the fields are plain values and the region most often nil.
        entries.withUnsafeBufferPointer { entries in
            let entry = entries.baseAddress! + found
            settings.vertical = entry.pointee.settings.vertical
            settings.line = entry.pointee.settings.line
            settings.lineAlignment = entry.pointee.settings.lineAlignment
            settings.position = entry.pointee.settings.position
            settings.positionAlignment = entry.pointee.settings.positionAlignment
            settings.size = entry.pointee.settings.size
            settings.alignment = entry.pointee.settings.alignment
            if entry.pointee.settings.region != nil || settings.region != nil { settings.region = entry.pointee.settings.region }
        }
        return true
    }

    /// Keeps `settings`, read from `source` with nothing reported, replacing the oldest entry
    /// when all are taken.
    mutating func keep(_ settings: CueSettings, readFrom source: UnsafeRawBufferPointer) {
        guard !source.isEmpty, source.count <= Self.longestSource else { return }
        if entries.count < Self.capacity {
            var kept = [UInt8]()
            kept.reserveCapacity(Self.longestSource)
            kept.append(contentsOf: source)
            entries.append(Entry(source: kept, settings: settings))
        } else {
            // The oldest entry's storage is reused: a file with more settings texts than entries
            // allocates nothing per cue.
            entries[next].source.removeAll(keepingCapacity: true)
            entries[next].source.append(contentsOf: source)
            entries[next].settings = settings
            next = (next + 1) % Self.capacity
        }
    }
}
