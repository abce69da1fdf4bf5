import CueKit

/// A `MEDIA_STATUS` message as a receiver sends it (`cast.framework.messages.MediaStatus` in a
/// list): what `cuekit cast check` reads to check a receiver's answers.
///
/// `media` appears in a status only when the media information changed (a load, a new text track
/// style); a status without it leaves a sender's media as it was.
public struct CastMediaStatusMessage: Sendable, Hashable {
    /// The id of the request answered; 0 for a status no request of this sender caused.
    public var requestID: Int
    /// The statuses: one per media session, none when nothing is loaded.
    public var statuses: [CastMediaStatus]
    /// For each status, whether it carried `media`.
    public var carriesMedia: [Bool]

    /// The message type.
    public static let type = "MEDIA_STATUS"

    /// Creates a message.
    public init(requestID: Int, statuses: [CastMediaStatus], carriesMedia: [Bool]? = nil) {
        self.requestID = requestID
        self.statuses = statuses
        self.carriesMedia = carriesMedia ?? statuses.map { $0.media != nil }
    }

    /// The message as Cast JSON.
    public var json: CastJSONValue {
        guard let first = statuses.first else {
            return CastMediaChannel.mediaStatus(nil, requestID: requestID, includingMedia: false)
        }
        var message = CastMediaChannel.mediaStatus(first, requestID: requestID, includingMedia: carriesMedia.first ?? false)
        if statuses.count > 1, case .object(var object) = message {
            object["status"] = .array(
                zip(statuses, carriesMedia).map { status, withMedia in
                    CastMediaChannel.mediaStatus(status, requestID: requestID, includingMedia: withMedia).objectValue?["status"]?.arrayValue?
                        .first ?? .null
                })
            message = .object(object)
        }
        return message
    }

    /// The receiver's rules for a status: active track ids name tracks of the media, given here
    /// (the loaded media, from `cuekit cast check --media`) or carried in the status itself.
    public func validate(against media: MediaInformation? = nil, at path: CastJSONPath = .root, locations: CastJSONLocations = CastJSONLocations())
        -> [Diagnostic]
    {
        var validator = CastValidator(locations: locations)
        for (index, status) in statuses.enumerated() {
            let statusPath = path.appending("status").appending(index: index)
            if let carried = status.media, carriesMedia[index] {
                validator.check(carried, at: statusPath.appending("media"))
            }
            let known = carriesMedia[index] ? status.media : media
            validator.checkActiveTrackIDs(status.activeTrackIDs, of: known, at: statusPath.appending("activeTrackIds"))
        }
        return validator.diagnostics
    }
}

extension CastMediaStatusMessage: CastDecodable {
    static let fieldNames: [String] = ["type", "requestId", "status", "customData"]
    static let statusFieldNames: [String] = [
        "mediaSessionId", "media", "playbackRate", "playerState", "idleReason", "currentTime", "supportedMediaCommands", "volume",
        "activeTrackIds", "customData", "repeatMode", "currentItemId", "loadingItemId", "preloadedItemId", "items", "videoInfo",
        "breakStatus", "queueData", "liveSeekableRange", "extendedStatus", "playbackRate",
    ]

    static func decode(_ json: CastJSONValue, at path: CastJSONPath, with decoder: inout CastDecoder) -> CastMediaStatusMessage? {
        guard let object = decoder.object(json, at: path, of: "a MEDIA_STATUS message") else { return nil }
        if let type = decoder.string(object, "type", at: path), type != Self.type {
            decoder.report(.error, .castUnknownMessageType, at: path.appending("type"), "expected \"\(Self.type)\", found \"\(type)\"")
        }
        var requestID = 0
        if let value = decoder.member(object, "requestId") {
            requestID = decoder.integer(value, at: path.appending("requestId"), of: "requestId") ?? 0
        } else {
            decoder.report(
                .error, .castMissingField, at: path, "a MEDIA_STATUS needs requestId: the id of the request it answers, or 0 for a broadcast")
        }
        guard let statusValue = decoder.member(object, "status") else {
            decoder.report(.error, .castMissingField, at: path, "a MEDIA_STATUS needs status, a list of media statuses (empty when nothing is loaded)")
            return nil
        }
        guard case .array(let elements) = statusValue else {
            decoder.report(.error, .castWrongType, at: path.appending("status"), "expected a list of media statuses, found \(statusValue.typeDescription)")
            return nil
        }
        var statuses: [CastMediaStatus] = []
        var carries: [Bool] = []
        for (index, element) in elements.enumerated() {
            let statusPath = path.appending("status").appending(index: index)
            guard let entry = decoder.object(element, at: statusPath, of: "a media status") else { continue }
            guard let sessionValue = decoder.member(entry, "mediaSessionId"),
                let session = decoder.integer(sessionValue, at: statusPath.appending("mediaSessionId"), of: "mediaSessionId")
            else {
                if decoder.member(entry, "mediaSessionId") == nil {
                    decoder.report(.error, .castMissingField, at: statusPath, "a media status needs mediaSessionId")
                }
                continue
            }
            var state = CastMediaStatus.PlayerState.idle
            if let name = decoder.string(entry, "playerState", at: statusPath) {
                if let known = CastMediaStatus.PlayerState(rawValue: name) {
                    state = known
                } else {
                    decoder.report(
                        .error, .castUnknownValue, at: statusPath.appending("playerState"),
                        "'\(name)' is not a player state (\(CastMediaStatus.PlayerState.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
            } else if decoder.member(entry, "playerState") == nil {
                decoder.report(.error, .castMissingField, at: statusPath, "a media status needs playerState")
            }
            let time = decoder.number(entry, "currentTime", at: statusPath) ?? 0
            let ids = CastLoadRequest.decodeTrackIDs(entry, at: statusPath, with: &decoder) ?? []
            var media: MediaInformation?
            if let value = decoder.member(entry, "media") {
                media = MediaInformation.decode(value, at: statusPath.appending("media"), with: &decoder)
            }
            _ = decoder.otherFields(entry, known: Set(statusFieldNames), at: statusPath, in: "media status")
            statuses.append(CastMediaStatus(mediaSessionID: session, media: media, activeTrackIDs: ids, playerState: state, currentTime: time))
            carries.append(media != nil)
        }
        _ = decoder.otherFields(object, known: Set(fieldNames), at: path, in: "MEDIA_STATUS message")
        return CastMediaStatusMessage(requestID: requestID, statuses: statuses, carriesMedia: carries)
    }
}
