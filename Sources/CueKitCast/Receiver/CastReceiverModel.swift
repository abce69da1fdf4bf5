import CueKit

/// The rules a Cast receiver follows for tracks and text styles, as a value a test can drive.
///
/// A receiver holds one media session at a time and broadcasts a media status to every connected
/// sender after each change. This model keeps the session's media, its active tracks and its text
/// track style, and a queue of callbacks per listener (one listener per sender), in the order the
/// sender SDKs deliver them (`RemoteMediaClient.Callback`'s `onMetadataUpdated` and
/// `onStatusUpdated` on Android, `GCKRemoteMediaClientListener` on iOS):
///
/// - **Load** replaces the media; every listener gets the new metadata, then the new status.
/// - **Activate tracks by id**: every id must name a track of the loaded media; an empty list
///   switches all tracks off. Every listener gets the status, and only the status: active tracks
///   are part of the media status, not of the media information.
/// - **Set the text track style**: the style is part of the media information, so every listener
///   gets the metadata and then the status, even when the new style equals the old one (receivers
///   do not compare styles, and senders rely on the echo to refresh their UI).
/// - **The track list of loaded media cannot be edited**: changing it takes a new load.
///
/// Each request returns its outcome to its caller alone, like the SDKs' request objects
/// (`PendingResult` on Android, `GCKRequest` on iOS): completion with the request id, or failure
/// with Cast's error type and reason. A failed request changes nothing and notifies no one.
///
/// The model is a value: copies are independent receivers, and it is `Sendable` because everything
/// in it is. To share one between tasks, keep it in an actor or a mutex.
public struct CastReceiverModel: Sendable, Hashable {
    /// A listener: one sender's view of the receiver.
    public struct ListenerID: Sendable, Hashable, CustomStringConvertible {
        /// The listener's number, from 1 in order of registration.
        public let rawValue: Int

        /// `listener N`.
        public var description: String { "listener \(rawValue)" }
    }

    /// What a listener is told.
    public enum Callback: Sendable, Hashable {
        /// `onStatusUpdated`: the media status changed (or a request completed).
        case statusUpdated(CastMediaStatus)
        /// `onMetadataUpdated`: the media information changed (a load, or a new text track style).
        case metadataUpdated(MediaInformation)
    }

    /// The loaded media, with its current text track style; nil before the first load.
    public private(set) var media: MediaInformation?
    /// The identifier of the current media session; it grows with each load.
    public private(set) var mediaSessionID: Int?
    /// The active tracks, in the order they were asked for.
    public private(set) var activeTrackIDs: [Int] = []
    /// The player's state: playing after a load (paused when it asks for no autoplay).
    public private(set) var playerState: CastMediaStatus.PlayerState = .idle
    /// The playhead, in seconds.
    public private(set) var currentTime: Double = 0
    /// The viewer's language, which picks the text track a load switches on when it names none.
    public var preferredLanguage: String?
    private var listenerQueues: [ListenerID: [Callback]] = [:]
    private var listenerOrder: [ListenerID] = []
    private var nextListener = 1

    /// A receiver with nothing loaded and no listeners.
    public init(preferredLanguage: String? = nil) {
        self.preferredLanguage = preferredLanguage
    }

    /// The status a listener would be sent now; nil before the first load.
    public var status: CastMediaStatus? {
        guard let mediaSessionID else { return nil }
        return CastMediaStatus(
            mediaSessionID: mediaSessionID, media: media, activeTrackIDs: activeTrackIDs, playerState: playerState, currentTime: currentTime)
    }

    /// The listeners, in order of registration.
    public var listeners: [ListenerID] { listenerOrder }

    /// Registers a listener; it hears of changes from now on.
    public mutating func addListener() -> ListenerID {
        let id = ListenerID(rawValue: nextListener)
        nextListener += 1
        listenerOrder.append(id)
        listenerQueues[id] = []
        return id
    }

    /// Unregisters a listener and drops its pending callbacks.
    public mutating func removeListener(_ id: ListenerID) {
        listenerOrder.removeAll { $0 == id }
        listenerQueues[id] = nil
    }

    /// The callbacks a listener has been sent since the last call, in order, and forgets them.
    public mutating func takeCallbacks(for id: ListenerID) -> [Callback] {
        guard let queue = listenerQueues[id] else { return [] }
        listenerQueues[id] = []
        return queue
    }

