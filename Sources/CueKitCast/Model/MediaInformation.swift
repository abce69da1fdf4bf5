import CueKit

/// A media item as Cast describes it (`chrome.cast.media.MediaInfo`,
/// `cast.framework.messages.MediaInformation`): what to play, its tracks, and how to draw text.
///
/// ``metadata`` is kept as generic JSON: its shape depends on `metadataType` (movie, TV show,
/// music...), and CueKit has no use for its fields beyond passing them through. Members CueKit does
/// not model (`breaks`, `entity`...) are kept in ``otherFields``.
public struct MediaInformation: Sendable, Hashable {
    /// The content's identifier, usually its URL (`contentId`).
    public var contentID: String?
    /// The content's URL when ``contentID`` is not one (`contentUrl`).
    public var contentUrl: String?
    /// The content's MIME type (`contentType`).
    public var contentType: String?
    /// Buffered, live or none (`streamType`).
    public var streamType: StreamType?
    /// The duration in seconds (`duration`); -1 for live streams.
    public var duration: Double?
    /// Title, images and the like (`metadata`), as JSON.
    public var metadata: CastJSONValue?
    /// The tracks (`tracks`), in the order the sender lists them.
    public var tracks: [MediaTrack]?
    /// How text tracks are drawn (`textTrackStyle`).
    public var textTrackStyle: TextTrackStyle?
    /// Application data (`customData`).
    public var customData: CastJSONValue?
    /// The format of an HLS stream's audio segments, or of its segments when audio and video
    /// share them (`hlsSegmentFormat`): a receiver's player needs it for segments it cannot tell.
    public var hlsSegmentFormat: HLSSegmentFormat?
    /// The format of an HLS stream's video segments (`hlsVideoSegmentFormat`).
    public var hlsVideoSegmentFormat: HLSVideoSegmentFormat?
    /// Members CueKit does not model, in document order.
    public var otherFields: CastJSONObject

    /// Creates media information.
    public init(
        contentID: String? = nil,
        contentUrl: String? = nil,
        contentType: String? = nil,
        streamType: StreamType? = nil,
        duration: Double? = nil,
        metadata: CastJSONValue? = nil,
        tracks: [MediaTrack]? = nil,
        textTrackStyle: TextTrackStyle? = nil,
        customData: CastJSONValue? = nil,
        hlsSegmentFormat: HLSSegmentFormat? = nil,
        hlsVideoSegmentFormat: HLSVideoSegmentFormat? = nil,
        otherFields: CastJSONObject = CastJSONObject()
    ) {
        self.contentID = contentID
        self.contentUrl = contentUrl
        self.contentType = contentType
        self.streamType = streamType
        self.duration = duration
        self.metadata = metadata
        self.tracks = tracks
        self.textTrackStyle = textTrackStyle
        self.customData = customData
        self.hlsSegmentFormat = hlsSegmentFormat
        self.hlsVideoSegmentFormat = hlsVideoSegmentFormat
        self.otherFields = otherFields
    }

    /// `StreamType`.
    public enum StreamType: String, CastEnumeration {
        /// Video on demand: the whole file can be sought.
        case buffered = "BUFFERED"
        /// A live stream.
        case live = "LIVE"
        /// Neither (images, or not known).
        case none = "NONE"

        /// The name of this type in the Cast reference.

        public static let castName = "StreamType"
    }

    /// `HlsSegmentFormat`: how an HLS stream's audio segments (or shared segments) are packed.
    public enum HLSSegmentFormat: String, CastEnumeration {
        case aac = "aac"
        case ac3 = "ac3"
        case eAC3 = "e-ac3"
        case fmp4 = "fmp4"
        case mp3 = "mp3"
        /// MPEG-2 transport stream.
        case ts = "ts"
        /// AAC in an MPEG-2 transport stream.
        case tsAAC = "ts_aac"

        public static let castName = "HlsSegmentFormat"
    }

