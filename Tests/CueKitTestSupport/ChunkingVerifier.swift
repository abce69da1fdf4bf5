import CueKit

/// Feeds the same input to fresh readers whole, one byte at a time, and in random chunk sizes, and
/// checks that every way yields the same events (or the same error): the streaming contract of
/// ``TrackReader``, in the manner of SwiftNIO's `ByteToMessageDecoderVerifier`.
public enum ChunkingVerifier {
    /// The outcome of reading one input one way.
    public typealias Outcome = Result<[TrackEvent], ReadError>

    /// A difference between two ways of feeding the same input.
    public struct Mismatch: Error, CustomStringConvertible {
        /// How the input was cut when the difference showed.
        public var feeding: String
        /// What reading it whole gave.
        public var expected: Outcome
        /// What this way gave.
        public var actual: Outcome

        public var description: String {
            "feeding \(feeding) differs from feeding whole:\n  whole:  \(Self.summary(expected))\n  \(feeding): \(Self.summary(actual))"
        }

        private static func summary(_ outcome: Outcome) -> String {
            switch outcome {
            case .success(let events):
                let firstDifference = events.map { "\($0)" }.prefix(3).joined(separator: ", ")
                return "\(events.count) events [\(firstDifference)...]"
            case .failure(let error):
                return "error \(error)"
            }
        }
    }

    /// Reads `bytes` with readers from `makeReader` whole, byte by byte, and in `randomRuns` random
    /// chunkings (sizes 1...`maxChunk`, from `seed`). Returns the outcome of reading whole, and throws
    /// a ``Mismatch`` naming the first way that differs.
    @discardableResult
    public static func verify<Reader: TrackReader>(
        _ bytes: [UInt8],
        randomRuns: Int = 4,
        maxChunk: Int = 97,
        seed: UInt64 = 0x5EED,
        makeReader: () -> Reader
    ) throws -> Outcome {
        let whole = read(bytes, chunkSizes: { bytes.count }, makeReader: makeReader)
        let byteByByte = read(bytes, chunkSizes: { 1 }, makeReader: makeReader)
        guard byteByByte == whole else {
            throw Mismatch(feeding: "one byte at a time", expected: whole, actual: byteByByte)
        }
        var random = SeededRandom(seed: seed)
        for run in 0..<randomRuns {
            let chunked = read(bytes, chunkSizes: { Int.random(in: 1...maxChunk, using: &random) }, makeReader: makeReader)
            guard chunked == whole else {
                throw Mismatch(feeding: "random chunks (seed \(seed), run \(run))", expected: whole, actual: chunked)
            }
        }
        return whole
    }

    /// Reads `bytes` with chunk sizes from `chunkSizes`, collecting events; stops at the first error.
    public static func read<Reader: TrackReader>(_ bytes: [UInt8], chunkSizes: () -> Int, makeReader: () -> Reader) -> Outcome {
        var reader = makeReader()
        var events: [TrackEvent] = []
        do {
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + max(1, chunkSizes()))
                try reader.feed(bytes[offset..<end]) { events.append($0) }
                offset = end
            }
            try reader.finish { events.append($0) }
            return .success(events)
        } catch let error as ReadError {
            return .failure(error)
        } catch {
            return .failure(ReadError("test-unexpected-error", at: nil, "\(error)"))
        }
    }
}