    /// Loads media (a `LOAD` message): the receiver's rules for the media must hold (see
    /// ``CastLoadRequest/validate(at:locations:)``), and active track ids must name its tracks.
    public mutating func load(_ request: CastLoadRequest) -> CastRequestResult {
        let requestID = assignRequestID(request.requestID)
        let problems =
            request.validate().filter { $0.severity == .error }
            + styleProblems(request.media.textTrackStyle, at: CastJSONPath.root.appending("media").appending("textTrackStyle"))
        guard problems.isEmpty else {
            return .failure(CastRequestError(requestID: requestID, type: .loadFailed, reason: .invalidParams, diagnostics: problems))
        }
        let activeTrackIDs = request.activeTrackIDs ?? defaultTracks(of: request.media)
        if let problem = Self.statusTooLong(media: request.media, activeTrackIDs: activeTrackIDs, requestID: requestID) {
            return .failure(CastRequestError(requestID: requestID, type: .loadFailed, reason: .invalidParams, message: problem))
        }
        media = request.media
        mediaSessionID = (mediaSessionID ?? 0) + 1
        self.activeTrackIDs = activeTrackIDs
        playerState = request.autoplay == false ? .paused : .playing
        currentTime = max(0, request.currentTime ?? 0)
        broadcastMetadata()
        broadcastStatus()
        return .success(CastRequestCompletion(requestID: requestID, status: status!))
    }

    /// Edits the tracks of the loaded media (an `EDIT_TRACKS_INFO` message): active tracks, text
    /// track style, or both. Either everything in the request applies or nothing does.
    public mutating func editTracksInfo(_ request: CastEditTracksInfoRequest) -> CastRequestResult {
        let requestID = assignRequestID(request.requestID)
        guard let media, let mediaSessionID else {
            return .failure(
                CastRequestError(
                    requestID: requestID, type: .invalidRequest, reason: .invalidMediaSessionID,
                    message: "no media is loaded: load media before editing its tracks"
                )
            )
        }
        if let asked = request.mediaSessionID, asked != mediaSessionID {
            return .failure(
                CastRequestError(
                    requestID: requestID, type: .invalidRequest, reason: .invalidMediaSessionID,
                    message: "media session \(asked) is not the current one (\(mediaSessionID))"
                )
            )
        }
        let problems =
            request.validate(against: media).filter { $0.severity == .error }
            + styleProblems(request.textTrackStyle, at: CastJSONPath.root.appending("textTrackStyle"))
        guard problems.isEmpty else {
            return .failure(CastRequestError(requestID: requestID, type: .invalidRequest, reason: .invalidParams, diagnostics: problems))
        }
        var edited = media
        if let style = request.textTrackStyle { edited.textTrackStyle = style }
        let ids = activeTracks(after: request, of: media)
        if let problem = Self.statusTooLong(media: edited, activeTrackIDs: ids ?? activeTrackIDs, requestID: requestID) {
            return .failure(CastRequestError(requestID: requestID, type: .invalidRequest, reason: .invalidParams, message: problem))
        }
        if let ids { activeTrackIDs = ids }
        if let style = request.textTrackStyle {
            self.media?.textTrackStyle = style
            broadcastMetadata()
        }
        broadcastStatus()
        return .success(CastRequestCompletion(requestID: requestID, status: status!))
    }

    /// The longest `MEDIA_STATUS` a request may lead to, in bytes of JSON: a Cast channel carries
    /// 64 KiB a message (``CastMediaChannel/maximumRequestLength``), and a status that cannot reach
    /// the senders would leave every one of them without the media until it changes. 1 KiB is left
    /// for the message's envelope (sender and receiver ids, namespace) and for what changes in the
    /// status without a request (the playhead, the player's state).
    public static let maximumStatusLength = CastMediaChannel.maximumRequestLength - 1024

    /// Why a status with this media and these tracks cannot be sent (its length past
    /// ``maximumStatusLength``), or nil when it can.
    static func statusTooLong(media: MediaInformation, activeTrackIDs: [Int], requestID: Int) -> String? {
        let status = CastMediaStatus(mediaSessionID: Int(Int32.max), media: media, activeTrackIDs: activeTrackIDs, playerState: .buffering)
        let length = CastMediaChannel.mediaStatus(status, requestID: requestID, includingMedia: true).serialized(.compact).utf8.count
        guard length > maximumStatusLength else { return nil }
        return "the media status would be \(length) bytes of JSON, more than the \(maximumStatusLength) a Cast message carries "
            + "with its envelope; shorten the media information (metadata, tracks, customData)"
    }

