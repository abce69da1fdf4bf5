extension TrackServer {
    /// What conversions on request may take: threads, waiting requests, and the cache folder.
    ///
    /// The defaults suit a small machine: half its cores convert (the rest serve files), 16
    /// conversions wait for a thread and more are answered `503` with `Retry-After`, and the
    /// cache folder holds at most 1 GiB in 1,000 conversions, the least recently used removed
    /// first. A conversion larger than the whole budget is kept only while it is being sent.
    public struct ConversionLimits: Sendable, Hashable {
        /// Conversions run at once, each on a thread of its own; half the cores by default.
        public var threads = ConversionPool.defaultThreads
        /// Conversions that may wait for a thread; 16 by default.
        public var maximumWaiting = 16
        /// The most bytes the cache folder holds; 1 GiB by default.
        public var maximumBytes = 1 << 30
        /// The most conversions the cache folder holds; 1,000 by default.
        public var maximumEntries = 1000

        /// The defaults.
        public init() {}
    }
}
