import CueKit

/// One track of a media item as Cast describes it (`chrome.cast.media.Track`,
/// `cast.framework.messages.Track`): an audio, video or text stream the receiver can switch on.
///
/// For a side-loaded caption file, ``trackContentID`` is its URL and ``trackContentType`` its MIME
/// type (`text/vtt`). Members CueKit does not model (`isInband`, `roles`, `audioTrackInfo`...) are
/// kept in ``otherFields``.
public struct MediaTrack: Sendable, Hashable {
    /// The track's identifier, unique within its media item (`trackId`).
    public var trackID: Int
    /// Audio, video or text (`type`).
    public var type: TrackType
    /// For text tracks, what the text is (`subtype`).
    public var subtype: TextTrackType?
    /// Where the receiver finds the content, usually a URL (`trackContentId`).
    public var trackContentID: String?
    /// The content's MIME type (`trackContentType`), needed for side-loaded tracks.
    public var trackContentType: String?
    /// A human-readable name that senders show in their track menus (`name`).
    public var name: String?
    /// An RFC 5646 language tag (`language`); required for SUBTITLES.
    public var language: String?
    /// Application data (`customData`).
    public var customData: CastJSONValue?
    /// Members CueKit does not model, in document order.
    public var otherFields: CastJSONObject

    /// Creates a track.
    public init(
        trackID: Int,
        type: TrackType,
        subtype: TextTrackType? = nil,
        trackContentID: String? = nil,
        trackContentType: String? = nil,
        name: String? = nil,
        language: String? = nil,
        customData: CastJSONValue? = nil,
        otherFields: CastJSONObject = CastJSONObject()
    ) {
        self.trackID = trackID
        self.type = type
        self.subtype = subtype
        self.trackContentID = trackContentID
        self.trackContentType = trackContentType
        self.name = name
        self.language = language
        self.customData = customData
        self.otherFields = otherFields
    }

    /// `TrackType`.
    public enum TrackType: String, CastEnumeration {
        /// Captions, subtitles and other timed text.
        case text = "TEXT"
        /// An audio stream.
        case audio = "AUDIO"
        /// A video stream.
        case video = "VIDEO"

        /// The name of this type in the Cast reference.

        public static let castName = "TrackType"
    }

    /// `TextTrackType`: what a text track holds (the values of HTML's `kind` attribute).
    public enum TextTrackType: String, CastEnumeration {
        /// A translation of the dialogue.
        case subtitles = "SUBTITLES"
        /// Dialogue and sound effects, for viewers who cannot hear.
        case captions = "CAPTIONS"
        /// Descriptions of the picture, for viewers who cannot see it.
        case descriptions = "DESCRIPTIONS"
        /// Chapter titles.
        case chapters = "CHAPTERS"
        /// Data for scripts, not shown.
        case metadata = "METADATA"

        /// The name of this type in the Cast reference.

        public static let castName = "TextTrackType"
    }
}

extension MediaTrack {
    /// Creates a track with the argument labels of `GCKMediaTrack` on iOS: `identifier` is
    /// ``trackID``, `contentIdentifier` ``trackContentID``, `contentType` ``trackContentType``,
    /// `textSubtype` ``subtype`` and `languageCode` ``language``.
    public init(
        identifier: Int, contentIdentifier: String?, contentType: String?, type: TrackType, textSubtype: TextTrackType?,
        name: String?, languageCode: String?, customData: CastJSONValue?
    ) {
        self.init(
            trackID: identifier, type: type, subtype: textSubtype, trackContentID: contentIdentifier, trackContentType: contentType,
            name: name, language: languageCode, customData: customData)
    }

    /// ``trackID``, by its iOS name.
    public var identifier: Int { trackID }
    /// ``language``, by its iOS name.
    public var languageCode: String? { language }
}

extension MediaTrack: CastDecodable {
    static let fieldNames: [String] = [
        "trackId", "type", "subtype", "trackContentId", "trackContentType", "name", "language", "customData",
    ]

    static func decode(_ json: CastJSONValue, at path: CastJSONPath, with decoder: inout CastDecoder) -> MediaTrack? {
        guard let object = decoder.object(json, at: path, of: "a Track") else { return nil }
        var trackID: Int?
        if let value = decoder.member(object, "trackId") {
            trackID = decoder.integer(value, at: path.appending("trackId"), of: "trackId")
        } else {
            decoder.report(.error, .castMissingField, at: path, "a track needs a trackId")
        }
        let type = decoder.enumeration(object, "type", at: path, as: TrackType.self)
        if decoder.member(object, "type") == nil {
            decoder.report(.error, .castMissingField, at: path, "a track needs a type (\(TrackType.valueList))")
        }
        let subtype = decoder.enumeration(object, "subtype", at: path, as: TextTrackType.self)
        let contentID = decoder.string(object, "trackContentId", at: path)
        let contentType = decoder.string(object, "trackContentType", at: path)
        let name = decoder.string(object, "name", at: path)
        let language = decoder.string(object, "language", at: path)
        let customData = decoder.any(object, "customData")
        let others = decoder.otherFields(object, known: Set(fieldNames), at: path, in: "Track")
        guard let trackID, let type else { return nil }
        return MediaTrack(
            trackID: trackID, type: type, subtype: subtype, trackContentID: contentID, trackContentType: contentType,
            name: name, language: language, customData: customData, otherFields: others
        )
    }

    /// Reads a track from Cast JSON; throws every problem found.
    public init(json: CastJSONValue) throws(CastDecodingError) {
        self = try Self.decodeStrictly(json, locations: CastJSONLocations())
    }

    /// The track as Cast JSON: set fields only, then ``otherFields``.
    public var json: CastJSONValue {
        var object = CastJSONObject()
        object["trackId"] = .number(Double(trackID))
        object["type"] = .string(type.rawValue)
        object["subtype"] = subtype.map { .string($0.rawValue) }
        object["trackContentId"] = trackContentID.map { .string($0) }
        object["trackContentType"] = trackContentType.map { .string($0) }
        object["name"] = name.map { .string($0) }
        object["language"] = language.map { .string($0) }
        object["customData"] = customData
        for (key, value) in otherFields where object[key] == nil { object[key] = value }
        return .object(object)
    }
}

extension MediaTrack: Codable {
    /// Reads Cast JSON through any decoder, with the same checks as ``init(json:)``.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeThroughCodable(from: decoder)
    }

    /// Writes Cast JSON.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}