    /// The active tracks an EDIT_TRACKS_INFO asks for, as a Cast receiver reads it: `language`
    /// wins over `activeTrackIds`; `enableTextTracks: false` switches every text track off and
    /// `true` switches on the first text track when none is on. Tracks of other types stay as
    /// they are unless `activeTrackIds` names the full list. Nil: the tracks do not change.
    private func activeTracks(after request: CastEditTracksInfoRequest, of media: MediaInformation) -> [Int]? {
        let tracks = media.tracks ?? []
        let textIDs = Set(tracks.filter { $0.type == .text }.map(\.trackID))
        let otherActive = activeTrackIDs.filter { !textIDs.contains($0) }
        if request.enableTextTracks == false { return otherActive }
        if let language = request.language {
            let matching = tracks.filter { $0.type == .text && Self.language($0.language, matches: language) }.map(\.trackID)
            return otherActive + matching.prefix(1)
        }
        if let ids = request.activeTrackIDs { return ids }
        if request.enableTextTracks == true, !activeTrackIDs.contains(where: textIDs.contains) {
            return otherActive + tracks.filter { $0.type == .text }.prefix(1).map(\.trackID)
        }
        return nil
    }

    /// BCP 47 matching as receivers do it: case-insensitive, and `en` matches `en-US`.
    static func language(_ tag: String?, matches asked: String) -> Bool {
        guard let tag = tag?.lowercased() else { return false }
        let asked = asked.lowercased()
        return tag == asked || tag.hasPrefix(asked + "-") || asked.hasPrefix(tag + "-")
    }

    /// The text track a load switches on when it names no active tracks: the first subtitle or
    /// caption track in `preferredLanguage`, as a browser picks a `<track>` by the viewer's
    /// language; none when no language is preferred.
    private func defaultTracks(of media: MediaInformation) -> [Int] {
        guard let preferredLanguage else { return [] }
        let candidates = (media.tracks ?? []).filter { track in
            track.type == .text && (track.subtype == nil || track.subtype == .subtitles || track.subtype == .captions)
        }
        return candidates.first { Self.language($0.language, matches: preferredLanguage) }.map { [$0.trackID] } ?? []
    }

    /// Starts or resumes playback (`PLAY`); every listener gets the status.
    public mutating func play(requestID: Int? = nil, mediaSessionID: Int? = nil) -> CastRequestResult {
        playback(requestID: requestID, mediaSessionID: mediaSessionID) { $0.playerState = .playing }
    }

    /// Pauses playback (`PAUSE`); every listener gets the status.
    public mutating func pause(requestID: Int? = nil, mediaSessionID: Int? = nil) -> CastRequestResult {
        playback(requestID: requestID, mediaSessionID: mediaSessionID) { $0.playerState = .paused }
    }

    /// Moves the playhead (`SEEK`); a time past the media's duration is clamped to it.
    public mutating func seek(to time: Double, requestID: Int? = nil, mediaSessionID: Int? = nil) -> CastRequestResult {
        guard time.isFinite, time >= 0 else {
            return .failure(
                CastRequestError(
                    requestID: assignRequestID(requestID), type: .invalidRequest, reason: .invalidParams,
                    message: "currentTime must be a number of seconds, 0 or more; found \(time)"))
        }
        return playback(requestID: requestID, mediaSessionID: mediaSessionID) { model in
            if let duration = model.media?.duration, duration >= 0 {
                model.currentTime = min(time, duration)
            } else {
                model.currentTime = time
            }
        }
    }

    /// The status of the current session, to the asking sender alone (`GET_STATUS`).
    public mutating func getStatus(requestID: Int? = nil) -> CastRequestResult {
        let requestID = assignRequestID(requestID)
        guard let status else {
            return .failure(
                CastRequestError(requestID: requestID, type: .invalidRequest, reason: .invalidMediaSessionID, message: "no media is loaded"))
        }
        return .success(CastRequestCompletion(requestID: requestID, status: status))
    }

    /// Records where a receiver's player is, as it reports it; nothing is broadcast.
    public mutating func reportPlayback(currentTime: Double) {
        guard mediaSessionID != nil, currentTime.isFinite, currentTime >= 0 else { return }
        self.currentTime = currentTime
    }

    private mutating func playback(requestID: Int?, mediaSessionID asked: Int?, _ change: (inout CastReceiverModel) -> Void)
        -> CastRequestResult
    {
        let requestID = assignRequestID(requestID)
        guard let mediaSessionID else {
            return .failure(
                CastRequestError(requestID: requestID, type: .invalidRequest, reason: .invalidMediaSessionID, message: "no media is loaded"))
        }
        if let asked, asked != mediaSessionID {
            return .failure(
                CastRequestError(
                    requestID: requestID, type: .invalidRequest, reason: .invalidMediaSessionID,
                    message: "media session \(asked) is not the current one (\(mediaSessionID))"))
        }
        change(&self)
        broadcastStatus()
        return .success(CastRequestCompletion(requestID: requestID, status: status!))
    }

