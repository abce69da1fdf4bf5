/// Where an ``HLSSegmenter`` puts what it writes: segment files, one at a time, and the media
/// playlist's text as it grows.
public protocol HLSSegmentDestination {
    /// Writes the segment file `name` (a name, not a path) whole.
    mutating func writeSegment(named name: String, _ bytes: [UInt8]) throws
    /// Appends `text` to the media playlist.
    mutating func appendToPlaylist(_ text: String) throws
}

/// A destination in memory, for tests and for callers that serve segments themselves.
public struct HLSMemoryDestination: HLSSegmentDestination, Sendable, Hashable {
    /// One segment file.
    public struct Segment: Sendable, Hashable {
        public var name: String
        public var text: String
    }

    /// The segments, in playlist order.
    public private(set) var segments: [Segment] = []
    /// The media playlist's text.
    public private(set) var playlist = ""

    /// An empty destination.
    public init() {}

    public mutating func writeSegment(named name: String, _ bytes: [UInt8]) throws {
        segments.append(Segment(name: name, text: String(decoding: bytes, as: UTF8.self)))
    }

    public mutating func appendToPlaylist(_ text: String) throws {
        playlist += text
    }
}
