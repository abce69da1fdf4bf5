import CueKit

/// Every event a reader hands out for one input fed in chunks of one size, and the error that
/// stopped it: what the targets compare between a whole read and a chunked one (a reader must
/// read the same events however its input is split).
public struct ChunkedRead: Equatable, CustomStringConvertible {
    public var events: [TrackEvent] = []
    public var error: ReadError?

    /// Reads `input` with a reader `make` returns, `chunkSize` bytes at a time.
    public init<Reader: TrackReader>(_ input: UnsafeRawBufferPointer, chunkSize: Int, _ make: () -> Reader) {
        var reader = make()
        do {
            var start = 0
            while start < input.count {
                let end = min(start + chunkSize, input.count)
                try reader.feed(UnsafeRawBufferPointer(rebasing: input[start..<end])) { events.append($0) }
                start = end
            }
            try reader.finish { events.append($0) }
        } catch let caught as ReadError {
            error = caught
        } catch {
            fatalError("the reader threw something other than a ReadError: \(error)")
        }
    }

    /// Reads `input` whole, then in chunks of `chunkSize` bytes, and traps when the two differ.
    public static func check<Reader: TrackReader>(_ input: UnsafeRawBufferPointer, chunkSize: Int, _ make: () -> Reader) {
        let whole = ChunkedRead(input, chunkSize: max(input.count, 1), make)
        let chunked = ChunkedRead(input, chunkSize: chunkSize, make)
        if whole != chunked {
            fatalError("chunks of \(chunkSize) bytes read differently from the whole input:\n\(whole)\n\(chunked)")
        }
    }

    public var description: String { events.map { "\($0)" }.joined(separator: "\n") + "\nerror: \(String(describing: error))" }
}
