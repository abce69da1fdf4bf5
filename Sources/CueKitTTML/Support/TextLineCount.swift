#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lines of a cue's text (its UTF-8 bytes): one more than its line feeds, found by `memchr`
/// (cue texts are short: a word-at-a-time count costs more there). Shared by the writer's regions
/// and the reader's placement of a box by its top.
enum TextLineCount {
    static func lines(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard var next = bytes.baseAddress else { return 1 }
        let end = next + bytes.count
        var count = 1
        while next < end, let found = memchr(next, Int32(UInt8(ascii: "\n")), end - next) {
            count += 1
            next = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return count
    }
}