    /// `HlsVideoSegmentFormat`: how an HLS stream's video segments are packed.
    public enum HLSVideoSegmentFormat: String, CastEnumeration {
        /// Fragmented MP4 (CMAF).
        case fmp4 = "fmp4"
        /// MPEG-2 transport stream.
        case mpeg2TS = "mpeg2_ts"

        public static let castName = "HlsVideoSegmentFormat"
    }
}

extension MediaInformation: CastDecodable {
    static let fieldNames: [String] = [
        "contentId", "contentUrl", "contentType", "streamType", "duration", "metadata", "tracks", "textTrackStyle",
        "customData", "hlsSegmentFormat", "hlsVideoSegmentFormat",
    ]

    static func decode(_ json: CastJSONValue, at path: CastJSONPath, with decoder: inout CastDecoder) -> MediaInformation? {
        guard let object = decoder.object(json, at: path, of: "a MediaInformation") else { return nil }
        var media = MediaInformation()
        media.contentID = decoder.string(object, "contentId", at: path)
        media.contentUrl = decoder.string(object, "contentUrl", at: path)
        media.contentType = decoder.string(object, "contentType", at: path)
        media.streamType = decoder.enumeration(object, "streamType", at: path, as: StreamType.self)
        media.duration = decoder.number(object, "duration", at: path)
        media.metadata = decoder.member(object, "metadata")
        if let value = decoder.member(object, "tracks") {
            let tracksPath = path.appending("tracks")
            if case .array(let elements) = value {
                media.tracks = elements.enumerated().compactMap { index, element in
                    MediaTrack.decode(element, at: tracksPath.appending(index: index), with: &decoder)
                }
            } else {
                decoder.report(.error, .castWrongType, at: tracksPath, "expected an array of tracks, found \(value.typeDescription)")
            }
        }
        if let value = decoder.member(object, "textTrackStyle") {
            media.textTrackStyle = TextTrackStyle.decode(value, at: path.appending("textTrackStyle"), with: &decoder)
        }
        media.customData = decoder.any(object, "customData")
        media.hlsSegmentFormat = decoder.enumeration(object, "hlsSegmentFormat", at: path, as: HLSSegmentFormat.self)
        media.hlsVideoSegmentFormat = decoder.enumeration(object, "hlsVideoSegmentFormat", at: path, as: HLSVideoSegmentFormat.self)
        media.otherFields = decoder.otherFields(object, known: Set(fieldNames), at: path, in: "MediaInformation")
        return media
    }

    /// Reads media information from Cast JSON; throws every problem found.
    public init(json: CastJSONValue) throws(CastDecodingError) {
        self = try Self.decodeStrictly(json, locations: CastJSONLocations())
    }

    /// The media information as Cast JSON: set fields only, then ``otherFields``.
    public var json: CastJSONValue {
        var object = CastJSONObject()
        object["contentId"] = contentID.map { .string($0) }
        object["contentUrl"] = contentUrl.map { .string($0) }
        object["contentType"] = contentType.map { .string($0) }
        object["streamType"] = streamType.map { .string($0.rawValue) }
        object["duration"] = duration.map { .number($0) }
        object["metadata"] = metadata
        object["tracks"] = tracks.map { .array($0.map(\.json)) }
        object["textTrackStyle"] = textTrackStyle?.json
        object["customData"] = customData
        object["hlsSegmentFormat"] = hlsSegmentFormat.map { .string($0.rawValue) }
        object["hlsVideoSegmentFormat"] = hlsVideoSegmentFormat.map { .string($0.rawValue) }
        for (key, value) in otherFields where object[key] == nil { object[key] = value }
        return .object(object)
    }

    /// The track with an identifier, if the media has one.
    public func track(withID id: Int) -> MediaTrack? {
        tracks?.first { $0.trackID == id }
    }
}

extension MediaInformation: Codable {
    /// Reads Cast JSON through any decoder, with the same checks as ``init(json:)``.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeThroughCodable(from: decoder)
    }

    /// Writes Cast JSON.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}