    /// Switches on exactly these tracks of the loaded media; an empty list switches all off.
    public mutating func setActiveTrackIDs(_ ids: [Int], requestID: Int? = nil) -> CastRequestResult {
        editTracksInfo(CastEditTracksInfoRequest(requestID: requestID, activeTrackIDs: ids))
    }

    /// Sets the text track style of the loaded media.
    public mutating func setTextTrackStyle(_ style: TextTrackStyle, requestID: Int? = nil) -> CastRequestResult {
        editTracksInfo(CastEditTracksInfoRequest(requestID: requestID, textTrackStyle: style))
    }

    /// Asks to change the track list of the loaded media, which a receiver refuses: tracks are
    /// fixed by the load, and a sender must load the media again with the new list.
    public mutating func replaceTracks(_ tracks: [MediaTrack], requestID: Int? = nil) -> CastRequestResult {
        let requestID = assignRequestID(requestID)
        guard media != nil else {
            return .failure(
                CastRequestError(requestID: requestID, type: .invalidRequest, reason: .invalidMediaSessionID, message: "no media is loaded")
            )
        }
        return .failure(
            CastRequestError(
                requestID: requestID, type: .invalidRequest, reason: .notSupported,
                message: "the tracks of loaded media cannot be edited: load the media again with the new track list"
            )
        )
    }

    /// Ends the media session because its media or a track failed to load or play, as a receiver
    /// does after an `ERROR` or a `LOAD_FAILED`: every listener gets an idle status whose
    /// `idleReason` is `ERROR`. Nil when nothing is loaded.
    @discardableResult
    public mutating func endAfterFailure() -> CastMediaStatus? {
        guard let mediaSessionID else { return nil }
        media = nil
        activeTrackIDs = []
        playerState = .idle
        currentTime = 0
        let final = CastMediaStatus(mediaSessionID: mediaSessionID, media: nil, activeTrackIDs: [], playerState: .idle, idleReason: .error)
        for id in listenerOrder { listenerQueues[id]?.append(.statusUpdated(final)) }
        self.mediaSessionID = nil
        return final
    }

    /// Forgets every callback not yet taken: what a load that then failed would have told.
    public mutating func discardCallbacks() {
        for id in listenerOrder { listenerQueues[id] = [] }
    }

    /// Ends the media session (a `STOP` message); every listener gets the status.
    public mutating func stop(requestID: Int? = nil) -> CastRequestResult {
        let requestID = assignRequestID(requestID)
        guard let mediaSessionID else {
            return .failure(
                CastRequestError(requestID: requestID, type: .invalidRequest, reason: .invalidMediaSessionID, message: "no media is loaded")
            )
        }
        media = nil
        activeTrackIDs = []
        playerState = .idle
        currentTime = 0
        let final = CastMediaStatus(mediaSessionID: mediaSessionID, media: nil, activeTrackIDs: [], playerState: .idle)
        for id in listenerOrder { listenerQueues[id]?.append(.statusUpdated(final)) }
        self.mediaSessionID = nil
        return .success(CastRequestCompletion(requestID: requestID, status: final))
    }

    /// The request's own id, or 0 for one that carries none (the message checks warn of it): 0 is
    /// the id of statuses no request caused, so it can never be mistaken for a sender's earlier id.
    private mutating func assignRequestID(_ asked: Int?) -> Int {
        asked ?? 0
    }

    /// A style built in code may hold values a receiver refuses (a negative scale): check it as
    /// the receiver reads it, from its JSON.
    private func styleProblems(_ style: TextTrackStyle?, at path: CastJSONPath) -> [Diagnostic] {
        guard let style else { return [] }
        var decoder = CastDecoder(locations: CastJSONLocations())
        _ = TextTrackStyle.decode(style.json, at: path, with: &decoder)
        return decoder.diagnostics.filter { $0.severity == .error }
    }

    private mutating func broadcastMetadata() {
        guard let media else { return }
        for id in listenerOrder { listenerQueues[id]?.append(.metadataUpdated(media)) }
    }

    private mutating func broadcastStatus() {
        guard let status else { return }
        for id in listenerOrder { listenerQueues[id]?.append(.statusUpdated(status)) }
    }
}

/// A media status (`MEDIA_STATUS`, `cast.framework.messages.MediaStatus`), reduced to what the
/// track rules touch.
public struct CastMediaStatus: Sendable, Hashable {
    /// The media session.
    public var mediaSessionID: Int
    /// The loaded media, with its text track style; nil after a stop.
    public var media: MediaInformation?
    /// The active tracks.
    public var activeTrackIDs: [Int]
    /// The player's state.
    public var playerState: PlayerState
    /// The playhead, in seconds.
    public var currentTime: Double
    /// Why the player is idle, when it is and a reason is known.
    public var idleReason: IdleReason?

