import CueKit

/// The media namespace of Cast (`urn:x-cast:com.google.cast.media`) as JSON text: what a sender
/// asks, and what a receiver answers and broadcasts.
///
/// A CueKit receiver carries these messages over a WebSocket; a Cast device carries the same JSON
/// inside its v2 channel. Requests are read with the same checks as `cuekit cast check`, so a
/// refused request names its field, line and column.
public enum CastMediaChannel {
    /// The namespace the messages belong to.
    public static let namespace = "urn:x-cast:com.google.cast.media"

    /// A request from a sender.
    public enum Request: Sendable, Hashable {
        /// `LOAD`: new media, its tracks, style and active tracks.
        case load(CastLoadRequest)
        /// `EDIT_TRACKS_INFO`: active tracks, language, text track style.
        case editTracksInfo(CastEditTracksInfoRequest)
        /// `GET_STATUS`: the status, to the asking sender alone.
        case getStatus(requestID: Int?)
        /// `PLAY`.
        case play(requestID: Int?, mediaSessionID: Int?)
        /// `PAUSE`.
        case pause(requestID: Int?, mediaSessionID: Int?)
        /// `SEEK` to `currentTime` seconds.
        case seek(requestID: Int?, mediaSessionID: Int?, currentTime: Double)
        /// `STOP`: ends the media session.
        case stop(requestID: Int?, mediaSessionID: Int?)

        /// The request's id, when it has one.
        public var requestID: Int? {
            switch self {
            case .load(let request): request.requestID
            case .editTracksInfo(let request): request.requestID
            case .getStatus(let id), .play(let id, _), .pause(let id, _), .seek(let id, _, _), .stop(let id, _): id
            }
        }

        /// The request as Cast JSON.
        public var json: CastJSONValue {
            func simple(_ type: String, _ requestID: Int?, _ mediaSessionID: Int?) -> CastJSONObject {
                var object = CastJSONObject()
                object["type"] = .string(type)
                object["requestId"] = requestID.map { .number(Double($0)) }
                object["mediaSessionId"] = mediaSessionID.map { .number(Double($0)) }
                return object
            }
            switch self {
            case .load(let request): return request.json
            case .editTracksInfo(let request): return request.json
            case .getStatus(let requestID): return .object(simple("GET_STATUS", requestID, nil))
            case .play(let requestID, let session): return .object(simple("PLAY", requestID, session))
            case .pause(let requestID, let session): return .object(simple("PAUSE", requestID, session))
            case .stop(let requestID, let session): return .object(simple("STOP", requestID, session))
            case .seek(let requestID, let session, let time):
                var object = simple("SEEK", requestID, session)
                object["currentTime"] = .number(time)
                return .object(object)
            }
        }
    }

    /// The longest request read, in bytes: a Cast channel carries at most 64 KiB.
    public static let maximumRequestLength = 65_536

