import CueKitCast
import CueKitCastV2
import HummingbirdWSClient
import Logging
import NIOCore

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
/// try await client.load(CastLoadRequest(media: media, activeTrackIds: [1]))
/// try await client.setActiveTrackIDs([2])
/// try await client.setTextTrackStyle(TextTrackStyle(foregroundColor: .white, edgeType: .outline))
/// for await update in await client.updates() { print(update) }
/// ```
///
/// Each request returns when the receiver answers it: with the status it sent back, or by throwing
/// its ``CastRequestError``. Updates, including those caused by other senders, come through
/// ``updates()`` and the listeners; a status that carries `media` is delivered as a metadata update
/// and then a status update, in that order.
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
    }

    /// The last status heard; nil before the first.
    public private(set) var mediaStatus: CastMediaStatus?
    /// The media of the current session, with its text track style.
    public private(set) var mediaInformation: MediaInformation?

    private var outbound: WebSocketOutboundWriter?
    private var connection: Task<Void, Never>?
    /// The Cast v2 transport: the device's channel and the media receiver's transport id.
    private var device: (channel: CastV2Connection, transportID: String)?
    private var waiting: [Int: CheckedContinuation<String, any Error>] = [:]
    private var subscribers: [Int: AsyncStream<Update>.Continuation] = [:]
    private var nextSubscriber = 0
    private var listeners: [ObjectIdentifier: any RemoteMediaClientListener] = [:]
    private var nextRequestId = 1
    /// Why the connection closed; nil while it is open.
    public private(set) var closedReason: String?

    private init() {}

    /// Connects to a receiver's sender socket (`ws://HOST:PORT/cast`) and asks for the status, as
    /// the SDKs do when a session starts: when this returns, the receiver counts this sender among
    /// those it tells of every change, and ``mediaStatus`` and ``mediaInformation`` hold what is
    /// loaded.
    public static func connect(to url: String) async throws -> RemoteMediaClient {
        let client = RemoteMediaClient()
        try await client.open(url)
        _ = try await client.requestStatus()
        return client
    }

    /// Connects to a Cast device over the Cast v2 protocol (TLS, port 8009 on real devices) and
    /// joins its Default Media Receiver, launching it first unless `launching` is false (then the
    /// receiver must be running: the session someone else started). The calls, the updates and the
    /// listeners are the same as over a CueKit receiver's WebSocket.
    public static func connect(
        toDevice host: String, port: Int = 8009, launching: Bool = true, configuration: CastV2Connection.Configuration = .init()
    ) async throws -> RemoteMediaClient {
        let client = RemoteMediaClient()
        try await client.open(device: host, port: port, launching: launching, configuration: configuration)
        _ = try await client.requestStatus()
        return client
    }

    private func open(device host: String, port: Int, launching: Bool, configuration: CastV2Connection.Configuration) async throws {
        let channel = try await CastV2Connection.connect(host: host, port: port, configuration: configuration)
        let receiver = "receiver-0"
        var status = try await channel.request(["type": "GET_STATUS"], namespace: CastV2Namespace.receiver, to: receiver)
        func mediaReceiver(_ status: CastJSONObject) -> String? {
            status["status"]?.objectValue?["applications"]?.arrayValue?.lazy.compactMap(\.objectValue)
                .first { $0["appId"]?.stringValue == CastV2Device.defaultMediaReceiverID }?["transportId"]?.stringValue
        }
        if mediaReceiver(status) == nil {
            guard launching else {
                await channel.close()
                throw ConnectionError(description: "\(host):\(port) is not running the Default Media Receiver: nothing is playing")
            }
            status = try await channel.request(["type": "LAUNCH", "appId": .string(CastV2Device.defaultMediaReceiverID)], namespace: CastV2Namespace.receiver, to: receiver)
        }
        guard let transportID = mediaReceiver(status) else {
            await channel.close()
            throw ConnectionError(description: "\(host):\(port) did not launch the Default Media Receiver: \(CastJSONValue.object(status).serialized(.compact))")
        }
        try await channel.connect(to: transportID)
        device = (channel, transportID)
        let messages = await channel.messages()
        connection = Task {
            for await message in messages where message.namespace == CastV2Namespace.media && message.sourceID == transportID {
                if let text = message.text { self.receive(text) }
            }
            self.closed(await channel.closeReason ?? "the device closed the connection")
        }
    }

    private func open(_ url: String) async throws {
        var logger = Logger(label: "cuekit.sender")
        logger.logLevel = .critical
        let opened = AsyncStream<Result<WebSocketOutboundWriter, any Error>>.makeStream()
        connection = Task {
            do {
                try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 20), logger: logger) { inbound, outbound, _ in
                    opened.continuation.yield(.success(outbound))
                    for try await message in inbound.messages(maxSize: 1 << 24) {
                        if case .text(let text) = message { await self.receive(text) }
                    }
                }
                self.closed("the receiver closed the connection")
            } catch {
                opened.continuation.yield(.failure(error))
                self.closed("the connection failed: \(error)")
            }
            opened.continuation.finish()
        }
        for await result in opened.stream {
            switch result {
            case .success(let writer):
                outbound = writer
                return
            case .failure(let error):
                throw ConnectionError(description: "cannot connect to \(url): \(error)")
            }
        }
        throw ConnectionError(description: "cannot connect to \(url)")
    }

    /// Closes the connection; pending requests fail.
    public func disconnect() async {
        try? await outbound?.close(.normalClosure, reason: nil)
        await device?.channel.close()
        connection?.cancel()
        closed("disconnected")
    }

    // MARK: Requests

    /// Loads media (`LOAD`), with its tracks, text track style and active tracks.
    @discardableResult
    public func load(_ request: CastLoadRequest) async throws -> CastMediaStatus {
        var request = request
        request.requestId = request.requestId ?? takeRequestId()
        return try await expectStatus(send(.load(request), id: request.requestId!))
    }

    /// Switches on exactly these tracks; an empty list switches every track off.
    @discardableResult
    public func setActiveTrackIDs(_ ids: [Int]) async throws -> CastMediaStatus {
        try await editTracksInfo(CastEditTracksInfoRequest(activeTrackIds: ids))
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
        request.requestId = request.requestId ?? takeRequestId()
        request.mediaSessionId = request.mediaSessionId ?? mediaStatus?.mediaSessionId
        return try await expectStatus(send(.editTracksInfo(request), id: request.requestId!))
    }

    /// Resumes playback.
    @discardableResult
    public func play() async throws -> CastMediaStatus {
        let id = takeRequestId()
        return try await expectStatus(send(.play(requestId: id, mediaSessionId: mediaStatus?.mediaSessionId), id: id))
    }

    /// Pauses playback.
    @discardableResult
    public func pause() async throws -> CastMediaStatus {
        let id = takeRequestId()
        return try await expectStatus(send(.pause(requestId: id, mediaSessionId: mediaStatus?.mediaSessionId), id: id))
    }

    /// Moves the playhead to `time` seconds.
    @discardableResult
    public func seek(to time: Double) async throws -> CastMediaStatus {
        let id = takeRequestId()
        return try await expectStatus(send(.seek(requestId: id, mediaSessionId: mediaStatus?.mediaSessionId, currentTime: time), id: id))
    }

    /// Asks for the status (`GET_STATUS`); nil when nothing is loaded.
    public func requestStatus() async throws -> CastMediaStatus? {
        let id = takeRequestId()
        return try await send(.getStatus(requestId: id), id: id)
    }

    /// Sends any message's JSON text and returns the receiver's answer to its `requestId` (which
    /// the text must carry) as JSON text: a `MEDIA_STATUS`, or an error such as `INVALID_REQUEST`.
    public func send(text: String, requestId: Int) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            guard outbound != nil || device != nil, closedReason == nil else {
                continuation.resume(throwing: ConnectionError(description: closedReason ?? "not connected"))
                return
            }
            waiting[requestId] = continuation
            let outbound = outbound
            let device = device
            Task {
                do {
                    if let device {
                        try await device.channel.send(text: text, namespace: CastV2Namespace.media, to: device.transportID)
                    } else {
                        try await outbound?.write(.text(text))
                    }
                } catch {
                    // A write that fails means the connection is gone, though its end may not have
                    // been seen yet: the request fails as every request on a closed connection does.
                    self.fail(requestId, with: error as? ConnectionError ?? ConnectionError(description: "the connection failed: \(error)"))
                }
            }
        }
    }

    private func send(_ request: CastMediaChannel.Request, id: Int) async throws -> CastMediaStatus? {
        let answer = try await send(text: request.json.serialized(.compact), requestId: id)
        switch CastMediaChannel.receiverMessage(from: Array(answer.utf8), currentMedia: mediaInformation) {
        case .mediaStatus(_, let status, _): return status
        case .error(let error): throw error
        case .other: throw ConnectionError(description: "the receiver answered with a message that is not a media status: \(answer)")
        }
    }

    /// The next request id this client would use.
    public func makeRequestId() -> Int { takeRequestId() }

    private func expectStatus(_ status: CastMediaStatus?) throws -> CastMediaStatus {
        guard let status else { throw ConnectionError(description: "the receiver answered with no media status") }
        return status
    }

    private func takeRequestId() -> Int {
        defer { nextRequestId += 1 }
        return nextRequestId
    }

    private func fail(_ requestId: Int, with error: any Error) {
        waiting.removeValue(forKey: requestId)?.resume(throwing: error)
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
        case .mediaStatus(let requestId, let status, let includesMedia):
            mediaStatus = status
            if includesMedia, let media = status?.media {
                mediaInformation = media
                deliver(.mediaMetadata(media))
            }
            if let status { deliver(.mediaStatus(status)) } else { mediaInformation = nil }
            if requestId != 0 { waiting.removeValue(forKey: requestId)?.resume(returning: text) }
        case .error(let error):
            waiting.removeValue(forKey: error.requestId)?.resume(returning: text)
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
        outbound = nil
        if let channel = device?.channel { Task { await channel.close() } }
        for (_, continuation) in waiting { continuation.resume(throwing: ConnectionError(description: reason)) }
        waiting = [:]
        for continuation in subscribers.values { continuation.finish() }
        subscribers = [:]
    }
}
