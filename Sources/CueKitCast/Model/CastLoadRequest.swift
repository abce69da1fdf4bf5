import CueKit

/// A `LOAD` message (Cast media playback messages, `cast.framework.messages.LoadRequestData`):
/// the media to play, and which of its tracks to switch on.
public struct CastLoadRequest: Sendable, Hashable {
    /// The sender's request number (`requestId`), echoed in the receiver's reply.
    public var requestID: Int?
    /// What to play (`media`).
    public var media: MediaInformation
    /// Whether to start playing at once (`autoplay`, true when absent).
    public var autoplay: Bool?
    /// Where to start, in seconds (`currentTime`).
    public var currentTime: Double?
    /// The tracks to switch on (`activeTrackIds`), by ``MediaTrack/trackID``.
    public var activeTrackIDs: [Int]?
    /// Application data (`customData`).
    public var customData: CastJSONValue?
    /// Members CueKit does not model (`credentials`, `queueData`...), in document order.
    public var otherFields: CastJSONObject

    /// The message type.
    public static let type = "LOAD"

    /// Creates a load request.
    public init(
        requestID: Int? = nil,
        media: MediaInformation,
        autoplay: Bool? = nil,
        currentTime: Double? = nil,
        activeTrackIDs: [Int]? = nil,
        customData: CastJSONValue? = nil,
        otherFields: CastJSONObject = CastJSONObject()
    ) {
        self.requestID = requestID
        self.media = media
        self.autoplay = autoplay
        self.currentTime = currentTime
        self.activeTrackIDs = activeTrackIDs
        self.customData = customData
        self.otherFields = otherFields
    }
}

extension CastLoadRequest: CastDecodable {
    static let fieldNames: [String] = ["type", "requestId", "media", "autoplay", "currentTime", "activeTrackIds", "customData"]

    static func decode(_ json: CastJSONValue, at path: CastJSONPath, with decoder: inout CastDecoder) -> CastLoadRequest? {
        guard let object = decoder.object(json, at: path, of: "a LOAD message") else { return nil }
        if let type = decoder.string(object, "type", at: path), type != Self.type {
            decoder.report(.error, .castUnknownMessageType, at: path.appending("type"), "expected \"\(Self.type)\", found \"\(type)\"")
        }
        let requestID = decoder.member(object, "requestId").flatMap {
            decoder.integer($0, at: path.appending("requestId"), of: "requestId")
        }
        var media: MediaInformation?
        if let value = decoder.member(object, "media") {
            media = MediaInformation.decode(value, at: path.appending("media"), with: &decoder)
        } else {
            decoder.report(.error, .castMissingField, at: path, "a LOAD message needs media")
        }
        let autoplay = decoder.bool(object, "autoplay", at: path)
        let currentTime = decoder.number(object, "currentTime", at: path)
        let activeTrackIDs = decodeTrackIDs(object, at: path, with: &decoder)
        let customData = decoder.any(object, "customData")
        let others = decoder.otherFields(object, known: Set(fieldNames), at: path, in: "LOAD message")
        guard let media else { return nil }
        return CastLoadRequest(
            requestID: requestID, media: media, autoplay: autoplay, currentTime: currentTime,
            activeTrackIDs: activeTrackIDs, customData: customData, otherFields: others
        )
    }

    /// Reads `activeTrackIds`: an array of whole numbers.
    static func decodeTrackIDs(_ object: CastJSONObject, at path: CastJSONPath, with decoder: inout CastDecoder) -> [Int]? {
        guard let value = decoder.member(object, "activeTrackIds") else { return nil }
        let idsPath = path.appending("activeTrackIds")
        guard case .array(let elements) = value else {
            decoder.report(.error, .castWrongType, at: idsPath, "expected an array of track ids, found \(value.typeDescription)")
            return nil
        }
        return elements.enumerated().compactMap { index, element in
            decoder.integer(element, at: idsPath.appending(index: index), of: "a track id")
        }
    }

    /// Reads a LOAD message from Cast JSON; throws every problem found.
    public init(json: CastJSONValue) throws(CastDecodingError) {
        self = try Self.decodeStrictly(json, locations: CastJSONLocations())
    }

    /// The message as Cast JSON: `type` first, then the set fields, then ``otherFields``.
    public var json: CastJSONValue {
        var object = CastJSONObject()
        object["type"] = .string(Self.type)
        object["requestId"] = requestID.map { .number(Double($0)) }
        object["media"] = media.json
        object["autoplay"] = autoplay.map { .bool($0) }
        object["currentTime"] = currentTime.map { .number($0) }
        object["activeTrackIds"] = activeTrackIDs.map { .array($0.map { .number(Double($0)) }) }
        object["customData"] = customData
        for (key, value) in otherFields where object[key] == nil { object[key] = value }
        return .object(object)
    }
}

extension CastLoadRequest: Codable {
    /// Reads Cast JSON through any decoder, with the same checks as ``init(json:)``.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeThroughCodable(from: decoder)
    }

    /// Writes Cast JSON.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}