    /// Reads a sender's request. A request that cannot be read fails with the error a receiver
    /// answers: `INVALID_REQUEST` with `INVALID_COMMAND` for an unknown type or text that is not
    /// JSON, `INVALID_PARAMS` (or `LOAD_FAILED` for a load) when a field breaks the rules.
    public static func request(from bytes: some Collection<UInt8>) -> Result<Request, CastRequestError> {
        guard bytes.count <= maximumRequestLength else {
            return .failure(
                CastRequestError(
                    requestID: 0, type: .invalidRequest, reason: .invalidCommand, diagnostics: [CastMessage.tooLong(maximumRequestLength)]))
        }
        let document: CastJSONDocument
        do {
            document = try CastJSONDocument(parsing: bytes)
        } catch {
            return .failure(CastRequestError(requestID: 0, type: .invalidRequest, reason: .invalidCommand, diagnostics: [error.diagnostic]))
        }
        let object = document.value.objectValue ?? CastJSONObject()
        let requestID = object["requestId"]?.numberValue.flatMap { $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil }
        let mediaSessionID = object["mediaSessionId"]?.numberValue.flatMap { $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil }
        guard let type = object["type"]?.stringValue else {
            return .failure(
                CastRequestError(
                    requestID: requestID ?? 0, type: .invalidRequest, reason: .invalidCommand,
                    message: "a media message needs a string member \"type\" (LOAD, EDIT_TRACKS_INFO, GET_STATUS...)"))
        }
        func checked(as kind: CastMessage.Kind, failing errorType: CastRequestError.ErrorType) -> Result<CastMessage, CastRequestError> {
            let result = CastMessage.check(document, as: kind)
            let errors = result.diagnostics.filter { $0.severity == .error }
            guard let message = result.message, errors.isEmpty else {
                return .failure(CastRequestError(requestID: requestID ?? 0, type: errorType, reason: .invalidParams, diagnostics: errors))
            }
            return .success(message)
        }
        switch type {
        case CastLoadRequest.type:
            return checked(as: .load, failing: .loadFailed).flatMap { message in
                guard case .load(let request) = message else { preconditionFailure("a LOAD checked as a LOAD") }
                return .success(.load(request))
            }
        case CastEditTracksInfoRequest.type:
            return checked(as: .editTracksInfo, failing: .invalidRequest).flatMap { message in
                guard case .editTracksInfo(let request) = message else { preconditionFailure("an EDIT_TRACKS_INFO checked as one") }
                return .success(.editTracksInfo(request))
            }
        case "GET_STATUS": return .success(.getStatus(requestID: requestID))
        case "PLAY": return .success(.play(requestID: requestID, mediaSessionID: mediaSessionID))
        case "PAUSE": return .success(.pause(requestID: requestID, mediaSessionID: mediaSessionID))
        case "STOP": return .success(.stop(requestID: requestID, mediaSessionID: mediaSessionID))
        case "SEEK":
            guard let time = object["currentTime"]?.numberValue else {
                return .failure(
                    CastRequestError(
                        requestID: requestID ?? 0, type: .invalidRequest, reason: .invalidParams,
                        message: "SEEK needs currentTime, a number of seconds"))
            }
            return .success(.seek(requestID: requestID, mediaSessionID: mediaSessionID, currentTime: time))
        default:
            return .failure(
                CastRequestError(
                    requestID: requestID ?? 0, type: .invalidRequest, reason: .invalidCommand,
                    message: "\"\(type)\" is not a media command this receiver answers (LOAD, EDIT_TRACKS_INFO, GET_STATUS, PLAY, PAUSE, SEEK, STOP)"
                ))
        }
    }

    /// A `MEDIA_STATUS` message: `requestId` (0 when no request caused it) and one status.
    /// `media` is included only when `includingMedia` says so, as Cast sends it only when it changed.
    public static func mediaStatus(_ status: CastMediaStatus?, requestID: Int, includingMedia: Bool) -> CastJSONValue {
        var message = CastJSONObject()
        message["type"] = "MEDIA_STATUS"
        message["requestId"] = .number(Double(requestID))
        guard let status else {
            message["status"] = .array([])
            return .object(message)
        }
        var entry = CastJSONObject()
        entry["mediaSessionId"] = .number(Double(status.mediaSessionID))
        entry["playbackRate"] = 1
        entry["playerState"] = .string(status.playerState.rawValue)
        if status.playerState == .idle, status.media == nil { entry["idleReason"] = .string((status.idleReason ?? .cancelled).rawValue) }
        entry["currentTime"] = .number(status.currentTime)
        entry["supportedMediaCommands"] = .number(Double(supportedMediaCommands))
        entry["activeTrackIds"] = .array(status.activeTrackIDs.map { .number(Double($0)) })
        if includingMedia, let media = status.media { entry["media"] = media.json }
        message["status"] = .array([.object(entry)])
        return .object(message)
    }

