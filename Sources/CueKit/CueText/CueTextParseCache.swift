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
    /// The text the events are of; meaningful only when ``isFilled``.
    @exclusivity(unchecked)
    package private(set) var text = ""
    /// The events of ``text``, with their buffers reused from text to text.
    @exclusivity(unchecked)
    package var parsed = CueTextEvents.Parsed()
    /// True when ``parsed`` holds the events of ``text``.
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
        isFilled = true
    }

    /// True when the cache holds the events of `text`: the same bytes (not `==`, which is
    /// canonical equivalence: the events are of these very bytes).
    package func holds(_ text: String) -> Bool {
        guard isFilled else { return false }
        var held = self.text
        var given = text
        return held.withUTF8 { held in
            given.withUTF8 { given in
                guard held.count == given.count else { return false }
                guard let first = held.baseAddress, let second = given.baseAddress, first != second else { return true }
                return memcmp(first, second, held.count) == 0
            }
        }
    }

    /// Gives the events to a consumer: they and `parsed`'s old buffers change places (so both keep
    /// their capacity), and the cache holds nothing until it is filled again.
    package func handOver(into parsed: inout CueTextEvents.Parsed) {
        swap(&parsed, &self.parsed)
        isFilled = false
        uses &+= 1
    }
}