/// An `EDIT_TRACKS_INFO` message (`cast.framework.messages.EditTracksInfoRequestData`): switch
/// tracks on or off, or change the text track style, of the media already loaded.
///
/// It cannot change the list of tracks: that takes a new `LOAD`.
public struct CastEditTracksInfoRequest: Sendable, Hashable {
    /// The sender's request number (`requestId`).
    public var requestID: Int?
    /// The media session the request is for (`mediaSessionId`).
    public var mediaSessionID: Int?
    /// The tracks to have on (`activeTrackIds`): absent leaves them, empty switches all off.
    public var activeTrackIDs: [Int]?
    /// The new style (`textTrackStyle`): absent keeps the current one.
    public var textTrackStyle: TextTrackStyle?
    /// The language of the text tracks to switch on (`language`); it wins over `activeTrackIds`
    /// when both are given, as on a Cast receiver.
    public var language: String?
    /// `enableTextTracks`: false switches every text track off; true switches on the tracks of
    /// `language`, or else the first text track.
    public var enableTextTracks: Bool?
    /// `isSuggestedLanguage`: the language comes from the sender's settings, not from the viewer.
    public var isSuggestedLanguage: Bool?
    /// `sequenceNumber`: the sender's count of its requests, echoed by nothing but kept in order.
    public var sequenceNumber: Int?
    /// Application data (`customData`).
    public var customData: CastJSONValue?
    /// Members CueKit does not model (`language`, `enableTextTracks`...), in document order.
    public var otherFields: CastJSONObject

    /// The message type.
    public static let type = "EDIT_TRACKS_INFO"

    /// Creates an edit request.
    public init(
        requestID: Int? = nil,
        mediaSessionID: Int? = nil,
        activeTrackIDs: [Int]? = nil,
        textTrackStyle: TextTrackStyle? = nil,
        language: String? = nil,
        enableTextTracks: Bool? = nil,
        isSuggestedLanguage: Bool? = nil,
        sequenceNumber: Int? = nil,
        customData: CastJSONValue? = nil,
        otherFields: CastJSONObject = CastJSONObject()
    ) {
        self.requestID = requestID
        self.mediaSessionID = mediaSessionID
        self.activeTrackIDs = activeTrackIDs
        self.textTrackStyle = textTrackStyle
        self.language = language
        self.enableTextTracks = enableTextTracks
        self.isSuggestedLanguage = isSuggestedLanguage
        self.sequenceNumber = sequenceNumber
        self.customData = customData
        self.otherFields = otherFields
    }
}

extension CastEditTracksInfoRequest: CastDecodable {
    static let fieldNames: [String] = [
        "type", "requestId", "mediaSessionId", "activeTrackIds", "textTrackStyle", "language", "enableTextTracks",
        "isSuggestedLanguage", "sequenceNumber", "customData",
    ]

    static func decode(_ json: CastJSONValue, at path: CastJSONPath, with decoder: inout CastDecoder) -> CastEditTracksInfoRequest? {
        guard let object = decoder.object(json, at: path, of: "an EDIT_TRACKS_INFO message") else { return nil }
        if let type = decoder.string(object, "type", at: path), type != Self.type {
            decoder.report(.error, .castUnknownMessageType, at: path.appending("type"), "expected \"\(Self.type)\", found \"\(type)\"")
        }
        var request = CastEditTracksInfoRequest()
        request.requestID = decoder.member(object, "requestId").flatMap {
            decoder.integer($0, at: path.appending("requestId"), of: "requestId")
        }
        request.mediaSessionID = decoder.member(object, "mediaSessionId").flatMap {
            decoder.integer($0, at: path.appending("mediaSessionId"), of: "mediaSessionId")
        }
        request.activeTrackIDs = CastLoadRequest.decodeTrackIDs(object, at: path, with: &decoder)
        if let value = decoder.member(object, "textTrackStyle") {
            request.textTrackStyle = TextTrackStyle.decode(value, at: path.appending("textTrackStyle"), with: &decoder)
        }
        request.language = decoder.string(object, "language", at: path)
        request.enableTextTracks = decoder.bool(object, "enableTextTracks", at: path)
        request.isSuggestedLanguage = decoder.bool(object, "isSuggestedLanguage", at: path)
        request.sequenceNumber = decoder.member(object, "sequenceNumber").flatMap {
            decoder.integer($0, at: path.appending("sequenceNumber"), of: "sequenceNumber")
        }
        request.customData = decoder.any(object, "customData")
        if object["tracks"] != nil {
            decoder.report(
                .error, .castTracksNotEditable, at: path.appending("tracks"),
                "EDIT_TRACKS_INFO cannot change the track list of loaded media (a receiver answers INVALID_REQUEST): load the media again with the new tracks"
            )
        }
        request.otherFields = decoder.otherFields(object, known: Set(fieldNames + ["tracks"]), at: path, in: "EDIT_TRACKS_INFO message")
        return request
    }

    /// Reads an EDIT_TRACKS_INFO message from Cast JSON; throws every problem found.
    public init(json: CastJSONValue) throws(CastDecodingError) {
        self = try Self.decodeStrictly(json, locations: CastJSONLocations())
    }

    /// The message as Cast JSON: `type` first, then the set fields, then ``otherFields``.
    public var json: CastJSONValue {
        var object = CastJSONObject()
        object["type"] = .string(Self.type)
        object["requestId"] = requestID.map { .number(Double($0)) }
        object["mediaSessionId"] = mediaSessionID.map { .number(Double($0)) }
        object["activeTrackIds"] = activeTrackIDs.map { .array($0.map { .number(Double($0)) }) }
        object["textTrackStyle"] = textTrackStyle?.json
        object["language"] = language.map { .string($0) }
        object["enableTextTracks"] = enableTextTracks.map { .bool($0) }
        object["isSuggestedLanguage"] = isSuggestedLanguage.map { .bool($0) }
        object["sequenceNumber"] = sequenceNumber.map { .number(Double($0)) }
        object["customData"] = customData
        for (key, value) in otherFields where object[key] == nil { object[key] = value }
        return .object(object)
    }
}

extension CastEditTracksInfoRequest: Codable {
    /// Reads Cast JSON through any decoder, with the same checks as ``init(json:)``.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeThroughCodable(from: decoder)
    }

    /// Writes Cast JSON.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}
