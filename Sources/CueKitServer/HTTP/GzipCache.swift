import NIOCore

/// Compressed bodies by resource and entity tag, least recently used first out, within a budget
/// of bytes (each body and its key) and of entries.
///
/// A body is compressed once however many requests want it at the same moment: the first starts
/// the compression, the others wait for its result. At most ``maximumCompressions`` distinct
/// bodies are compressed whole at once (each holds its body and its result, up to
/// ``largestEntry``); past that a request streams its own compression, which takes the memory of
/// one chunk, so memory stays bounded under any number of cold misses.
actor GzipCache {
    /// What a compressed body is the compression of: a resource (a file's resolved path, or a
    /// path) in the version its entity tag names. The coding is gzip at zlib's fastest level.
    struct Key: Hashable, Sendable {
        var resource: String
        var entityTag: String

        /// What the key costs to hold, beyond the body.
        var cost: Int { resource.utf8.count + entityTag.utf8.count + 64 }
    }

    /// The largest body compressed whole and kept: 8 MiB (longer ones stream).
    static let largestEntry = 8 << 20
    /// The most bodies compressed whole at once.
    let maximumCompressions: Int
    private var store: BoundedCache<Key, ByteBuffer>
    private var inFlight: [Key: Task<ByteBuffer, any Error>] = [:]
    /// How many bodies have been compressed whole.
    private(set) var compressions = 0

    init(limits: TrackServer.CompressionLimits = .init()) {
        store = BoundedCache(limits: .init(bytes: limits.maximumBytes, entries: limits.maximumEntries))
        maximumCompressions = max(1, limits.maximumCompressions)
    }

    /// What the cache holds: entries and their bytes (bodies and keys).
    var usage: (entries: Int, bytes: Int) { (store.count, store.bytes) }

    /// The compressed body for `key`: kept, being made (waited for), or made now by `compress`.
    /// Nil when the caller should stream its own: too many other bodies are being compressed, or
    /// the compression it waited for failed.
    func body(for key: Key, compress: @escaping @Sendable () async throws -> ByteBuffer) async throws -> ByteBuffer? {
        if let kept = store.value(for: key) { return kept }
        if let running = inFlight[key] { return try? await running.value }
        guard inFlight.count < maximumCompressions else { return nil }
        // Not cancelled with the request that started it: the others wait for it too.
        let task = Task { try await compress() }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        let compressed = try await task.value
        compressions += 1
        if compressed.readableBytes + key.cost <= store.limits.bytes {
            store.insert(compressed, for: key, cost: compressed.readableBytes + key.cost)
            _ = store.trim()
        }
        return compressed
    }
}
