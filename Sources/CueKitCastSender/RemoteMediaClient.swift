import CueKitCast
import Synchronization

/// Told of a receiver's changes, as `GCKRemoteMediaClientListener` is on iOS.
public protocol RemoteMediaClientListener: AnyObject, Sendable {
    /// The media status changed: active tracks, player state, or after any request.
    func remoteMediaClient(_ client: RemoteMediaClient, didUpdateMediaStatus status: CastMediaStatus)
    /// The media information changed: a load, or a text track style (even an unchanged one).
    func remoteMediaClient(_ client: RemoteMediaClient, didUpdateMediaMetadata media: MediaInformation)
}

/// Controls the media of a CueKit receiver, as `GCKRemoteMediaClient` controls a Cast device's:
/// load media with tracks, switch tracks by id, restyle them, and hear every change, whoever
/// made it.
///
/// ```swift
/// let client = try await RemoteMediaClient.connect(to: "ws://127.0.0.1:8000/cast")
/// try await client.load(CastLoadRequest(media: media, activeTrackIDs: [1]))
/// try await client.setActiveTrackIDs([2])
/// try await client.setTextTrackStyle(TextTrackStyle(foregroundColor: .white, edgeType: .outline))
/// for await update in await client.updates() { print(update) }
/// ```
///
/// Each request returns when the receiver answers it: with the status it sent back, or by throwing
/// its `CastRequestError`. Updates, including those caused by other senders, come through
/// ``updates()`` and the listeners; a status that carries `media` is delivered as a metadata update
/// and then a status update, in that order.
///
/// From synchronous main-actor code, as in an iOS view controller, the same calls return a
/// ``CastRequest`` at once (`loadMedia(_:)`, `setActiveTrackIDs(_:)`...); see
/// <doc:FromTheIOSSenderGuide>.
public actor RemoteMediaClient {
    /// What the receiver told this sender.
    public enum Update: Sendable, Hashable {
        /// `didUpdateMediaStatus`.
        case mediaStatus(CastMediaStatus)
        /// `didUpdateMediaMetadata`.
        case mediaMetadata(MediaInformation)
    }

    /// The connection failed or closed.
    public struct ConnectionError: Error, CustomStringConvertible {
        /// What happened.
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The last status heard; nil before the first.
    public private(set) var mediaStatus: CastMediaStatus?
    /// The media of the current session, with its text track style.
    public private(set) var mediaInformation: MediaInformation?

    private var transport: (any RemoteMediaTransport)?
    private var connection: Task<Void, Never>?
    private var waiting: [Int: CheckedContinuation<String, any Error>] = [:]
    private var subscribers: [Int: AsyncStream<Update>.Continuation] = [:]
    private var nextSubscriber = 0
    private var listeners: [ObjectIdentifier: any RemoteMediaClientListener] = [:]
    /// The next request id: taken synchronously by the main-actor calls, so it is locked, not isolated.
    private nonisolated let nextRequestID = Mutex(1)
    /// The main-actor calls' work, run one after another in the order the calls were made.
    private nonisolated let queued = AsyncStream<@Sendable (RemoteMediaClient) async -> Void>.makeStream()
    private var queueTask: Task<Void, Never>?
    /// Why the connection closed; nil while it is open.
    public private(set) var closedReason: String?

    private init() {}

    /// Connects to a receiver's sender socket (`ws://HOST:PORT/cast`) and asks for the status, as
    /// the SDKs do when a session starts: when this returns, the receiver counts this sender among
    /// those it tells of every change, and ``mediaStatus`` and ``mediaInformation`` hold what is
    /// loaded.
    public static func connect(to url: String) async throws -> RemoteMediaClient {
        try await connect(over: WebSocketMediaTransport.open(url))
    }

    /// Joins the receiver at the other end of `transport` and asks for the status, as
    /// ``connect(to:)`` does. `CueKitCastV2` connects to Cast devices this way
    /// (`connect(toDevice:)`): the calls, the updates and the listeners are the same over any
    /// transport.
    public static func connect(over transport: any RemoteMediaTransport) async throws -> RemoteMediaClient {
        let client = RemoteMediaClient()
        await client.attach(transport)
        await client.startQueue()
        _ = try await client.requestStatus()
        return client
    }

    private func attach(_ transport: any RemoteMediaTransport) async {
        self.transport = transport
        let messages = await transport.messages()
        connection = Task {
            for await text in messages { self.receive(text) }
            self.closed(await transport.closeReason ?? "the receiver closed the connection")
        }
    }

    private func startQueue() {
        let jobs = queued.stream
        queueTask = Task { [weak self] in
            for await job in jobs {
                guard let self else { return }
                await job(self)
            }
        }
    }

    /// Queues work after that of the calls made before (see `loadMedia(_:)`).
    nonisolated func enqueue(_ job: @escaping @Sendable (RemoteMediaClient) async -> Void) {
        queued.continuation.yield(job)
    }

    /// Closes the connection; pending requests fail.
    public func disconnect() async {
        await transport?.close()
        connection?.cancel()
        closed("disconnected")
    }

    // MARK: Requests

    /// Loads media (`LOAD`), with its tracks, text track style and active tracks.
    @discardableResult
    public func load(_ request: CastLoadRequest) async throws -> CastMediaStatus {
        var request = request
        request.requestID = request.requestID ?? takeRequestID()
        return try await expectStatus(send(.load(request), id: request.requestID!))
    }

    /// Switches on exactly these tracks; an empty list switches every track off.
    @discardableResult
    public func setActiveTrackIDs(_ ids: [Int]) async throws -> CastMediaStatus {
        try await editTracksInfo(CastEditTracksInfoRequest(activeTrackIDs: ids))
    }

    /// Sets the text track style of the loaded media.
    @discardableResult
    public func setTextTrackStyle(_ style: TextTrackStyle) async throws -> CastMediaStatus {
        try await editTracksInfo(CastEditTracksInfoRequest(textTrackStyle: style))
    }

    /// Sends an `EDIT_TRACKS_INFO` (active tracks, language, style), for the current session.
    @discardableResult
    public func editTracksInfo(_ request: CastEditTracksInfoRequest) async throws -> CastMediaStatus {
        var request = request
        request.requestID = request.requestID ?? takeRequestID()
        request.mediaSessionID = request.mediaSessionID ?? mediaStatus?.mediaSessionID
        return try await expectStatus(send(.editTracksInfo(request), id: request.requestID!))
    }

    /// Resumes playback.
    @discardableResult
    public func play() async throws -> CastMediaStatus {
        try await play(requestID: takeRequestID())
    }

    func play(requestID id: Int) async throws -> CastMediaStatus {
        try await expectStatus(send(.play(requestID: id, mediaSessionID: mediaStatus?.mediaSessionID), id: id))
    }

    /// Pauses playback.
    @discardableResult
    public func pause() async throws -> CastMediaStatus {
        try await pause(requestID: takeRequestID())
    }

    func pause(requestID id: Int) async throws -> CastMediaStatus {
        try await expectStatus(send(.pause(requestID: id, mediaSessionID: mediaStatus?.mediaSessionID), id: id))
    }

    /// Moves the playhead to `time` seconds.
    @discardableResult
    public func seek(to time: Double) async throws -> CastMediaStatus {
        try await seek(to: time, requestID: takeRequestID())
    }

    func seek(to time: Double, requestID id: Int) async throws -> CastMediaStatus {
        try await expectStatus(send(.seek(requestID: id, mediaSessionID: mediaStatus?.mediaSessionID, currentTime: time), id: id))
    }

    /// Asks for the status (`GET_STATUS`); nil when nothing is loaded.
    public func requestStatus() async throws -> CastMediaStatus? {
        try await requestStatus(requestID: takeRequestID())
    }

    func requestStatus(requestID id: Int) async throws -> CastMediaStatus? {
        try await send(.getStatus(requestID: id), id: id)
    }

    /// Sends any message's JSON text and returns the receiver's answer to its `requestId` (which
    /// the text must carry) as JSON text: a `MEDIA_STATUS`, or an error such as `INVALID_REQUEST`.
    public func send(text: String, requestID: Int) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            guard let transport, closedReason == nil else {
                continuation.resume(throwing: ConnectionError(description: closedReason ?? "not connected"))
                return
            }
            waiting[requestID] = continuation
            Task {
                do {
                    try await transport.send(text: text)
                } catch {
                    // A write that fails means the connection is gone, though its end may not have
                    // been seen yet: the request fails as every request on a closed connection does.
                    self.fail(requestID, with: error as? ConnectionError ?? ConnectionError(description: "the connection failed: \(error)"))
                }
            }
        }
    }

    private func send(_ request: CastMediaChannel.Request, id: Int) async throws -> CastMediaStatus? {
        let answer = try await send(text: request.json.serialized(.compact), requestID: id)
        switch CastMediaChannel.receiverMessage(from: Array(answer.utf8), currentMedia: mediaInformation) {
        case .mediaStatus(_, let status, _): return status
        case .error(let error): throw error
        case .other: throw ConnectionError(description: "the receiver answered with a message that is not a media status: \(answer)")
        }
    }

    /// The next request id this client would use.
    public nonisolated func makeRequestID() -> Int { takeRequestID() }

    private func expectStatus(_ status: CastMediaStatus?) throws -> CastMediaStatus {
        guard let status else { throw ConnectionError(description: "the receiver answered with no media status") }
        return status
    }

    private nonisolated func takeRequestID() -> Int {
        nextRequestID.withLock { next in
            defer { next += 1 }
            return next
        }
    }

    private func fail(_ requestID: Int, with error: any Error) {
        waiting.removeValue(forKey: requestID)?.resume(throwing: error)
    }

    // MARK: Updates

    /// The updates from now on, in order, until the connection closes.
    public func updates() -> AsyncStream<Update> {
        let (stream, continuation) = AsyncStream<Update>.makeStream()
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { _ in Task { await self.unsubscribe(id) } }
        return stream
    }

    private func unsubscribe(_ id: Int) {
        subscribers[id] = nil
    }

    /// Adds a listener; it is held strongly until removed.
    public func add(_ listener: any RemoteMediaClientListener) {
        listeners[ObjectIdentifier(listener)] = listener
    }

    /// Removes a listener.
    public func remove(_ listener: any RemoteMediaClientListener) {
        listeners[ObjectIdentifier(listener)] = nil
    }

    private func receive(_ text: String) {
        switch CastMediaChannel.receiverMessage(from: Array(text.utf8), currentMedia: mediaInformation) {
        case .mediaStatus(let requestID, let status, let includesMedia):
            mediaStatus = status
            if includesMedia, let media = status?.media {
                mediaInformation = media
                deliver(.mediaMetadata(media))
            }
            if let status { deliver(.mediaStatus(status)) } else { mediaInformation = nil }
            if requestID != 0 { waiting.removeValue(forKey: requestID)?.resume(returning: text) }
        case .error(let error):
            waiting.removeValue(forKey: error.requestID)?.resume(returning: text)
        case .other:
            break
        }
    }

    private func deliver(_ update: Update) {
        for continuation in subscribers.values { continuation.yield(update) }
        for listener in listeners.values {
            switch update {
            case .mediaStatus(let status): listener.remoteMediaClient(self, didUpdateMediaStatus: status)
            case .mediaMetadata(let media): listener.remoteMediaClient(self, didUpdateMediaMetadata: media)
            }
        }
    }

    private func closed(_ reason: String) {
        guard closedReason == nil else { return }
        closedReason = reason
        if let transport {
            self.transport = nil
            Task { await transport.close() }
        }
        for (_, continuation) in waiting { continuation.resume(throwing: ConnectionError(description: reason)) }
        waiting = [:]
        for continuation in subscribers.values { continuation.finish() }
        subscribers = [:]
    }
}
