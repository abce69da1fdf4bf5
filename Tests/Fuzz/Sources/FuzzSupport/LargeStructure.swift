/// The large-structure mode of the fuzz targets: one piece of the input repeated many times, so that
/// a small input becomes an element with thousands of attributes, a paragraph of thousands of spans,
/// thousands of blocks or tracks. Short-lived fuzz inputs never reach the sizes where time or memory
/// grows faster than the input; this takes each input there too.
public enum LargeStructure {
    /// The input with the piece that starts at the first `open` byte at or after a third of it, up
    /// to and including the next `close` byte, repeated `times` times; nil when it has no such piece, or is over 4 KiB (so that the result
    /// stays a few megabytes).
    public static func amplify(_ input: UnsafeRawBufferPointer, open: UInt8, close: UInt8, times: Int) -> [UInt8]? {
        guard input.count >= 8, input.count <= 4096 else { return nil }
        guard let start = input[(input.count / 3)...].firstIndex(of: open),
            let end = input[(start + 1)...].firstIndex(of: close)
        else { return nil }
        let piece = input[start...end]
        var result: [UInt8] = []
        result.reserveCapacity(input.count + piece.count * times)
        result += input[..<start]
        for _ in 0..<times { result += piece }
        result += input[(end + 1)...]
        return result
    }
}