    /// Creates a status; a status with media defaults to playing, one without to idle.
    public init(
        mediaSessionID: Int, media: MediaInformation?, activeTrackIDs: [Int], playerState: PlayerState? = nil, currentTime: Double = 0,
        idleReason: IdleReason? = nil
    ) {
        self.mediaSessionID = mediaSessionID
        self.media = media
        self.activeTrackIDs = activeTrackIDs
        self.playerState = playerState ?? (media == nil ? .idle : .playing)
        self.currentTime = currentTime
        self.idleReason = idleReason
    }

    /// `idleReason`, as Cast names it.
    public enum IdleReason: String, Sendable, Hashable, CaseIterable {
        /// A sender stopped the media.
        case cancelled = "CANCELLED"
        /// Another load replaced it.
        case interrupted = "INTERRUPTED"
        /// It played to its end.
        case finished = "FINISHED"
        /// It failed to load or to play.
        case error = "ERROR"
    }

    /// `playerState`, as Cast names it.
    public enum PlayerState: String, Sendable, Hashable, CaseIterable {
        /// Nothing is loaded, or playback ended.
        case idle = "IDLE"
        /// Playing.
        case playing = "PLAYING"
        /// Paused.
        case paused = "PAUSED"
        /// Waiting for data.
        case buffering = "BUFFERING"
    }
}

/// What a request returns to its caller: completion, or failure with Cast's error.
public typealias CastRequestResult = Result<CastRequestCompletion, CastRequestError>

/// A request completed.
public struct CastRequestCompletion: Sendable, Hashable {
    /// The request's id (the caller's, or one the receiver assigned).
    public var requestID: Int
    /// The status after the request.
    public var status: CastMediaStatus

    /// Creates a completion.
    public init(requestID: Int, status: CastMediaStatus) {
        self.requestID = requestID
        self.status = status
    }
}

/// A request failed: Cast's error type and reason (`cast.framework.messages.ErrorType` and
/// `ErrorReason`), and what was wrong.
public struct CastRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The failed request's id.
    public var requestID: Int
    /// Cast's error type.
    public var type: ErrorType
    /// Cast's error reason.
    public var reason: ErrorReason
    /// The problems found in the request, when it was refused for its content.
    public var diagnostics: [Diagnostic]
    /// One line saying what failed.
    public var message: String
    /// Cast's `detailedErrorCode` (`cast.framework.events.DetailedErrorCode`): 100 to 104 for the
    /// media element's errors, 905 for a load that failed, 904 for one another load interrupted.
    public var detailedErrorCode: Int?

    /// Creates an error; the message defaults to the first diagnostic's.
    public init(
        requestID: Int, type: ErrorType, reason: ErrorReason, diagnostics: [Diagnostic] = [], message: String? = nil,
        detailedErrorCode: Int? = nil
    ) {
        self.requestID = requestID
        self.type = type
        self.reason = reason
        self.diagnostics = diagnostics
        self.message = message ?? diagnostics.first?.message ?? reason.rawValue
        self.detailedErrorCode = detailedErrorCode
    }

    /// `TYPE (REASON): message`.
    public var description: String { "\(type.rawValue) (\(reason.rawValue)): \(message)" }

    /// `ErrorType`: the kind of failure.
    public enum ErrorType: String, Sendable, Hashable, CaseIterable {
        /// A load was refused.
        case loadFailed = "LOAD_FAILED"
        /// A request was malformed or does not apply to the current state.
        case invalidRequest = "INVALID_REQUEST"
        /// The media or a track failed after the load was answered (`ERROR`, with a
        /// `detailedErrorCode`).
        case error = "ERROR"
    }

    /// `ErrorReason`: why.
    public enum ErrorReason: String, Sendable, Hashable, CaseIterable {
        /// The request's parameters are not valid (an unknown track id...).
        case invalidParams = "INVALID_PARAMS"
        /// There is no such media session (nothing loaded, or a stale id).
        case invalidMediaSessionID = "INVALID_MEDIA_SESSION_ID"
        /// The receiver does not do this.
        case notSupported = "NOT_SUPPORTED"
        /// The message is not a command the receiver knows, or is not JSON.
        case invalidCommand = "INVALID_COMMAND"
        /// The media or a track could not be loaded (missing, refused, not a format the receiver plays).
        case genericLoadError = "GENERIC_LOAD_ERROR"
    }
}
