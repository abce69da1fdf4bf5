/// Where an ``HLSSegmenter`` puts what it writes: segment files, one at a time (or every segment
/// into one file, as byte ranges), and the media playlist's text as it grows.
public protocol HLSSegmentDestination {
    /// Writes the segment file `name` (a name, not a path) whole.
    mutating func writeSegment(named name: String, _ bytes: [UInt8]) throws
    /// Appends one segment to the file `name`, which holds every segment, each a byte range of it
    /// (``HLSSegmentOptions/segmentsInOneFile``). The first call starts the file.
    mutating func appendSegment(_ bytes: [UInt8], toFileNamed name: String) throws
    /// Appends `bytes`, UTF-8 text, to the media playlist.
    mutating func appendToPlaylist(_ bytes: [UInt8]) throws
}

extension HLSSegmentDestination {
    /// Appends `text` to the media playlist.
    public mutating func appendToPlaylist(_ text: String) throws {
        try appendToPlaylist(Array(text.utf8))
    }
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

    /// Appends to the last segment when it has that name; starts a segment otherwise.
    public mutating func appendSegment(_ bytes: [UInt8], toFileNamed name: String) throws {
        if segments.last?.name == name {
            segments[segments.count - 1].text += String(decoding: bytes, as: UTF8.self)
        } else {
            try writeSegment(named: name, bytes)
        }
    }

    public mutating func appendToPlaylist(_ bytes: [UInt8]) throws {
        playlist += String(decoding: bytes, as: UTF8.self)
    }
}
