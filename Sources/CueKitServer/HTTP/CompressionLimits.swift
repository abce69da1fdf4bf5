extension TrackServer {
    /// What gzip may take: the compressed bodies kept, and the bodies compressed whole at once.
    ///
    /// Bodies up to 8 MiB with an entity tag are compressed whole once and kept, by the file and
    /// its entity tag (never the query string); the budget counts each body and its key. Past
    /// ``maximumCompressions`` bodies being compressed at once, a request streams its own
    /// compression (the memory of one chunk) instead of waiting.
    public struct CompressionLimits: Sendable, Hashable {
        /// The most bytes kept, bodies and keys; 64 MiB by default.
        public var maximumBytes = 64 << 20
        /// The most bodies kept; 4,096 by default.
        public var maximumEntries = 4096
        /// The most distinct bodies compressed whole at once; 2 by default.
        public var maximumCompressions = 2

        /// The defaults.
        public init() {}
    }
}
