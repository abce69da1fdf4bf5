#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The last cue text parsed into events, with its events: so that a second reader of the same
/// text does not parse it again.
///
/// The WebVTT reader's checker parses every cue text with markup; the TTML writer needs the same
/// parse (as ``CueTextEvents``) to translate the markup, and in a conversion it runs straight
/// after, for the same cue. The conversion makes one cache and hands it to both: the reader's
/// checker records the events in it while checking (`WebVTTReader.feed(_:sharingCueTextEventsWith:to:)`),
/// and ``CueTextEvents/parse(_:into:sharedWith:)`` takes them when ``holds(_:)`` says they are its
/// text's, instead of parsing again.
///
/// It can never be wrong: the events are kept with the text they came from, and a consumer takes
/// them only for a text of the same bytes (the same storage, as the reader hands it on, compares in
/// constant time). A class, because the reader and the writer share it; one conversion uses it,
/// on one thread, one call after another.
package final class CueTextParseCache {
    /// The text the events are of, when it was handed over as a string; meaningful only when
    /// ``isFilled`` and not ``isFilledFromBytes``.
    @exclusivity(unchecked)
    package private(set) var text = ""
    /// The text the events are of, when it was handed over as bytes (``fill(withBytes:)``): a copy,
    /// its buffer reused from text to text.
    @exclusivity(unchecked)
    private var textBytes: [UInt8] = []
    /// True when the text is ``textBytes`` rather than ``text``.
    @exclusivity(unchecked)
    private var isFilledFromBytes = false
    /// The events of the text, with their buffers reused from text to text.
    @exclusivity(unchecked)
    package var parsed = CueTextEvents.Parsed()
    /// True when ``parsed`` holds the events of the text.
    @exclusivity(unchecked)
    package private(set) var isFilled = false
    /// How many times a consumer was handed the events (for tests).
    @exclusivity(unchecked)
    package private(set) var uses = 0

    package init() {}

    /// Marks ``parsed`` as being rewritten: nothing is held until ``fill(with:)``.
    package func startFilling() { isFilled = false }

    /// Marks ``parsed`` as the events of `text`.
    package func fill(with text: String) {
        self.text = text
        isFilledFromBytes = false
        isFilled = true
    }

    /// Marks ``parsed`` as the events of the text whose UTF-8 is `bytes`, for a consumer that takes
    /// cue text as bytes (the bytes are copied: they are borrowed for the call).
    package func fill(withBytes bytes: UnsafeRawBufferPointer) {
        textBytes.removeAll(keepingCapacity: true)
        textBytes.append(contentsOf: bytes)
        isFilledFromBytes = true
        isFilled = true
    }

    /// True when the cache holds the events of `text`: the same bytes (not `==`, which is
    /// canonical equivalence: the events are of these very bytes).
    package func holds(_ text: String) -> Bool {
        guard isFilled else { return false }
        var given = text
        return given.withUTF8 { holds(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// ``holds(_:)`` for a text's UTF-8 bytes.
    package func holds(bytes given: UnsafeRawBufferPointer) -> Bool {
        guard isFilled else { return false }
        if isFilledFromBytes {
            return textBytes.withUnsafeBytes { Self.same($0, given) }
        }
        var held = self.text
        return held.withUTF8 { Self.same(UnsafeRawBufferPointer($0), given) }
    }

    /// True when two runs of bytes are equal (at once when they are the same memory).
    private static func same(_ held: UnsafeRawBufferPointer, _ given: UnsafeRawBufferPointer) -> Bool {
        guard held.count == given.count else { return false }
        guard let first = held.baseAddress, let second = given.baseAddress, first != second else { return true }
        return memcmp(first, second, held.count) == 0
    }

    /// Gives the events to a consumer: they and `parsed`'s old buffers change places (so both keep
    /// their capacity), and the cache holds nothing until it is filled again.
    package func handOver(into parsed: inout CueTextEvents.Parsed) {
        swap(&parsed, &self.parsed)
        isFilled = false
        uses &+= 1
    }
}