    /// `supportedMediaCommands`: PAUSE (1), SEEK (2), EDIT_TRACKS (4096) — with the text-track
    /// commands a receiver of this kind answers.
    public static let supportedMediaCommands = 1 | 2 | 4096

    /// The error a receiver answers to a refused request: `type`, `requestId` and `reason`, and
    /// what was wrong in `customData.message` (with each problem and its place in
    /// `customData.diagnostics`).
    public static func error(_ error: CastRequestError) -> CastJSONValue {
        var message = CastJSONObject()
        message["type"] = .string(error.type.rawValue)
        message["requestId"] = .number(Double(error.requestID))
        message["reason"] = .string(error.reason.rawValue)
        if let code = error.detailedErrorCode { message["detailedErrorCode"] = .number(Double(code)) }
        var details = CastJSONObject()
        details["message"] = .string(error.message)
        if !error.diagnostics.isEmpty {
            details["diagnostics"] = .array(error.diagnostics.map { .string($0.formatted(file: "request")) })
        }
        message["customData"] = .object(details)
        return .object(message)
    }
}

extension CastMediaChannel {
    /// A message from a receiver, as a sender reads it.
    public enum ReceiverMessage: Sendable, Hashable {
        /// `MEDIA_STATUS`: the status (nil when nothing is loaded), and whether it carried
        /// `media` (the media information changed).
        case mediaStatus(requestID: Int, status: CastMediaStatus?, includesMedia: Bool)
        /// A refused request (`INVALID_REQUEST`, `LOAD_FAILED`...).
        case error(CastRequestError)
        /// Anything else, as JSON.
        case other(CastJSONValue)
    }

    /// Reads a receiver's message. `media` is the media a sender already holds: a status without
    /// `media` keeps it, as the Cast SDKs do.
    public static func receiverMessage(from bytes: some Collection<UInt8>, currentMedia media: MediaInformation? = nil) -> ReceiverMessage {
        guard let document = try? CastJSONDocument(parsing: bytes), let object = document.value.objectValue else {
            return .other(.null)
        }
        func integer(_ value: CastJSONValue?) -> Int? {
            value?.numberValue.flatMap { $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil }
        }
        let requestID = integer(object["requestId"]) ?? 0
        switch object["type"]?.stringValue {
        case "MEDIA_STATUS":
            guard let entry = object["status"]?.arrayValue?.first?.objectValue, let session = integer(entry["mediaSessionId"]) else {
                return .mediaStatus(requestID: requestID, status: nil, includesMedia: false)
            }
            var current = media
            var includesMedia = false
            if let json = entry["media"], let decoded = try? MediaInformation(json: json) {
                current = decoded
                includesMedia = true
            }
            let state = entry["playerState"]?.stringValue.flatMap(CastMediaStatus.PlayerState.init(rawValue:)) ?? .idle
            let ids = entry["activeTrackIds"]?.arrayValue?.compactMap(integer) ?? []
            let time = entry["currentTime"]?.numberValue ?? 0
            let idleReason = entry["idleReason"]?.stringValue.flatMap(CastMediaStatus.IdleReason.init(rawValue:))
            let status = CastMediaStatus(
                mediaSessionID: session, media: state == .idle && !includesMedia ? nil : current, activeTrackIDs: ids, playerState: state,
                currentTime: time, idleReason: idleReason)
            return .mediaStatus(requestID: requestID, status: status, includesMedia: includesMedia)
        case let type?:
            guard let errorType = CastRequestError.ErrorType(rawValue: type) else { return .other(document.value) }
            let reason = object["reason"]?.stringValue.flatMap(CastRequestError.ErrorReason.init(rawValue:)) ?? .invalidParams
            let details = object["customData"]?.objectValue
            let message = details?["message"]?.stringValue
            return .error(
                CastRequestError(
                    requestID: requestID, type: errorType, reason: reason, message: message,
                    detailedErrorCode: integer(object["detailedErrorCode"])))
        case nil:
            return .other(document.value)
        }
    }
}
