import CueKit
import CueKitCast

/// The receiver behind `cuekit serve`: one ``CastReceiverModel`` shared by every connected sender
/// and every open receiver page.
///
/// Senders speak the JSON of Cast's media namespace (``CastMediaChannel``). After each request
/// every sender is told what the model says it hears, in one `MEDIA_STATUS`: with `media` when the
/// media information changed (a load, a style), without it when only the status did (active
/// tracks, playback). The sender that asked gets its `requestId` back; the others get 0, as on
/// Cast. A refused request is answered to its sender alone, with Cast's error and the reasons.
///
/// Receiver pages only draw: each is sent the whole state (``displayState``) after every change.
public actor CastReceiverSession {
    private var model: CastReceiverModel
    private var senders: [CastReceiverModel.ListenerID: AsyncStream<String>.Continuation] = [:]
    private var displays: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextDisplay = 1
    private var lastDisplayState = ""

    /// A receiver with nothing loaded. `preferredLanguage` picks the text track a load switches
    /// on when it names none.
    public init(preferredLanguage: String? = nil) {
        model = CastReceiverModel(preferredLanguage: preferredLanguage)
    }

    /// The current media status (nil before the first load).
    public var status: CastMediaStatus? { model.status }

    /// How many senders are connected.
    public var senderCount: Int { senders.count }

    /// How many receiver pages are connected.
    public var displayCount: Int { displays.count }

    // MARK: Senders

    /// Connects a sender: the messages it is to be sent arrive on the stream.
    public func connectSender() -> (CastReceiverModel.ListenerID, AsyncStream<String>) {
        let id = model.addListener()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        senders[id] = continuation
        return (id, stream)
    }

    /// Disconnects a sender.
    public func disconnectSender(_ id: CastReceiverModel.ListenerID) {
        model.removeListener(id)
        senders.removeValue(forKey: id)?.finish()
    }

    /// Handles one message from a sender.
    public func receive(_ text: String, from sender: CastReceiverModel.ListenerID) {
        let request: CastMediaChannel.Request
        switch CastMediaChannel.request(from: Array(text.utf8)) {
        case .success(let read): request = read
        case .failure(let error):
            send(CastMediaChannel.error(error), to: sender)
            return
        }
        let result: CastRequestResult
        switch request {
        case .load(let load): result = model.load(load)
        case .editTracksInfo(let edit): result = model.editTracksInfo(edit)
        case .play(let requestID, let session): result = model.play(requestID: requestID, mediaSessionID: session)
        case .pause(let requestID, let session): result = model.pause(requestID: requestID, mediaSessionID: session)
        case .seek(let requestID, let session, let time): result = model.seek(to: time, requestID: requestID, mediaSessionID: session)
        case .stop(let requestID, let session):
            if let session, session != model.mediaSessionID {
                result = .failure(
                    CastRequestError(
                        requestID: requestID ?? 0, type: .invalidRequest, reason: .invalidMediaSessionID,
                        message: "media session \(session) is not the current one"))
            } else {
                result = model.stop(requestID: requestID)
            }
        case .getStatus(let requestID):
            // The asking sender alone, with everything: media included.
            let requestID = requestID ?? 0
            send(CastMediaChannel.mediaStatus(model.status, requestID: requestID, includingMedia: true), to: sender)
            return
        }
        switch result {
        case .failure(let error):
            send(CastMediaChannel.error(error), to: sender)
        case .success(let completion):
            broadcast(requestID: completion.requestID, askedBy: sender)
            updateDisplays()
        }
    }

    private func broadcast(requestID: Int, askedBy requester: CastReceiverModel.ListenerID) {
        for id in model.listeners {
            let callbacks = model.takeCallbacks(for: id)
            var status: CastMediaStatus?
            var mediaChanged = false
            for callback in callbacks {
                switch callback {
                case .metadataUpdated: mediaChanged = true
                case .statusUpdated(let latest): status = latest
                }
            }
            guard let status else { continue }
            let message = CastMediaChannel.mediaStatus(status, requestID: id == requester ? requestID : 0, includingMedia: mediaChanged)
            send(message, to: id)
        }
    }

    private func send(_ message: CastJSONValue, to sender: CastReceiverModel.ListenerID) {
        senders[sender]?.yield(message.serialized(.compact))
    }

    // MARK: Receiver pages

    /// Connects a receiver page; it is sent the current state at once.
    public func connectDisplay() -> (Int, AsyncStream<String>) {
        let id = nextDisplay
        nextDisplay += 1
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(16))
        displays[id] = continuation
        continuation.yield(displayState.serialized(.compact))
        return (id, stream)
    }

    /// Disconnects a receiver page.
    public func disconnectDisplay(_ id: Int) {
        displays.removeValue(forKey: id)?.finish()
    }

    /// A report from a receiver page: where its player is (`{"type":"PLAYBACK","currentTime":S}`).
    public func displayReport(_ text: String) {
        guard let document = try? CastJSONDocument(parsing: text), let object = document.value.objectValue,
            object["type"]?.stringValue == "PLAYBACK", let time = object["currentTime"]?.numberValue
        else { return }
        model.reportPlayback(currentTime: time)
    }

    private func updateDisplays() {
        let state = displayState.serialized(.compact)
        guard state != lastDisplayState else { return }
        lastDisplayState = state
        for continuation in displays.values { continuation.yield(state) }
    }

    /// What a receiver page draws: the media and its text tracks as `<track>` elements, which are
    /// showing, the style sheet of the text track style, and the player's state.
    public var displayState: CastJSONValue {
        var state = CastJSONObject()
        state["type"] = "RECEIVER_STATE"
        guard let status = model.status, let media = status.media else {
            state["mediaSessionId"] = .null
            return .object(state)
        }
        state["mediaSessionId"] = .number(Double(status.mediaSessionID))
        state["playerState"] = .string(status.playerState.rawValue)
        state["currentTime"] = .number(status.currentTime)
        state["src"] = .string(media.contentUrl ?? media.contentID ?? "")
        state["contentType"] = media.contentType.map { .string($0) } ?? .null
        let active = Set(status.activeTrackIDs)
        var tracks: [CastJSONValue] = []
        for track in media.tracks ?? [] where track.type == .text {
            var element = CastJSONObject()
            element["trackId"] = .number(Double(track.trackID))
            element["kind"] = .string(Self.kind(of: track.subtype))
            element["src"] = .string(track.trackContentID ?? "")
            element["srclang"] = .string(track.language ?? "")
            element["label"] = .string(track.name ?? track.language ?? "Track \(track.trackID)")
            element["mode"] = .string(active.contains(track.trackID) ? "showing" : "disabled")
            tracks.append(.object(element))
        }
        state["tracks"] = .array(tracks)
        state["css"] = .string(media.textTrackStyle?.receiverPageCSS(video: "#player") ?? "")
        return .object(state)
    }

    /// The `<track kind>` of a Cast text track subtype.
    static func kind(of subtype: MediaTrack.TextTrackType?) -> String {
        switch subtype {
        case .captions: "captions"
        case .descriptions: "descriptions"
        case .chapters: "chapters"
        case .metadata: "metadata"
        case .subtitles, nil: "subtitles"
        }
    }
}

/// The receiver is the media application of `cuekit cast emulate`'s Cast device: each Cast v2
/// sender of its media namespace is a sender here, told of every change as WebSocket senders are.
extension CastReceiverSession: CastMediaApplication {}
