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
/// Receiver pages draw: each is sent the whole state (``displayState``) after every change. They
/// also load: while a page is open, a load is answered only when a page reports that the media and
/// every track loaded, as a Cast receiver answers a LOAD once its player has the media. A page that
/// reports a failure makes the load fail: every sender gets `LOAD_FAILED` with the reason (the
/// asker with its `requestId`), then an idle status whose `idleReason` is `ERROR`; nobody is told
/// `PLAYING`. A failure after the load was answered reaches every sender as `ERROR`.
///
/// What a sender has not read is held within a budget of bytes (``SenderOutbox``): past it,
/// statuses a later one supersedes are dropped, and a sender still over it is disconnected.
public actor CastReceiverSession {
    private var model: CastReceiverModel
    private var senders: [CastReceiverModel.ListenerID: (outbox: SenderOutbox, whenDropped: (@Sendable () -> Void)?)] = [:]
    private let senderBudget: Int
    private var displays: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextDisplay = 1
    private var lastDisplayState = ""
    private let loadCheck: (@Sendable (CastLoadRequest) -> String?)?
    private let loadConfirmationTimeout: Duration
    private var pendingLoad: PendingLoad?
    private var lastFailure: String?

    /// A load waiting for a receiver page to report it loaded.
    private struct PendingLoad {
        var mediaSessionID: Int
        var requestID: Int
        var requester: CastReceiverModel.ListenerID
    }

    /// A receiver with nothing loaded. `preferredLanguage` picks the text track a load switches
    /// on when it names none. `loadCheck` sees each valid LOAD first and returns why it cannot
    /// play (a file of the served folder that is missing), or nil. A load no receiver page has
    /// reported on within `loadConfirmationTimeout` is answered as loaded. Each sender is owed at
    /// most `senderQueueBytes` of messages it has not read.
    public init(
        preferredLanguage: String? = nil, loadConfirmationTimeout: Duration = .seconds(20),
        senderQueueBytes: Int = CastReceiverSession.defaultSenderQueueBytes,
        loadCheck: (@Sendable (CastLoadRequest) -> String?)? = nil
    ) {
        model = CastReceiverModel(preferredLanguage: preferredLanguage)
        senderBudget = senderQueueBytes
        self.loadCheck = loadCheck
        self.loadConfirmationTimeout = loadConfirmationTimeout
    }

    /// The current media status (nil before the first load).
    public var status: CastMediaStatus? { model.status }

    /// How many senders are connected.
    public var senderCount: Int { senders.count }

    /// How many receiver pages are connected.
    public var displayCount: Int { displays.count }

    // MARK: Senders

    /// The bytes a sender may be owed and not read by default: 256 KiB, four of the largest
    /// messages a sender may send.
    public static let defaultSenderQueueBytes = 256 << 10

    /// Connects a sender: the messages it is to be sent arrive on the stream.
    public func connectSender() -> (CastReceiverModel.ListenerID, AsyncStream<String>) {
        connectSender(whenDropped: nil)
    }

    /// Connects a sender: the messages it is to be sent arrive on the stream, which ends when
    /// the sender is disconnected. `whenDropped` is called if the session disconnects it
    /// because it does not read (over ``defaultSenderQueueBytes`` or the budget given): the
    /// transport closes its connection.
    public func connectSender(whenDropped: (@Sendable () -> Void)?) -> (CastReceiverModel.ListenerID, AsyncStream<String>) {
        let id = model.addListener()
        let outbox = SenderOutbox(budget: senderBudget)
        senders[id] = (outbox, whenDropped)
        return (id, outbox.stream)
    }

    /// Disconnects a sender.
    public func disconnectSender(_ id: CastReceiverModel.ListenerID) {
        model.removeListener(id)
        senders.removeValue(forKey: id)?.outbox.finish()
    }

    /// The bytes of messages `sender` has not read (nil for a sender not connected).
    func queuedBytes(for sender: CastReceiverModel.ListenerID) -> Int? {
        senders[sender]?.outbox.queuedBytes
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
        // Any other command first answers a load still waiting for the receiver page, as loaded:
        // its senders hear of it before they hear of what follows.
        switch request {
        case .load, .getStatus: break
        default: if let pending = pendingLoad { confirmLoad(pending.mediaSessionID) }
        }
        let result: CastRequestResult
        switch request {
        case .load(let load):
            if let problem = loadCheck?(load) {
                failLoad(requestID: load.requestID ?? 0, askedBy: sender, code: 905, message: problem, endingSession: false)
                return
            }
            interruptPendingLoad()
            result = model.load(load)
            if case .success(let completion) = result, !displays.isEmpty {
                // Answered once a receiver page has loaded it (or failed to).
                let session = completion.status.mediaSessionID
                pendingLoad = PendingLoad(mediaSessionID: session, requestID: completion.requestID, requester: sender)
                lastFailure = nil
                updateDisplays()
                let timeout = loadConfirmationTimeout
                Task {
                    try? await Task.sleep(for: timeout)
                    self.confirmLoad(session)
                }
                return
            }
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
            // The asking sender alone, with everything: media included. Media still loading is
            // not yet playing.
            var status = model.status
            if pendingLoad != nil { status?.playerState = .buffering }
            send(
                CastMediaChannel.mediaStatus(status, requestID: requestID ?? 0, includingMedia: true), to: sender,
                kind: .status(requestID: requestID ?? 0, includesMedia: true))
            return
        }
        switch result {
        case .failure(let error):
            send(CastMediaChannel.error(error), to: sender)
        case .success(let completion):
            if case .load = request { lastFailure = nil }
            broadcast(requestID: completion.requestID, askedBy: sender)
            updateDisplays()
        }
    }

    /// Answers the pending load of `mediaSessionID`, if it still waits: every sender hears of it.
    private func confirmLoad(_ mediaSessionID: Int) {
        guard let pending = pendingLoad, pending.mediaSessionID == mediaSessionID else { return }
        pendingLoad = nil
        broadcast(requestID: pending.requestID, askedBy: pending.requester)
    }

    /// A load still waiting when another arrives was interrupted: its asker is told so
    /// (`LOAD_FAILED`, detailed code 904), and what it would have told is dropped.
    private func interruptPendingLoad() {
        guard let pending = pendingLoad else { return }
        pendingLoad = nil
        model.discardCallbacks()
        let error = CastRequestError(
            requestID: pending.requestID, type: .loadFailed, reason: .genericLoadError,
            message: "another load replaced this one before it loaded", detailedErrorCode: 904)
        send(CastMediaChannel.error(error), to: pending.requester)
    }

    /// A load failed: every sender gets `LOAD_FAILED` with `message` (the asker with its request
    /// id). When a session was started for it (`endingSession`), what the load would have told is
    /// dropped and the idle status that ends the session follows.
    private func failLoad(
        requestID: Int, askedBy requester: CastReceiverModel.ListenerID, code: Int, message: String, endingSession: Bool
    ) {
        if endingSession { model.discardCallbacks() }
        for id in model.listeners {
            let error = CastRequestError(
                requestID: id == requester ? requestID : 0, type: .loadFailed, reason: .genericLoadError, message: message,
                detailedErrorCode: code)
            send(CastMediaChannel.error(error), to: id)
        }
        lastFailure = message
        if endingSession, model.endAfterFailure() != nil { broadcast(requestID: 0, askedBy: requester) }
        updateDisplays()
    }

    /// The media or a track of the playing session failed after its load was answered: every
    /// sender gets `ERROR` with the reason, then the idle status that ends the session.
    private func failPlayback(code: Int, message: String) {
        let error = CastRequestError(requestID: 0, type: .error, reason: .genericLoadError, message: message, detailedErrorCode: code)
        for id in model.listeners { send(CastMediaChannel.error(error), to: id) }
        lastFailure = message
        if model.endAfterFailure() != nil { broadcast(requestID: 0, askedBy: nil) }
        updateDisplays()
    }

    private func broadcast(requestID: Int, askedBy requester: CastReceiverModel.ListenerID?) {
        // Every sender but the asker is told the same: it is serialised once, not once each.
        var last: (status: CastMediaStatus, requestID: Int, includesMedia: Bool, text: String)?
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
            let answered = id == requester ? requestID : 0
            let text: String
            if let last, last.requestID == answered, last.includesMedia == mediaChanged, last.status == status {
                text = last.text
            } else {
                text = CastMediaChannel.mediaStatus(status, requestID: answered, includingMedia: mediaChanged).serialized(.compact)
                last = (status, answered, mediaChanged, text)
            }
            send(text: text, to: id, kind: .status(requestID: answered, includesMedia: mediaChanged))
        }
    }

    private func send(_ message: CastJSONValue, to sender: CastReceiverModel.ListenerID, kind: SenderOutbox.Kind = .other) {
        guard senders[sender] != nil else { return }
        send(text: message.serialized(.compact), to: sender, kind: kind)
    }

    private func send(text: String, to sender: CastReceiverModel.ListenerID, kind: SenderOutbox.Kind) {
        guard let entry = senders[sender], !entry.outbox.push(text, kind: kind) else { return }
        // It does not read: it is dropped, and its transport closes the connection.
        disconnectSender(sender)
        entry.whenDropped?()
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

    /// A report from a receiver page: where its player is (`{"type":"PLAYBACK","currentTime":S}`),
    /// that a session's media and tracks loaded (`{"type":"LOADED","mediaSessionId":N}`), or that
    /// one failed (`{"type":"LOAD_ERROR","mediaSessionId":N,"detailedErrorCode":C,"message":M}`).
    /// Reports on a session that is no longer the current one are ignored.
    public func displayReport(_ text: String) {
        guard let document = try? CastJSONDocument(parsing: text), let object = document.value.objectValue else { return }
        let session = object["mediaSessionId"]?.numberValue.flatMap { $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil }
        switch object["type"]?.stringValue {
        case "PLAYBACK":
            guard let time = object["currentTime"]?.numberValue else { return }
            model.reportPlayback(currentTime: time)
        case "LOADED":
            if let session { confirmLoad(session) }
        case "LOAD_ERROR":
            guard let session, session == model.mediaSessionID else { return }
            let code = object["detailedErrorCode"]?.numberValue.map { Int($0) } ?? 905
            let message = object["message"]?.stringValue ?? "the receiver could not load the media"
            if let pending = pendingLoad, pending.mediaSessionID == session {
                pendingLoad = nil
                failLoad(requestID: pending.requestID, askedBy: pending.requester, code: code, message: message, endingSession: true)
            } else {
                failPlayback(code: code, message: message)
            }
        default:
            return
        }
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
            if let lastFailure { state["error"] = .string(lastFailure) }
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
