#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The last cue text parsed into events on this thread, with its events: so that a second reader
/// of the same text does not parse it again.
///
/// The WebVTT reader's checker parses every cue text with markup; the TTML writer needs the same
/// parse (as ``CueTextEvents``) to translate the markup, and in a conversion it runs on the same
/// thread, for the same cue, straight after. A consumer says it wants the events
/// (``wantsEvents``); a reader fed on that thread then has its checker record them here while
/// checking, and ``CueTextEvents/parse(_:into:)`` takes them when ``holds(_:)`` says they are its
/// text's, instead of parsing again.
///
/// It can never be wrong: the events are kept with the text they came from, and a consumer takes
/// them only for a text of the same bytes (the same storage, as the reader hands it on, compares
/// in constant time). It is never shared: each thread has its own, and nothing in it outlives the
/// thread.
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
    /// True once a consumer on this thread asked for events: until then the checker records none
    /// (recording costs the checks a little, which a validation alone should not pay).
    @exclusivity(unchecked)
    package var wantsEvents = false
    /// How many times a consumer was handed the events (for tests).
    @exclusivity(unchecked)
    package private(set) var uses = 0

    private init() {}

    /// This thread's cache.
    package static var current: CueTextParseCache {
        if let stored = pthread_getspecific(cacheKey) {
            return Unmanaged<CueTextParseCache>.fromOpaque(stored).takeUnretainedValue()
        }
        let cache = CueTextParseCache()
        pthread_setspecific(cacheKey, Unmanaged.passRetained(cache).toOpaque())
        return cache
    }

    /// This thread's cache when a consumer on it wants events; nil otherwise (and no cache is
    /// made). A reader looks once per chunk it is fed, and holds the answer only while it is fed.
    package static var wanted: CueTextParseCache? {
        guard let stored = pthread_getspecific(cacheKey) else { return nil }
        let cache = Unmanaged<CueTextParseCache>.fromOpaque(stored).takeUnretainedValue()
        return cache.wantsEvents ? cache : nil
    }

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

/// The key of each thread's ``CueTextParseCache``; a thread's cache is released when it ends.
private let cacheKey: pthread_key_t = {
    var key = pthread_key_t()
    let created = pthread_key_create(&key) { stored in
        guard let stored else { return }
        Unmanaged<CueTextParseCache>.fromOpaque(stored).release()
    }
    precondition(created == 0, "pthread_key_create failed: \(created)")
    return key
}()
