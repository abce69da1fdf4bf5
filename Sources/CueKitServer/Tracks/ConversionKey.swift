#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a converted track is made of: the source's resolved path and version, the style (its
/// compact JSON) and what it is served as. Hashed whole, so two requests share a conversion only
/// when all four match.
struct ConversionKey: Hashable, Sendable {
    var source: String
    var version: SourceVersion
    var style: String
    var product: ConvertedProduct = .webVTT
}

/// A source file's version as `stat(2)` tells it: device, inode, size and modification time. A
/// file replaced or rewritten has another.
struct SourceVersion: Hashable, Sendable, CustomStringConvertible {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
            modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
            modifiedSeconds = Int64(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
    }

    var description: String { "\(device)\u{0}\(inode)\u{0}\(size)\u{0}\(modifiedSeconds).\(modifiedNanoseconds)" }
}

/// A conversion held in the cache folder: its file's name there (a folder's, for an HLS rendition),
/// its entity tag, and what the conversion reported.
struct ConvertedFile: Sendable {
    var cacheName: String
    var entityTag: String
    var summary: String
}

/// Keeps a conversion's file in the cache while an answer sends it; released when the answer is
/// done with it (a reference, so that the response body that reads the file can hold it).
final class ConversionLease: Sendable {
    private let cache: TrackConversionCache
    private let key: ConversionKey

    init(cache: TrackConversionCache, key: ConversionKey) {
        self.cache = cache
        self.key = key
    }

    deinit {
        let cache = cache
        let key = key
        Task { await cache.release(key) }
    }
}
