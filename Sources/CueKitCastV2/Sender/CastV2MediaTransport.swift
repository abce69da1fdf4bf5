import CueKitCast
import CueKitCastSender

extension RemoteMediaClient {
    /// Connects to a Cast device over the Cast v2 protocol (TLS, port 8009 on real devices) and
    /// joins its Default Media Receiver, launching it first unless `launching` is false (then the
    /// receiver must be running: the session someone else started). The calls, the updates and the
    /// listeners are the same as over a CueKit receiver's WebSocket.
    public static func connect(
        toDevice host: String, port: Int = 8009, launching: Bool = true, configuration: CastV2Connection.Configuration = .init()
    ) async throws -> RemoteMediaClient {
        let transport = try await CastV2MediaTransport.open(host: host, port: port, launching: launching, configuration: configuration)
        return try await connect(over: transport)
    }
}

/// A Cast device's Default Media Receiver as a ``RemoteMediaTransport``: the media namespace of the
/// device's Cast v2 channel, to and from the receiver's transport id.
actor CastV2MediaTransport: RemoteMediaTransport {
    private let channel: CastV2Connection
    private let transportID: String
    /// True once the channel's messages have ended.
    private var ended = false

    private init(channel: CastV2Connection, transportID: String) {
        self.channel = channel
        self.transportID = transportID
    }

    /// Connects, finds the Default Media Receiver (launching it when `launching` is true), and
    /// joins it.
    static func open(host: String, port: Int, launching: Bool, configuration: CastV2Connection.Configuration) async throws
        -> CastV2MediaTransport
    {
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
                throw RemoteMediaClient.ConnectionError(
                    description: "\(host):\(port) is not running the Default Media Receiver: nothing is playing")
            }
            status = try await channel.request(
                ["type": "LAUNCH", "appId": .string(CastV2Device.defaultMediaReceiverID)], namespace: CastV2Namespace.receiver, to: receiver
            )
        }
        guard let transportID = mediaReceiver(status) else {
            await channel.close()
            throw RemoteMediaClient.ConnectionError(
                description:
                    "\(host):\(port) did not launch the Default Media Receiver: \(CastJSONValue.object(status).serialized(.compact))")
        }
        try await channel.connect(to: transportID)
        return CastV2MediaTransport(channel: channel, transportID: transportID)
    }

    func messages() async -> AsyncStream<String> {
        let all = await channel.messages()
        let transportID = transportID
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let pump = Task {
            for await message in all where message.namespace == CastV2Namespace.media && message.sourceID == transportID {
                if let text = message.text { continuation.yield(text) }
            }
            ended = true
            continuation.finish()
        }
        continuation.onTermination = { _ in pump.cancel() }
        return stream
    }

    var closeReason: String? {
        get async {
            if let reason = await channel.closeReason { return reason }
            return ended ? "the device closed the connection" : nil
        }
    }

    func send(text: String) async throws {
        try await channel.send(text: text, namespace: CastV2Namespace.media, to: transportID)
    }

    func close() async {
        await channel.close()
    }
}

extension SessionManager {
    /// Connects to a Cast device over Cast v2, joins its Default Media Receiver (launching it
    /// unless it runs), and makes it the current session.
    @discardableResult
    public func connect(toDevice host: String, port: Int = 8009) async throws -> CastSession {
        try await start(with: RemoteMediaClient.connect(toDevice: host, port: port))
    }
}
