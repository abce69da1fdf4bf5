import CueKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Cue settings as ``WebVTTWriter`` writes them (``WebVTTTimingLineText``), kept by the text they
/// were read from, for ``WebVTTCueBlockCopier``: a file uses few settings texts, over and over, and
/// formatting them costs more than the rest of copying a block. A few entries, the oldest replaced.
///
/// A text always reads as the same settings where the cache is used (one copier for one file):
/// settings depend on nothing but their text and the regions defined, and regions are defined
/// only before the first cue.
struct WrittenSettingsCache {
    private struct Entry {
        /// The text the settings were read from.
        var source: [UInt8]
        var text: [UInt8]
        /// False when the writer would not write the settings as they are.
        var writable: Bool
    }

    private var entries: [Entry] = []
    private var next = 0
    /// The settings of a cue whose settings text is not known or too long to keep: made for it
    /// alone, without taking an entry's place (``oneOffIndex``).
    private var oneOff = Entry(source: [], text: [], writable: true)
    private static let oneOffIndex = -1
    static let capacity = 8
    /// Lookups that found nothing, less those that found: past ``giveUpAfter`` (a track whose
    /// cues each have settings of their own), the cache is no longer looked in nor kept, and
    /// each cue's settings are written for it alone.
    private var misses = 0
    static let giveUpAfter = 256
    /// Settings texts longer than this are written again each time, not kept.
    static let longestSource = 128

    /// Calls `body` with `settings`' text as the writer writes it, read from `source` (nil when
    /// not known), and returns what it returned; nil, `body` not called, when the writer would
    /// not write them as they are (see ``entry(for:readFrom:regionIsNamed:)``). Once the cache
    /// has given up, common settings (``WebVTTTimingLineText/withCommonSettingsText(_:writesRegion:_:)``)
    /// are handed out from the stack where they are written, not through an entry's array.
    mutating func withText<Result>(
        for settings: borrowing CueSettings, readFrom source: UnsafeRawBufferPointer?, regionIsNamed: Bool = false,
        _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result? {
        if misses >= Self.giveUpAfter || source == nil,
            let result = try WebVTTTimingLineText.withCommonSettingsText(copy settings, writesRegion: { _ in regionIsNamed }, body)
        {
            return result
        }
        guard let index = entry(for: settings, readFrom: source, regionIsNamed: regionIsNamed) else { return nil }
        return try withText(of: index, body)
    }

    /// The entry for `settings`, read from `source` (nil when not known), made if need be; nil
    /// when the writer would not write them as they are (a region it does not name, as
    /// `regionIsNamed` says; a value out of range). An entry kept says what was true when it was
    /// made: a region named later is still refused for it, which is only slower.
    mutating func entry(
        for settings: borrowing CueSettings, readFrom source: UnsafeRawBufferPointer?, regionIsNamed: Bool = false
    ) -> Int? {
        if misses < Self.giveUpAfter, let source {
            if let found = index(of: source) {
                if misses > 0 { misses -= 1 }
                return entries[found].writable ? found : nil
            }
            misses += 1
        }
        guard misses < Self.giveUpAfter, let source, source.count <= Self.longestSource else {
            Self.write(settings, into: &oneOff, readFrom: nil, regionIsNamed: regionIsNamed)
            return oneOff.writable ? Self.oneOffIndex : nil
        }
        let index: Int
        if entries.count < Self.capacity {
            index = entries.count
            entries.append(Entry(source: [], text: [], writable: true))
        } else {
            index = next
            next = (next + 1) % Self.capacity
        }
        // The entry's storage is reused: settings of their own on every cue allocate nothing.
        Self.write(settings, into: &entries[index], readFrom: source, regionIsNamed: regionIsNamed)
        return entries[index].writable ? index : nil
    }

    /// Makes `entry` the settings' text as the writer writes it, read from `source`.
    private static func write(
        _ settings: borrowing CueSettings, into entry: inout Entry, readFrom source: UnsafeRawBufferPointer?, regionIsNamed: Bool
    ) {
        entry.source.removeAll(keepingCapacity: true)
        if let source { entry.source.append(contentsOf: source) }
        entry.text.removeAll(keepingCapacity: true)
        // A region the writer does not name is an issue too.
        var writable = true
        WebVTTTimingLineText.appendSettings(settings, to: &entry.text, writesRegion: { _ in regionIsNamed }) { _ in writable = false }
        entry.writable = writable
    }

    /// The entry kept for the settings text `source`.
    private func index(of source: UnsafeRawBufferPointer) -> Int? {
        guard let bytes = source.baseAddress else { return nil }
        return entries.withUnsafeBufferPointer { entries in
            for index in entries.indices where entries[index].source.count == source.count {
                // (An empty array's bytes may have no address: no settings match at once.)
                let same = source.isEmpty || entries[index].source.withUnsafeBytes { memcmp($0.baseAddress!, bytes, source.count) == 0 }
                if same { return index }
            }
            return nil
        }
    }

    /// Calls `body` with the written text of entry `index`.
    func withText<Result>(of index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try (index == Self.oneOffIndex ? oneOff.text : entries[index].text).withUnsafeBytes(body)
    }
}
