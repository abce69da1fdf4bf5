/// A key of ``RecentAnswers``: equatable, with a cheap number that equal keys share.
protocol RecentAnswerKey: Equatable {
    /// A number that equal keys share and different keys mostly do not (lengths and counts, say):
    /// compared before the keys themselves. Not a hash: keys that are hashed hash all they hold.
    var fingerprint: Int { get }
}

extension RecentAnswerKey where Self: BitwiseCopyable {
    /// Keys of plain numbers, which hold no references, compare as cheaply as a fingerprint: they
    /// have none of their own and are compared whole.
    var fingerprint: Int { 0 }
}

/// The last few answers of a costly lookup, compared in turn before the lookup runs.
///
/// Caption documents repeat themselves from one element to the next: a region, a speaker, a few
/// inline styles. Comparing a handful of recent fingerprints, then one key, costs less than
/// hashing the key into a dictionary, so the readers ask here first, and remember each answer
/// they look up or make.
struct RecentAnswers<Key: RecentAnswerKey, Value> {
    /// How many answers are kept; the oldest goes first.
    let capacity: Int
    private var fingerprints: [Int] = []
    private var keys: [Key] = []
    private var values: [Value] = []
    /// Where the next answer goes once all are in use.
    private var next = 0

    init(capacity: Int) {
        precondition(capacity > 0, "RecentAnswers keeps at least one answer")
        self.capacity = capacity
        // Room for every answer at once: growing to it allocated each array four or five times.
        fingerprints.reserveCapacity(capacity)
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// The answer kept for `key`, if it is among the recent ones.
    func answer(for key: Key) -> Value? {
        // Fingerprints first: comparing a key copies it (retaining all it holds).
        let fingerprint = key.fingerprint
        for index in fingerprints.indices where fingerprints[index] == fingerprint && keys[index] == key {
            return values[index]
        }
        return nil
    }

    /// Keeps an answer, in place of the oldest once ``capacity`` are kept.
    mutating func remember(_ key: Key, _ value: Value) {
        if keys.count < capacity {
            fingerprints.append(key.fingerprint)
            keys.append(key)
            values.append(value)
        } else {
            fingerprints[next] = key.fingerprint
            keys[next] = key
            values[next] = value
            next = (next + 1) % capacity
        }
    }

    /// Forgets every answer.
    mutating func removeAll() {
        fingerprints.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        next = 0
    }
}

/// Answers kept by key: the last few compared first (``RecentAnswers``), then up to ``capacity``
/// looked up by hash; past that the hashed ones start over, so that a document with a new key
/// for every element keeps a bounded table.
struct KeptAnswers<Key: RecentAnswerKey & Hashable, Value> {
    /// How many answers are hashed at most.
    let capacity: Int
    private var recent: RecentAnswers<Key, Value>
    private var byKey: [Key: Value] = [:]

    init(recent: Int, capacity: Int) {
        self.capacity = capacity
        self.recent = RecentAnswers(capacity: recent)
    }

    /// The answer kept for `key`, if any (made one of the recent ones when it was not).
    mutating func answer(for key: Key) -> Value? {
        if let known = recent.answer(for: key) { return known }
        guard let known = byKey[key] else { return nil }
        recent.remember(key, known)
        return known
    }

    /// Keeps an answer, among the recent ones and by key.
    mutating func keep(_ key: Key, _ value: Value) {
        if byKey.count >= capacity { byKey.removeAll(keepingCapacity: true) }
        byKey[key] = value
        recent.remember(key, value)
    }
}
